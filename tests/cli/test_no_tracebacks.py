"""Malformed input found by an audit that gave a traceback: each is now one line naming the
file and the line, exit status 1."""

from __future__ import annotations

from pathlib import Path

import pytest

from anascore.cli.main import main
from anascore.core.errors import AnascoreError, FormatError
from tests.support.paths import FIXTURES

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


ESCAPE = "\x1b[31m"


def test_a_file_name_with_escape_codes_is_escaped_in_error_lines(tmp_path, capsys):
    # The message was escaped, the file name it starts with was not: a manifest's key path,
    # or a name a glob found, could colour or rewrite the user's terminal.
    manifest = tmp_path / "task.toml"
    manifest.write_text('[[datasets]]\nname = "x"\nkey = "gold\\u001b[31m.conll"\n'
                        '[[systems]]\nname = "a"\nresponses = "a.conll"\n')
    err = one_error_line(capsys, ["evaluate", str(manifest)])
    assert ESCAPE not in err and "gold\\x1b[31m.conll" in err
    missing = tmp_path / f"gold{ESCAPE}.conll"
    for command in (["score", str(missing), str(COREFUD)], ["errors", str(missing), str(COREFUD)],
                    ["report", str(missing), str(COREFUD), "-o", str(tmp_path / "r.html")],
                    ["convert", "--to", "ua", str(missing), str(tmp_path / "out.ua")],
                    ["plot", str(missing), "-o", str(tmp_path / "x.png")]):
        err = one_error_line(capsys, command)
        assert ESCAPE not in err and f"{tmp_path}/gold\\x1b[31m.conll: " in err, command


