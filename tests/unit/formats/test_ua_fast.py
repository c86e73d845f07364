"""The UA reader's fast path (:mod:`anascore.formats.readers.ua_fast`, whole documents in
bulk) against its line-by-line reader (``read_ua_lines``): equal documents, every field of
every object compared (the fields equality leaves out too: lines, heads, Min, attributes,
nodes), and equal errors (message, file, line), on the real corpora, on files of the
synthetic corpus' shape, on documents hypothesis draws and on mutated files.

Each test also checks that the fast path took the documents it should, so that a fast path
that declines everything (and passes by handing all to the careful reader) fails."""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import anascore.formats.readers.ua_fast as ua_fast
from anascore.formats.io.text_files import open_text
from anascore.formats.readers.ua import read_ua, read_ua_lines, read_ua_text
from anascore.formats.writers.ua import write_ua
from tests.support.document_fields import outcome
from tests.support.mutations import mutant, write_mutant
from tests.support.paths import CORPORA, FIXTURES
from tests.support.strategies import ua_documents

COLUMNS = ("ID", "FORM", "LEMMA", "UPOS", "XPOS", "FEATS", "HEAD", "DEPREL", "DEPS", "MISC",
           "IDENTITY", "BRIDGING", "DISCOURSE_DEIXIS")
CODI_CRAC = sorted((CORPORA / "codi-crac22").glob("*.CONLLUA"))


def careful(path: Path, **options: bool) -> Iterator:
    with open_text(str(path)) as lines:
        yield from read_ua_lines(enumerate(lines, start=1), str(path), **options)


@pytest.fixture
def fast_taken(monkeypatch) -> list[str]:
    """The names of the documents the fast path read."""
    taken: list[str] = []
    original = ua_fast.fast_document

    def counted(*arguments, **keywords):
        document = original(*arguments, **keywords)
        if document is not None:
            taken.append(document.name)
        return document

    monkeypatch.setattr(ua_fast, "fast_document", counted)
    return taken


def same(path: Path, **options: bool) -> tuple[list[object], object]:
    fast = outcome(read_ua(path, **options))
    assert fast == outcome(careful(path, **options))
    return fast


def synthetic(rng: random.Random, documents: int = 3) -> str:
    """A file of the synthetic corpus' shape (benchmarks/generate_corpus.py written as UA):
    ``# global.columns``, documents of sentences with a ``# sent_id`` each, tab-separated token
    lines of which most carry no annotation, nested and one-token markables, a pseudo-entity, a
    bridging link and a discourse-deixis markable."""
    out = ["# global.columns = " + " ".join(COLUMNS)]
    for number in range(documents):
        out.append(f"# newdoc id = (bn/doc/{number}); part 00{number}")
        token = 0
        markable = 0
        for sentence in range(rng.randint(2, 6)):
            out.append(f"# sent_id = doc{number}-{sentence + 1}")
            length = rng.randint(3, 12)
            cells = [["_"] * 3 for _ in range(length)]
            for _ in range(rng.randint(0, 3)):  # well-nested markables: open at i, close at j
                first = rng.randrange(length)
                last = rng.randrange(first, min(length, first + 3))
                markable += 1
                entity = rng.choice(["1", "2", "3", "4-Pseudo"])
                attributes = f"EntityID={entity}|MarkableID=m{markable}"
                if first == last:
                    cells[first][0] = _add(cells[first][0], f"({attributes})")
                elif all(cell[0] == "_" for cell in cells[first:last + 1]):
                    cells[first][0] = f"({attributes}"
                    cells[last][0] = ")"
            if rng.random() < 0.3:
                cells[0][2] = f"(EntityID=d{sentence}|MarkableID=dd{number}-{sentence})"
            for identity, bridging, deixis in cells:
                token += 1
                out.append("\t".join([str(token), rng.choice(["the", "a", "dog", "(", "é"]),
                                      *["_"] * 8, identity, bridging, deixis]))
            out.append("")
    return "\n".join(out) + "\n"


def _add(cell: str, bracket: str) -> str:
    return bracket if cell == "_" else cell + bracket


def test_the_synthetic_shape_is_read_fast_and_equally(tmp_path, fast_taken) -> None:
    path = tmp_path / "synthetic.ua"
    path.write_text(synthetic(random.Random(3), documents=6))
    documents, error = same(path)
    assert error is None and len(documents) == 6
    assert len(fast_taken) == 6
    fast_taken.clear()
    same(path, token_columns=True)
    assert len(fast_taken) == 6


def test_the_fixtures_are_read_equally(fast_taken) -> None:
    files = sorted((FIXTURES / "ua").glob("*.conllua"))
    assert files
    for path in files:
        for options in ({}, {"token_columns": True}, {"all_columns": True}):
            same(path, **options)
    assert fast_taken  # features.conllua and the typed files are of the common layout


@pytest.mark.parametrize("path", CODI_CRAC, ids=[path.name for path in CODI_CRAC])
def test_codi_crac_files_are_read_equally(path: Path) -> None:
    documents, error = same(path)
    assert documents and error is None


