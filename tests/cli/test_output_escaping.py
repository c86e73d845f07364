"""Names from the input (documents, systems) keep every table of every output whole: a
Markdown cell holds one line and shows the name literally."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from anascore.cli.main import main

NAMES = ["plain", "pipe|name", "new\nline", "back\\slash_*star*", "<b>html</b>",
         "_emphasis_ and snake_case"]


def files(tmp_path: Path) -> tuple[Path, Path]:
    key, response = tmp_path / "key.jsonl", tmp_path / "resp|onse.jsonl"
    with key.open("w") as gold, response.open("w") as system:
        for index, name in enumerate(NAMES):
            gold.write(json.dumps({"doc_key": name, "sentences": [["Anna", "saw", "her"]],
                                   "clusters": [[[0, 0], [2, 2]]]}) + "\n")
            clusters = [[[0, 0], [2, 2]]] if index % 2 else [[[0, 0]], [[2, 2]]]
            system.write(json.dumps({"doc_key": name, "sentences": [["Anna", "saw", "her"]],
                                     "clusters": clusters}) + "\n")
    return key, response


def table_rows(text: str) -> list[list[str]]:
    """The cells of every table row (split at pipes that are not escaped)."""
    return [re.split(r"(?<!\\)\|", line)[1:-1] for line in text.splitlines()
            if line.startswith("|")]


@pytest.mark.parametrize("command", [["score", "--per-document"],
                                     ["errors", "--per-document"],
                                     ["score", "--group-by", "document"]])
def test_markdown_tables_stay_whole_whatever_the_names(tmp_path, capsys, command):
    key, response = files(tmp_path)
    assert main([command[0], str(key), str(response), "--metrics", "muc", "--output",
                 "markdown", *command[1:]]) == 0
    out = capsys.readouterr().out
    rows = table_rows(out)
    assert rows
    for table in re.split(r"\n\n+", out):
        widths = {len(row) for row in table_rows(table)}
        assert len(widths) <= 1, table
    cells = [cell.strip() for row in rows for cell in row]
    assert "new line" in cells
    assert "back\\\\slash\\_\\*star\\*" in cells
    assert "\\<b\\>html\\</b\\>" in cells
    assert "pipe\\|name" in cells
    assert "\\_emphasis\\_ and snake_case" in cells
