"""Reading a UA file a block at a time, and its documents of the common layout a whole
document at a time.

Most UA files are tab-separated under one ``# global.columns`` line, and most of their cells
are ``_``. Reading such a file line by line, cell by cell, took ten times as long as splitting
its lines. So :func:`read_ua_blocks` cuts the text into documents at their ``# newdoc id``
lines (found with ``str.find``), and :func:`fast_document` reads a document in bulk: its
token lines joined and split at every tab at once, each column a slice of the cells. It takes
only what it can prove is the common case — every token line has exactly the declared
number of cells, integer IDs, no empty cell or white space at a cell's ends in the columns
the reader uses, no comment it does not know (a ``# global.columns``, a ``# newdoc`` without
an id) — and leaves everything else to the line-by-line reader
(:func:`~anascore.formats.readers.ua_lines.read_careful`), which then gives exactly the
documents and errors it always gave. The markable, bridging and dependency columns are then
read by the same code for both (:meth:`_DocumentReader.read_columns`), so their errors are
the same too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from itertools import compress, count, repeat
from operator import not_

from anascore.core.model import Document
from anascore.formats.readers.ua_document import _READ_COLUMNS, _clean, _DocumentReader
from anascore.formats.readers.ua_lines import (
    GLOBAL_COLUMNS,
    NEWDOC,
    NEWDOC_ID,
    SENT_ID,
    LayoutState,
    Progress,
    no_document,
    read_careful,
)

#: The columns left out of a document where they hold '_' alone.
_SKIPPED_WHEN_EMPTY = frozenset({"UPOS", "IDENTITY", "BRIDGING", "DISCOURSE_DEIXIS"})
#: How many characters :func:`~anascore.formats.readers.ua.read_ua` reads at a time.
BLOCK_CHARS = 1 << 18
_DIGITS = "0123456789"


def read_ua_blocks(blocks: Iterable[str], path: str, *, token_columns: bool = False,
                   all_columns: bool = False, first_line: int = 1,
                   state: LayoutState | None = None) -> Iterator[Document]:
    """The documents of a UA text given in consecutive blocks (universal newlines already
    applied; a block may end inside a line), whose first line is line ``first_line`` of
    ``path``, read from the layout ``state`` (default: none declared yet). Gives what
    :func:`~anascore.formats.readers.ua.read_ua_lines` gives for the same lines."""
    state = state if state is not None else LayoutState()
    progress = Progress()
    parts: list[str] = []  # the text of the piece being collected (a document, or the lines
    name: str | None = None  # before the first); the document's name
    first = first_line  # the piece's first line
    carry = ""
    for block in blocks:
        text = carry + block if carry else block
        cut = text.rfind("\n") + 1
        carry = text[cut:]
        start = 0
        position = text.find("newdoc", 0, cut)
        while position >= 0:
            line_start = text.rfind("\n", 0, position) + 1
            line_end = text.find("\n", position, cut)
            found = _document_name(text[line_start:line_end])
            if found is not None:
                parts.append(text[start:line_start])
                piece = "".join(parts)
                newlines = piece.count("\n")
                yield from _piece(piece, first, newlines, name, path, state, progress,
                                  token_columns, all_columns)
                first += newlines
                parts = []
                start = line_start
                name = found
            position = text.find("newdoc", line_end, cut)
        parts.append(text[start:cut])
    parts.append(carry)
    piece = "".join(parts)
    newlines = piece.count("\n")
    yield from _piece(piece, first, newlines, name, path, state, progress, token_columns,
                      all_columns)
    if not progress.seen_any:
        last = first + newlines - (1 if piece.endswith("\n") else 0)
        no_document(path, last if piece else first - 1)


def _document_name(line: str) -> str | None:
    """The name of the document a line begins, as the line-by-line reader sees it; ``None``
    for a line that begins none, or a ``# newdoc`` without an id (that reader says so)."""
    if not line or line[0] in _DIGITS:
        return None
    newdoc = NEWDOC.match(line.strip())
    if newdoc is None:
        return None
    found = NEWDOC_ID.match(newdoc.group(1))
    return found.group(1) if found is not None and found.group(1) else None


def _piece(text: str, first: int, newlines: int, name: str | None, path: str,
           state: LayoutState, progress: Progress, token_columns: bool,
           all_columns: bool) -> Iterator[Document]:
    """The document of ``text`` (lines from its ``# newdoc`` line, ``newlines`` newlines),
    or the lines before the first document (``name`` ``None``)."""
    if not text:
        return
    if name is not None and not all_columns:
        document = fast_document(text, first, name, path, state, token_columns)
        if document is not None:
            progress.seen_any = True
            progress.line = first + newlines - (1 if text.endswith("\n") else 0)
            yield document
            return
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    raws = [line + "\n" for line in lines]
    if not text.endswith("\n"):
        raws[-1] = lines[-1]
    yield from read_careful(zip(count(first), raws), path, state, progress,
                            token_columns=token_columns, all_columns=all_columns)


