"""0/0 is not 0: a metric with nothing to score is *not applicable*, in every output.

Zeros and bridging (whose 0/0 no reference scorer's suite pins) report a recall with nothing
to find, a precision with nothing proposed, as ``NaN`` with a reason: ``null`` in JSON, ``n/a``
in text, Markdown and LaTeX, an empty cell with a note in CSV. The identity metrics keep the
reference scorers' 0 (the Perl suite asserts MUC 0/0 = 0 on a key of singletons).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import anascore
from anascore.cli.main import main
from anascore.config.options import Options
from anascore.metrics.scores import (
    BOTH_NOT_APPLICABLE,
    PRECISION_NOT_APPLICABLE,
    RECALL_NOT_APPLICABLE,
    Score,
    f1_scores,
    prf_arrays,
)
from anascore.report.systems import SystemsReport
from anascore.stats.bootstrap import confidence_intervals, resample_weights
from anascore.stats.metric_suite import MetricSuite
from anascore.stats.significance import approximate_randomization, holm, paired_bootstrap
from tests.support.paths import CORPORA, FIXTURES

FIXTURES = FIXTURES / "corefud"
TWO_DOCUMENTS = FIXTURES / "two_documents.conllu"  # d1: a zero, a Bridge to an entity; d2: none
ZERO_KEY = FIXTURES / "zero_key.conllu"
GUM = CORPORA / "gum" / "dep"


def without_empty_nodes(path: Path, target: Path) -> Path:
    """``path`` with its empty nodes (zeros) left out."""
    lines = path.read_text(encoding="utf-8").splitlines()
    target.write_text("\n".join(line for line in lines
                                if not line.split("\t", 1)[0].replace(".", "", 1).isdigit()
                                or "." not in line.split("\t", 1)[0]) + "\n",
                      encoding="utf-8")
    return target


# The convention ------------------------------------------------------------------------------

def test_zero_over_zero_is_not_applicable_on_either_side() -> None:
    both = Score.from_counts(0, 0, 0, 0, empty="n/a")
    assert math.isnan(both.recall) and math.isnan(both.precision) and math.isnan(both.f1)
    assert not both.applicable and both.reason == BOTH_NOT_APPLICABLE
    # the key has nothing to find; the response proposes 3, all wrong: P = 0/3, F1 = 0
    nothing_to_find = Score.from_counts(0, 0, 0, 3, empty="n/a")
    assert math.isnan(nothing_to_find.recall) and nothing_to_find.precision == 0.0
    assert nothing_to_find.f1 == 0.0 and nothing_to_find.applicable
    assert nothing_to_find.reason == RECALL_NOT_APPLICABLE
    # the response proposes nothing; the key has 4: R = 0/4, F1 = 0
    nothing_proposed = Score.from_counts(0, 4, 0, 0, empty="n/a")
    assert nothing_proposed.recall == 0.0 and math.isnan(nothing_proposed.precision)
    assert nothing_proposed.f1 == 0.0 and nothing_proposed.reason == PRECISION_NOT_APPLICABLE
    # defined on both sides: as ever
    normal = Score.from_counts(2, 4, 2, 3, empty="n/a")
    assert (normal.recall, normal.precision, normal.f1) == (
        2 / 4, 2 / 3, 2 * (2 / 4) * (2 / 3) / (2 / 4 + 2 / 3))
    assert normal.reason is None
    # the reference convention is unchanged
    assert Score.from_counts(0, 0, 0, 0) == Score(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)


def test_not_applicable_is_null_in_json_with_the_reason() -> None:
    data = Score.from_counts(0, 0, 0, 0, empty="n/a").to_dict()
    assert data["recall"] is None and data["precision"] is None and data["f1"] is None
    assert data["not_applicable"] == BOTH_NOT_APPLICABLE
    assert "not_applicable" not in Score.from_counts(1, 2, 1, 2).to_dict()


def test_batch_scores_give_nan_where_score_does() -> None:
    counts = np.array([[0.0, 0, 0, 0], [0, 0, 0, 3], [0, 4, 0, 0], [2, 4, 2, 3]])
    arrays = prf_arrays(counts, empty="n/a")
    for row, values in enumerate(counts):
        score = Score.from_counts(*values, empty="n/a")
        for name in ("recall", "precision", "f1"):
            batch, one = getattr(arrays, name)[row], getattr(score, name)
            assert batch == one or (math.isnan(batch) and math.isnan(one))
    assert f1_scores(np.array([0.5]), np.array([1.0]))[0] == 2 * 0.5 / 1.5


# Zeros and bridging on real files ------------------------------------------------------------

def test_a_corpus_without_zeros_has_no_zero_score() -> None:
    report = anascore.score(TWO_DOCUMENTS, TWO_DOCUMENTS, metrics="zero")
    # d1 has a zero anaphor: the corpus score is d1's, 1/1
    assert report.metrics["zero"].f1 == 1.0
    per_document = report.per_document()
    assert per_document["d1"]["zero"].f1 == 1.0
    assert not per_document["d2"]["zero"].applicable  # d2: no empty node at all
    assert per_document["d2"]["zero"].reason == BOTH_NOT_APPLICABLE


def test_a_response_without_zeros_has_no_zero_precision(tmp_path: Path) -> None:
    response = without_empty_nodes(ZERO_KEY, tmp_path / "response.conllu")
    score = anascore.score(ZERO_KEY, response, metrics="zero").metrics["zero"]
    assert score.recall == 0.0 and math.isnan(score.precision) and score.f1 == 0.0
    assert score.reason == PRECISION_NOT_APPLICABLE
    nothing_to_find = anascore.score(response, ZERO_KEY, metrics="zero").metrics["zero"]
    assert math.isnan(nothing_to_find.recall) and nothing_to_find.f1 == 0.0


def test_bridging_to_entities_only_has_no_mention_score() -> None:
    """CorefUD's ``Bridge`` names an anchor entity, never an anchor mention."""
    score = anascore.score(TWO_DOCUMENTS, TWO_DOCUMENTS, keep_bridging=True).metrics["bridging"]
    assert not score.mention.applicable and score.mention.reason == BOTH_NOT_APPLICABLE
    assert score.entity.f1 == 1.0 and score.anaphor_recognition.f1 == 1.0


