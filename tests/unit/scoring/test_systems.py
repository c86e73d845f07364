"""Several responses against one key: pairing (the key read once), the API, and every output
format of ``anascore score KEY RESPONSE…``."""

from __future__ import annotations

import csv
import io
import json
import shutil
import subprocess
from pathlib import Path

import pytest

import anascore
from anascore import formats
from anascore.cli.main import main
from anascore.core.progress import Progress
from anascore.formats.conll2012 import write_conll2012
from anascore.report.latex import escape
from anascore.scoring import pipeline as scoring
from tests.support.paths import FIXTURES
from tests.support.stats_fixtures import corpus, system

KEYS = corpus(6, seed=21)
RESPONSES = {"a": system(KEYS, 22, (1, 3)), "b": system(KEYS, 23, (0, 2)),
             "c": system(KEYS, 24, (2, 4))}


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    paths = {"key": tmp_path / "key.conll"}
    write_conll2012(KEYS, paths["key"])
    for name, documents in RESPONSES.items():
        paths[name] = tmp_path / f"{name}.conll"
        write_conll2012(documents, paths[name])
    return {name: str(path) for name, path in paths.items()}


def test_several_responses_score_as_each_alone_and_read_the_key_once(files, monkeypatch) -> None:
    opened: list[str] = []
    real = formats.read_documents

    def counting(path, format="auto", **settings):
        opened.append(str(path))
        return real(path, format, **settings)

    monkeypatch.setattr(scoring, "read_documents", counting)
    systems = anascore.compare(files["key"], [files["a"], files["b"], files["c"]])
    assert opened.count(files["key"]) == 1
    assert systems.names == ("a.conll", "b.conll", "c.conll")
    for name, report in zip("abc", systems.reports, strict=True):
        alone = anascore.score(files["key"], files[name])
        assert {m: s.f1 for m, s in report.metrics.items()} == \
            {m: s.f1 for m, s in alone.metrics.items()}


def test_responses_listing_documents_in_another_order_or_missing_one(files, tmp_path) -> None:
    shuffled = tmp_path / "shuffled.conll"
    write_conll2012(list(reversed(RESPONSES["a"])), shuffled)
    partial = tmp_path / "partial.conll"
    write_conll2012(RESPONSES["b"][1:], partial)
    systems = anascore.compare(files["key"], [str(shuffled), str(partial)])
    alone = anascore.score(files["key"], files["a"])
    assert systems.reports[0].metrics["lea"].f1 == alone.metrics["lea"].f1
    assert systems.reports[0].warnings == ()
    [warning] = systems.reports[1].warnings
    assert f"document {KEYS[0].name!r} of the key is missing" in warning


def test_the_api_computes_what_the_options_ask(files) -> None:
    systems = anascore.compare(files["key"], [files["a"], files["b"], files["c"]],
                               names=["base", "new", "other"], confidence=200,
                               paired_bs=200, paired_ar=200, seed=3)
    assert systems.baseline == "base"
    assert all(report.intervals is not None for report in systems.reports)
    assert {result.test for result in systems.tests} == {"paired-bs", "paired-ar"}
    assert {result.system for result in systems.tests} == {"new", "other"}
    assert len(systems.tests) == 2 * 2 * len(anascore.Options().metrics)
    assert "bootstrap:200@0.95|paired-bs:200|paired-ar:200|seed:3" in systems.signature
    report = anascore.score(files["key"], files["a"], confidence=200, seed=3)
    assert report.intervals == systems.reports[0].intervals
    with pytest.raises(anascore.OptionsError, match="at least two responses"):
        anascore.compare(files["key"], [files["a"]], paired_bs=100)
    with pytest.raises(anascore.OptionsError, match="confidence"):
        anascore.Options(confidence=-1)
    with pytest.raises(anascore.OptionsError, match="confidence_level"):
        anascore.Options(confidence_level=1.5)


# The command line ---------------------------------------------------------------------------

def run(capsys, *arguments: str) -> str:
    assert main(["score", *arguments]) == 0
    return capsys.readouterr().out


def test_text_table_of_several_systems(files, capsys) -> None:
    out = run(capsys, files["key"], files["a"], files["b"], "--metrics", "muc,lea")
    lines = out.splitlines()
    assert lines[1].split() == ["System", "MUC", "LEA"]
    report = anascore.score(files["key"], files["b"])
    assert lines[3].split() == ["b.conll", f"{report.metrics['muc'].f1 * 100:.2f}",
                                f"{report.metrics['lea'].f1 * 100:.2f}"]
    assert lines[-1].startswith("signature: match:exact|singletons:keep|version:")


