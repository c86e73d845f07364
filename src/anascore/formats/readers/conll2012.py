"""CoNLL-2012: the format of the CoNLL-2011/2012 shared tasks and the reference scorer.

Rules this reader enforces (each violation is a :class:`~anascore.core.errors.FormatError`
naming the file and line):

* A document starts with ``#begin document NAME`` and ends with ``#end document``. The
  document is identified by ``NAME``, all the text after ``begin document`` (for OntoNotes
  ``(bc/cctv/00/cctv_0000); part 000``), as the reference scorer identifies it.
* Between them, one token per line, with any number of columns (the reference scorer's
  five-column test files, the OntoNotes ``*_conll`` files with twelve or more). A line with a
  tab is split at tabs, so a cell may be empty (LitBank writes an empty last cell for "no
  coreference"; an empty cell reads as ``-``); a line without a tab is split at runs of
  spaces. Every token line of a file has the same number of columns, so that its coreference
  column is one column throughout: a line, a sentence or a document with a cell more or less
  than the others would have another column read as the coreference column (an empty cell
  dropped by a split at spaces turns the named-entity cell ``(DATE)`` into a mention; an
  extra ``-`` hides every mention of its sentence), so it is an error naming it and a line of
  the file's width (its first sentence's). Only OntoNotes sentences differ, by their
  predicate-argument columns (one per predicate of the sentence, between the named-entity
  column and the coreference column, every cell holding a ``*``). Empty cells after the last
  filled one (a stray trailing tab) are no column. Key and response may have different
  layouts. CRLF line ends are accepted. A blank line ends a sentence. Other lines starting
  with ``#`` are comments.
* The last column holds the coreference annotation: ``-`` (or ``_``) for none, else
  brackets ``(ID`` (a mention of entity ID opens), ``ID)`` (the innermost open mention of ID
  closes), ``(ID)`` (a one-token mention), several of them joined by ``|`` or written back to
  back (``(1(3(3``). An ID is any text without brackets, ``|`` or white space (GUM's
  ``abstract-1-Bandial_language``), but not ``-`` or ``_`` alone.
* Every mention opened in a document is closed in it.

The word form is column 4 when a line has at least five columns (both layouts put it there),
column 2 in three-column files (GUM's ``index word coreference``), else the first column; it is
kept so that key and response can be checked to cover the same text. In the OntoNotes layout
(twelve or more columns on every token line of a document) the part-of-speech column (5) and
the named-entity column (11) are kept too, as ``Document.token_columns["pos"]`` and ``["ner"]``:
mention types are derived from them when a metric needs them
(:mod:`anascore.comparison.mention_types`).
Documents are yielded one at a time, so memory grows with the largest document, not with the
file. The file is read in large blocks and each regular document in bulk
(:mod:`~.conll2012_bulk`); anything else line by line (:func:`read_lines`), with the same
documents and errors.

Writing: :mod:`anascore.formats.writers.conll2012`.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterator

from anascore.core.errors import FormatError, shorten
from anascore.core.model import Document, Mention, SpanTokens
from anascore.formats.io.text_files import open_text
from anascore.formats.readers.conll2012_bulk import (
    Bracket,
    FileColumns,
    TextLines,
    Undecodable,
    decoded_blocks,
    make_document,
    read_body,
)

_BEGIN = re.compile(r"#\s*begin document\b\s*(.*)$")
_END = re.compile(r"#\s*end document\b")
_BRACKET = re.compile(r"(\()?([^()|\s]+)(\))?")
# (A tab-separated line keeps its line end on the last cell.)
_NO_COREFERENCE = frozenset({"-", "_", "", "\n", "-\n", "_\n"})
#: The no-coreference marks, which name no entity inside brackets.
_NO_ENTITY = frozenset({"-", "_"})
_WORD_COLUMN = {1: 0, 2: 0, 3: 1, 4: 0}
_ONTONOTES_WIDTH = 12
#: How many distinct coreference cells a file's cache of parsed brackets holds at most (cells
#: repeat within a document; entity IDs that never repeat across documents would otherwise
#: grow it with the corpus: 80 MB on a PreCo-sized corpus; a few MB at this bound).
_CACHED_CELLS = 4_096
_NEVER = 1 << 62
#: The bytes a text file decodes at a time (``TextIOWrapper._CHUNK_SIZE``), where it says none.
_CHUNK = 1 << 16


def read_conll2012(path: str | os.PathLike[str], *, token_columns: bool = False,
                   all_columns: bool = False) -> Iterator[Document]:
    """Yield the documents of a CoNLL-2012 file in file order.

    ``token_columns=True`` also keeps the part-of-speech and named-entity columns of
    OntoNotes-layout documents (``Document.token_columns``); only metrics that need mention
    types ask for them, so that plain scoring reads no faster or slower for their sake.

    The file is read in large blocks (regular documents in bulk, :mod:`~.conll2012_bulk`);
    with ``all_columns``, or once bytes ahead are found not to be UTF-8, it is read line by
    line from its start, as a text file gives its lines, the documents already yielded
    skipped: its documents and its first error are then those that reading gives.
    """
    path = os.fspath(path)
    found = 0
    if not all_columns:
        try:
            with open_text(path) as stream:
                blocks = decoded_blocks(stream.buffer, getattr(stream, "_CHUNK_SIZE", _CHUNK))
                for document in read_lines(TextLines(blocks), path,
                                           token_columns=token_columns):
                    found += 1
                    yield document
        except Undecodable:
            pass
        else:
            if not found:
                _no_document(path)
            return
    read = 0
    with open_text(path) as stream:
        for document in read_lines(enumerate(stream, start=1), path,
                                   token_columns=token_columns, all_columns=all_columns):
            read += 1
            if read > found:
                yield document
    if not read:
        _no_document(path)


def read_conll2012_text(text: str, path: str, *, first_line: int = 1,
                        header: tuple[int, str] | None = None, token_columns: bool = False,
                        columns: FileColumns | None = None) -> Iterator[Document]:
    """The documents of ``text``, lines of ``path`` from line ``first_line`` on (universal
    newlines applied), read as :func:`read_conll2012` reads them: one document's stretch of a
    file for the parallel reader (:mod:`anascore.scoring.parallel`), with its file's
    ``columns``. (CoNLL-2012 has no header line: ``header`` is always ``None``.)"""
    del header
    return read_lines(TextLines(iter([text]), first_line), path, token_columns=token_columns,
                      columns=columns)


def _no_document(path: str) -> None:
    raise FormatError(
        "no document found; expected '#begin document NAME' lines (is this CoNLL-2012?)",
        path=path, line=_last_line_number(path))


def read_lines(lines: Iterator[tuple[int, str]], path: str, *,
               token_columns: bool = False, all_columns: bool = False,
               columns: FileColumns | None = None) -> Iterator[Document]:
    """The documents in ``lines`` (numbered lines of ``path``, universal newlines), checking
    what lies between documents; :func:`read_conll2012` reads a whole file through it, the
    parallel reader (:mod:`anascore.scoring.parallel`) one document's stretch of a file, with the
    file's ``columns`` (else they are the first sentence's in ``lines``). Given
    :class:`~.conll2012_bulk.TextLines`, it reads each regular document in bulk; given other
    lines (``enumerate`` over a text file), every document line by line."""
    columns = FileColumns() if columns is None else columns
    # Lines this wide carry the OntoNotes columns; never reached when they are not wanted.
    tagged_width = _ONTONOTES_WIDTH if token_columns else _NEVER
    # The brackets of each coreference cell met so far: cells repeat ('(13', '13)', '(4)').
    cells: dict[str, tuple[Bracket | str, ...]] = {}
    for line_number, raw in lines:
        line = raw.strip()
        if not line:
            continue
        name = begun_document(line)
        if name is None:
            if line[0] == "#" and not _END.match(line):
                continue
            expected = ("'#end document' without '#begin document'" if line[0] == "#"
                        else "token line outside a document; expected '#begin document "
                             "NAME'")
            raise FormatError(expected, path=path, line=line_number)
        yield _read_document(name, line_number, lines, path, tagged_width, cells, columns,
                             all_columns)


def begun_document(line: str) -> str | None:
    """The name of the document a (stripped) line begins, ``None`` for any other line."""
    if not line.startswith("#"):
        return None
    begin = _BEGIN.match(line)
    return None if begin is None else begin.group(1).strip()


def _last_line_number(path: str) -> int | None:
    """The number of the last line of a file without documents (for its error)."""
    with open_text(path) as stream:
        return sum(1 for _ in stream) or None


def _read_document(name: str, begin_line: int, lines: Iterator[tuple[int, str]],
                   path: str, tagged_width: int,
                   cells: dict[str, tuple[Bracket | str, ...]], file_columns: FileColumns,
                   all_columns: bool) -> Document:
    """The document begun at ``begin_line``: read in bulk (:mod:`~.conll2012_bulk`) when
    ``lines`` are a :class:`TextLines` and the document is one the bulk path proves regular,
    else line by line (:func:`_read_lines_of_document`), from the same lines."""
    if isinstance(lines, TextLines) and not all_columns:
        taken = lines.take_document()
        if taken is not None and _END.match(taken[1].strip()):
            body, last = taken
            read = read_body(name, begin_line, body, path, tagged_width, cells, _parse_cell,
                             file_columns)
            if read is not None:
                lines.advance(len(body) + len(last), read[1] + 1)
                return read[0]
    return _read_lines_of_document(name, begin_line, lines, path, tagged_width, cells,
                                   file_columns, all_columns)


def _read_lines_of_document(name: str, begin_line: int, lines: Iterator[tuple[int, str]],
                            path: str, tagged_width: int,
                            cells: dict[str, tuple[Bracket | str, ...]],
                            file_columns: FileColumns, all_columns: bool = False) -> Document:
    """The document begun at ``begin_line``, read line by line: its lines up to ``#end
    document`` (and, on
    lines at least ``tagged_width`` wide, the part-of-speech and named-entity columns);
    ``cells`` caches the brackets of coreference cells (:func:`_cell_brackets`).

    Each sentence is read whole before its tokens are taken (:func:`_sentence_width`): its
    lines must have one width, the file's (``file_columns``, :func:`_document_width`), which
    OntoNotes varies by sentence (a predicate-argument column per predicate of the
    sentence)."""
    words: list[str] = []
    kept: list[str] = []  # with all_columns: each token line's cells but the last
    sentence_starts: list[int] = [0]
    part_of_speech: list[str] = []
    named_entities: list[str] = []
    closed: dict[str, list[Mention]] = {}
    spans = SpanTokens()  # copies of a span share its positions
    open_mentions: dict[str, list[tuple[int, int]]] = {}
    sentence: list[tuple[int, list[str]]] = []  # the current sentence's token lines
    first_width = 0  # the width of the sentence's first line
    uneven = False  # whether another line of the sentence has another width
    line_number = begin_line
    first = file_columns.first  # the file's first sentence (once read)

    def take_sentence() -> None:
        """Check the sentence's width, then take its tokens and brackets."""
        if not sentence:
            return
        width = first_width
        if uneven:
            width = _sentence_width(sentence, path)
            for _, columns in sentence:
                del columns[width:]  # stray empty cells (a trailing tab)
        if not first:
            first.extend(sentence)
        elif width != len(first[0][1]):
            width = _document_width(file_columns, sentence, width, path)
        word_column = 3 if width > 4 else _WORD_COLUMN[width]
        for number, columns in sentence:
            words.append(columns[word_column])
            if all_columns:
                kept.append("\t".join(columns[:-1]))
            if width >= tagged_width:
                part_of_speech.append(columns[4])
                named_entities.append(columns[10])
            annotation = columns[-1]
            if annotation in _NO_COREFERENCE or width == 1:
                continue
            brackets = cells.get(annotation)
            if brackets is None:
                brackets = _parse_cell(cells, annotation)
            token = len(words) - 1
            for bracket in brackets:
                if isinstance(bracket, str):
                    raise FormatError(bracket, path=path, line=number)
                opens, entity_id, closes = bracket
                mentions = closed.setdefault(entity_id, [])
                if opens:
                    if closes:
                        mentions.append(Mention.span(token, token, number, spans))
                    else:
                        open_mentions.setdefault(entity_id, []).append((token, number))
                    continue
                stack = open_mentions.get(entity_id)
                if not stack:
                    raise FormatError(f"closing bracket '{shorten(entity_id)})' without an open "
                                      f"mention of entity {shorten(entity_id)}", path=path,
                                      line=number)
                start, start_line = stack.pop()
                mentions.append(Mention.span(start, token, start_line, spans))
        sentence.clear()

    for line_number, raw in lines:
        if "\t" in raw:
            # The line end stays on the last cell, which is stripped when it is parsed.
            columns = raw.split("\t")
            if not columns[0] and not raw.strip():
                columns = []
        else:
            columns = raw.split()
        if not columns:
            take_sentence()
            uneven = False
            if sentence_starts[-1] != len(words):
                sentence_starts.append(len(words))
            continue
        if columns[0][:1] == "#":
            line = raw.strip()
            if _END.match(line):
                take_sentence()
                _check_all_closed(open_mentions, name, path)
                return make_document(
                    name, path, begin_line, words, closed,
                    tuple(start for start in sentence_starts if start < len(words)),
                    part_of_speech, named_entities,
                    {"conll_cells": tuple(kept)} if all_columns else None)
            if begun_document(line) is not None:
                raise FormatError(
                    f"'#begin document' inside document {shorten(name)!r} (begun at line "
                    f"{begin_line}); expected '#end document' first",
                    path=path, line=line_number)
            continue
        if not sentence:
            first_width = len(columns)
        elif len(columns) != first_width:
            uneven = True
        sentence.append((line_number, columns))
    raise FormatError(f"document {shorten(name)!r} (begun at line {begin_line}) has no "
                      "'#end document'", path=path, line=line_number)


