"""The line-by-line reader of UA files: every line on its own, in file order.

:mod:`anascore.formats.readers.ua` states the format's rules. This reader takes every line
the fast path (:mod:`anascore.formats.readers.ua_fast`) does not, and it is the one that
says what is wrong with a line: each error names the line it is found on, at the point of
the file where it is met.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from anascore.core.errors import FormatError
from anascore.core.model import Document
from anascore.formats.readers.ua_document import _DocumentReader

#: Column positions when the file has no ``# global.columns`` line (CODI-CRAC layout).
DEFAULT_COLUMNS: tuple[str, ...] = (
    "ID", "FORM", "LEMMA", "UPOS", "XPOS", "FEATS", "HEAD", "DEPREL", "DEPS", "MISC",
    "IDENTITY", "BRIDGING", "DISCOURSE_DEIXIS", "REFERENCE", "NOM_SEM",
)

NEWDOC = re.compile(r"#\s*newdoc\b(.*)$")
NEWDOC_ID = re.compile(r"\s*id\s*=\s*(.*?)\s*$")
GLOBAL_COLUMNS = re.compile(r"#\s*global\.columns\s*=\s*(.*)$")
SENT_ID = re.compile(r"#\s*sent_id\s*=\s*(.*)$")


@dataclass
class LayoutState:
    """The ``# global.columns`` in force: column positions by name, how many columns it names
    (``None``: no such line yet, the CODI-CRAC positions hold), how many a line must reach."""

    columns: dict[str, int] = field(
        default_factory=lambda: {name: index for index, name in enumerate(DEFAULT_COLUMNS)})
    declared: int | None = None
    needed: int = DEFAULT_COLUMNS.index("IDENTITY") + 1


@dataclass
class Progress:
    """What the line-by-line reader has met: a document, and the last line's number."""

    seen_any: bool = False
    line: int = 0


def no_document(path: str, line: int) -> None:
    """The error of a file (or stretch) without a ``# newdoc`` line."""
    raise FormatError("no document found; expected '# newdoc id = NAME' lines (is this the "
                      "UA exploded format?)", path=path, line=line or None)


def read_careful(lines: Iterable[tuple[int, str]], path: str, state: LayoutState,
                 progress: Progress, *, token_columns: bool = False,
                 all_columns: bool = False) -> Iterator[Document]:
    """The documents of numbered lines, read line by line from the layout ``state`` (which
    the ``# global.columns`` lines met update): the reader of every line the fast path
    (:mod:`anascore.formats.readers.ua_fast`) does not take, and the one that says what is
    wrong with a line. A document ends where its lines end."""
    current: _DocumentReader | None = None
    line_number = 0
    for line_number, raw in lines:
        if raw[0] in _DIGITS:  # a token line: collected as it is, read by build()
            if current is None:
                raise FormatError("token line before any document; expected "
                                  "'# newdoc id = NAME' first", path=path, line=line_number)
            current.rows.append(raw)
            continue
        stripped = raw.strip()
        if stripped and stripped[0] != "#":  # a token line with odd white space
            if current is None:
                raise FormatError("token line before any document; expected "
                                  "'# newdoc id = NAME' first", path=path, line=line_number)
            current.rows.append(raw)
            continue
        if current is not None:
            current.note(line_number)
        if not stripped:
            if current is not None:
                current.blanks.append(len(current.rows))
            continue
        newdoc = NEWDOC.match(stripped)
        if newdoc:
            name = NEWDOC_ID.match(newdoc.group(1))
            if name is None or not name.group(1):
                raise FormatError("'# newdoc' without a document id; expected "
                                  "'# newdoc id = NAME'", path=path, line=line_number)
            if current is not None:
                yield finished(current)
            current = _DocumentReader(name.group(1), line_number, path, state.columns,
                                      state.declared, state.needed,
                                      token_columns=token_columns, keep_all=all_columns)
            current.note(line_number)
            progress.seen_any = True
            continue
        sent_id = SENT_ID.match(stripped)
        if sent_id and current is not None:
            current.sent_ids.append((len(current.rows), sent_id.group(1).strip()))
            current.comments.append((len(current.rows), stripped))
            continue
        global_columns = GLOBAL_COLUMNS.match(stripped)
        if global_columns:
            names = global_columns.group(1).split()
            state.columns = column_positions(names, path, line_number)
            state.declared, state.needed = len(names), state.columns["IDENTITY"] + 1
            if current is not None:
                current.layouts.append((len(current.rows), state.columns, state.declared,
                                        state.needed))
        elif current is not None:
            current.comments.append((len(current.rows), stripped))
    progress.line = line_number or progress.line
    if current is not None:
        yield finished(current)


def column_positions(names: list[str], path: str, line: int) -> dict[str, int]:
    positions = {name.upper(): index for index, name in enumerate(names)}
    if "IDENTITY" not in positions:
        raise FormatError("'# global.columns' names no IDENTITY column; expected e.g. 'ID FORM "
                          "LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY BRIDGING "
                          "DISCOURSE_DEIXIS'", path=path, line=line)
    positions.setdefault("ID", 0)
    positions.setdefault("FORM", 1)
    return positions




_DIGITS = frozenset("0123456789")


def finished(reader: _DocumentReader) -> Document:
    reader.build()
    return reader.document()
