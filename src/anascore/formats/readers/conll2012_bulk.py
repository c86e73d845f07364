"""CoNLL-2012 read a whole document at a time: the fast path of :mod:`~.conll2012`.

Read line by line (a loop turn, a split, checks and appends per token line, a call per
sentence to check its width), CoNLL-2012 took four times as long as only splitting every line
of the file. Most documents are regular: tab-separated token lines, every line of a sentence
as wide as the others, blank lines between sentences, no comment inside. Such a document is
read here in bulk, with no Python work per line: the file is read in large blocks
(:class:`TextLines`), a document's text taken whole up to its next line starting with ``#``,
cut into sentences at blank lines, and each sentence split at its tabs once, each line end
made a cell of its own; a sentence's columns are then slices of its cells, its width is proved
even by where its line ends fall, and only the coreference cells that are not ``-`` or ``_``
are looked at one by one.

Whatever this path does not prove regular (a comment or a ``#begin document`` inside the
document, a line of another width, a space-separated document, a sentence whose width the
file's first sentence does not allow without a check this path leaves to the careful reader,
a line of white space and tabs, a bracket that is no mention, a mention never closed…) makes
it hand the whole document, unread, to the careful line-by-line reader
(:func:`~.conll2012.read_lines`), which then reads it from the same :class:`TextLines` and
yields exactly its usual document or raises its usual error at its usual line. The state a
file carries from document to document (its first sentence, :class:`FileColumns`) is left as
it was when the document is handed over.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable, Iterator
from itertools import compress, repeat
from operator import is_not
from typing import BinaryIO

from anascore.core.model import Document, Entity, Mention, SpanTokens

#: One bracket of a coreference cell: whether it opens a mention, the entity, whether it closes
#: one (:func:`~.conll2012.cell_brackets`; a string in its place is an error message).
Bracket = tuple[bool, str, bool]
#: The careful reader's cache of parsed coreference cells, and its function filling it.
Cells = dict[str, tuple[Bracket | str, ...]]
ParseCell = Callable[[Cells, str], tuple[Bracket | str, ...]]

#: The bytes of a file read at a time (:func:`decoded_blocks`).
BLOCK_BYTES = 1 << 16
#: A document's text is taken whole only up to this many characters (a longer one, or a file
#: without ``#end document``, is read line by line: memory stays bounded).
LONGEST_DOCUMENT = 16 << 20
_ONTONOTES_WIDTH = 12
_WORD_COLUMN = {2: 0, 3: 1, 4: 0}
_BOM = codecs.BOM_UTF8


class Undecodable(Exception):
    """Bytes ahead in the file are not UTF-8: the file is read again line by line, as it always
    was (:func:`~.conll2012.read_conll2012`), so that its error is the usual one."""


class FileColumns:
    """The first sentence of a file (each token line's number and cells), whose columns every
    other sentence of the file has (:func:`~.conll2012._document_width`). A stretch of a file
    read apart from its first document (:mod:`anascore.scoring.parallel`) is given its file's,
    so that it is checked as it is when the whole file is read."""

    __slots__ = ("first", "first_checked")

    def __init__(self) -> None:
        self.first: list[tuple[int, list[str]]] = []
        #: Whether the first sentence's predicate-argument cells were found to hold a ``*``
        #: each (:func:`~.conll2012._document_width`): a check that cannot change, made once a
        #: file.
        self.first_checked = False


def decoded_blocks(stream: BinaryIO, chunk: int) -> Iterator[str]:
    """The text of a binary file as a text file opened with ``utf-8-sig`` and universal
    newlines reads it, :data:`BLOCK_BYTES` at a time (and at least two of that text file's
    decoding ``chunk``s), each block ending at a line end (but the file's last);
    :class:`Undecodable` where its bytes are not UTF-8."""
    smallest = max(BLOCK_BYTES, 2 * chunk)
    rest = b""
    start = True
    while True:
        data = stream.read(smallest)
        if data:
            data = rest + data if rest else data
            cut = data.rfind(b"\n") + 1
            if cut < smallest:
                rest = data
                continue
            data, rest = data[:cut], data[cut:]
        elif rest:
            data, rest = rest, b""
        else:
            return
        if start:
            start = False
            if data.startswith(_BOM):
                data = data[len(_BOM):]
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise Undecodable from None
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        yield text


class TextLines:
    """Numbered lines of a text (each with its ``\\n``, the last one without if the text ends
    without), as ``enumerate`` over a text file gives them, held a block at a time so that
    :meth:`take_document` can take a document's text whole.

    The next block is always decoded before the lines of the one before it are given, and a
    block is at least a decoding chunk of the text file (:func:`decoded_blocks`): the text
    file gives a line once the chunk holding its end is decoded, so no line given here (or
    document read from it) is one that reading the file line by line would not give before
    it meets bytes that are not UTF-8; after :class:`Undecodable`, the file is read again that
    way and yields what was given here first, then what it always did."""

    __slots__ = ("_blocks", "_number", "_pending", "_position", "_text")

    def __init__(self, blocks: Iterator[str], line: int = 1) -> None:
        self._blocks = blocks
        self._text = ""
        self._position = 0
        self._number = line
        self._pending = next(blocks, None)

    def __iter__(self) -> TextLines:
        return self

    def __next__(self) -> tuple[int, str]:
        end = self._text.find("\n", self._position)
        while end < 0:
            if not self._grow():
                if self._position >= len(self._text):
                    raise StopIteration
                end = len(self._text) - 1
                break
            end = self._text.find("\n", self._position)
        start = self._position
        self._position = end + 1
        self._number += 1
        return self._number - 1, self._text[start:end + 1]

    def _grow(self) -> bool:
        """The next block appended to what is left of the text (``False`` at the end)."""
        block = self._pending
        if block is None:
            return False
        self._pending = next(self._blocks, None)
        self._text = self._text[self._position:] + block
        self._position = 0
        return True

    def take_document(self) -> tuple[str, str] | None:
        """The lines after the line just read up to the next line starting with ``#`` (each
        with its ``\\n``) and that line (``None`` if there is none within
        :data:`LONGEST_DOCUMENT` characters). They stay unread: :meth:`advance` moves past them
        once they are read."""
        while True:
            text, start = self._text, self._position
            if text.startswith("#", start):
                mark = start
            else:
                mark = text.find("\n#", start)
                mark += mark >= 0  # the '#' after the line end, or -1
            if mark >= 0:
                end = text.find("\n", mark) + 1
                if end or self._pending is None:
                    return text[start:mark], text[mark:end or len(text)]
            if len(text) - start > LONGEST_DOCUMENT or not self._grow():
                return None

    def advance(self, characters: int, lines: int) -> None:
        """Move past ``lines`` lines of ``characters`` characters taken with
        :meth:`take_document`."""
        self._position += characters
        self._number += lines


def read_body(name: str, begin_line: int, body: str, path: str, tagged_width: int,
              cells: Cells, parse_cell: ParseCell, file_columns: FileColumns
              ) -> tuple[Document, int] | None:
    """The document begun at line ``begin_line`` whose lines up to its ``#end document`` are
    ``body`` (each with its ``\\n``), as the careful reader reads it, and the number of those
    lines; ``None``, with ``file_columns`` as it was, when it is not a document this path
    proves regular."""
    first = file_columns.first
    had_first = bool(first)
    checked = file_columns.first_checked
    read = _read_body(name, begin_line, body, path, tagged_width, cells, parse_cell,
                      file_columns)
    if read is None:
        if not had_first:
            first.clear()
        file_columns.first_checked = checked
    return read


def _read_body(name: str, begin_line: int, body: str, path: str, tagged_width: int,
               cells: Cells, parse_cell: ParseCell, file_columns: FileColumns
               ) -> tuple[Document, int] | None:
    """:func:`read_body`'s reading, which may leave ``file_columns`` changed when it gives up.

    A sentence's text (its ``n`` lines, without the last line end) has each line end made a
    cell of its own (``\\t\\n\\t`` for ``\\n``) and is split at its tabs. Its lines all have
    ``width`` cells exactly when it has ``n * (width + 1) - 1`` cells and the cells ``width``,
    ``2 * width + 1``, … (a line every ``width + 1`` cells) are all ``\\n``: the text has
    ``n - 1`` line ends, one in each."""
    words: list[str] = []
    part_of_speech: list[str] = []
    named_entities: list[str] = []
    sentence_starts: list[int] = []
    closed: dict[str, list[Mention]] = {}
    open_mentions: dict[str, list[tuple[int, int]]] = {}
    spans = SpanTokens()
    span = Mention.span
    setdefault = closed.setdefault
    first = file_columns.first
    expected = len(first[0][1]) if first else 0
    line = begin_line + 1  # the line the next piece of text starts at
    for piece in body[:-1].split("\n\n"):
        lead = piece[:1] == "\n"  # a blank line before the sentence
        if lead:
            piece = piece[1:]
        trail = piece[-1:] == "\n"  # a blank line after it (the document's last lines)
        if trail:
            piece = piece[:-1]
        start_line = line + lead
        if not piece:
            line = start_line + trail + 2
            continue
        marked = piece.replace("\n", "\t\n\t")
        ends = (len(marked) - len(piece)) >> 1
        line = start_line + ends + trail + 2
        lines = ends + 1
        flat = marked.split("\t")
        stride, rest = divmod(len(flat) + 1, lines)
        width = stride - 1
        if rest or width < 2 or flat[width::stride].count("\n") != ends:
            return None  # uneven, or no tab
        if not first:
            first.extend(zip(range(start_line, start_line + lines),
                             (raw.split("\t") for raw in (piece + "\n").split("\n")[:-1]),
                             strict=True))
            for _, columns in first:
                columns[-1] += "\n"
            expected = width
        elif width != expected and not _other_width_allowed(
                file_columns, flat, width, stride, expected):
            return None
        token = len(words)
        sentence_starts.append(token)
        words += flat[3 if width > 4 else _WORD_COLUMN[width]::stride]
        if width >= tagged_width:
            part_of_speech += flat[4::stride]
            named_entities += flat[10::stride]
        annotations = flat[width - 1::stride]
        # The cells marking no mention are one object each ('-' or '_', as every
        # one-character string): those of the sentence's mark are passed over in C.
        mark = "-" if "-" in annotations else "_"
        for index in compress(range(lines), map(is_not, annotations, repeat(mark))):
            annotation = annotations[index]
            brackets = cells.get(annotation)
            if brackets is None:
                brackets = parse_cell(cells, annotation)
            if not brackets:
                at = index * stride
                if annotation.strip() or "".join(flat[at:at + width]).strip():
                    continue
                return None  # a line of white space and tabs: a blank line to the careful reader
            here = token + index
            number = start_line + index
            for bracket in brackets:
                if isinstance(bracket, str):
                    return None  # the careful reader reports it
                opens, entity_id, closes = bracket
                mentions = setdefault(entity_id, [])
                if opens:
                    if closes:
                        mentions.append(span(here, here, number, spans))
                    else:
                        open_mentions.setdefault(entity_id, []).append((here, number))
                    continue
                stack = open_mentions.get(entity_id)
                if not stack:
                    return None
                opened, opened_line = stack.pop()
                mentions.append(span(opened, here, opened_line, spans))
    if any(open_mentions.values()):
        return None
    document = make_document(name, path, begin_line, words, closed, tuple(sentence_starts),
                             part_of_speech, named_entities)
    return document, (line - begin_line - 2 if body else 0)


def make_document(name: str, path: str, begin_line: int, words: list[str],
                  closed: dict[str, list[Mention]], sentence_starts: tuple[int, ...],
                  part_of_speech: list[str], named_entities: list[str],
                  more_columns: dict[str, tuple[str, ...]] | None = None) -> Document:
    """The document both CoNLL-2012 readers make of what they read (this module's bulk path
    and the careful :func:`~.conll2012.read_lines`): its entities in the order their first
    mention closed, its part-of-speech and named-entity columns when every token has them,
    and ``more_columns`` (the careful reader's ``conll_cells``, for conversion)."""
    columns: dict[str, tuple[str, ...]] = (
        {"pos": tuple(part_of_speech), "ner": tuple(named_entities)}
        if words and len(part_of_speech) == len(words) else {})
    if more_columns:
        columns |= more_columns
    return Document(
        name=name,
        source_format="conll2012",
        tokens=tuple(words),
        entities=tuple(Entity(entity_id, tuple(mentions))
                       for entity_id, mentions in closed.items()),
        path=path,
        line=begin_line,
        sentence_starts=sentence_starts,
        token_columns=columns,
    )


def _other_width_allowed(file_columns: FileColumns, flat: list[str], width: int, stride: int,
                         expected: int) -> bool:
    """Whether the careful reader reads a sentence ``width`` columns wide (its cells ``flat``,
    a line every ``stride`` cells) in a file whose first sentence is ``expected`` wide, with
    its own width and no error (:func:`~.conll2012._document_width`): both OntoNotes-wide,
    no stray empty cells to drop (a coreference cell is not empty), every
    predicate-argument cell holding a ``*`` (and the file's first sentence's, checked
    once)."""
    if min(width, expected) < _ONTONOTES_WIDTH:
        return False
    if width > expected:
        annotations = flat[width - 1::stride]
        if "-" not in annotations and "_" not in annotations and not any(
                map(str.strip, annotations)):
            return False  # only empty cells past the file's width: the careful reader's
    for column in range(_ONTONOTES_WIDTH - 1, width - 1):
        cells = flat[column::stride]
        if cells.count("*") != len(cells) and not all("*" in cell for cell in set(cells)):
            return False
    if not file_columns.first_checked:
        if not all("*" in cell for _, columns in file_columns.first
                   for cell in columns[_ONTONOTES_WIDTH - 1:expected - 1]):
            return False
        file_columns.first_checked = True
    return True