def test_full_gives_recall_precision_and_f1_per_metric(files, capsys) -> None:
    out = run(capsys, files["key"], files["a"], files["b"], "--metrics", "muc", "--full")
    assert out.splitlines()[1].split() == ["System", "MUC", "R", "MUC", "P", "MUC", "F1"]


def test_json_of_several_systems_with_tests(files, capsys) -> None:
    out = run(capsys, files["key"], files["a"], files["b"], "--output", "json",
              "--paired-bs", "300", "--paired-ar", "300", "--confidence", "300")
    result = json.loads(out)
    assert result["baseline"] == "a.conll"
    assert list(result["systems"]) == ["a.conll", "b.conll"]
    assert set(result["systems"]["b.conll"]["intervals"]["lea"]) >= {"recall", "precision",
                                                                     "f1"}
    test = result["significance"]["paired-bs"]["b.conll"]["lea"]
    report_a = anascore.score(files["key"], files["a"])
    report_b = anascore.score(files["key"], files["b"])
    assert test["delta"] == report_b.metrics["lea"].f1 - report_a.metrics["lea"].f1
    assert 0 < test["p_value"] <= 1
    assert "paired-ar" in result["significance"]


def test_per_document_rows_sorted_worst_first(files, capsys) -> None:
    out = run(capsys, files["key"], files["a"], "--sort-by", "lea", "--output", "json")
    result = json.loads(out)
    values = [document["metrics"]["lea"]["f1"] for document in
              result["per_document"].values()]
    assert values == sorted(values) and len(values) == len(KEYS)
    assert result["per_document_sorted_by"] == "lea"
    text = run(capsys, files["key"], files["a"], "--sort-by", "lea", "--metrics", "lea")
    rows = text.split("Documents of a.conll")[1].splitlines()[2:2 + len(KEYS)]
    assert [float(row.split()[-1]) for row in rows] == \
        [round(value * 100, 2) for value in values]


def test_csv_holds_every_number(files, capsys) -> None:
    out = run(capsys, files["key"], files["a"], files["b"], "--output", "csv",
              "--per-document", "--paired-bs", "200", "--confidence", "200")
    rows = list(csv.DictReader(io.StringIO(out)))
    sections = {row["section"] for row in rows}
    assert sections == {"corpus", "document", "paired-bs"}
    report = anascore.score(files["key"], files["b"])
    [muc] = [row for row in rows if row["section"] == "corpus" and row["system"] == "b.conll"
             and row["metric"] == "muc"]
    assert float(muc["f1"]) == report.metrics["muc"].f1
    assert float(muc["f1_low"]) <= float(muc["f1"]) <= float(muc["f1_high"])
    documents = [row for row in rows if row["section"] == "document"]
    assert len(documents) == 2 * len(KEYS) * len(anascore.Options().metrics)
    assert all(row["signature"] == rows[0]["signature"] for row in rows)


def test_csv_gives_each_level_of_bridging(tmp_path, capsys) -> None:
    """The key's bridging anaphors: m8 (anchor mention m7 of entity 5) and m14 (anchors in
    entities 6 and 11, mention m13). The response anchors m8 on m4, another mention of entity
    5, and drops m14's bridging."""
    key = FIXTURES / "ua" / "features.conllua"
    lines = key.read_text(encoding="utf-8").split("\n")
    for number, line in enumerate(lines):
        columns = line.split("\t")
        if len(columns) > 11 and "MarkableID=m8|" in columns[11]:
            columns[11] = columns[11].replace("MentionAnchor=m7", "MentionAnchor=m4")
        elif len(columns) > 11 and columns[11] != "_" and number in (51, 52):
            columns[11] = "_"
        lines[number] = "\t".join(columns)
    response = tmp_path / "response.conllua"
    response.write_text("\n".join(lines), encoding="utf-8")
    out = run(capsys, str(key), str(response), "--keep-bridging", "--metrics", "muc",
              "--output", "csv", "--per-document")
    table = list(csv.DictReader(io.StringIO(out)))
    rows = {row["metric"]: row for row in table if row["section"] == "corpus"}
    expected = {
        "bridging:anaphor_recognition": (1 / 2, 1 / 1),  # m8 found, m14 missed
        "bridging:mention": (0 / 2, 0 / 1),              # m8→m4 is not m8→m7
        "bridging:entity": (1 / 3, 1 / 1),               # m8→5 of m8→5, m14→6, m14→11
        "bridging": (1 / 3, 1 / 1),                      # the entity level
    }
    for metric, (recall, precision) in expected.items():
        assert (float(rows[metric]["recall"]), float(rows[metric]["precision"])) == (
            pytest.approx((recall, precision))), metric
    documents = {row["document"] for row in table if row["section"] == "document"}
    for document in documents:  # every document has a row per level too
        assert {row["metric"] for row in table if row["document"] == document} == {
            "muc", *expected}