def test_identity_metrics_keep_the_reference_zero() -> None:
    """MUC on a key of singletons only is 0/0; the Perl suite (case N1) asserts 0."""
    report = anascore.score(TWO_DOCUMENTS, TWO_DOCUMENTS, metrics="muc")
    muc = report.document("d2")["muc"]
    assert (muc.recall_den, muc.precision_den) == (0.0, 0.0)
    assert (muc.recall, muc.precision, muc.f1) == (0.0, 0.0, 0.0)


# Every output ---------------------------------------------------------------------------------

def run(capsys, *arguments: str) -> tuple[str, str]:
    assert main(["score", *arguments, "--no-progress"]) == 0
    captured = capsys.readouterr()
    return captured.out, captured.err


def test_text_shows_n_a_and_why(capsys) -> None:
    out, _ = run(capsys, str(TWO_DOCUMENTS), str(TWO_DOCUMENTS), "--metrics", "muc,zero",
                 "--keep-bridging")
    lines = out.splitlines()
    assert [line.split() for line in lines if line.startswith("Bridging mention ")] == [
        ["Bridging", "mention", "n/a", "n/a", "n/a"]]
    assert f"Bridging mention: n/a — {BOTH_NOT_APPLICABLE}" in lines
    per_document, _ = run(capsys, str(TWO_DOCUMENTS), str(TWO_DOCUMENTS), "--metrics", "zero",
                          "--per-document")
    assert "Zeros            n/a        n/a      n/a" in per_document


def test_json_csv_markdown_latex_render_n_a(capsys) -> None:
    common = [str(TWO_DOCUMENTS), str(TWO_DOCUMENTS), "--keep-bridging", "--metrics",
              "muc,zero", "--per-document"]
    out, _ = run(capsys, *common, "--output", "json")
    data = json.loads(out)
    mention = data["metrics"]["bridging"]["mention"]
    assert mention["f1"] is None and mention["not_applicable"] == BOTH_NOT_APPLICABLE
    assert data["per_document"]["d2"]["metrics"]["zero"]["f1"] is None
    assert data["metrics"]["zero"]["f1"] == 1.0
    out, _ = run(capsys, *common, "--output", "csv")
    header, *rows = [line.split(",") for line in out.splitlines()]
    by_key = {(row[0], row[2], row[3]): dict(zip(header, row, strict=True)) for row in rows}
    row = by_key["corpus", "", "bridging:mention"]
    assert (row["recall"], row["precision"], row["f1"]) == ("", "", "")
    assert row["note"] == f"n/a: {BOTH_NOT_APPLICABLE}"
    assert by_key["document", "d2", "zero"]["f1"] == ""
    assert by_key["document", "d1", "zero"]["f1"] == "1.0"
    out, _ = run(capsys, *common, "--output", "markdown")
    assert "| Bridging mention | n/a | n/a | n/a |" in out
    assert f"n/a (Bridging mention): {BOTH_NOT_APPLICABLE}." in out
    assert "| d2 | 0.00 | n/a | n/a |" in out  # MUC 0 (the reference's), zeros, bridging n/a
    assert "n/a: not applicable in that document (0/0" in out
    out, _ = run(capsys, *common, "--output", "latex")
    assert r"Bridging mention & n/a & n/a & n/a \\" in out
    assert "nan" not in out


def test_several_systems_render_n_a(capsys) -> None:
    out, _ = run(capsys, str(TWO_DOCUMENTS), str(TWO_DOCUMENTS), str(TWO_DOCUMENTS),
                 "--metrics", "zero", "--keep-bridging", "--full")
    assert "nan" not in out
    row = next(line for line in out.splitlines() if line.endswith("100.00")
               and "(2)" not in line)
    assert row.split()[1:] == ["100.00"] * 6  # zeros and bridging entity: both applicable
    assert f"(Bridging mention of {TWO_DOCUMENTS}, " in out


