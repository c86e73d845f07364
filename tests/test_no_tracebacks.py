"""Malformed input found by an audit that gave a traceback: each is now one line naming the
file and the line, exit status 1."""

from __future__ import annotations

from pathlib import Path

import pytest

from anascore.cli import main
from anascore.errors import AnascoreError, FormatError

FIXTURES = Path(__file__).parent / "fixtures"
COREFUD = FIXTURES / "corefud" / "match_key.conllu"
EMPTY_NODES = FIXTURES / "corefud" / "zero_key.conllu"
UA = FIXTURES / "ua" / "typed_key.conllua"


def one_error_line(capsys, arguments: list[str]) -> str:
    assert main(arguments) == 1
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    assert captured.err.count("\n") == 1 and captured.err.startswith("anascore: error: ")
    return captured.err


def test_a_corefud_head_written_in_superscript(tmp_path, capsys):
    # str.isdigit accepts '²', int does not.
    response = tmp_path / "response.conllu"
    response.write_text(COREFUD.read_text().replace("e1-person-3-", "e1-person-²-"))
    err = one_error_line(capsys, ["score", str(COREFUD), str(response)])
    assert f"{response}:7: head index '²'" in err


def test_a_corefud_empty_node_id_written_in_superscript(tmp_path, capsys):
    text = EMPTY_NODES.read_text()
    empty = next(line.split("\t")[0] for line in text.splitlines()
                 if "." in line.split("\t")[0] and line[0].isdigit())
    word = empty.split(".")[0]
    response = tmp_path / "response.conllu"
    response.write_text(text.replace(f"\n{empty}\t", f"\n{word}.¹\t"))
    err = one_error_line(capsys, ["score", str(EMPTY_NODES), str(response)])
    assert str(response) in err


@pytest.mark.parametrize(("text", "message"), [
    ('{"doc_key": "d", "sentences": [["a"]], "clusters": [[[0, ' + "9" * 5000 + "]]]}\n",
     "a number of over 4,300 digits"),
    ('{"doc_key": "d", "sentences": [["a"]], "clusters": ' + "[" * 100000 + "]" * 100000
     + "}\n", "JSON nested too deeply"),
    ('{"doc_key": "d\\ud800", "sentences": [["a", "b"]], "clusters": [[[0, 0], [1, 1]]]}\n',
     "'d\\ud800' holds a lone UTF-16 surrogate"),
])
@pytest.mark.parametrize("output", ["text", "csv", "markdown"])
def test_jsonlines_that_python_cannot_hold(tmp_path, capsys, text, message, output):
    path = tmp_path / "key.jsonlines"
    path.write_text(text)
    err = one_error_line(capsys, ["score", str(path), str(path), "--per-document",
                                  "--output", output])
    assert f"{path}:1: {message}" in err


def test_a_surrogate_pair_is_text():
    from anascore.formats.jsonlines import read_jsonlines

    path = FIXTURES.parent / "fixtures" / "jsonlines" / "key.jsonlines"
    assert list(read_jsonlines(path))  # the fixture itself reads
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        emoji = Path(folder, "emoji.jsonlines")
        emoji.write_text('{"doc_key": "d\\ud83d\\ude00", "sentences": [["a"]], '
                         '"clusters": [[[0, 0]]]}\n')
        [document] = read_jsonlines(emoji)
        assert document.name == "d😀"


@pytest.mark.parametrize("metric", ["lmuc", "dominant"])
def test_ua_dependency_heads_in_a_cycle_inside_a_markable(tmp_path, capsys, metric):
    lines = []
    for line in UA.read_text().splitlines():
        cells = line.split("\t")
        if cells[0] == "2" and len(cells) > 6:  # "Jones" now governed by "Mary", and back
            cells[6] = "1"
        lines.append("\t".join(cells).replace("Min=2", "Min=1,2"))
    path = tmp_path / "cycle.conllua"
    path.write_text("\n".join(lines) + "\n")
    err = one_error_line(capsys, ["score", str(path), str(path), "--metrics", metric])
    assert f"{path}:5: markable m1: the dependency HEAD of every one of its tokens lies " \
           "inside it (a cycle)" in err


def test_control_characters_and_escape_codes_from_the_input_are_escaped(tmp_path, capsys):
    path = tmp_path / "key.conllu"
    path.write_text(COREFUD.read_text().replace("e1-person-3-", "e1-person-\x1b[31m-"))
    err = one_error_line(capsys, ["score", str(path), str(path)])
    assert "\x1b" not in err and "\\x1b[31m" in err
    error = AnascoreError("a\nb\tc\x07")
    assert error.message == "a\\nb\\tc\\x07"
    assert isinstance(FormatError("x"), AnascoreError)
