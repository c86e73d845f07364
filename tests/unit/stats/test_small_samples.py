"""Statistics on too little data: not applicable, or said plainly.

One document leaves nothing to resample; five documents leave approximate randomization unable
to go below p = 2/2⁵; five resamples leave a 95% interval without ends; 10⁸ resamples would
need gigabytes. Each case is either refused, reported as not applicable, or carries a note
and a warning (the report object, JSON, and stderr), with the smallest attainable p.
"""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys

import numpy as np
import pytest

from anascore.cli.main import main
from anascore.config.options import DEFAULT_METRICS, Options
from anascore.core.errors import OptionsError
from anascore.core.model import Document
from anascore.report import Report
from anascore.report.systems import SystemsReport
from anascore.scoring.document import count_document
from anascore.stats.adequacy import (
    KEPT_BYTES,
    fewest_documents,
    ideal_coverage,
    smallest_bootstrap_p,
    smallest_randomization_p,
    too_few_documents,
)
from anascore.stats.bootstrap import CHUNK_ELEMENTS, chunk_sizes, confidence_intervals
from anascore.stats.significance import approximate_randomization, paired_bootstrap
from tests.support.stats_fixtures import corpus, with_errors

OPTIONS = Options(confidence_level=0.95)
METRICS = DEFAULT_METRICS


def report_of(keys: list[Document], responses: list[Document], options: Options = OPTIONS
              ) -> Report:
    records = [count_document(key, response, options, [])
               for key, response in zip(keys, responses, strict=True)]
    return Report.from_records(options, [key.name for key in keys], records)


def worse(keys: list[Document], seed: int = 0) -> list[Document]:
    """Every document with two errors (so the system is worse on every document)."""
    return [with_errors(key, random.Random(seed + index), 2) for index, key in enumerate(keys)]


# The smallest attainable p ------------------------------------------------------------------

def test_smallest_attainable_p_of_each_test() -> None:
    assert smallest_bootstrap_p(1000) == 1 / 1001
    # randomization on k differing documents: 2 / 2^k for the exact test (no swap and the swap
    # of all), which (1 + #extreme) / (1 + R) estimates as (1 + R · 2^(1−k)) / (1 + R)
    assert smallest_randomization_p(5, 10_000) == (1 + 10_000 / 16) / 10_001
    assert abs(smallest_randomization_p(5, 10**7) - 2 / 2**5) < 1e-6
    assert smallest_randomization_p(1, 10_000) == 1.0
    assert smallest_randomization_p(0, 10_000) == 1.0
    assert smallest_randomization_p(40, 999) == pytest.approx(1 / 1000)


def test_randomization_on_five_documents_cannot_reject_and_says_so() -> None:
    keys = corpus(5, seed=11)
    systems = SystemsReport(("key", "worse"),
                            (report_of(keys, keys), report_of(keys, worse(keys))))
    [results] = approximate_randomization([report.counts for report in systems.reports],
                                          METRICS, systems.names, trials=10_000)
    floor = (1 + 10_000 / 16) / 10_001
    for result in results.values():
        assert result.documents == 5 and result.smallest_p == floor
        # the observed split is the most extreme there is: p is the floor, within 4 standard
        # errors of the Monte-Carlo estimate
        assert abs(result.p_value - floor) < 4 * math.sqrt(floor * (1 - floor) / 10_000)
        assert result.p_value >= 0.05
        assert result.note is not None and result.note.startswith("cannot reject at 0.05")
        assert "smallest attainable p is 0.0626" in result.note
        assert result.to_dict()["smallest_p"] == floor


def test_randomization_counts_only_the_documents_where_the_systems_differ() -> None:
    keys = corpus(20, seed=12)
    responses = list(keys)
    responses[:3] = worse(keys[:3])  # the systems differ on 3 documents of 20
    counts = [report_of(keys, keys).counts, report_of(keys, responses).counts]
    [results] = approximate_randomization(counts, ["muc"], ["a", "b"], trials=2000)
    assert results["muc"].documents == 3
    assert results["muc"].smallest_p == (1 + 2000 / 4) / 2001
    assert results["muc"].p_value >= 0.2
    assert "the systems differ on 3 documents" in (results["muc"].note or "")


def test_holm_can_make_rejection_impossible() -> None:
    """6 documents: 2/2^6 = 0.031 < 0.05 alone, but Holm over 2 systems doubles it."""
    keys = corpus(6, seed=13)
    counts = [report_of(keys, keys).counts, report_of(keys, worse(keys, 1)).counts,
              report_of(keys, worse(keys, 2)).counts]
    results = approximate_randomization(counts, ["bcub"], ["a", "b", "c"], trials=5000)
    for system in results:
        note = system["bcub"].note or ""
        assert "after Holm's correction over 2 systems" in note
        assert system["bcub"].p_adjusted >= 0.05


# One document -------------------------------------------------------------------------------

