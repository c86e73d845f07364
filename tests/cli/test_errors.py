"""Bad input gives exit status 1 and one line naming the file, the line and what was expected;
bad usage gives 2. Never a traceback."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from anascore.cli.main import main
from tests.support.files import write

GOOD = """#begin document (story); part 000
story 0 0 Anna (1)
story 0 1 saw -
story 0 2 her (1)

story 0 3 brother (2
story 0 4 Tom 2)
#end document
"""


def run(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, str, str]:
    status = main(["score", *arguments])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def assert_error(capsys, key: str, response: str, location: str, expected: str) -> None:
    status, out, err = run(capsys, key, response)
    assert status == 1
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"anascore: error: {location}: "), lines[0]
    assert re.search(expected, lines[0]), lines[0]
    assert "Traceback" not in err


@pytest.mark.parametrize(("cell", "line", "expected"), [
    ("(3", 3, "mention of entity 3 opened here is never closed"),
    ("((3", 3, "unknown coreference annotation '\\(\\(3'"),
    ("Anna", 3, "unknown coreference annotation 'Anna'"),
    ("(1)(", 3, "unknown coreference annotation"),
    ("(12+3)", 3, "double antecedent '\\(12\\+3\\)' is not supported"),
    ("7)", 3, "closing bracket '7\\)' without an open mention of entity 7"),
])
def test_bad_brackets(capsys, tmp_path: Path, cell: str, line: int, expected: str) -> None:
    key = write(tmp_path, "key.conll", GOOD.replace("story 0 1 saw -", f"story 0 1 saw {cell}"))
    response = write(tmp_path, "response.conll", GOOD)
    assert_error(capsys, key, response, f"{key}:{line}", expected)


def test_missing_end_document(capsys, tmp_path: Path) -> None:
    key = write(tmp_path, "key.conll", GOOD.replace("#end document\n", ""))
    response = write(tmp_path, "response.conll", GOOD)
    assert_error(capsys, key, response, f"{key}:7", "has no '#end document'")


def test_begin_inside_a_document(capsys, tmp_path: Path) -> None:
    key = write(tmp_path, "key.conll", GOOD.replace("#end document\n", "") + GOOD)
    response = write(tmp_path, "response.conll", GOOD)
    assert_error(capsys, key, response, f"{key}:8", "'#begin document' inside document")


def test_tokens_outside_a_document(capsys, tmp_path: Path) -> None:
    key = write(tmp_path, "key.conll", GOOD + "story 0 5 stray -\n")
    response = write(tmp_path, "response.conll", GOOD)
    assert_error(capsys, key, response, f"{key}:9", "token line outside a document")


def test_token_count_mismatch(capsys, tmp_path: Path) -> None:
    key = write(tmp_path, "key.conll", GOOD)
    response = write(tmp_path, "response.conll",
                     GOOD.replace("story 0 4 Tom 2)\n", "story 0 4 Tom 2)\nstory 0 5 . -\n"))
    assert_error(capsys, key, response, f"{response}:1",
                 "has 5 tokens in the key .* but 6 in the response")


def test_response_document_not_in_key(capsys, tmp_path: Path) -> None:
    key = write(tmp_path, "key.conll", GOOD)
    response = write(tmp_path, "response.conll", GOOD + GOOD.replace("(story)", "(other)"))
    assert_error(capsys, key, response, f"{response}:9",
                 "response document '\\(other\\); part 000' not in the key")


def test_document_twice_in_key(capsys, tmp_path: Path) -> None:
    key = write(tmp_path, "key.conll", GOOD + GOOD)
    response = write(tmp_path, "response.conll", GOOD)
    assert_error(capsys, key, response, f"{key}:9", "appears twice in the key")


def test_empty_file(capsys, tmp_path: Path) -> None:
    key = write(tmp_path, "key.conll", "\n\n")
    assert_error(capsys, key, write(tmp_path, "r.conll", GOOD), key, "empty file")


def test_binary_file(capsys, tmp_path: Path) -> None:
    key = write(tmp_path, "key.conll", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    assert_error(capsys, key, write(tmp_path, "r.conll", GOOD), f"{key}:3", "binary file")


def test_bytes_that_are_not_utf8(capsys, tmp_path: Path) -> None:
    key = write(tmp_path, "key.conll", GOOD.encode().replace(b"Tom", b"T\xf6m"))
    assert_error(capsys, key, write(tmp_path, "r.conll", GOOD), f"{key}:7", "not UTF-8")


def test_missing_path(capsys, tmp_path: Path) -> None:
    missing = str(tmp_path / "nowhere.conll")
    assert_error(capsys, missing, write(tmp_path, "r.conll", GOOD), missing, "no such file")


def test_directory(capsys, tmp_path: Path) -> None:
    assert_error(capsys, str(tmp_path), write(tmp_path, "r.conll", GOOD), str(tmp_path),
                 "is a directory")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_pipe(capsys, tmp_path: Path, jobs: str) -> None:
    """A pipe (``<(zcat key.conll.gz)``) is read once, whole, into a copy that is then read
    as often as needed (anascore sniffs the format, then reads); messages name the pipe."""
    import threading

    response = write(tmp_path, "r.conll", GOOD)
    expected = run(capsys, "--jobs", jobs, response, response)
    for arguments in (["{pipe}", response], ["--format", "conll2012", response, "{pipe}"]):
        pipe = str(tmp_path / f"pipe{len(arguments)}")
        os.mkfifo(pipe)
        writer = threading.Thread(target=lambda path=pipe: Path(path).write_text(GOOD))
        writer.start()
        status, out, err = run(capsys, "--jobs", jobs,
                               *(pipe if part == "{pipe}" else part for part in arguments))
        writer.join(timeout=10)
        assert (status, out, err) == expected


def test_unknown_format(capsys, tmp_path: Path) -> None:
    key = write(tmp_path, "key.txt", "just some words\n")
    assert_error(capsys, key, write(tmp_path, "r.conll", GOOD), f"{key}:1",
                 "cannot tell the format")


def test_bad_usage_exits_2(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["score", "only-one-file"])
    assert exit_info.value.code == 2
    with pytest.raises(SystemExit) as exit_info:
        main(["score", "a", "b", "--metrics", "muc,nonsense"])
    assert exit_info.value.code == 2
    assert "unknown metric nonsense" in capsys.readouterr().err
