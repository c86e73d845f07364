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

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
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