def test_usage_errors_escape_what_they_quote(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["score", str(COREFUD), str(COREFUD), "--metrics", f"muc{ESCAPE}"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert ESCAPE not in err and "unknown metric muc\\x1b[31m;" in err


def test_the_error_analysis_escapes_its_warnings(tmp_path, capsys):
    # 'errors' printed the analysis's warnings as they came.
    from anascore.core.errors import printable

    assert printable(f"a{ESCAPE}") == "a\\x1b[31m"
    key = tmp_path / "key.conll"
    key.write_text("#begin document d\nd 0 0 Anna (1)\nd 0 1 sang -\n#end document\n")
    response = tmp_path / f"r{ESCAPE}.conll"
    response.write_text("#begin document d\nd 0 0 Anna (1)\nd 0 1 sung -\n#end document\n")
    assert main(["errors", str(key), str(response)]) == 0
    err = capsys.readouterr().err
    assert ESCAPE not in err and f"{tmp_path}/r\\x1b[31m.conll: document 'd': token 2" in err


BIG = "9" * 5000  # int() refuses more than 4,300 digits: 'Exceeds the limit (4300 digits)'


def test_a_huge_empty_node_id_against_the_key(tmp_path, capsys):
    # CorefUD: the reader names it; UA: the empty nodes of key and response are ordered by
    # their IDs without int(), and the 5,000-digit node is one more empty node.
    response = tmp_path / "response.conllu"
    response.write_text(EMPTY_NODES.read_text().replace("\n3.1\t", f"\n3.{BIG}\t"))
    err = one_error_line(capsys, ["score", str(EMPTY_NODES), str(response)])
    assert f"{response}:8: empty node ID '3.{'9' * 38}…'; expected 3.1" in err
    assert len(err) < 300
    key = FIXTURES / "ua" / "zero_key.conllua"
    response = tmp_path / "response.conllua"
    response.write_text(key.read_text().replace("\n4.1\t", f"\n4.{BIG}\t"))
    assert main(["score", str(key), str(response), "--metrics", "muc"]) == 0
    assert "muc" in capsys.readouterr().out.lower()


@pytest.mark.parametrize(("key", "response"), [
    ("#begin document (d); part 000\nd 0 0 Anna (1)\n#end document\n",
     f"#begin document (d); part {BIG}\nd 0 0 Anna (1)\n#end document\n"),
    ('{"doc_key": "d_0", "sentences": [["a"]], "clusters": [[[0, 0]]]}\n',
     f'{{"doc_key": "d_{BIG}", "sentences": [["a"]], "clusters": [[[0, 0]]]}}\n'),
], ids=["conll2012", "jsonlines"])
def test_a_huge_part_number_while_naming_the_nearest_key_document(tmp_path, capsys, key,
                                                                   response):
    suffix = ".conll" if key.startswith("#") else ".jsonlines"
    key_path, response_path = tmp_path / f"key{suffix}", tmp_path / f"response{suffix}"
    key_path.write_text(key)
    response_path.write_text(response)
    err = one_error_line(capsys, ["score", str(key_path), str(response_path)])
    assert "not in the key" in err and "9" * 41 not in err


def test_a_huge_part_number_in_a_corefud_document_name(tmp_path, capsys):
    response = tmp_path / "response.conllu"
    response.write_text(COREFUD.read_text().replace("# newdoc id = m",
                                                    f"# newdoc id = (m); part {BIG}"))
    err = one_error_line(capsys, ["score", str(COREFUD), str(response)])
    assert "not in the key" in err and "9" * 41 not in err


LONG = "x" * 5000


@pytest.mark.parametrize(("name", "key", "response", "quoted"), [
    ("unknown cell", "#begin document (d); part 000\nd 0 0 Anna (1)\n#end document\n",
     f"#begin document (d); part 000\nd 0 0 Anna ({LONG}((\n#end document\n",
     f"unknown coreference annotation '({'x' * 39}…'"),
    ("unclosed document", "#begin document (d); part 000\nd 0 0 Anna (1)\n#end document\n",
     f"#begin document {LONG}\nd 0 0 Anna (1)\n",
     f"document '{'x' * 40}…' (begun at line 1) has no '#end document'"),
    ("bridge link", COREFUD.read_text(),
     COREFUD.read_text().replace("Entity=(e1-person-1-)", f"Entity=(e1-person-1-)|Bridge={LONG}"),
     f"Bridge link '{'x' * 40}…'; expected"),
    ("ua cell", UA.read_text(), UA.read_text().replace("(EntityID=", f"({LONG}|EntityID=", 1),
     f"IDENTITY attribute '{'x' * 40}…' in"),
    ("ua min", UA.read_text(), UA.read_text().replace("Min=", f"Min={'9' * 5000},", 1),
     f"Min={'9' * 40}… of markable"),
    ("word", COREFUD.read_text(), COREFUD.read_text().replace("\tAnna\t", f"\t{LONG}\t"),
     f"but '{'x' * 40}…' in the response"),
], ids=lambda value: value if len(value) < 30 else "")
def test_a_message_quotes_a_short_prefix_of_a_long_value(tmp_path, capsys, name, key, response,
                                                           quoted):
    suffix = ".conll" if key.startswith("#begin") else (
        ".conllua" if "global.columns" in key else ".conllu")
    key_path, response_path = tmp_path / f"key{suffix}", tmp_path / f"response{suffix}"
    key_path.write_text(key)
    response_path.write_text(response)
    err = one_error_line(capsys, ["score", str(key_path), str(response_path)])
    assert quoted in err and len(err.replace(str(tmp_path), "")) < 300


def test_a_usage_error_quotes_a_long_value_short(capsys):
    # argparse quoted a bad value whole: '--window 999…' (5,000 digits) made a 5 kB line.
    with pytest.raises(SystemExit) as exit_:
        main(["score", str(COREFUD), str(COREFUD), "--window", "9" * 5000])
    assert exit_.value.code == 2
    [line] = [line for line in capsys.readouterr().err.splitlines() if "error" in line]
    assert f"--window: '{'9' * 40}…': expected a whole number" in line
    assert len(line) < 200
