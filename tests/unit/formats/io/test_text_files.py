"""What the serial reader checks of a whole file, every path checks: a NUL byte anywhere is an
error naming its line (it was looked for in the first 8 KiB only, and not at all by the
parallel path), and leading white space of any length is not an "empty file"."""

from __future__ import annotations

import pytest

import anascore
from anascore.core.errors import FormatError

DOCUMENT = "#begin document (d{n}); part 000\nd 0 0 Anna (1)\nd 0 1 saw -\nd 0 2 her (1)\n" \
           "#end document\n"


def corpus(documents: int) -> str:
    return "".join(DOCUMENT.format(n=n) for n in range(documents))


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_nul_byte_past_the_first_8_kib_is_an_error_naming_its_line(tmp_path, jobs):
    key = tmp_path / "key.conll"
    key.write_text(corpus(400))
    text = corpus(400)
    at = text.index("saw", 9000)
    response = tmp_path / "response.conll"
    response.write_text(text[:at] + "s\0w" + text[at + 3:])
    with pytest.raises(FormatError, match="binary file") as caught:
        anascore.score(key, response, jobs=jobs, format="conll2012")
    assert caught.value.line == text[:at].count("\n") + 1
    assert caught.value.path == str(response)


def test_the_parallel_path_is_taken_and_agrees_on_clean_files(tmp_path):
    key = tmp_path / "key.conll"
    key.write_text(corpus(400))
    one = anascore.score(key, key, jobs=1, format="conll2012").to_dict(per_document=True)
    two = anascore.score(key, key, jobs=2, format="conll2012").to_dict(per_document=True)
    assert one == two


def test_more_than_8_kib_of_leading_blank_lines_is_not_an_empty_file(tmp_path):
    key = tmp_path / "key.conll"
    key.write_text("\n" * 20000 + corpus(2))
    report = anascore.score(key, key)
    assert report.metrics["muc"].f1 == 1.0
    blank = tmp_path / "blank.conll"
    blank.write_text("\n" * 20000 + "   \n")
    with pytest.raises(FormatError, match="empty file"):
        anascore.score(blank, blank)


@pytest.mark.parametrize("where", [0, 100, 9000, 1_500_000, 2_200_000])
def test_a_nul_byte_anywhere_names_its_line(tmp_path, where):
    """Lines are counted only once a NUL byte is found: before the first 8 KiB, inside it,
    and past one and two 1 MiB blocks, the line is the one holding it."""
    text = corpus(where // 60 + 10)
    at = text.index("saw", where)
    path = tmp_path / "key.conll"
    path.write_text(text[:at] + "\0" + text[at:])
    with pytest.raises(FormatError, match="binary file") as caught:
        anascore.score(path, path, format="conll2012")
    assert caught.value.line == text[:at].count("\n") + 1