# Resampling with n/a -------------------------------------------------------------------------

def zero_counts() -> dict[str, np.ndarray]:
    """Three documents: two with zero anaphors, one without (0/0)."""
    return {"zero": np.array([[1.0, 2, 1, 1], [2, 2, 2, 2], [0, 0, 0, 0]])}


def test_intervals_are_taken_over_the_resamples_where_the_score_exists() -> None:
    options = Options(metrics=("zero",))
    [interval] = confidence_intervals([zero_counts()], ["zero"], resamples=2000, seed=7,
                                      suite=MetricSuite.of(options))
    weights = resample_weights(3, 2000, np.random.default_rng(7))
    # resamples of the third document only have no zeros (probability 1/27)
    expected = int(np.count_nonzero(weights[:, 0] + weights[:, 1] > 0))
    assert expected < 2000
    assert interval["zero"].applicable_resamples == expected
    assert 0 < interval["zero"].f1.low <= interval["zero"].f1.high <= 1
    assert interval["zero"].to_dict()["applicable_resamples"] == expected


def test_no_interval_when_no_document_has_anything() -> None:
    counts = {"zero": np.zeros((4, 4))}
    [interval] = confidence_intervals([counts], ["zero"], resamples=1000,
                                      suite=MetricSuite.of(Options(metrics=("zero",))))
    assert not interval["zero"].applicable
    assert interval["zero"].reason == "no document has anything for this metric"
    assert interval["zero"].to_dict()["f1"] == {"low": None, "high": None}


def test_paired_tests_of_a_metric_that_is_not_applicable() -> None:
    counts = {"zero": np.zeros((6, 4))}
    suite = MetricSuite.of(Options(metrics=("zero",)))
    for results in (paired_bootstrap([counts, counts], ["zero"], ["a", "b"], resamples=200,
                                     suite=suite),
                    approximate_randomization([counts, counts], ["zero"], ["a", "b"],
                                              trials=200, suite=suite)):
        [result] = results[0].values()
        assert math.isnan(result.p_value) and math.isnan(result.p_adjusted)
        assert not result.applicable and "0/0" in (result.note or "")
        assert result.to_dict()["p_value"] is None


def test_holm_leaves_not_applicable_p_values_out_of_the_family() -> None:
    adjusted = holm([0.01, math.nan, 0.04])
    assert adjusted[0] == 2 * 0.01 and math.isnan(adjusted[1]) and adjusted[2] == 0.04


@pytest.mark.skipif(not GUM.is_dir(), reason="the GUM corpus is not in ../shared")
def test_gum_scored_against_itself(tmp_path: Path) -> None:
    """A real CorefUD corpus (GUM has bridging to entities and no empty nodes): zeros and
    bridging mention are n/a, never 0.00."""
    files = sorted(GUM.glob("*.conllu"))[:3]
    corpus = tmp_path / "gum.conllu"
    corpus.write_text("".join(path.read_text(encoding="utf-8") for path in files),
                      encoding="utf-8")
    report = anascore.score(corpus, corpus, metrics="all", keep_bridging=True)
    assert not report.metrics["zero"].applicable
    bridging = report.metrics["bridging"]
    assert not bridging.mention.applicable and bridging.entity.f1 == 1.0
    systems = SystemsReport(("a",), (report,))
    assert systems.reports[0].metrics["muc"].f1 == 1.0


@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5), st.integers(0, 5),
                          st.integers(0, 5)), min_size=1, max_size=8))
def test_n_a_exactly_where_a_denominator_is_zero(rows) -> None:
    """Counts whose numerators are matches (at most their denominators, and both 0 when
    either denominator is 0): recall is n/a iff its denominator is 0, precision likewise, F1
    iff both are; else F1 is the harmonic mean (0 when one side is n/a); the batch gives the
    same digits."""
    counts = []
    for found, key, proposed, extra in rows:
        key_total, response_total = key, proposed
        matched = 0 if not key_total or not response_total else min(found, key_total,
                                                                      response_total)
        counts.append([matched, key_total, matched, response_total + extra * bool(matched)])
    matrix = np.array(counts, dtype=np.float64)
    arrays = prf_arrays(matrix, empty="n/a")
    for row, (recall_num, recall_den, precision_num, precision_den) in enumerate(counts):
        score = Score.from_counts(recall_num, recall_den, precision_num, precision_den,
                                  empty="n/a")
        assert math.isnan(score.recall) == (recall_den == 0)
        assert math.isnan(score.precision) == (precision_den == 0)
        assert (not score.applicable) == (recall_den == 0 and precision_den == 0)
        if score.applicable and (recall_den == 0 or precision_den == 0):
            assert score.f1 == 0.0
        for name in ("recall", "precision", "f1"):
            batch, one = getattr(arrays, name)[row], getattr(score, name)
            assert batch == one or (math.isnan(batch) and math.isnan(one))
