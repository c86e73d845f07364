"""The CorefUD reader's bulk reading of plain sentences (formats/readers/corefud_sentences.py)
against its careful line-by-line reading (``read_corefud_lines``): equal documents, every
field of every document, mention and node, and equal errors (message, file, line), on the
real GUM files, on files of the synthetic corpus's shape and of the differential generator,
and on mutants of them."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anascore.core.errors import FormatError
from anascore.formats.corefud import read_corefud, read_corefud_lines, write_corefud
from anascore.formats.io.text_files import open_text
from anascore.formats.readers import corefud, corefud_sentences
from anascore.formats.readers.corefud import _Reader
from anascore.formats.readers.corefud_regions import read_region
from tests.support.corefud_generator import document_pair
from tests.support.document_fields import outcome
from tests.support.mutations import mutant, write_mutant
from tests.support.paths import corpus_files


def careful(path: Path, token_columns: bool = False) -> Any:
    """What reading line by line gives (as ``read_corefud`` read before the bulk reading)."""
    def documents() -> Any:  # open_text raises undecodable bytes on leaving: inside outcome
        with open_text(str(path)) as stream:
            yield from read_corefud_lines(enumerate(stream, start=1), str(path),
                                          token_columns=token_columns)

    return outcome(documents())


def assert_same(path: Path, token_columns: bool = False) -> Any:
    fast = outcome(read_corefud(path, token_columns=token_columns))
    assert fast == careful(path, token_columns)
    return fast


@pytest.fixture
def bulk_sentences(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many sentences were read in bulk (so a test shows the bulk reading ran)."""
    counted = [0]
    read = corefud_sentences.Sentences._read

    def counting(self: corefud_sentences.Sentences) -> bool:
        plain = read(self)
        counted[0] += len(self.sizes) if plain else 0
        return plain

    def counting_region(reader: Any, text: str, start: int, end: int, line: int,
                        blank: int | None) -> bool:
        plain = read_region(reader, text, start, end, line, blank)
        counted[0] += text.count("\n\n", start, end) + 1 if plain else 0
        return plain

    monkeypatch.setattr(corefud_sentences.Sentences, "_read", counting)
    monkeypatch.setattr(corefud, "read_region", counting_region)
    return counted


def test_gum_files_read_alike_in_bulk_and_line_by_line(bulk_sentences: list[int]) -> None:
    files = corpus_files("gum", "dep", pattern="*.conllu")
    for index, path in enumerate(files):
        for token_columns in (False, True)[:2 if index < 10 else 1]:
            documents, error = assert_same(path, token_columns)
            assert error is None and documents
    # Most GUM sentences are plain, the others (multiword tokens) are read line by line.
    assert bulk_sentences[0] > 10_000


def synthetic_text(rng: random.Random, documents: int = 4) -> str:
    """A file of the synthetic scale corpus's shape: HEAD 0 everywhere, no head field, one
    mention in six nodes, nested and one-node mentions."""
    lines = ["# global.Entity = eid-etype-other"]
    for number in range(documents):
        lines.insert(len(lines) if number else 0, f"# newdoc id = d{number}")
        for sentence in range(rng.randint(1, 6)):
            lines.append(f"# sent_id = d{number}-{sentence}")
            words = rng.randint(1, 30)
            opened: list[int] = []
            for word in range(1, words + 1):
                brackets = ""
                if rng.random() < 0.15:
                    entity = rng.randint(1, 5)
                    if rng.random() < 0.5:
                        brackets += f"({entity}--)"
                    else:
                        brackets += f"({entity}--"
                        opened.append(entity)
                while opened and (word == words or rng.random() < 0.3):
                    brackets += f"{opened.pop()})"
                misc = f"Entity={brackets}" if brackets else "_"
                lines.append(f"{word}\tw{rng.randint(0, 9)}\t_\t_\t_\t_\t0\t_\t_\t{misc}")
            lines.append("")
    return "\n".join(lines) + "\n"


def test_files_of_the_synthetic_shape_read_alike(tmp_path: Path,
                                                 bulk_sentences: list[int]) -> None:
    rng = random.Random(7)
    for index in range(20):
        path = tmp_path / f"s{index}.conllu"
        path.write_text(synthetic_text(rng), encoding="utf-8")
        documents, error = assert_same(path)
        assert error is None and len(documents) == 4
    assert bulk_sentences[0] > 100


def write_generated(tmp_path: Path, seed: int) -> Path:
    rng = random.Random(seed)
    pairs = [document_pair(rng, f"doc{number}") for number in range(3)]
    path = tmp_path / f"g{seed}.conllu"
    write_corefud([pair[0] for pair in pairs], path)
    return path


