"""Issue 23 (5): outputs a program can read.

``anascore errors --output csv`` was two titled tables with cells like ``87.67 (+1.74)``;
it is one long table (a header, then a row per value), read back by the csv module and
pandas. Every JSON anascore writes gives scores as fractions: the errors JSON gave percents.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

import anascore
from anascore.cli.main import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
KEY, RESPONSE = EXAMPLES / "key.conll", EXAMPLES / "response.conll"
COLUMNS = ["system", "section", "document", "type", "layer", "metric", "value", "delta",
           "key_mentions", "response_mentions", "key_entities", "response_entities"]


def _errors(capsys, *arguments: str) -> str:
    assert main(["errors", str(KEY), str(RESPONSE), "--metrics", "muc,zero", *arguments]) == 0
    return capsys.readouterr().out


def test_errors_csv_is_one_long_table(capsys) -> None:
    text = _errors(capsys, "--output", "csv", "--per-document", "--list")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert list(rows[0]) == COLUMNS
    data = json.loads(_errors(capsys, "--output", "json", "--per-document"))
    score = anascore.score(KEY, RESPONSE, metrics="muc,zero").metrics["muc"].f1
    by = {(row["section"], row["type"], row["metric"], row["document"]): row for row in rows}
    assert float(by["score", "", "muc", ""]["value"]) == score  # 0.8785046728971963
    assert by["score", "", "zero", ""]["value"] == ""  # n/a: an empty cell
    fixed = by["impact", "all", "muc", ""]
    assert (float(fixed["value"]), float(fixed["delta"])) == (1.0, 1.0 - score)
    assert {row["type"]: int(row["value"]) for row in rows if row["section"] == "errors"} == \
        data["errors"]
    documents = {(row["document"], row["type"]): int(row["value"]) for row in rows
                 if row["section"] == "document"}
    assert documents == {(document, kind): count
                         for document, counts in data["per_document"].items()
                         for kind, count in counts.items()}
    listed = [row for row in rows if row["section"] == "error"]
    assert listed and all(row["document"] and row["type"] for row in listed)
    assert {row["system"] for row in rows} == {"response.conll"}


def test_errors_csv_reads_into_pandas_with_numbers(capsys) -> None:
    pandas = pytest.importorskip("pandas")
    frame = pandas.read_csv(io.StringIO(_errors(capsys, "--output", "csv")))
    assert frame["value"].dtype == float and frame["delta"].dtype == float
    impact = frame[(frame.section == "impact") & (frame.type == "all") & (frame.metric == "muc")]
    assert impact["value"].tolist() == [1.0]


def test_errors_json_gives_fractions_as_score_does(capsys) -> None:
    data = json.loads(_errors(capsys, "--output", "json"))
    score = anascore.score(KEY, RESPONSE, metrics="muc,zero").metrics["muc"].f1
    assert data["scores"] == {"muc": score, "zero": None}
    assert data["impact"]["all"] == {"muc": {"f1": 1.0, "delta_f1": 1.0 - score},
                                     "zero": {"f1": None, "delta_f1": None}}


# --- notebooks: a short repr, a small HTML table, a DataFrame ------------------------------

def _no_pandas(monkeypatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas raises ImportError


def test_a_report_with_intervals_shows_them_in_all_three() -> None:
    report = anascore.score(KEY, RESPONSE, metrics="muc", confidence=100, seed=1)
    interval = report.intervals["muc"].f1
    shown = f"[{100 * interval.low:.2f}, {100 * interval.high:.2f}]"
    assert f"muc {100 * report.metrics['muc'].f1:.2f} {shown}" in repr(report)
    assert shown in report._repr_html_()
    pandas = pytest.importorskip("pandas")
    frame = report.to_dataframe()
    assert isinstance(frame, pandas.DataFrame)
    assert (frame.loc["muc", "f1_low"], frame.loc["muc", "f1_high"]) == (interval.low,
                                                                         interval.high)


def test_systems_report_in_a_notebook() -> None:
    systems = anascore.compare(KEY, [RESPONSE, KEY], names=["<b>base</b>", "gold"],
                               metrics="muc,bcub", confidence=100, paired_bs=100, seed=1)
    text = repr(systems)
    assert len(text) < 400 and text.startswith("SystemsReport(2 systems on 5 documents")
    gold = systems.report("gold")
    assert "gold: muc 100.00" in text
    html = systems._repr_html_()
    assert html.startswith("<table>") and "&lt;b&gt;base&lt;/b&gt;" in html
    assert "<b>base" not in html
    interval = gold.intervals["muc"].f1
    assert f"[{100 * interval.low:.2f}, {100 * interval.high:.2f}]" in html
    pytest.importorskip("pandas")
    frame = systems.to_dataframe()
    assert frame.loc[("gold", "muc"), "f1"] == 1.0
    assert frame.loc[("<b>base</b>", "bcub"), "f1"] == \
        systems.report("<b>base</b>").metrics["bcub"].f1
    assert frame.loc[("gold", "muc"), "f1_low"] == interval.low


def test_leaderboard_in_a_notebook(tmp_path: Path) -> None:
    from anascore.leaderboard import evaluate

    lines = ["resamples = 50"]
    lines += [f'[[datasets]]\nname = "{name}"\nkey = "{KEY}"' for name in ("a", "b")]
    lines += [f'[[systems]]\nname = "{name}"\nresponses = {{ a = "{path}", b = "{path}" }}'
              for name, path in (("=base", RESPONSE), ("gold", KEY))]
    (tmp_path / "task.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    board = evaluate(tmp_path / "task.toml")
    text = repr(board)
    assert len(text) < 300 and "1. gold 100.00" in text and "2. =base" in text
    html = board._repr_html_()
    assert html.startswith("<table>") and html.count("<tr>") == 3
    first = board.standings[0]
    assert first.interval is not None
    assert f"[{100 * first.interval.low:.2f}, {100 * first.interval.high:.2f}]" in html
    pytest.importorskip("pandas")
    frame = board.to_dataframe()
    assert list(frame.index) == ["gold", "=base"]
    assert frame.loc["gold", "rank"] == 1 and frame.loc["gold", "score"] == 1.0
    assert frame.loc["=base", "a"] == board.standings[1].datasets["a"]
    assert frame.loc["=base", "score_low"] == board.standings[1].interval.low


def test_coref_evaluator_in_a_notebook() -> None:
    evaluator = anascore.CorefEvaluator(metrics="muc")
    assert repr(evaluator) == ("CorefEvaluator(no document yet; identity coreference "
                               "(singletons, no split antecedents); exact mention matching; "
                               "anascore conventions)")
    evaluator.update([[(0, 0), (2, 2)]], [[(0, 0), (2, 2)], [(4, 4), (5, 5)]])
    # MUC: recall 1/2, precision 1/1
    assert repr(evaluator).startswith("CorefEvaluator(1 document; ")
    assert repr(evaluator).endswith(": F1 muc 66.67)")
    assert "66.67" in evaluator._repr_html_()
    pytest.importorskip("pandas")
    frame = evaluator.to_dataframe()
    assert (frame.loc["muc", "recall"], frame.loc["muc", "precision"]) == (0.5, 1.0)


def test_without_pandas_the_error_names_the_extra(monkeypatch) -> None:
    from anascore.core.errors import OptionsError

    evaluator = anascore.CorefEvaluator(metrics="muc")
    evaluator.update([[(0, 0), (2, 2)]], [[(0, 0), (2, 2)]])
    systems = anascore.compare(KEY, [RESPONSE], metrics="muc")
    _no_pandas(monkeypatch)
    for result in (evaluator, systems):
        with pytest.raises(OptionsError, match=r"to_dataframe needs pandas: pip install pandas "
                                               r"\(the pandas extra: pip install '\.\[pandas\]' "
                                               r"in anascore's checkout\)"):
            result.to_dataframe()