def tab_separated(text: str) -> str:
    """A CODI-CRAC file (space-aligned) rewritten with tabs, each line padded with ``_`` to
    the columns ``# global.columns`` names: the same annotations in the common layout."""
    declared = 0
    lines = []
    for line in text.split("\n"):
        columns = re.match(r"#\s*global\.columns\s*=\s*(.*)$", line)
        if columns:
            declared = len(columns.group(1).split())
        if line and not line.startswith("#"):
            cells = line.split()
            line = "\t".join(cells + ["_"] * (declared - len(cells)))
        lines.append(line)
    return "\n".join(lines)


@pytest.mark.parametrize("path", CODI_CRAC, ids=[path.name for path in CODI_CRAC])
def test_codi_crac_annotations_in_tabs_are_read_fast_and_equally(tmp_path, path: Path,
                                                                  fast_taken) -> None:
    rewritten = tmp_path / path.name
    rewritten.write_text(tab_separated(path.read_text(encoding="utf-8")), encoding="utf-8")
    documents, error = same(rewritten)
    assert error is None
    assert len(fast_taken) == len(documents)  # no empty node, no multiword token there
    fast_taken.clear()
    same(rewritten, token_columns=True)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(documents=st.lists(ua_documents(), min_size=1, max_size=3))
def test_drawn_documents_are_read_fast_and_equally(tmp_path_factory, documents) -> None:
    path = tmp_path_factory.mktemp("drawn") / "drawn.ua"
    named = [dataclasses.replace(document, name=f"d{index}")
             for index, document in enumerate(documents)]
    write_ua(named, path)
    taken: list[object] = []
    original = ua_fast.fast_document

    def counted(*arguments, **keywords):
        document = original(*arguments, **keywords)
        taken.append(document)
        return document

    ua_fast.fast_document = counted
    try:
        read, error = same(path)
    finally:
        ua_fast.fast_document = original
    assert error is None and len(read) == len(named)
    assert taken and all(document is not None for document in taken)