def test_generated_files_read_alike(tmp_path: Path, bulk_sentences: list[int]) -> None:
    for seed in range(30):
        path = write_generated(tmp_path, seed)
        for token_columns in (False, True):
            documents, error = assert_same(path, token_columns)
            assert error is None and len(documents) == 3
    assert bulk_sentences[0] > 0


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**6), synthetic=st.booleans())
def test_mutants_read_alike_with_the_same_error(tmp_path_factory: pytest.TempPathFactory,
                                                seed: int, synthetic: bool) -> None:
    rng = random.Random(seed)
    folder = tmp_path_factory.mktemp("mutants")
    if synthetic:
        text = synthetic_text(rng, documents=3)
    else:
        text = write_generated(folder, seed).read_text(encoding="utf-8")
    path = folder / "mutant.conllu"
    write_mutant(path, mutant(text, rng))
    assert outcome(read_corefud(path)) == careful(path)


PLAIN = ("# newdoc id = d\n# global.Entity = eid-etype-head-other\n"
         "# sent_id = s1\n1\tA\t_\t_\t_\t_\t0\t_\t_\tEntity=(e1-person-1-)\n"
         "2\tb\t_\t_\t_\t_\t1\t_\t_\t_\n\n")


@pytest.mark.parametrize(("text", "line"), [
    # A plain run, then a sentence whose second line has 9 cells: the error names line 9.
    (PLAIN + "# sent_id = s2\n1\tc\t_\t_\t_\t_\t0\t_\t_\t_\n2\td\t_\t_\t_\t_\t1\t_\t_\n\n", 9),
    # 9 cells then 11: the ID column still reads 1, 2 at every tenth cell.
    (PLAIN + "1\t2\t_\t_\t_\t_\t0\t_\t_\n2\tx\t2\t_\t_\t_\t_\t1\t_\t_\t_\n\n", 7),
    # A closing bracket with nothing open, after a plain sentence; and the error of a later
    # bracket of the same cell after a well-formed one.
    (PLAIN + "1\tc\t_\t_\t_\t_\t0\t_\t_\tEntity=e9)\n\n", 7),
    (PLAIN + "1\tc\t_\t_\t_\t_\t0\t_\t_\tEntity=(e2-x-1-)e9)\n\n", 7),
    # A mention left open in the document: named at its opening line.
    (PLAIN + "1\tc\t_\t_\t_\t_\t0\t_\t_\tEntity=(e2-x-1-\n\n", 7),
    # A head index beyond the mention, in a plain cell.
    (PLAIN + "1\tc\t_\t_\t_\t_\t0\t_\t_\tEntity=(e2-x-3-)\n\n", 7),
    # IDs out of order; a gap; a multiword token; an empty node: all read line by line.
    (PLAIN + "1\tc\t_\t_\t_\t_\t0\t_\t_\t_\n1\td\t_\t_\t_\t_\t0\t_\t_\t_\n\n", 8),
    (PLAIN + "1-2\tcd\t_\t_\t_\t_\t_\t_\t_\tEntity=(e1-x-1-)\n\n", 7),
    (PLAIN + "0.1\tc\t_\t_\t_\t_\t_\t_\t_\t_\n1.2\tc\t_\t_\t_\t_\t_\t_\t_\t_\n\n", 8),
])
def test_errors_after_plain_sentences_are_the_careful_ones(tmp_path: Path, text: str,
                                                            line: int) -> None:
    path = tmp_path / "bad.conllu"
    path.write_text(text, encoding="utf-8")
    _, error = assert_same(path)
    assert error is not None and error[1:] == (str(path), line)