def test_one_document_makes_every_test_and_interval_not_applicable() -> None:
    keys = corpus(1, seed=14)
    counts = [report_of(keys, keys).counts, report_of(keys, worse(keys)).counts]
    for results in (paired_bootstrap(counts, METRICS, ["a", "b"], resamples=1000),
                    approximate_randomization(counts, METRICS, ["a", "b"], trials=1000)):
        for result in results[0].values():
            # not p = 1/1001: nothing varies between resamples of one document
            assert math.isnan(result.p_value) and not result.applicable
            assert result.note is not None and result.note.startswith("one document")
            assert result.to_dict()["p_value"] is None
    [intervals] = confidence_intervals(counts[1:], METRICS, resamples=1000)
    for interval in intervals.values():
        assert not interval.applicable and math.isnan(interval.f1.high)
        assert (interval.reason or "").startswith("one document")


def test_one_document_on_the_command_line(tmp_path, capsys) -> None:
    keys = corpus(1, seed=15)
    key, response, other = (tmp_path / name for name in ("key.conll", "a.conll", "b.conll"))
    write_conll(key, keys)
    write_conll(response, keys)
    write_conll(other, worse(keys))
    assert main(["score", str(key), str(response), str(other), "--paired-bs", "--paired-ar",
                 "--confidence", "--output", "json", "--no-progress"]) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    muc = data["significance"]["paired-bs"]["b.conll"]["muc"]
    assert muc["p_value"] is None and muc["note"].startswith("one document")
    assert data["significance"]["paired-ar"]["b.conll"]["muc"]["p_value"] is None
    assert data["systems"]["a.conll"]["intervals"]["muc"]["f1"] == {"low": None, "high": None}
    assert any(warning.startswith("paired-bs of b.conll against the baseline")
               and "not applicable: one document" in warning
               for warning in data["test_warnings"])
    assert "anascore: warning: paired-bs of b.conll against the baseline" in captured.err
    assert "anascore: warning: confidence intervals not applicable" in captured.err
    assert main(["score", str(key), str(response), str(other), "--paired-bs",
                 "--no-progress"]) == 0
    text = capsys.readouterr().out
    row = next(line for line in text.splitlines() if line.startswith("b.conll  MUC"))
    assert row.split()[-3:] == ["n/a", "n/a", "n/a"]  # p, p (Holm), min p
    assert "0.0010" not in text