MALFORMED = {
    # A width error in the second document, then a bad one further on: the first is said.
    "width": ("# global.columns = {columns}\n# newdoc id = a\n1\tx{tail}\n\n"
              "# newdoc id = b\n1\tx{tail}\n2\ty\t_\n3\t(\t_\n", 7),
    # A '# newdoc' without an id ends nothing: said before the bad markable above it.
    "newdoc": ("# global.columns = {columns}\n# newdoc id = a\n1\tx{tail}\n"
               "2\t(EntityID=1{tail}\n# newdoc\n", 5),
    # An unclosed markable, said at its line when the document ends.
    "unclosed": ("# global.columns = {columns}\n# newdoc id = a\n1\tx{tail}\n\n"
                 "# newdoc id = b\n1\tx\t_\t_\t_\t_\t_\t_\t_\t_\t(EntityID=1\t_\t_\n", 6),
    # A '# global.columns' without IDENTITY inside a document.
    "columns": ("# global.columns = {columns}\n# newdoc id = a\n1\tx{tail}\n"
                "# global.columns = ID FORM\n2\ty{tail}\n", 4),
    # A token line before any document.
    "before": ("# global.columns = {columns}\n1\tx{tail}\n# newdoc id = a\n", 2),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_errors_are_the_same(tmp_path, case: str) -> None:
    template, line = MALFORMED[case]
    path = tmp_path / "bad.ua"
    path.write_text(template.format(columns=" ".join(COLUMNS), tail="\t_" * 11))
    _, error = same(path)
    assert error is not None and error[1] == str(path) and error[2] == line


def test_bytes_that_are_not_utf8_after_documents_read(tmp_path) -> None:
    # The block reader meets the bad bytes before the line-by-line reader would (it decodes
    # 8 kB at a time): the documents before those 8 kB are still given, then the same error.
    text = synthetic(random.Random(5), documents=40)
    path = tmp_path / "bytes.ua"
    path.write_bytes(text.encode() + b"# newdoc id = z\n1\t\xff\xfe" + b"\t_" * 11 + b"\n")
    documents, error = same(path)
    assert 10 < len(documents) < 40
    assert error is not None and error[0] == "bytes that are not UTF-8 text"


@pytest.mark.parametrize("seed", range(40))
def test_mutated_files_give_the_same_documents_or_error(tmp_path, seed: int) -> None:
    rng = random.Random(seed)
    text = synthetic(rng, documents=3)
    path = tmp_path / "mutant.ua"
    for _ in range(5):
        write_mutant(path, mutant(text, rng))
        same(path)


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_a_stretch_is_read_as_its_lines_are(fast_taken, newline: str) -> None:
    # What the parallel run reads each document with (read_ua_text, from its '# newdoc' line,
    # after the '# global.columns' line in force there): the same as read_ua_lines of it.
    text = synthetic(random.Random(11), documents=4)
    lines = text.split("\n")
    header = (1, lines[0])
    starts = [index for index, line in enumerate(lines) if line.startswith("# newdoc")]
    for start, end in zip(starts, [*starts[1:], len(lines) - 1], strict=True):
        stretch = newline.join(lines[start:end]) + newline
        numbered = [(header[0], header[1] + "\n")] + [
            (start + 1 + index, line + "\n") for index, line in enumerate(lines[start:end])]
        expected = outcome(read_ua_lines(numbered, "f.ua"))
        assert outcome(read_ua_text(stretch, "f.ua", first_line=start + 1,
                                    header=header)) == expected
        assert len(expected[0]) == 1
    assert len(fast_taken) == 4


@pytest.mark.parametrize("block", [1, 7, 50, 1000])
def test_blocks_ending_anywhere_give_the_same_documents(tmp_path, monkeypatch, fast_taken,
                                                        block: int) -> None:
    # Blocks end inside lines, inside '# newdoc' lines and between a carriage return and its
    # line feed: the documents are those of the whole text.
    import anascore.formats.readers.ua as ua

    monkeypatch.setattr(ua, "BLOCK_CHARS", block)
    for newline in ("\n", "\r\n"):
        path = tmp_path / "blocks.ua"
        path.write_bytes(synthetic(random.Random(block), documents=3).replace(
            "\n", newline).encode())
        documents, error = same(path)
        assert error is None and len(documents) == 3
    assert len(fast_taken) == 6


def with_multiword_tokens(text: str, rng: random.Random, cell: str = "_",
                          token_id: str | None = None) -> str:
    """``text`` (of :func:`synthetic`'s shape) with a multiword-token line before some token
    lines: ``N-N+1`` (or ``token_id``), ``cell`` in its IDENTITY column."""
    out = []
    for line in text.split("\n"):
        if line and line[0].isdigit() and rng.random() < 0.3:
            number = int(line.split("\t")[0])
            out.append("\t".join([token_id or f"{number}-{number + 1}", "don't",
                                  *["_"] * 8, cell, "_", "_"]))
        out.append(line)
    return "\n".join(out)


@pytest.mark.parametrize("seed", range(4))
def test_multiword_tokens_are_read_fast_and_equally(tmp_path, fast_taken, seed: int) -> None:
    path = tmp_path / "multiword.ua"
    path.write_text(with_multiword_tokens(synthetic(random.Random(seed), documents=4),
                                          random.Random(seed)), encoding="utf-8")
    assert re.search(r"^\d+-\d+\t", path.read_text(encoding="utf-8"), re.MULTILINE)
    documents, error = same(path)
    assert error is None and len(documents) == 4
    assert len(fast_taken) == 4
    fast_taken.clear()
    same(path, token_columns=True)
    assert len(fast_taken) == 4


@pytest.mark.parametrize(("cell", "token_id"), [
    ("(EntityID=9|MarkableID=mw)", None),  # an annotated multiword token: an error
    ("_", "3-x"),  # no ID the reader knows: an error
    ("_", "3.1"),  # an empty node: read line by line
    ("_", "0"),
    ("_", "\u0663-\u0664"),  # Arabic-Indic digits: read line by line
])
def test_other_non_token_lines_are_read_by_the_careful_reader(
        tmp_path, fast_taken, cell: str, token_id: str | None) -> None:
    rng = random.Random(7)
    path = tmp_path / "other.ua"
    path.write_text(with_multiword_tokens(synthetic(rng, documents=2), random.Random(1), cell,
                                          token_id), encoding="utf-8")
    same(path)
    assert not fast_taken


@pytest.mark.parametrize("ending", ["\n", "", "\n\n\n"])
def test_blank_and_comment_lines_anywhere_are_read_fast_and_equally(tmp_path, fast_taken,
                                                                    ending: str) -> None:
    # The fast path cuts a document at its comment lines and reads each run of token lines
    # whole: blank lines before, among and after them, comments without a blank line between,
    # a sentence without '# sent_id', the file's last line with or without its newline.
    tail = "\t_" * 11
    token = "{}\tw" + tail
    lines = ["# global.columns = " + " ".join(COLUMNS), "# newdoc id = a",
             token.format(1), "", "", "# sent_id = a-2", "", token.format(2),
             "# text = x", "# sent_id = a-3", token.format(3), "", token.format(4),
             token.format(5), "", "", "# c", "", "", token.format(6).replace(
                 "\t_\t_\t_", "\t(EntityID=1|MarkableID=m1)\t_\t_"),
             token.format(7), "# c2", "", "# c3", token.format(8), "# c4", "", token.format(9),
             "# newdoc id = b", "", "# sent_id = b-1", "", "", token.format(1), "",
             "# sent_id = b-2", token.format(2)]
    path = tmp_path / "layout.ua"
    path.write_text("\n".join(lines) + ending)
    documents, error = same(path)
    assert error is None and len(documents) == 2
    assert len(fast_taken) == 2