@pytest.mark.parametrize("text", [
    PLAIN + "2\tc\t_\t_\t_\t_\t0\t_\t_\t_\n\n",  # a sentence starting at word 2 (a gap)
    PLAIN + "1\t\t_\t_\t_\t_\t0\t_\t\t_\n\n",  # empty FORM and DEPS read as '_'
    PLAIN + "# text = a\n1\tc\t_\t_\t_\t_\t0\t_\t_\t_\n# note\n2\td\t_\t_\t_\t_\t1\t_\t_\t_\n",
    PLAIN + "#sent_id=odd\n1\tc\t_\t_\t_\t_\t0\t_\t_\t_\n\n\n\n",  # sent_id variant, blanks
    PLAIN + "# sent_id = s9\n\n1\tc\t_\t_\t_\t_\t0\t_\t_\t_\n",  # sent_id carried over a blank
    PLAIN + "1\tc\t_\t_\t_\t_\t0\t_\t_\t_\n  \n1\td\t_\t_\t_\t_\t0\t_\t_\t_",  # blank of spaces
    PLAIN.replace("\n\n", "\n") + "# sent_id = s2\n1\tc\t_\t_\t_\t_\t0\t_\t_\t_\n",  # no blank
    PLAIN + "# newdoc id = e\n1\tc\t_\t_\t_\t_\t0\t_\t_\tEntity=(e1-x-1-)|SplitAnte=e1<e2\n",
    "1\tc\t_\t_\t_\t_\t0\t_\t_\tEntity=(e1-x--)\n\n" + PLAIN,  # tokens before any newdoc
    PLAIN + "# newdoc id = e\n\n\n\n1\tc\t_\t_\t_\t_\t0\t_\t_\t_\n",  # blank lines after it
    PLAIN + "1\tc\t_\t_\t_\t_\t0\t_\t_\t_\n\n# newdoc id = e\n# x\n\n\n",  # comments last
    # Comment lines read at once: the last sent_id counts, whatever follows it; words
    # 'newdoc' or 'sent_id' in other comments; a sentence of a multiword token, then plain.
    PLAIN + "# sent_id = s2\n# text = c\n#sent_id= s3 \n# not sent_id\n"
    "1\tc\t_\t_\t_\t_\t0\t_\t_\t_\n\n# text = newdoc\n# sent_id = s4\n"
    "1\td\t_\t_\t_\t_\t0\t_\t_\tEntity=(e1-x-1-)\n",
    PLAIN + "# sent_id = s2\n1-2\tcd\t_\t_\t_\t_\t_\t_\t_\t_\n1\tc\t_\t_\t_\t_\t0\t_\t_\t_\n"
    "2\td\t_\t_\t_\t_\t1\t_\t_\tEntity=(e1-x-1-)\n\n# sent_id = s3\n"
    "1\te\t_\t_\t_\t_\t0\t_\t_\t_\n2\tf\t_\t_\t_\t_\t1\t_\t_\t_\n\n",
    PLAIN + "# sent_id = s2\n1\tc\t_\t_\t_\t_\t0\t_\t_\t_\n1.1\tc\t_\t_\t_\t_\t_\t_\t_\t_\n\n",
])
def test_unusual_but_valid_files_read_alike(tmp_path: Path, text: str) -> None:
    path = tmp_path / "odd.conllu"
    path.write_text(text, encoding="utf-8")
    assert_same(path)


def test_bytes_that_are_not_utf8_after_an_error_leave_the_error_first(tmp_path: Path) -> None:
    # A bad line early, then over a megabyte of plain sentences, then bytes that are not
    # UTF-8: reading line by line meets the bad line first, and so must the bulk reading.
    sentence = "1\tc\t_\t_\t_\t_\t0\t_\t_\t_\n2\td\t_\t_\t_\t_\t1\t_\t_\t_\n\n"
    path = tmp_path / "late.conllu"
    path.write_bytes((PLAIN + "1\tc\t_\n\n" + sentence * 40_000).encode() + b"1\t\xff\n")
    with pytest.raises(FormatError) as raised:
        list(read_corefud(path))
    assert (raised.value.line, raised.value.message) == (
        7, "a CoNLL-U token line has 10 tab-separated columns; this one has 3")
    # Without the bad line, the undecodable line is named.
    path.write_bytes((PLAIN + sentence * 40_000).encode() + b"1\t\xff\n")
    with pytest.raises(FormatError) as raised:
        list(read_corefud(path))
    assert raised.value.line == 6 + 3 * 40_000 + 1
    assert raised.value.message == "bytes that are not UTF-8 text"
    assert outcome(read_corefud(path)) == careful(path)


@pytest.mark.parametrize(("body", "taken"), [
    ("1\tc\t_\t_\t_\t_\t0\t_\t_\t_\n2\td\t_\t_\t_\t_\t1\t_\t_\t_", True),
    # A multiword token (first, or later), an empty node last: the line count and the last
    # ID disagree, so the sentence is left to the careful reading before any bulk work.
    ("1-2\tcd\t_\t_\t_\t_\t_\t_\t_\t_\n1\tc\t_\t_\t_\t_\t0\t_\t_\t_\n"
     "2\td\t_\t_\t_\t_\t1\t_\t_\t_", False),
    ("1\tc\t_\t_\t_\t_\t0\t_\t_\t_\n2-3\tde\t_\t_\t_\t_\t_\t_\t_\t_\n"
     "2\td\t_\t_\t_\t_\t1\t_\t_\t_\n3\te\t_\t_\t_\t_\t1\t_\t_\t_", False),
    ("1\tc\t_\t_\t_\t_\t0\t_\t_\t_\n1.1\tc\t_\t_\t_\t_\t_\t_\t_\t_", False),
])
def test_sentences_that_are_not_plain_are_declined_at_once(body: str, taken: bool) -> None:
    reader = _Reader("x.conllu", token_columns=False, all_columns=False)  # at a file's start
    sentences = corefud_sentences.Sentences(reader)
    text = "# sent_id = s\n" + body
    assert sentences.add(text, 0, len(text), 1, None) is taken
    assert sentences.odd_body is not taken

