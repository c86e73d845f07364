"""The error analysis's tables (:mod:`anascore.analysis.render`) title the metrics as
``anascore score`` does (B3, CEAFm, CoNLL); JSON and CSV keep the metrics' names."""

from __future__ import annotations

import csv
import io
import json

from anascore.cli.main import main

TITLES = ["Mentions", "MUC", "B3", "CEAFm", "CEAFe", "BLANC", "LEA", "CoNLL"]
NAMES = ["mentions", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "conll"]


def errors(capsys, example_pair, *arguments: str) -> str:
    assert main(["errors", *example_pair, *arguments]) == 0
    return capsys.readouterr().out


def test_the_impact_table_titles_the_metrics_as_score_does(capsys, example_pair):
    text = errors(capsys, example_pair)
    header = text.split("Impact: F1 with only that type fixed (gain)\n")[1].splitlines()[0]
    assert header.split() == ["fixed", *TITLES]
    # The same titles as score's table, in its order.
    assert main(["score", *example_pair]) == 0
    score = capsys.readouterr().out
    assert [line.split()[0] for line in score.splitlines()[1:9]] == TITLES
    # The numbers below are as they were: B3 85.55, gain +2.08 with span errors fixed.
    assert "span_error           95.00 (+1.25)    89.72 (+1.87)    87.63 (+2.08)" in text


def test_markdown_titles_the_metrics_json_and_csv_name_them(capsys, example_pair):
    markdown = errors(capsys, example_pair, "--output", "markdown")
    assert "| fixed | " + " | ".join(TITLES) + " |" in markdown.splitlines()
    data = json.loads(errors(capsys, example_pair, "--output", "json"))
    assert list(data["impact"]["span_error"]) == NAMES
    rows = list(csv.DictReader(io.StringIO(errors(capsys, example_pair, "--output", "csv"))))
    assert [row["metric"] for row in rows if row["section"] == "score"] == NAMES