def _sentence_width(sentence: list[tuple[int, list[str]]], path: str) -> int:
    """The number of columns of a sentence's token lines: its narrowest line's, when every
    wider line only adds empty cells (stray tabs, as the reference scorer's own test file
    TC-A has); else a line with a cell more or less than the others, which would have another
    column read as the coreference column, is an error naming it and a line of the width the
    sentence's other lines have."""
    widths = [len(columns) for _, columns in sentence]
    narrowest = min(widths)
    if max(widths) == narrowest or all(
            _filled_width(columns) <= narrowest for _, columns in sentence):
        return narrowest
    usual = Counter(widths).most_common(1)[0][0]
    example = next(number for number, columns in sentence if len(columns) == usual)
    for number, columns in sentence:
        if len(columns) != usual and not (len(columns) > usual
                                          and _filled_width(columns) <= usual):
            raise FormatError(
                f"{len(columns)} columns; expected {usual}, as on line {example} (every token "
                "line of a sentence has the same columns; a missing or extra cell would move "
                "the coreference column)", path=path, line=number)
    return usual


def _document_width(file_columns: FileColumns,
                    sentence: list[tuple[int, list[str]]], width: int, path: str) -> int:
    """The width of a sentence ``width`` columns wide in a file whose ``first`` sentence has
    another: the coreference column is the last column of the file's width on every line (an
    extra trailing cell would hide the mentions of a sentence or a document, a missing one
    make another column the coreference column), so the sentence's width is the file's, less
    stray empty cells it ends in (trailing tabs, dropped here). Only OntoNotes sentences
    (:data:`_ONTONOTES_WIDTH` columns or more) may differ, by their predicate-argument columns
    (one per predicate of the sentence, after the named-entity column, before the
    coreference column), each cell of which holds a ``*``; else an error names the line. The
    file's first sentence is checked once (``file_columns.first_checked``): its cells and the
    columns looked at are the same at every call, and a failure ends the reading."""
    first = file_columns.first
    expected = len(first[0][1])
    example = first[0][0]
    if width > expected and all(_filled_width(columns) <= expected for _, columns in sentence):
        for _, columns in sentence:
            del columns[expected:]
        return expected
    number = sentence[0][0]
    if min(width, expected) < _ONTONOTES_WIDTH:
        raise FormatError(
            f"{width} columns; expected {expected}, as on line {example} (every token line of "
            "a file has the same columns; a missing or extra cell would move the coreference "
            "column)", path=path, line=number)
    checks = [(sentence, width, expected, example)]
    if not file_columns.first_checked:
        checks.append((first, expected, width, number))
    for lines, other, other_width, other_line in checks:
        for line, columns in lines:
            for cell in columns[_ONTONOTES_WIDTH - 1:other - 1]:
                if "*" in cell:
                    continue
                raise FormatError(
                    f"{other} columns; expected {other_width}, as on line {other_line}: "
                    "OntoNotes sentences differ only by predicate-argument columns (from "
                    f"column {_ONTONOTES_WIDTH} to the one before the coreference column), "
                    f"each cell of which holds a '*', and {shorten(cell)!r} does not (a "
                    "missing or extra cell would move the coreference column)",
                    path=path, line=line)
    file_columns.first_checked = True
    return width