def test_markdown_tables(files, capsys) -> None:
    out = run(capsys, files["key"], files["a"], files["b"], "--output", "markdown",
              "--metrics", "lea", "--per-document")
    assert "| System | LEA |" in out and "|:---|---:|" in out
    assert "| Document | LEA |" in out
    assert ("\nMode: identity coreference (singletons, no split antecedents); exact mention "
            "matching; anascore conventions\n") in out
    assert out.rstrip().endswith("`")


def test_latex_table_with_the_signature_as_a_footnote(files, capsys) -> None:
    out = run(capsys, files["key"], files["a"], files["b"], "--output", "latex",
              "--confidence", "200", "--paired-bs", "200")
    assert r"\begin{tabular}{lrrrrrrrr}" in out and r"\toprule" in out
    assert r"\caption{Scores (F1, \%)" in out
    assert f". anascore {anascore.__version__} signature: " in out
    assert "|\\allowbreak{}seed:12345|" in out
    assert (r"\textsuperscript{a}\,Mode: identity coreference (singletons, no split "
            "antecedents); exact") in out
    assert escape("50% of A_1") == r"50\% of A\_1"


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex is not installed")
def test_latex_output_compiles(files, capsys, tmp_path: Path) -> None:
    table = run(capsys, files["key"], files["a"], files["b"], "--output", "latex", "--full",
                "--metrics", "muc,lea,conll", "--confidence", "200", "--paired-ar", "200",
                "--per-document")
    (tmp_path / "table.tex").write_text(table)
    (tmp_path / "paper.tex").write_text(
        "\\documentclass[twocolumn]{article}\n\\usepackage{booktabs}\n\\begin{document}\n"
        "Text.\n\\input{table.tex}\n\\end{document}\n")
    result = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error",
                             "paper.tex"], cwd=tmp_path, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stdout[-2000:]
    assert (tmp_path / "paper.pdf").stat().st_size > 1000


def test_single_response_keeps_its_outputs_and_gains_intervals(files, capsys) -> None:
    plain = run(capsys, files["key"], files["a"])
    assert plain.splitlines()[0].split() == ["metric", "recall", "precision", "F1"]
    with_intervals = run(capsys, files["key"], files["a"], "--confidence", "200")
    assert with_intervals.splitlines()[1].split() == ["Metric", "Recall", "Precision", "F1"]
    assert "95% bootstrap percentile intervals (200 resamples" in with_intervals


@pytest.mark.parametrize("arguments, message", [
    (["--paired-bs"], "at least two responses"),
    (["--paired-ar", "100"], "at least two responses"),
    (["--sort-by", "muc", "--metrics", "lea"], "not among the reported metrics"),
    (["--names", "x,y"], "2 names for 1 responses"),
    (["--confidence", "-5"], "positive number of resamples"),
])
def test_usage_errors(files, capsys, arguments, message) -> None:
    with pytest.raises(SystemExit) as exit_status:
        main(["score", files["key"], files["a"], *arguments])
    assert exit_status.value.code == 2
    assert message in capsys.readouterr().err


def test_no_progress_bar_when_stderr_is_not_a_terminal(files, capsys) -> None:
    run(capsys, files["key"], files["a"], files["b"], "--paired-bs", "300")
    assert capsys.readouterr().err == ""


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_draws_on_a_terminal_and_erases_itself() -> None:
    terminal = FakeTerminal()
    with Progress("bootstrap", 4, stream=terminal) as bar:
        for _ in range(4):
            bar.advance()
    drawn = terminal.getvalue()
    assert "bootstrap" in drawn and "4/4" in drawn
    assert drawn.endswith("\r\x1b[2K")
    silent = io.StringIO()
    with Progress("bootstrap", 4, stream=silent) as bar:
        bar.advance(4)
    assert silent.getvalue() == ""