def fast_document(text: str, first: int, name: str, path: str, state: LayoutState,
                  token_columns: bool) -> Document | None:
    """The document of ``text`` (its lines, the ``# newdoc`` line first, at line ``first``)
    read in bulk, or ``None`` when it is not of the common layout the module describes."""
    declared = state.declared
    if declared is None or declared < 2 or not text.startswith("#"):
        return None
    if text.endswith("\n"):  # the last line's newline: no blank line after it
        text = text[:-1]
    blocks: list[str] = []  # runs of token lines, as they stand in the text
    size = 0  # token lines so far
    numbers: list[int] = []
    blanks: list[int] = []
    sent_ids: list[tuple[int, str]] = []
    line = first  # the line of the chunk's first line
    # Cut at the comment lines: each chunk is one (the '# newdoc' line first), then the token
    # and blank lines up to the next.
    for index, chunk in enumerate(text.split("\n#")):
        comment, newline, body = chunk.partition("\n")
        if index:
            stripped = ("#" + comment).strip()
            sent_id = SENT_ID.match(stripped)
            if sent_id:
                sent_ids.append((size, sent_id.group(1).strip()))
            elif NEWDOC.match(stripped) or GLOBAL_COLUMNS.match(stripped):
                return None
        line += 1
        if not newline:
            continue
        run = body.rstrip("\n")
        trailing = len(body) - len(run)  # blank lines after the run
        newlines = body.count("\n")
        if not run:  # blank lines alone
            blanks.extend([size] * (trailing + 1))
            line += trailing + 1
        elif "\n\n" not in run and run[0] != "\n":  # token lines, then blank lines
            lines = newlines - trailing + 1
            blocks.append(run)
            numbers.extend(range(line, line + lines))
            size += lines
            blanks.extend([size] * trailing)
            line += newlines + 1
        else:  # blank lines among them, line by line
            for row in body.split("\n"):
                if row:
                    blocks.append(row)
                    numbers.append(line)
                    size += 1
                else:
                    blanks.append(size)
                line += 1
    if not size:
        return None
    joined = "\n".join(blocks)
    if not _widths_declared(joined, size, declared):
        return None
    text = joined.replace("\n", "\t")
    # Whether a cell is empty (two tabs in a row, or one at either end): a text search.
    empty_cell = "\t\t" in text or text[0] == "\t" or text[-1] == "\t"
    cells = text.split("\t")
    positions = state.columns
    # UPOS only with token_columns: its cells are used for nothing else (the line-by-line
    # reader, which checks them, gives the same document whatever they hold).
    columns = {name: cells[positions[name]::declared] for name in _READ_COLUMNS
               if positions.get(name, declared) < declared
               and (token_columns or name != "UPOS")}
    ids = columns["ID"]
    joined = "".join(ids)
    token_rows: list[int] | None = None  # None: every row is a token
    if (not (joined.isascii() and joined.isdecimal()) or "0" in ids
            or (empty_cell and "" in ids)):
        token_rows = _multiword_rows(ids, columns)
        if token_rows is None:
            return None
    # A column of '_' alone reads as a column the layout does not name: a markable or
    # bridging column left out costs nothing more. (FORM, DEPS and HEAD columns of '_'
    # alone read the same kept, and looking costs as much as keeping them.)
    for name_read in [name_read for name_read, column in columns.items()
                      if name_read in _SKIPPED_WHEN_EMPTY and column.count("_") == size]:
        del columns[name_read]
    varied = [column for name_read, column in columns.items() if name_read != "ID"]
    if (not _clean_ascii(text) or empty_cell) and not all(
            map(_clean, varied)):
        return None
    reader = _DocumentReader(name, first, path, state.columns, declared, state.needed,
                             token_columns=token_columns, bulk=True)
    reader.blanks = blanks
    reader.sent_ids = sent_ids
    reader.read_columns(columns, numbers, token_rows)
    return reader.document()


#: A multiword token's ID, in ASCII digits.
_MULTIWORD = re.compile("[0-9]+-[0-9]+")
_ANNOTATION_COLUMNS = ("IDENTITY", "BRIDGING", "DISCOURSE_DEIXIS")


def _multiword_rows(ids: list[str], columns: dict[str, list[str]]) -> list[int] | None:
    """The token rows of a document whose only other rows are multiword-token lines (``N-M``
    IDs in ASCII digits) without annotation, as the line-by-line reader takes them
    (``_DocumentReader._token_rows``); ``None`` for anything else (an empty node, an ID 0,
    an annotated multiword token, another ID): that reader reads it."""
    if not "".join(ids).isascii() or "0" in ids or "" in ids:
        return None
    everyone = range(len(ids))
    others = list(compress(everyone, map(not_, map(str.isdecimal, ids))))
    annotated = [columns[name] for name in _ANNOTATION_COLUMNS if name in columns]
    for row in others:
        if _MULTIWORD.fullmatch(ids[row]) is None or any(
                cells[row] != "_" for cells in annotated):
            return None
    rows = list(compress(everyone, map(str.isdecimal, ids)))
    return rows if rows else None


#: ASCII characters that ``str.strip`` removes, beside the space, the tab and the newline.
_CONTROL_SPACE = "\r\x0b\x0c\x1c\x1d\x1e\x1f"


def _clean_ascii(text: str) -> bool:
    """Whether ``text`` (the tab-joined cells of the token lines) is ASCII without a space or
    another white space character than the tabs: then no cell has white space at its ends, and
    a look at each column (:func:`~anascore.formats.readers.ua_document._clean`) is not
    needed. A few scans of the text at memory speed (one character each)."""
    return (text.isascii() and " " not in text
            and not any(character in text for character in _CONTROL_SPACE))


#: Every ASCII character but the tab and the newline, deleted by ``str.translate``.
_NOT_SEPARATORS = {code: None for code in range(128) if chr(code) not in "\t\n"}


def _widths_declared(joined: str, size: int, declared: int) -> bool:
    """Whether every one of the ``size`` token lines of ``joined`` (joined by newlines) has
    ``declared`` tab-separated cells. ASCII lines are checked all at once: with all but their
    tabs and newlines deleted, they must read as that many tabs a line."""
    if joined.isascii():
        row = "\t" * (declared - 1)
        return joined.translate(_NOT_SEPARATORS) == "\n".join(repeat(row, size))
    return list(map(str.count, joined.split("\n"), repeat("\t", size))).count(
        declared - 1) == size