def _filled_width(columns: list[str]) -> int:
    """The number of columns up to the last non-empty one."""
    used = len(columns)
    while used and not columns[used - 1].strip():
        used -= 1
    return used


def _parse_cell(cells: dict[str, tuple[Bracket | str, ...]],
                annotation: str) -> tuple[Bracket | str, ...]:
    """The brackets of a coreference cell not yet in ``cells`` (:func:`_cell_brackets` of its
    text, a cell of white space and a no-coreference mark none), kept there."""
    if len(cells) >= _CACHED_CELLS:
        cells.clear()  # memory stays bounded whatever the corpus's size
    # A tab-separated cell may carry spaces around its text.
    text = annotation.strip()
    brackets = cells[annotation] = () if text in _NO_COREFERENCE else _cell_brackets(text)
    return brackets


def _cell_brackets(annotation: str) -> tuple[Bracket | str, ...]:
    """The brackets of a coreference cell, left to right: ``(ID`` opens a mention, ``ID)``
    closes the innermost open one, ``(ID)`` is a one-token mention; parts joined by ``|`` or
    written back to back. What cannot be read is a message in its place, raised once the
    brackets before it are applied (so a cell's first problem is the one reported)."""
    brackets: list[Bracket | str] = []
    for part in annotation.split("|"):
        position = 0
        while position < len(part):
            bracket = _BRACKET.match(part, position)
            if (bracket is None or not (bracket.group(1) or bracket.group(3))
                    or bracket.group(2) in _NO_ENTITY):
                break  # '(-)': a bracket around the no-coreference mark is no entity
            opens, entity_id, closes = bracket.groups()
            if "+" in entity_id:
                brackets.append(f"double antecedent '{shorten(bracket.group(0))}' is not "
                                "supported (the reference scorer discards it); remove it or give "
                                "the mention one entity")
                return tuple(brackets)
            brackets.append((bool(opens), entity_id, bool(closes)))
            position = bracket.end()
        if position < len(part) or not part:
            brackets.append(f"unknown coreference annotation {shorten(annotation)!r}; expected "
                            "'-' or brackets such as '(3', '3)', '(3)' joined by '|'")
            return tuple(brackets)
    return tuple(brackets)


#: The brackets of a coreference cell (:func:`_cell_brackets`), for the readers of other
#: bracketed formats (Cattan's cross-document CoNLL, :mod:`anascore.formats.readers.cattan`).
cell_brackets = _cell_brackets


def _check_all_closed(open_mentions: dict[str, list[tuple[int, int]]], name: str,
                      path: str) -> None:
    for entity_id, stack in open_mentions.items():
        if stack:
            _, start_line = stack[0]
            raise FormatError(
                f"mention of entity {shorten(entity_id)} opened here is never closed in document "
                f"{shorten(name)!r}; expected '{shorten(entity_id)})' before '#end document'",
                path=path, line=start_line)