def write_conll(path, documents: list[Document]) -> None:
    """Documents of one-token mentions as CoNLL-2012."""
    lines = []
    for document in documents:
        brackets: dict[int, list[str]] = {}
        for entity in document.entities:
            for mention in entity.mentions:
                brackets.setdefault(mention.tokens[0], []).append(f"({entity.id})")
        lines.append(f"#begin document ({document.name}); part 000")
        for index, token in enumerate(document.tokens):
            lines.append(f"{document.name}\t0\t{index}\t{token}\t"
                         f"{'|'.join(brackets.get(index, [])) or '-'}")
        lines += ["", "#end document"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


# Few documents, few resamples ----------------------------------------------------------------

def test_ideal_coverage_is_the_t_probability_of_the_narrowed_interval() -> None:
    """n = 3: P(|T₂| < b) = b / sqrt(2 + b²) in closed form, b = z · sqrt(2/3)."""
    z = 1.959963984540054
    b = z * math.sqrt(2 / 3)
    assert ideal_coverage(3, 0.95) == pytest.approx(b / math.sqrt(2 + b * b), abs=1e-9)
    assert ideal_coverage(1, 0.95) == 0.0


def test_too_few_documents_threshold() -> None:
    """Warn when even the ideal case misses more than 1.5 × (1 − level)."""
    assert fewest_documents(0.95) == 18
    assert too_few_documents(17, 0.95) and not too_few_documents(18, 0.95)
    assert 1 - ideal_coverage(17, 0.95) > 1.5 * 0.05 >= 1 - ideal_coverage(18, 0.95)
    assert fewest_documents(0.90) == 11 and fewest_documents(0.99) == 41


def test_few_documents_and_resamples_warn_on_the_report() -> None:
    keys = corpus(5, seed=16)
    options = Options(confidence=200)
    report = report_of(keys, worse(keys), options).with_intervals()
    assert report.intervals is not None and report.intervals["muc"].applicable
    assert any(warning.startswith("confidence intervals rest on 5 documents")
               and "covers about 85% with 5" in warning for warning in report.warnings)
    assert any(warning.startswith("confidence intervals from 200 resamples")
               for warning in report.warnings)
    assert report.to_dict()["warnings"] == list(report.warnings)
    enough = report_of(corpus(30, seed=16), corpus(30, seed=16),
                       Options(confidence=1000)).with_intervals()
    assert not any("confidence intervals" in warning for warning in enough.warnings)


def test_five_resamples_give_no_interval(capsys, tmp_path) -> None:
    keys = corpus(30, seed=17)
    key, response = tmp_path / "key.conll", tmp_path / "response.conll"
    write_conll(key, keys)
    write_conll(response, worse(keys))
    assert main(["score", str(key), str(response), "--confidence", "5", "--output", "json",
                 "--no-progress"]) == 0
    captured = capsys.readouterr()
    interval = json.loads(captured.out)["intervals"]["muc"]
    assert interval["f1"] == {"low": None, "high": None}
    assert interval["not_applicable"] == ("5 resamples: a 95% percentile interval needs at "
                                          "least 40 for one resample to lie beyond each end")
    assert "anascore: warning: confidence intervals not applicable" in captured.err


def test_paired_bootstrap_on_few_documents_warns_that_its_p_is_too_small() -> None:
    keys = corpus(5, seed=18)
    counts = [report_of(keys, keys).counts, report_of(keys, worse(keys)).counts]
    [results] = paired_bootstrap(counts, ["muc"], ["a", "b"], resamples=1000)
    note = results["muc"].note or ""
    assert "5 documents: the bootstrap underestimates the variation" in note
    assert results["muc"].smallest_p == 1 / 1001
    [results] = paired_bootstrap(counts, ["muc"], ["a", "b"], resamples=10)
    assert (results["muc"].note or "").startswith(
        "cannot reject at 0.05: with 10 resamples the smallest attainable p is 0.0909")


# Memory ---------------------------------------------------------------------------------------

def test_absurd_counts_are_refused_before_anything_is_drawn() -> None:
    counts = [{"muc": np.ones((2, 4))}]
    with pytest.raises(OptionsError, match=r"--confidence \(confidence=\) 100000000: too many "
                                           r"resamples .* at most \d+ here"):
        confidence_intervals(counts, ["muc"], resamples=10**8)
    with pytest.raises(OptionsError, match=r"--paired-bs \(paired_bs=\) 100000000"):
        paired_bootstrap(counts * 2, ["muc"], ["a", "b"], resamples=10**8)
    with pytest.raises(OptionsError, match=r"--paired-ar \(paired_ar=\) 100000000: too many "
                                           "resamples .more change no printed digit"):
        approximate_randomization(counts * 2, ["muc"], ["a", "b"], trials=10**8)


def test_the_command_line_refuses_absurd_counts_in_one_line(tmp_path, capsys) -> None:
    keys = corpus(2, seed=19)
    key = tmp_path / "key.conll"
    write_conll(key, keys)
    assert main(["score", str(key), str(key), "--confidence", "100000000",
                 "--no-progress"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "too many resamples" in err


def test_chunks_bound_the_matrices_of_a_chunk() -> None:
    sizes = list(chunk_sizes(10**6, 2))
    assert sum(sizes) == 10**6 and max(sizes) * 2 <= CHUNK_ELEMENTS
    assert max(chunk_sizes(10**6, 400)) * 400 <= CHUNK_ELEMENTS


def test_peak_memory_stays_bounded_at_the_largest_count_allowed(tmp_path) -> None:
    """The most resamples a run allows, on two documents: the kept scores fit in
    KEPT_BYTES, and the process's peak stays under 200 MB more than scoring alone."""
    keys = corpus(2, seed=20)
    key = tmp_path / "key.conll"
    write_conll(key, keys)
    kept = 3 * len(DEFAULT_METRICS)
    most = KEPT_BYTES // (8 * kept)
    script = ("import resource, sys; from anascore.cli.main import main; "
              "code = main(sys.argv[1:]); "
              "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss); sys.exit(code)")

    def peak(*arguments: str) -> int:
        run = subprocess.run([sys.executable, "-c", script, "score", str(key), str(key),
                              "--no-progress", "--output", "json", *arguments],
                             capture_output=True, text=True, check=True)
        return int(run.stdout.strip().splitlines()[-1])  # kilobytes

    baseline = peak()
    largest = peak("--confidence", str(most))
    assert (largest - baseline) * 1024 < 200 * 2**20


def test_a_metric_only_a_few_documents_have_warns_on_its_own() -> None:
    """30 documents, zero anaphors in 3 of them: the zero interval rests on 3."""
    counts = np.zeros((30, 4))
    counts[:3] = [[1, 2, 1, 1], [2, 2, 2, 3], [0, 1, 0, 0]]
    options = Options(metrics=("zero",), confidence=1000)
    report = Report(options, tuple(f"d{index}" for index in range(30)),
                    {"zero": counts}).with_intervals()
    assert report.intervals is not None and report.intervals["zero"].applicable
    assert ("the confidence interval of zero rests on the 3 of 30 documents that have "
            "anything for it, too few for a percentile bootstrap interval to cover what it "
            "says") in report.warnings


def test_tables_carry_the_caution_about_few_documents(tmp_path, capsys) -> None:
    keys = corpus(5, seed=21)
    key, response = tmp_path / "key.conll", tmp_path / "response.conll"
    write_conll(key, keys)
    write_conll(response, worse(keys))
    for output in ("markdown", "latex", "text"):
        assert main(["score", str(key), str(response), str(key), "--confidence",
                     "--output", output, "--no-progress"]) == 0
        out = capsys.readouterr().out.replace("\\%", "%")
        assert "Caution: confidence intervals rest on 5 documents" in out, output
