"""The CoNLL-2012 reader's bulk path (:mod:`anascore.formats.readers.conll2012_bulk`: blocks of
text, regular documents read whole) against its line-by-line reader (``read_lines`` over the
numbered lines of the file): equal documents, every field of every object compared (the
fields equality leaves out too: mention lines, sentence starts, token columns), and equal
errors (message, file, line), on the real corpora, on files of the synthetic corpus' shape, on
documents hypothesis draws, on mutated files and on bytes that are not UTF-8.

Each test also checks that the bulk path took the documents it should, so that a bulk path
that declines everything (and passes by handing all to the careful reader) fails."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import anascore.formats.readers.conll2012 as conll2012
import anascore.formats.readers.conll2012_bulk as bulk
from anascore.core.model import Document
from anascore.formats.io.text_files import open_text
from anascore.formats.readers.conll2012 import read_conll2012, read_conll2012_text, read_lines
from anascore.formats.writers.conll2012 import write_conll2012
from tests.support.document_fields import outcome
from tests.support.mutations import mutant, write_mutant
from tests.support.paths import EXAMPLES, FIXTURES, corpus_files
from tests.support.strategies import document_pairs, to_document, without_crossing


def careful(path: Path, **options: bool) -> Iterator:
    with open_text(str(path)) as lines:
        yield from read_lines(enumerate(lines, start=1), str(path), **options)


@pytest.fixture
def bulk_taken(monkeypatch) -> list[str]:
    """The names of the documents the bulk path read."""
    taken: list[str] = []
    original = conll2012.read_body

    def counted(*arguments, **keywords):
        read = original(*arguments, **keywords)
        if read is not None:
            taken.append(read[0].name)
        return read

    monkeypatch.setattr(conll2012, "read_body", counted)
    return taken


def same(path: Path, **options: bool) -> tuple[list[object], object]:
    read = outcome(read_conll2012(path, **options))
    assert read == outcome(careful(path, **options))
    return read


#: Part-of-speech, parse and named-entity cells the synthetic files draw from.
_TAGS = ["DT", "NN", "VBZ", "IN", "PRP"]
_PARSE = ["*", "(TOP(S*", "(NP*", "*)", "(NP*)"]
_NER = ["*", "*", "(ORG)", "(DATE*", "*)"]
_ARGUMENTS = ["*", "*", "(ARG0*", "*)", "(V*)", "(ARGM-TMP*))"]


def synthetic(rng: random.Random, documents: int = 3, separator: str = "\t") -> str:
    """A file of the synthetic corpus' shape (benchmarks/generate_corpus.py): OntoNotes lines
    (document, part, index, word, part of speech, parse, three ``-``, speaker, named entity,
    a predicate-argument column per predicate of the sentence, coreference), sentences of a
    varying number of predicates, nested mentions and one-token mentions joined by ``|``."""
    out = []
    for number in range(documents):
        name = f"bn/doc/{number:02}"
        out.append(f"#begin document ({name}); part 00{number}")
        for _ in range(rng.randint(1, 5)):
            length = rng.randint(1, 12)
            coreference = ["-"] * length
            for _ in range(rng.randint(0, 3)):
                first = rng.randrange(length)
                last = rng.randrange(first, min(length, first + 4))
                entity = str(rng.randint(1, 6))
                if first == last:
                    opened = f"({entity})"
                    coreference[first] = (opened if coreference[first] == "-"
                                          else f"{coreference[first]}|{opened}")
                elif coreference[first] == "-" and coreference[last] == "-":
                    coreference[first], coreference[last] = f"({entity}", f"{entity})"
            predicates = rng.randint(0, 4)
            for index in range(length):
                arguments = [rng.choice(_ARGUMENTS) for _ in range(predicates)]
                cells = [name, "0", str(index), rng.choice(["the", "dog", "é", "(", "#"]),
                         rng.choice(_TAGS), rng.choice(_PARSE), "-", "-", "-",
                         "Speaker#1", rng.choice(_NER), *arguments, coreference[index]]
                out.append(separator.join(cells))
            out.append("")
        out.append("#end document")
    return "\n".join(out) + "\n"


def test_the_synthetic_shape_is_read_in_bulk_and_equally(tmp_path, bulk_taken) -> None:
    path = tmp_path / "synthetic.conll"
    path.write_text(synthetic(random.Random(3), documents=8), encoding="utf-8")
    for options in ({}, {"token_columns": True}, {"all_columns": True}):
        documents, error = same(path, **options)
        assert error is None and len(documents) == 8
    assert len(bulk_taken) == 16  # every document but with all_columns


@pytest.mark.parametrize("variant", ["crlf", "cr", "bom", "no last line end", "blank lines"])
def test_line_ends_and_marks_are_read_as_a_text_file_reads_them(tmp_path, bulk_taken,
                                                               variant: str) -> None:
    text = synthetic(random.Random(4), documents=4)
    if variant == "crlf":
        data = text.replace("\n", "\r\n").encode()
    elif variant == "cr":
        data = text.replace("\n", "\r").encode()
    elif variant == "bom":
        data = b"\xef\xbb\xbf" + text.encode()
    elif variant == "no last line end":
        data = text.rstrip("\n").encode()
    else:  # blank lines before, between and after sentences, and around documents
        data = ("\n\n" + text.replace("\n\n", "\n\n\n").replace("#end", "\n\n#end")).encode()
    path = tmp_path / "variant.conll"
    path.write_bytes(data)
    documents, error = same(path, token_columns=True)
    assert error is None and len(documents) == 4
    assert len(bulk_taken) == 4


@pytest.mark.parametrize("block", [1, 7, 64, 5000])
def test_blocks_ending_anywhere_give_the_same_documents(tmp_path, monkeypatch, bulk_taken,
                                                        block: int) -> None:
    monkeypatch.setattr(bulk, "BLOCK_BYTES", block)
    for newline in ("\n", "\r\n"):
        path = tmp_path / "blocks.conll"
        path.write_bytes(synthetic(random.Random(block), documents=3).replace(
            "\n", newline).encode())
        documents, error = same(path)
        assert error is None and len(documents) == 3
    assert len(bulk_taken) == 6


def test_space_separated_and_irregular_documents_are_read_by_the_careful_reader(
        tmp_path, bulk_taken) -> None:
    text = synthetic(random.Random(5), documents=4)
    head, *documents = text.split("#begin document")
    documents[0] = documents[0].replace("\t", " ")  # space-separated
    documents[1] = documents[1].replace("\n\n", "\n# a comment\n", 1)  # a comment inside
    path = tmp_path / "mixed.conll"
    path.write_text("#begin document".join([head, *documents]), encoding="utf-8")
    documents_read, error = same(path)
    assert error is None and len(documents_read) == 4
    assert len(bulk_taken) == 2


@pytest.mark.parametrize("corpus", ["litbank", "gum"])
def test_real_corpora_are_read_in_bulk_and_equally(bulk_taken, corpus: str) -> None:
    files = corpus_files(corpus, "coref-conll", pattern="*.conll")
    read = 0
    for path in files:
        for options in ({}, {"token_columns": True}):
            documents, error = same(path, **options)
            assert documents and error is None
            read += len(documents)
    assert len(bulk_taken) == read


def test_the_suite_files_are_read_equally() -> None:
    files = sorted([*FIXTURES.rglob("*.conll"), *EXAMPLES.rglob("*.conll")])
    assert len(files) > 20
    for path in files:
        for options in ({}, {"token_columns": True}):
            same(path, **options)


@st.composite
def written_documents(draw: st.DrawFn) -> list[Document]:
    """Documents CoNLL-2012 can hold (no crossing mentions of one entity), with sentences."""
    documents = []
    for index in range(draw(st.integers(1, 3))):
        key, _, tokens = draw(document_pairs())
        document = to_document(without_crossing(key), tokens, name=f"d{index}")
        starts = draw(st.lists(st.integers(1, tokens), max_size=3))
        documents.append(dataclasses.replace(
            document, sentence_starts=tuple(sorted({0, *starts} - {tokens}))))
    return documents


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(documents=written_documents())
def test_drawn_documents_are_read_in_bulk_and_equally(tmp_path_factory, documents) -> None:
    path = tmp_path_factory.mktemp("drawn") / "drawn.conll"
    write_conll2012(documents, path)
    taken: list[object] = []
    original = conll2012.read_body

    def counted(*arguments, **keywords):
        read = original(*arguments, **keywords)
        taken.append(read)
        return read

    conll2012.read_body = counted
    try:
        read, error = same(path)
    finally:
        conll2012.read_body = original
    assert error is None and len(read) == len(documents)
    assert len(taken) == len(documents) and all(read is not None for read in taken)


MALFORMED = {
    # A line a cell short in the second document, then an unclosed mention: the first said.
    "width": ("#begin document a\n1\tx\t-\n#end document\n#begin document b\n1\tx\t(1\n"
              "2\ty\n3\tz\t-\n#end document\n", 6),
    # A closing bracket without an open mention.
    "closing": ("#begin document a\n1\tx\t-\n\n1\tx\t2)\n#end document\n", 4),
    # A mention never closed, said at its line.
    "unclosed": ("#begin document a\n1\tx\t(1\n2\ty\t-\n#end document\n", 2),
    # A '#begin document' inside a document.
    "begin": ("#begin document a\n1\tx\t-\n#begin document b\n#end document\n", 3),
    # No '#end document'.
    "end": ("#begin document a\n1\tx\t(1)\n2\ty\t-\n", 3),
    # A double antecedent.
    "plus": ("#begin document a\n1\tx\t(1+2)\n#end document\n", 2),
    # A blank line of tabs inside a sentence (a sentence break to the careful reader), then
    # a mention across it.
    "tabs": ("#begin document a\n1\tx\t(1\n\t\t\n2\ty\t1)\n#end document\n", None),
    # A sentence wider than the file's first (an empty cell, then a filled one): said at its
    # first line.
    "wider": ("#begin document a\n1\tx\t-\n\n1\tx\t-\t\n2\ty\t-\tz\n#end document\n", 4),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_errors_are_the_same(tmp_path, case: str) -> None:
    text, line = MALFORMED[case]
    path = tmp_path / "bad.conll"
    path.write_text(text, encoding="utf-8")
    documents, error = same(path)
    if line is None:
        assert error is None and documents
    else:
        assert error is not None and error[1] == str(path) and error[2] == line


@pytest.mark.parametrize("seed", range(40))
def test_mutated_files_give_the_same_documents_or_error(tmp_path, seed: int) -> None:
    rng = random.Random(seed)
    text = synthetic(rng, documents=3)
    path = tmp_path / "mutant.conll"
    for _ in range(5):
        write_mutant(path, mutant(text, rng))
        same(path)
        same(path, token_columns=True)


@pytest.mark.parametrize("position", [0.0, 0.2, 0.5, 0.9, 1.0])
def test_bytes_that_are_not_utf8_give_the_same_documents_then_error(
        tmp_path, monkeypatch, position: float) -> None:
    # Read in small blocks, the bad bytes are met documents ahead of where reading line by
    # line meets them: the file is read again line by line, the documents already given
    # skipped, and ends with the same documents and the same error.
    monkeypatch.setattr(bulk, "BLOCK_BYTES", 2048)
    data = synthetic(random.Random(6), documents=40).encode()
    at = data.index(b"\n", int(len(data) * position) - 1 if position else 0) + 1
    path = tmp_path / "bytes.conll"
    path.write_bytes(data[:at] + b"\xff\xfe\n" + data[at:])
    _, error = same(path)
    assert error is not None and error[0] == "bytes that are not UTF-8 text"
    assert error[2] == data[:at].count(b"\n") + 1


def test_a_stretch_is_read_as_its_lines_are(bulk_taken) -> None:
    # What the parallel run reads each document with (read_conll2012_text, from its
    # '#begin document' line, with the file's first sentence): the same as read_lines of it.
    text = synthetic(random.Random(11), documents=4)
    lines = text.split("\n")
    starts = [index for index, line in enumerate(lines) if line.startswith("#begin")]
    text_columns = conll2012.FileColumns()
    lines_columns = conll2012.FileColumns()
    for start, end in zip(starts, [*starts[1:], len(lines) - 1], strict=True):
        stretch = "\n".join(lines[start:end]) + "\n"
        numbered = [(start + 1 + index, line + "\n")
                    for index, line in enumerate(lines[start:end])]
        expected = outcome(read_lines(iter(numbered), "f.conll", columns=lines_columns))
        assert outcome(read_conll2012_text(stretch, "f.conll", first_line=start + 1,
                                           columns=text_columns)) == expected
        assert len(expected[0]) == 1
    assert len(bulk_taken) == 4
    assert text_columns.first == lines_columns.first
