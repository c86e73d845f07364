"""Universal Anaphora CoNLL-U Plus, the *exploded* format (``CoNLL-UA``).

The format is defined by Poesio et al., *Universal Anaphora in CoNLL-U-Plus*, v1.1
(``formats/UA_CONLL_U_Plus_proposal_v1.1.md``) and used by the CODI-CRAC 2021/2022 shared
tasks. Rules this reader enforces (each violation is a :class:`~anascore.core.errors.FormatError`
naming the file and line):

* ``# global.columns = ID FORM … IDENTITY BRIDGING DISCOURSE_DEIXIS …`` names the columns; it
  applies to the lines that follow it. Without it, the CODI-CRAC positions hold: ID, FORM,
  then IDENTITY in column 11, BRIDGING in 12 and DISCOURSE_DEIXIS in 13. A ``global.columns``
  line without IDENTITY is an error.
* ``# newdoc id = NAME`` starts a document named ``NAME``; a token line before it is an error.
  Other ``#`` lines are comments; a blank line ends a sentence.
* A token line holds tab-separated cells (an empty cell reads as ``_``) or, when it has no
  tab, cells separated by runs of spaces (the CODI-CRAC layout). A tab-separated line has
  exactly as many cells as ``# global.columns`` names; a space-aligned line, which cannot show
  an empty last cell, reaches at least the IDENTITY column (the cells after it it lacks read
  as ``_``) and has no more cells than named. A line that stops before IDENTITY would lose its
  markables, and a line with a cell too many has every annotation shifted: both are errors.
  Integer IDs are tokens, ``N.M`` IDs are empty nodes (tokens of their own), ``N-M``
  multiword-token lines and ID ``0`` lines (objects of a visual situation) are skipped and
  must carry no annotation. Token positions count from 0 over the document. Each position's
  CoNLL-U details (ID, sentence, whether it is an empty node, DEPS, line) and each sentence's
  ``# sent_id`` go to :attr:`Document.nodes`, as the CorefUD reader gives them: zero mentions
  (headed by an empty node) are removed by ``keep_zeros=False`` and paired by
  ``zero_match``, and key and response with different empty nodes are aligned
  (:mod:`anascore.formats.io.conllu_alignment`). A sentence starts at the first token after a blank
  or
  ``# sent_id`` line.
* IDENTITY and DISCOURSE_DEIXIS cells: ``_`` or a sequence of brackets. ``(ATTRIBUTES``
  opens a markable, ``(ATTRIBUTES)`` is a one-token markable, ``)`` closes the innermost open
  markable, ``MARKABLE_ID)`` closes the named one (crossing markables, the UA scorer's
  ``--allow-boundary-crossing`` layout). Several brackets share a cell back to back or
  separated by ``@``. ATTRIBUTES are ``Name=value`` joined by ``|`` in any order, each
  name once (spellings aside: ``EntityID`` and ``Entity_ID`` are one name); ``EntityID``
  is required; ``MarkableID`` (optional) names the markable, and a markable opened again
  under the same ID after it closed gets another chunk (a discontinuous markable; its
  EntityID must not change); ``Min`` is its minimal span (token IDs: ``7``, a range ``7,9`` as
  CODI-CRAC writes it or ``7-9``, or a list of such items; IDs are unique in a document, as
  the format says, and where a file numbers each sentence from 1 they are read within the
  markable's sentence; a Min outside its markable, found in CODI-CRAC files, is kept as
  written); ``ElementOf`` lists the entities (of the same column) the markable's entity is an
  element of (split-antecedent plurals).
  Every attribute, known or not, is kept in :attr:`Mention.attributes`. A bracket that never
  closes, a closing bracket with nothing open, an ``ElementOf`` or ``Min`` naming nothing is
  an error.
* Entities whose EntityID ends in ``-Pseudo`` (or ``_Pseudo``, a spelling found in GUM) are
  non-referring pseudo-entities: their markables go to :attr:`Document.non_referring`, never
  into identity entities.
* BRIDGING cells: ``_`` or, on the anaphor's first token, ``MarkableID=…|Rel=…|
  MentionAnchor=…|EntityAnchor=…`` (inside brackets spanning the anaphor, as CODI-CRAC writes
  it, or bare). ``MarkableID`` names the anaphor (an identity markable); at least one of
  ``MentionAnchor`` (an identity markable) and ``EntityAnchor`` (an identity entity; the
  ``-Pseudo`` suffix may be left out, as CODI-CRAC does) is required. When both are given they
  must agree. A repeated ``Rel``/``MentionAnchor``/``EntityAnchor`` group gives the anaphor
  another anchor (another :class:`~anascore.core.model.BridgingLink`); ``Rel=_`` is no relation.

Documents are yielded one at a time.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import IO

from anascore.core.errors import FormatError, shorten
from anascore.core.model import (
    NO_ATTRIBUTES,
    BridgingLink,
    ConlluNodes,
    Document,
    Entity,
    Mention,
    SpanTokens,
    checked_documents,
)
from anascore.formats.dependencies import CYCLE, id_positions, mention_head
from anascore.formats.dependencies import governors as dependency_governors
from anascore.formats.io.output import atomic_output
from anascore.formats.io.text_files import open_text
from anascore.formats.sentences import kept_lines, sentence_ids, sentence_of

#: Column positions when the file has no ``# global.columns`` line (CODI-CRAC layout).
DEFAULT_COLUMNS: tuple[str, ...] = (
    "ID", "FORM", "LEMMA", "UPOS", "XPOS", "FEATS", "HEAD", "DEPREL", "DEPS", "MISC",
    "IDENTITY", "BRIDGING", "DISCOURSE_DEIXIS", "REFERENCE", "NOM_SEM",
)
PSEUDO_SUFFIXES: tuple[str, ...] = ("-Pseudo", "_Pseudo")

_NEWDOC = re.compile(r"#\s*newdoc\b(.*)$")
_NEWDOC_ID = re.compile(r"\s*id\s*=\s*(.*?)\s*$")
_GLOBAL_COLUMNS = re.compile(r"#\s*global\.columns\s*=\s*(.*)$")
_SENT_ID = re.compile(r"#\s*sent_id\s*=\s*(.*)$")
_BRACKET = re.compile(r"\(([^()@]*)(\))?|([^()@]*)\)|@")


_CELL = re.compile(r"(?:\(([^()@]*)(\))?|([^()@]*)\)|@)+")
#: The brackets of cells seen before (cells of closing brackets repeat: ``)``, ``))`` …).
_SEEN_CELLS: dict[str, list[tuple[str | None, str | None, str | None]]] = {}


def _brackets(cell: str, column: str, expected: str, path: str,
              line: int) -> list[tuple[str | None, str | None, str | None]]:
    """The brackets of a cell of a markable column, left to right: (the attributes of an
    opening bracket, ``")"`` if it closes at once, the identifier of a closing bracket)."""
    found = _SEEN_CELLS.get(cell)
    if found is not None:
        return found
    if cell[0] == "(" and cell.count("(") == 1 and "@" not in cell:
        # One opening bracket alone, most markable cells: '(ATTRIBUTES' or '(ATTRIBUTES)'.
        closings = cell.count(")")
        if closings == 0:
            return [(cell[1:], None, None)]
        if closings == 1 and cell[-1] == ")":
            return [(cell[1:-1], ")", None)]
    if _CELL.fullmatch(cell) is None:
        raise FormatError(f"unknown {column} annotation {shorten(cell)!r}; expected {expected}",
                          path=path, line=line)
    found = [(bracket[1], bracket[2], bracket[3]) for bracket in _BRACKET.finditer(cell)]
    if "(" not in cell and len(_SEEN_CELLS) < 10000:
        _SEEN_CELLS[cell] = found
    return found


_TOKEN_ID = re.compile(r"\d+(?:\.\d+)?$")
_RANGE_ID = re.compile(r"\d+-\d+$")
_EMPTY = frozenset({"_", ""})
# Attribute names are matched ignoring case and underscores (files write EntityID, EntityId,
# Markable_ID …); MentionID is a spelling of MarkableID in the format description.
_CANONICAL = {"entityid": "EntityID", "markableid": "MarkableID", "mentionid": "MarkableID",
              "min": "Min", "semtype": "SemType", "elementof": "ElementOf", "rel": "Rel",
              "mentionanchor": "MentionAnchor", "entityanchor": "EntityAnchor"}


def is_pseudo(entity_id: str) -> bool:
    """Whether an EntityID names a non-referring pseudo-entity."""
    return entity_id.endswith(PSEUDO_SUFFIXES)


def canonical_name(name: str) -> str:
    return _CANONICAL.get(name.replace("_", "").lower(), name)


#: Attribute names as written → canonical (names repeat: a UA file uses a handful).
_NAMES: dict[str, str] = {}
#: Attribute names seen that are their own canonical name.
_AS_WRITTEN: set[str] = set()
_ATTRIBUTE = re.compile(r"([^|=]+)=([^|=]*)")


def newdoc_name(line: str) -> str | None:
    """The document a ``# newdoc id = NAME`` line begins, as :func:`read_ua` names it
    (``None``: not such a line, or one without an id)."""
    newdoc = _NEWDOC.match(line.strip())
    name = _NEWDOC_ID.match(newdoc.group(1)) if newdoc else None
    return name.group(1) if name is not None and name.group(1) else None


def sniff_ua(head: str) -> bool:
    """Whether the first lines of a file look like the UA exploded format: a
    ``# global.columns`` line naming IDENTITY, or ``# newdoc id`` followed by token lines with
    more than the ten CoNLL-U columns."""
    seen_newdoc = False
    for line in head.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        columns = _GLOBAL_COLUMNS.match(stripped)
        if columns:
            return "IDENTITY" in columns.group(1).upper().split()
        if stripped.startswith("#"):
            seen_newdoc = seen_newdoc or bool(_NEWDOC.match(stripped))
            continue
        cells = line.rstrip("\n").split("\t") if "\t" in line else stripped.split()
        return seen_newdoc and len(cells) > 10
    return False


#: What a markable column's cell may hold, as its errors say.
_MARKABLE_CELL = ("'_' or brackets such as '(EntityID=1|MarkableID=m1', ')', "
                  "'(EntityID=1|MarkableID=m1)'")


@dataclass(slots=True)
class _Markable:
    """A markable being read: its chunks (token ranges) and attributes."""

    markable_id: str
    entity_id: str
    attributes: dict[str, str]
    line: int
    sentence: int
    chunks: list[list[int]] = field(default_factory=list)


@dataclass
class _Layer:
    """The markables of one column (IDENTITY or DISCOURSE_DEIXIS) of one document."""

    column: str
    markables: dict[str, _Markable] = field(default_factory=dict)
    open_ids: list[str] = field(default_factory=list)
    anonymous: int = 0

    def read_column(self, cells: Sequence[str], sentences: Sequence[int], path: str,
                    lines: Sequence[int]) -> None:
        """Every cell of the column (token ``i``'s cell is ``cells[i]``), left to right, as
        :meth:`read_cell` reads them one by one.

        A markable with a MarkableID met for the first time, whose attributes need no
        cleaning (no white space, every name spelt as this reader spells it), is made here in
        a few steps, and a bare ``)`` closes the innermost open markable; anything else — an
        anonymous or discontinuous markable, a name spelt another way, a named closing
        bracket, and every error — goes through :meth:`_open` and :meth:`_close`, which say
        what is wrong."""
        column = self.column
        markables = self.markables
        open_ids = self.open_ids
        as_written = _AS_WRITTEN
        for token in [token for token, cell in enumerate(cells) if cell != "_"]:
            line = lines[token]
            for opening, closes_at_once, closing in _brackets(cells[token], column,
                                                              _MARKABLE_CELL, path, line):
                if opening is None:
                    if closing is None:
                        continue  # '@' between brackets
                    if closing or not open_ids:
                        self._close(closing, token, path, line)
                    else:
                        markables[open_ids.pop()].chunks[-1][1] = token
                    continue
                try:
                    attributes: dict[str, str] | None = dict(
                        [item.split("=") for item in opening.split("|")])
                except ValueError:  # an item without '=' or with two
                    attributes = None
                if attributes is not None and len(attributes) <= opening.count("|"):
                    attributes = None  # a name given twice: refused by _open
                markable_id = entity_id = None
                if (attributes is not None and attributes.keys() <= as_written
                        and opening.isprintable() and " " not in opening):
                    entity_id = attributes.get("EntityID")
                    markable_id = attributes.get("MarkableID")
                if not entity_id or not markable_id or markable_id in markables:
                    markable = self._open(opening, token, sentences[token], path, line)
                    if closes_at_once:
                        self._close(markable.markable_id, token, path, line)
                    continue
                markables[markable_id] = _Markable(
                    markable_id, entity_id, attributes, line,  # type: ignore[arg-type]
                    sentences[token], [[token, token if closes_at_once else -1]])
                if not closes_at_once:
                    open_ids.append(markable_id)

    def read_cell(self, cell: str, token: int, sentence: int, path: str, line: int) -> None:
        for opening, closes_at_once, closing in _brackets(cell, self.column, _MARKABLE_CELL,
                                                          path, line):
            if opening is not None:
                markable = self._open(opening, token, sentence, path, line)
                if closes_at_once:
                    self._close(markable.markable_id, token, path, line)
            elif closing is not None:
                self._close(closing, token, path, line)

    def _open(self, text: str, token: int, sentence: int, path: str, line: int) -> _Markable:
        attributes = parse_attributes(text, path, line, self.column)
        entity_id = attributes.get("EntityID")
        if not entity_id:
            raise FormatError(f"{self.column} markable '({shorten(text)}' has no EntityID; "
                              "expected '(EntityID=…|MarkableID=…'", path=path, line=line)
        markable_id = attributes.get("MarkableID")
        if not markable_id:
            self.anonymous += 1
            markable_id = f"\0{self.anonymous}"
        markable = self.markables.get(markable_id)
        if markable is None:
            markable = _Markable(markable_id, entity_id, attributes, line, sentence)
            self.markables[markable_id] = markable
        elif markable_id in self.open_ids:
            raise FormatError(f"markable {shorten(markable_id)} opened again before it closed "
                              f"(opened at line {markable.line})", path=path, line=line)
        elif markable.entity_id != entity_id:
            raise FormatError(
                f"markable {shorten(markable_id)} continues with EntityID={shorten(entity_id)} "
                f"but began (line {markable.line}) with EntityID={shorten(markable.entity_id)}; "
                "expected the chunks of a discontinuous markable to share one entity",
                path=path, line=line)
        markable.chunks.append([token, -1])
        self.open_ids.append(markable_id)
        return markable

    def _close(self, name: str, token: int, path: str, line: int) -> None:
        if name:
            if name not in self.open_ids:
                raise FormatError(f"closing bracket '{shorten(name)})' names no open {self.column} "
                                  "markable", path=path, line=line)
            self.open_ids.remove(name)
            markable_id = name
        else:
            if not self.open_ids:
                raise FormatError(f"closing bracket ')' without an open {self.column} markable",
                                  path=path, line=line)
            markable_id = self.open_ids.pop()
        self.markables[markable_id].chunks[-1][1] = token

    def check_closed(self, name: str, path: str) -> None:
        if self.open_ids:
            markable = self.markables[self.open_ids[0]]
            shown = ("" if markable.markable_id.startswith("\0")
                     else f" {shorten(markable.markable_id)}")
            raise FormatError(
                f"{self.column} markable{shown} (EntityID={shorten(markable.entity_id)}) opened "
                f"here is never closed in document {shorten(name)!r}; expected ')' before the "
                "next document",
                path=path, line=markable.line)


def parse_attributes(text: str, path: str, line: int, column: str) -> dict[str, str]:
    """``Name=value|Name=value`` → a dict with canonical names for the known attributes."""
    if text.isprintable() and " " not in text:  # no white space to strip: items in C
        pairs = _ATTRIBUTE.findall(text)
        if len(pairs) == text.count("|") + 1 == text.count("=") and _AS_WRITTEN.issuperset(
                name for name, _ in pairs):
            found = dict(pairs)
            if len(found) == len(pairs):
                return found
    attributes: dict[str, str] = {}
    for item in text.split("|"):
        name, equals, value = item.partition("=")
        canonical = _NAMES.get(name) if equals else None
        if canonical is None:
            if not item.strip():
                continue
            if not equals or not name.strip():
                raise FormatError(f"{column} attribute {shorten(item.strip())!r} in "
                                  f"{shorten(text)!r}; expected Name=value items joined by '|'",
                                  path=path, line=line)
            canonical = canonical_name(name.strip())
            if len(_NAMES) < 1000:
                _NAMES[name] = canonical
                if canonical == name:
                    _AS_WRITTEN.add(name)
        if canonical in attributes:
            raise FormatError(f"{column} attribute {shorten(canonical)} given twice in "
                              f"{shorten(text)!r}; expected each attribute once", path=path,
                              line=line)
        attributes[canonical] = value.strip()
    return attributes


@dataclass
class _DocumentReader:
    """One document: its lines as read, then (:meth:`build`) everything made of them.

    The file loop only collects: a token line is appended to ``rows`` as it is, and the few
    other lines (blank lines, comments, ``# sent_id``, a new ``# global.columns``) are noted
    with the row they come before. :meth:`build` then splits the rows and reads the columns
    a document at a time (most cells of a UA file are ``_``, and only the markable columns'
    other cells are parsed), which costs a fraction of handling each line and cell on its own.
    """

    name: str
    line: int
    path: str
    columns: dict[str, int]
    declared: int | None
    needed: int
    # As collected: token lines (raw, with their newline), each non-token line's effect.
    rows: list[str] = field(default_factory=list)
    runs: list[tuple[int, int]] = field(default_factory=list)  # (row, line of that row)
    blanks: list[int] = field(default_factory=list)  # rows that follow a blank line
    sent_ids: list[tuple[int, str]] = field(default_factory=list)  # (row, sent_id)
    comments: list[tuple[int, str]] = field(default_factory=list)  # (row, line) kept lines
    layouts: list[tuple[int, dict[str, int], int | None, int]] = field(default_factory=list)
    # As built: each token's form, (ID, sentence), DEPS, line, sentence (Document.nodes).
    words: tuple[str, ...] = ()
    ids: list[tuple[str, int]] = field(default_factory=list)
    deps: tuple[str, ...] = ()
    lines: list[int] = field(default_factory=list)
    sentence_of: list[int] = field(default_factory=list)
    sentence_starts: list[int] = field(default_factory=list)
    sentence_ids: list[str] = field(default_factory=list)
    sentence_lines: list[int] = field(default_factory=list)
    identity: _Layer = field(default_factory=lambda: _Layer("IDENTITY"))
    deixis: _Layer = field(default_factory=lambda: _Layer("DISCOURSE_DEIXIS"))
    bridging: list[tuple[int, str]] = field(default_factory=list)
    bridging_open: list[int] = field(default_factory=list)
    # Each token's dependency HEAD cells, as written (every markable's head comes from
    # them); with token_columns, its UPOS too.
    token_columns: bool = False
    upos: Sequence[str] = ()
    dependency_heads: Sequence[str] = ()
    # With all_columns (for conversion): each token's other cells by column name, and the
    # lines before it that the reader does not otherwise keep (comments, sent_id in its place,
    # multiword-token and ID 0 lines).
    keep_all: bool = False
    kept: dict[str, Sequence[str]] = field(default_factory=dict)
    _ids_unique: bool = True  # token IDs are unique in the document (else per sentence)
    before: list[str] = field(default_factory=list)

    def note(self, line: int) -> None:
        """A line that is no token line: the next row starts a run of lines after it."""
        self.runs.append((len(self.rows), line + 1))

    def build(self) -> None:
        """Split the rows into cells, check them, and read every column (see the module's
        rules); errors name the line they were found on."""
        numbers = self._row_lines()
        columns = self._cells(numbers)
        ids = columns.get("ID") or ("_",) * len(numbers)
        token_rows: Sequence[int] | None = None  # None: every row is a token
        joined = "".join(ids)
        if not joined.isdecimal() or "0" in ids:
            token_rows = self._token_rows(ids, columns, numbers)
        kept_before: dict[int, list[str]] = {}
        if self.keep_all:
            for row, text in self.comments:
                kept_before.setdefault(row, []).append(text)
        if token_rows is not None:
            chosen = set(token_rows)
            if self.keep_all:
                for row in range(len(numbers)):
                    if row not in chosen:
                        kept_before.setdefault(row + 1, []).append(
                            "\t".join(values[row] for values in columns.values()))
            columns = {name: [values[row] for row in token_rows]
                       for name, values in columns.items()}
            numbers = [numbers[row] for row in token_rows]
            token_of_row = _next_token(token_rows, len(ids))
        else:
            token_of_row = None
        count = len(numbers)

        def token_at(row: int) -> int:
            return row if token_of_row is None else token_of_row[row]

        self.words = tuple(columns.get("FORM") or ("_",) * count)
        self.deps = tuple(columns.get("DEPS") or ("_",) * count)
        self.lines = numbers
        self._sentences(token_at, count, numbers)
        blank_sentence = _sentence_numbers([token_at(row) for row in self.blanks], count)
        self.ids = list(zip(columns.get("ID") or ("_",) * count, blank_sentence, strict=True))
        self.dependency_heads = columns.get("HEAD") or ("_",) * count
        if self.token_columns:
            self.upos = columns.get("UPOS") or ("_",) * count
        if self.keep_all:
            self.kept = {name: values for name, values in columns.items()
                         if name not in _REGENERATED}
            before: dict[int, list[str]] = {}
            for row in sorted(kept_before):
                before.setdefault(token_at(row), []).extend(kept_before[row])
            self.before = ["\n".join(before[token]) if token in before else ""
                           for token in range(count)]
        for name, layer in (("IDENTITY", self.identity), ("DISCOURSE_DEIXIS", self.deixis)):
            cells = columns.get(name)
            if cells is not None:
                layer.read_column(cells, blank_sentence, self.path, numbers)
        cells = columns.get("BRIDGING")
        if cells is not None:
            for token in [token for token, cell in enumerate(cells) if cell != "_"]:
                self._read_bridging(cells[token], numbers[token])

    def _row_lines(self) -> list[int]:
        """The line of each row: rows between two noted lines are consecutive lines."""
        numbers: list[int] = []
        bounds = [*self.runs[1:], (len(self.rows), 0)]
        for (row, line), (next_row, _) in zip(self.runs, bounds, strict=True):
            numbers.extend(range(line, line + next_row - row))
        return numbers

    def _cells(self, numbers: list[int]) -> dict[str, Sequence[str]]:
        """Every column's cells by column name (``_`` where a line has no such cell)."""
        layouts = [(0, self.columns, self.declared, self.needed), *self.layouts]
        if len(layouts) == 1 and not self.keep_all:
            used = [self.columns[name] for name in _READ_COLUMNS if name in self.columns]
            fast = _regular_cells(self.rows, self.declared, self.needed, used)
            if fast is not None:
                return _named(fast, self.columns)
        segments: list[tuple[int, dict[str, Sequence[str]]]] = []
        for index, (start, columns, declared, needed) in enumerate(layouts):
            stop = layouts[index + 1][0] if index + 1 < len(layouts) else len(self.rows)
            rows = [_line_cells(self.rows[row], declared, needed, self.path, numbers[row])
                    for row in range(start, stop)]
            width = max(map(len, rows), default=0)
            rows = [cells + ["_"] * (width - len(cells)) for cells in rows]
            segments.append((stop - start,
                             _named(list(zip(*rows, strict=True)), columns) if rows else {}))
        names = dict.fromkeys(name for _, part in segments for name in part)
        return {name: [cell for size, part in segments
                       for cell in part.get(name, ("_",) * size)] for name in names}

    def _token_rows(self, ids: Sequence[str], columns: Mapping[str, Sequence[str]],
                    numbers: list[int]) -> list[int]:
        """The rows that are tokens; multiword-token and ID 0 lines must carry no annotation,
        any other ID is an error."""
        rows = []
        for row, token_id in enumerate(ids):
            if _TOKEN_ID.match(token_id) and token_id != "0":
                rows.append(row)
                continue
            if _RANGE_ID.match(token_id) or token_id == "0":
                for layer in ("IDENTITY", "BRIDGING", "DISCOURSE_DEIXIS"):
                    cells = columns.get(layer)
                    if cells is not None and cells[row] not in _EMPTY:
                        raise FormatError(f"{layer} annotation on a line with ID {token_id} "
                                          "(not a token); expected it on a token line",
                                          path=self.path, line=numbers[row])
                continue
            raise FormatError(f"token ID {shorten(token_id)!r}; expected an integer (or N.M for an "
                              "empty node, N-M for a multiword token)",
                              path=self.path, line=numbers[row])
        return rows

    def _sentences(self, token_at: Callable[[int], int], count: int,
                   numbers: list[int]) -> None:
        """Sentences open at the first token after a blank or ``# sent_id`` line (and at the
        first token); each takes the last ``# sent_id`` noted since the previous one."""
        starts = sorted({0, *(token_at(row) for row in self.blanks),
                         *(token_at(row) for row, _ in self.sent_ids)})
        starts = [start for start in starts if start < count]
        names = {}
        for row, name in self.sent_ids:
            names[token_at(row)] = name  # the last one before a start wins
        self.sentence_starts = starts
        self.sentence_ids = [names.get(start, "") for start in starts]
        self.sentence_lines = [numbers[start] for start in starts]
        self.sentence_of = _sentence_numbers(starts[1:], count)

    def _read_bridging(self, cell: str, line: int) -> None:
        if cell[0] not in "()":
            self.bridging.append((line, cell))
            return
        expected = "'_' or '(MarkableID=…|Rel=…|MentionAnchor=…|EntityAnchor=…' and ')'"
        for opening, closes_at_once, closing in _brackets(cell, "BRIDGING", expected,
                                                          self.path, line):
            if opening is not None:
                self.bridging.append((line, opening))
                if not closes_at_once:
                    self.bridging_open.append(line)
            elif closing is not None:
                if not self.bridging_open:
                    raise FormatError("closing bracket ')' without an open BRIDGING annotation",
                                      path=self.path, line=line)
                self.bridging_open.pop()

    def document(self) -> Document:
        self.identity.check_closed(self.name, self.path)
        self.deixis.check_closed(self.name, self.path)
        if self.bridging_open:
            raise FormatError(f"BRIDGING annotation opened here is never closed in document "
                              f"{self.name!r}", path=self.path, line=self.bridging_open[0])
        ids = tuple(token_id for token_id, _ in self.ids)
        empty = (tuple("." in token_id for token_id in ids) if "." in "".join(ids)
                 else (False,) * len(ids))
        lookup = id_positions(self.ids)
        positions, self._ids_unique = lookup
        governors = dependency_governors(self.ids, self.dependency_heads, lookup)
        identity_mentions, entities, non_referring, entity_ids = self._entities(
            self.identity, positions, governors)
        _, deixis_entities, _, _ = self._entities(self.deixis, positions, governors)
        bridging = self._bridging_links(identity_mentions, entity_ids)
        columns: Mapping[str, tuple[str, ...]] = NO_ATTRIBUTES
        has_upos = self.token_columns and self._has_upos()
        if has_upos or self.keep_all:
            kept: dict[str, tuple[str, ...]] = {}
            if has_upos:
                kept["upos"] = tuple(self.upos)
                kept["empty_node"] = tuple("1" if node else "0" for node in empty)
            if self.keep_all:
                kept.update({(name.lower() if name in _CONLLU_COLUMNS else f"column:{name}"):
                             tuple(values) for name, values in self.kept.items()})
                kept["before"] = tuple(self.before)
            columns = MappingProxyType(kept)
        return Document(
            name=self.name,
            tokens=self.words,
            entities=entities,
            non_referring=non_referring,
            bridging=bridging,
            discourse_deixis=deixis_entities,
            path=self.path,
            line=self.line,
            token_columns=columns,
            source_format="ua",
            sentence_starts=tuple(self.sentence_starts),
            nodes=ConlluNodes(
                ids=ids,
                sentence_of=tuple(self.sentence_of),
                empty=empty,
                deps=self.deps, lines=tuple(self.lines),
                sentence_ids=tuple(self.sentence_ids),
                sentence_lines=tuple(self.sentence_lines)),
        )

    def _has_upos(self) -> bool:
        return any(upos not in _EMPTY for upos in self.upos)

    def _entities(self, layer: _Layer, positions: Mapping,
                  governors: list[int | None]) -> tuple[
            dict[str, Mention], tuple[Entity, ...], tuple[Mention, ...], set[str]]:
        per_document = self._ids_unique
        mention_of: dict[str, Mention] = {}
        mentions_of: dict[str, list[Mention]] = {}
        non_referring: list[Mention] = []
        elements_of: dict[str, list[str]] = {}
        element_lines: dict[str, int] = {}
        spans = SpanTokens()  # copies of a span share its positions
        for markable in layer.markables.values():
            if len(markable.chunks) == 1:
                tokens = spans.tokens(*markable.chunks[0])
            else:
                tokens = tuple(sorted({position for start, end in markable.chunks
                                       for position in range(start, end + 1)}))
            min_text = markable.attributes.get("Min")
            min_tokens = None
            if min_text:
                min_tokens = self._min_tokens(min_text, markable, positions, per_document)
            head = mention_head(tokens, min_tokens, governors)
            if head == CYCLE:
                raise FormatError(
                    f"markable {markable.markable_id}: the dependency HEAD of every one of its "
                    "tokens lies inside it (a cycle); expected one token governed from outside "
                    "the markable, its head", path=self.path, line=markable.line)
            mention = Mention.made(tokens, markable.line, head, min_tokens,
                                   MappingProxyType(markable.attributes))
            mention_of[markable.markable_id] = mention
            entity_mentions = mentions_of.get(markable.entity_id)
            if entity_mentions is None:
                entity_mentions = mentions_of[markable.entity_id] = []
                pseudo = is_pseudo(markable.entity_id)
            else:
                pseudo = not entity_mentions and is_pseudo(markable.entity_id)
            if pseudo:
                non_referring.append(mention)
            else:
                entity_mentions.append(mention)
            element_of = markable.attributes.get("ElementOf")
            for plural in element_of.split(",") if element_of else ():
                plural = plural.strip()
                if plural:
                    members = elements_of.setdefault(plural, [])
                    element_lines.setdefault(plural, markable.line)
                    if markable.entity_id not in members:
                        members.append(markable.entity_id)
        for plural, line in element_lines.items():
            if plural not in mentions_of:
                raise FormatError(f"ElementOf={plural} names no entity of the {layer.column} "
                                  f"column in document {self.name!r}", path=self.path,
                                  line=line)
            if is_pseudo(plural):
                raise FormatError(f"ElementOf={plural} names a non-referring pseudo-entity; "
                                  "expected a referring (plural) entity", path=self.path,
                                  line=line)
        entities = tuple(
            Entity(entity_id, tuple(mentions), tuple(elements_of.get(entity_id, ())))
            for entity_id, mentions in mentions_of.items() if not is_pseudo(entity_id))
        return mention_of, entities, tuple(non_referring), set(mentions_of)

    def _min_tokens(self, text: str, markable: _Markable, positions: Mapping,
                    per_document: bool) -> tuple[int, ...]:
        def position(token_id: str) -> int:
            key = token_id if per_document else (token_id, markable.sentence)
            found = positions.get(key)
            if found is None:
                where = "document" if per_document else "sentence"
                raise FormatError(f"Min={shorten(text)} of markable "
                                  f"{shorten(markable.markable_id)} names token "
                                  f"{shorten(token_id)}, which is not in its {where}",
                                  path=self.path, line=markable.line)
            return found

        items = [item.strip() for item in text.split(",")]
        if len(items) == 2 and all(_TOKEN_ID.match(item) for item in items):
            ranges = [(items[0], items[1])]  # CODI-CRAC: "first,last"
        else:
            ranges = []
            for item in items:
                first, dash, last = item.partition("-")
                ranges.append((first, last if dash else first))
        tokens: set[int] = set()
        for first, last in ranges:
            if not (_TOKEN_ID.match(first) and _TOKEN_ID.match(last)):
                raise FormatError(f"Min={shorten(text)} of markable "
                                  f"{shorten(markable.markable_id)}; expected token IDs such "
                                  "as 7, 7,9 or 7-9", path=self.path,
                                  line=markable.line)
            start, end = position(first), position(last)
            if end < start:
                raise FormatError(f"Min={shorten(text)} of markable "
                                  f"{shorten(markable.markable_id)} ends before it starts",
                                  path=self.path, line=markable.line)
            tokens.update(range(start, end + 1))
        return tuple(sorted(tokens))

    def _bridging_links(self, mention_of: dict[str, Mention],
                        entity_ids: set[str]) -> tuple[BridgingLink, ...]:
        entity_of_markable = {markable.markable_id: markable.entity_id
                              for markable in self.identity.markables.values()}
        links: list[BridgingLink] = []
        for line, text in self.bridging:
            items = [(canonical_name(name.strip()), value.strip()) for name, _, value in
                     (item.partition("=") for item in text.split("|") if item.strip())]
            anaphor_id = next((value for name, value in items if name == "MarkableID"), None)
            if not anaphor_id:
                raise FormatError(f"BRIDGING annotation {text!r} has no MarkableID; expected "
                                  "'MarkableID=…|Rel=…|MentionAnchor=…|EntityAnchor=…'",
                                  path=self.path, line=line)
            anaphor = mention_of.get(anaphor_id)
            if anaphor is None:
                raise FormatError(f"bridging anaphor MarkableID={anaphor_id} names no markable "
                                  f"of the IDENTITY column in document {self.name!r}",
                                  path=self.path, line=line)
            for group in _anchor_groups(items):
                links.append(self._link(anaphor, group, mention_of, entity_of_markable,
                                        entity_ids, text, line))
        return tuple(links)

    def _link(self, anaphor: Mention, group: dict[str, str], mention_of: dict[str, Mention],
              entity_of_markable: dict[str, str], entity_ids: set[str], text: str,
              line: int) -> BridgingLink:
        mention_anchor = group.get("MentionAnchor")
        entity_anchor = group.get("EntityAnchor")
        if not mention_anchor and not entity_anchor:
            raise FormatError(f"BRIDGING annotation {text!r} has no anchor; expected "
                              "MentionAnchor=… or EntityAnchor=…", path=self.path, line=line)
        antecedent = None
        antecedent_entity = None
        if mention_anchor:
            antecedent = mention_of.get(mention_anchor)
            if antecedent is None:
                raise FormatError(f"bridging anchor MentionAnchor={mention_anchor} names no "
                                  f"markable of the IDENTITY column in document {self.name!r}",
                                  path=self.path, line=line)
            antecedent_entity = entity_of_markable[mention_anchor]
        if entity_anchor:
            named = next((candidate for candidate in
                          (entity_anchor, *(entity_anchor + suffix for suffix in PSEUDO_SUFFIXES))
                          if candidate in entity_ids), None)
            if named is None:
                raise FormatError(f"bridging anchor EntityAnchor={entity_anchor} names no "
                                  f"entity of the IDENTITY column in document {self.name!r}",
                                  path=self.path, line=line)
            if antecedent_entity is not None and named != antecedent_entity:
                raise FormatError(
                    f"bridging anchors disagree: MentionAnchor={mention_anchor} belongs to "
                    f"entity {antecedent_entity} but EntityAnchor={entity_anchor}",
                    path=self.path, line=line)
            antecedent_entity = named
        relation = group.get("Rel", "")
        return BridgingLink(anaphor, antecedent, antecedent_entity,
                            "" if relation == "_" else relation)


def heads_read_back(document: Document) -> dict[tuple[int, ...], int | None]:
    """The head :func:`read_ua` gives each identity mention of
    ``document`` once :func:`write_ua` has written it, by its positions: from the dependency
    HEAD column written with it (a UA or CoNLL-U source read with all its columns keeps it,
    under its own token IDs), else from a one-token Min or a one-token mention. What a
    conversion to UA would lose of a mention's head is where this differs from it."""
    count = len(document.tokens)
    heads = document.token_columns.get("head", ("_",) * count)
    ids = _written_ids(document) or [str(position + 1) for position in range(count)]
    numbered = list(zip(ids, sentence_of(document), strict=True))
    governors = dependency_governors(numbered, heads, id_positions(numbered))
    return {mention.tokens: mention_head(mention.tokens, mention.min_tokens, governors)
            for mention in document.mentions()}


def _anchor_groups(items: list[tuple[str, str]]) -> list[dict[str, str]]:
    """Split ``Rel``/``MentionAnchor``/``EntityAnchor`` items into one group per anchor: a name
    seen again, or ``Rel`` after an anchor, starts the next group."""
    groups: list[dict[str, str]] = [{}]
    for name, value in items:
        if name not in ("Rel", "MentionAnchor", "EntityAnchor"):
            continue
        if name in groups[-1] or (name == "Rel" and groups[-1]):
            groups.append({})
        groups[-1][name] = value
    return groups


def _width_error(width: int, needed: int, declared: int | None, path: str, line: int) -> None:
    """A token line must reach its IDENTITY column and have no more columns than declared.

    Lines aligned with spaces (CODI-CRAC's) cannot show an empty trailing cell, so they may
    stop after IDENTITY (the missing cells read as ``_``); a line that stops before it would
    lose its markables, and a line with more cells than declared has them shifted."""
    if width < needed:
        raise FormatError(f"{width} columns; expected at least {needed}, up to IDENTITY "
                          f"(column {needed}), or the line's markables would be lost",
                          path=path, line=line)
    raise FormatError(f"{width} columns; expected at most {declared}, as '# global.columns' "
                      "names them", path=path, line=line)


def _column_positions(names: list[str], path: str, line: int) -> dict[str, int]:
    positions = {name.upper(): index for index, name in enumerate(names)}
    if "IDENTITY" not in positions:
        raise FormatError("'# global.columns' names no IDENTITY column; expected e.g. 'ID FORM "
                          "LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY BRIDGING "
                          "DISCOURSE_DEIXIS'", path=path, line=line)
    positions.setdefault("ID", 0)
    positions.setdefault("FORM", 1)
    return positions


#: The columns the reader takes values from (without ``all_columns``).
_READ_COLUMNS = ("ID", "FORM", "DEPS", "UPOS", "HEAD", "IDENTITY", "BRIDGING",
                 "DISCOURSE_DEIXIS")
#: Columns the writer makes from the annotation or the nodes (the others are kept as read).
_REGENERATED = frozenset({"ID", "FORM", "DEPS", "IDENTITY", "BRIDGING", "DISCOURSE_DEIXIS"})
#: The CoNLL-U columns kept under their own lower-case names (as the CorefUD reader keeps
#: them); other columns (CODI-CRAC's REFERENCE, NOM_SEM) as ``column:NAME``.
_CONLLU_COLUMNS = frozenset({"LEMMA", "UPOS", "XPOS", "FEATS", "HEAD", "DEPREL", "MISC"})


def read_ua(path: str | os.PathLike[str], *, token_columns: bool = False,
            all_columns: bool = False) -> Iterator[Document]:
    """Yield the documents of a UA exploded (CoNLL-U Plus) file in file order.

    Each markable gets a head (``Mention.head``) by the rule of every reader
    (:func:`~anascore.formats.dependencies.mention_head`): its first token whose dependency
    HEAD lies outside it, else its Min when Min is one of its tokens, else its one token; a
    mention is a zero when its head is an empty node, whatever the options.
    ``token_columns=True`` also keeps, when the file fills its UPOS column, each token's UPOS
    and whether it is an empty node (``Document.token_columns["upos"]``, ``["empty_node"]``:
    ``"1"`` or ``"0"``): the linguistically aware metrics type mentions from them and the
    heads (:mod:`anascore.comparison.mention_types`).
    """
    path = os.fspath(path)
    with open_text(path) as lines:
        yield from read_ua_lines(enumerate(lines, start=1), path, token_columns=token_columns,
                                 all_columns=all_columns)


def read_ua_lines(lines: Iterable[tuple[int, str]], path: str, *, token_columns: bool = False,
                  all_columns: bool = False) -> Iterator[Document]:
    """:func:`read_ua` of numbered lines of ``path`` (universal newlines): the whole file, or
    a stretch of it that begins with the ``# global.columns`` line in force there
    (:mod:`anascore.scoring.parallel`)."""
    columns = {name: index for index, name in enumerate(DEFAULT_COLUMNS)}
    declared: int | None = None  # the number of columns '# global.columns' names
    needed = columns["IDENTITY"] + 1  # a token line reaches the IDENTITY column
    current: _DocumentReader | None = None
    seen_any = False
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
        newdoc = _NEWDOC.match(stripped)
        if newdoc:
            name = _NEWDOC_ID.match(newdoc.group(1))
            if name is None or not name.group(1):
                raise FormatError("'# newdoc' without a document id; expected "
                                  "'# newdoc id = NAME'", path=path, line=line_number)
            if current is not None:
                yield _finished(current)
            current = _DocumentReader(name.group(1), line_number, path, columns, declared,
                                      needed, token_columns=token_columns,
                                      keep_all=all_columns)
            current.note(line_number)
            seen_any = True
            continue
        sent_id = _SENT_ID.match(stripped)
        if sent_id and current is not None:
            current.sent_ids.append((len(current.rows), sent_id.group(1).strip()))
            current.comments.append((len(current.rows), stripped))
            continue
        global_columns = _GLOBAL_COLUMNS.match(stripped)
        if global_columns:
            names = global_columns.group(1).split()
            columns = _column_positions(names, path, line_number)
            declared, needed = len(names), columns["IDENTITY"] + 1
            if current is not None:
                current.layouts.append((len(current.rows), columns, declared, needed))
        elif current is not None:
            current.comments.append((len(current.rows), stripped))
    if current is not None:
        yield _finished(current)
    if not seen_any:
        raise FormatError("no document found; expected '# newdoc id = NAME' lines (is this the "
                          "UA exploded format?)", path=path, line=line_number or None)


_DIGITS = frozenset("0123456789")


def _finished(reader: _DocumentReader) -> Document:
    reader.build()
    return reader.document()


#: ASCII control characters that ``str.strip`` removes, beside the tab and newline.
_CONTROL_SPACE = "\x0b\x0c\x1c\x1d\x1e\x1f"
#: White space beyond ASCII (``str.strip`` removes it): looked for only in non-ASCII text.
_UNICODE_SPACE = re.compile("[\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]")


def _regular_cells(rows: list[str], declared: int | None, needed: int,
                   used: Sequence[int]) -> list[tuple[str, ...]] | None:
    """The columns of ``rows`` (each a tuple of cells), when every row is tab-separated, all
    rows have the same width that the layout allows, and no cell of a ``used`` column is
    empty or has white space at either end (a cell :func:`_line_cells` would change); else
    ``None``, and the rows are read one by one. Other columns' cells are not looked at: the
    reader does not use them."""
    if not rows:
        return []
    text = "".join(rows)
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    if len(lines) != len(rows):
        return None
    cells = [line.split("\t") for line in lines]
    widths = set(map(len, cells))
    if len(widths) != 1:
        return None
    width = widths.pop()
    if width < needed or (declared is not None and width != declared):
        return None
    columns = list(zip(*cells, strict=True))
    if not all(_clean(columns[index]) for index in used if index < width):
        return None
    return columns


def _clean(cells: Sequence[str]) -> bool:
    """Whether no cell is empty or has white space at either end."""
    if "" in cells:
        return False
    text = "\n".join(cells)
    if text[0].isspace() or text[-1].isspace() or " \n" in text or "\n " in text:
        return False
    if any(character in text for character in _CONTROL_SPACE):
        return False
    return text.isascii() or _UNICODE_SPACE.search(text) is None


def _line_cells(raw: str, declared: int | None, needed: int, path: str,
                line: int) -> list[str]:
    """One token line's cells: tab-separated (each stripped; an empty cell reads as ``_``), or
    separated by runs of spaces; a line too short or too wide for the layout is an error."""
    if "\t" in raw:
        cells = [cell.strip() or "_" for cell in raw.rstrip("\r\n").split("\t")]
        if declared is not None and len(cells) != declared:
            raise FormatError(
                f"{len(cells)} tab-separated columns; expected {declared}, as "
                "'# global.columns' names them (an empty cell is '_')",
                path=path, line=line)
    else:
        cells = raw.split()
    if len(cells) < needed or (declared is not None and len(cells) > declared):
        _width_error(len(cells), needed, declared, path, line)
    return cells


def _named(columns: Sequence[Sequence[str]],
           positions: Mapping[str, int]) -> dict[str, Sequence[str]]:
    """The columns by name (names whose position is beyond the rows' width are left out:
    their cells read as ``_``)."""
    return {name: columns[index] for name, index in positions.items() if index < len(columns)}


def _next_token(token_rows: Sequence[int], row_count: int) -> list[int]:
    """For every row (and the row just past the end), the token it is or that follows it."""
    found = []
    token = 0
    for row in range(row_count + 1):
        found.append(token)  # the number of token rows before this row
        if token < len(token_rows) and token_rows[token] == row:
            token += 1
    return found


def _sentence_numbers(boundaries: Sequence[int], count: int) -> list[int]:
    """For each of ``count`` positions, how many of ``boundaries`` are at or before it."""
    numbers: list[int] = []
    previous = 0
    for number, boundary in enumerate(sorted(boundaries)):
        boundary = min(boundary, count)
        numbers.extend([number] * (boundary - previous))
        previous = max(previous, boundary)
    numbers.extend([len(boundaries)] * (count - previous))
    return numbers


#: The columns :func:`write_ua` writes: IDENTITY, BRIDGING and DISCOURSE_DEIXIS at the
#: positions the UA scorer reads them from (11th, 12th, 13th).
WRITTEN_COLUMNS: tuple[str, ...] = DEFAULT_COLUMNS[:13]
_UNSAFE = re.compile(r"[\s()|@=]")
_MANAGED = frozenset({"EntityID", "MarkableID", "Min", "ElementOf"})


def write_ua(documents: Iterable[Document], path: str | os.PathLike[str]) -> None:
    """Write documents in the UA exploded format, tab-separated, one sentence per document.

    Reading the file back gives the same documents (tokens, entities, their mentions with
    ``Min`` and other attributes, split-antecedent ``ElementOf``, non-referring markables,
    bridging links, the discourse-deixis layer), so every score is kept. (Entities come back
    in the order their first mentions open in the text; only ``compat="ua"``'s counting of a
    span annotated twice depends on that order.) Markables keep their
    ``MarkableID`` attribute when it is unique, else get ``markable_N``. Closing brackets are
    bare (``)``) unless two markables of a column cross, in which case that column names the
    markable it closes (``markable_3)``; the UA scorer reads such files with
    ``--allow-boundary-crossing``). Within a cell, closings come first, then openings (the
    longest first), then one-token markables, the order both readers expect.

    Raises :class:`~anascore.core.errors.FormatError` for what the format cannot hold: an entity
    identifier or attribute with white space or one of ``( ) | @ =``, a bridging anaphor or
    anchor that is no markable of the identity layer.
    """
    documents = checked_documents(documents, "the documents to write")
    with atomic_output(path) as stream:
        documents = list(documents)
        # Columns beyond the UA ones that a UA source had (CODI-CRAC's REFERENCE, NOM_SEM).
        extra = list(dict.fromkeys(name.split(":", 1)[1] for document in documents
                                   for name in document.token_columns
                                   if name.startswith("column:")
                                   and name.split(":", 1)[1] not in WRITTEN_COLUMNS))
        stream.write("# global.columns = " + " ".join([*WRITTEN_COLUMNS, *extra]) + "\n")
        for document in documents:
            _write_document(document, stream, extra)


def _write_document(document: Document, stream: IO[str],
                    extra: Sequence[str] = ()) -> None:
    columns = document.token_columns
    # A UA or CoNLL-U source read with all its columns keeps its token IDs: its HEAD and
    # DEPS cells, written as they are, refer to them (a CoNLL-U file numbers each sentence
    # from 1, which the UA reader reads within the sentence). Anything else is numbered
    # over the document.
    ids = _written_ids(document)
    identity = _LayerWriter(document.name, "markable", ids)
    identity.add_entities(document.entities)
    identity.add_non_referring(document.non_referring)
    identity.add_elements(document.entities)
    deixis = _LayerWriter(document.name, "dd_markable", ids)
    deixis.add_entities(document.discourse_deixis)
    deixis.add_elements(document.discourse_deixis)
    identity_cells = identity.cells()
    deixis_cells = deixis.cells()
    bridging_cells = _bridging_cells(document, identity)
    stream.write(f"# newdoc id = {document.name}\n")
    sentences = sentence_of(document)
    names = sentence_ids(document, (sentences[-1] + 1) if sentences else 0)
    before = columns.get("before")
    nodes = document.nodes if _keeps_ids(document) else None
    deps = nodes.deps if nodes is not None else None
    for position, word in enumerate(document.tokens):
        if position == 0 or sentences[position] != sentences[position - 1]:
            if position:
                stream.write("\n")
            name = names[sentences[position]] if sentences[position] < len(names) else ""
            if name and before is None:
                stream.write(f"# sent_id = {name}\n")
        if before is not None and before[position]:
            stream.write(kept_lines(before[position], len(WRITTEN_COLUMNS) + len(extra)))
        form = re.sub(r"\s+", "_", word) or "_"
        conllu = [columns[name][position] if name in columns else "_"
                  for name in ("lemma", "upos", "xpos", "feats", "head", "deprel")]
        cells = [ids[position] if ids is not None else str(position + 1), form, *conllu,
                 deps[position] if deps is not None else "_",
                 columns["misc"][position] or "_" if "misc" in columns else "_",
                 identity_cells.get(position, "_"), bridging_cells.get(position, "_"),
                 deixis_cells.get(position, "_"),
                 *(columns[f"column:{name}"][position] if f"column:{name}" in columns else "_"
                   for name in extra)]
        stream.write("\t".join(cells) + "\n")
    stream.write("\n")


def _document_ids(document: Document) -> list[str] | None:
    """Token IDs over the document for a document with empty nodes whose own IDs are not
    kept: words 1, 2, … and each empty node ``W.k`` after word ``W`` (``0.k`` before the
    first), as CoNLL-U numbers them, so that an empty node stays an empty node (``None``:
    no empty nodes, positions + 1)."""
    if document.nodes is None or not document.nodes.has_empty_nodes:
        return None
    ids = []
    word = after = 0
    for empty in document.nodes.empty:
        if empty:
            after += 1
            ids.append(f"{word}.{after}")
        else:
            word, after = word + 1, 0
            ids.append(str(word))
    return ids


def _written_ids(document: Document) -> list[str] | None:
    """The token IDs :func:`write_ua` writes (``None``: positions + 1): the document's own
    (:func:`_keeps_ids`), else :func:`_document_ids`."""
    if _keeps_ids(document) and document.nodes is not None:
        return list(document.nodes.ids)
    return _document_ids(document)


def _keeps_ids(document: Document) -> bool:
    """Whether :func:`write_ua` writes ``document``'s own token IDs (see there)."""
    return ("before" in document.token_columns and document.nodes is not None
            and document.source_format in ("ua", "corefud"))


def _safe(value: str, what: str, document: str) -> str:
    if not value or _UNSAFE.search(value):
        raise FormatError(f"document {document!r}: {what} {value!r} cannot be written in the UA "
                          "format (empty, or white space or one of ( ) | @ =)")
    return value


@dataclass
class _WrittenMarkable:
    markable_id: str
    entity_id: str
    mention: Mention
    element_of: list[str] = field(default_factory=list)


class _LayerWriter:
    """The markables of one column of one document, with the identifiers they are written
    with."""

    def __init__(self, document: str, prefix: str, ids: Sequence[str] | None = None) -> None:
        self.document = document
        self.prefix = prefix
        self.ids = ids  # the token IDs Min values name (None: positions + 1)
        self.markables: list[_WrittenMarkable] = []
        self.used_ids: set[str] = set()
        self.first_markable: dict[str, _WrittenMarkable] = {}
        self.by_tokens: dict[tuple[int, ...], list[_WrittenMarkable]] = {}

    def _add(self, entity_id: str, mention: Mention) -> None:
        wanted = mention.attributes.get("MarkableID", "")
        if not wanted or wanted in self.used_ids or _UNSAFE.search(wanted):
            number = len(self.markables) + 1
            while f"{self.prefix}_{number}" in self.used_ids:
                number += 1
            wanted = f"{self.prefix}_{number}"
        self.used_ids.add(wanted)
        markable = _WrittenMarkable(wanted, _safe(entity_id, "entity id", self.document),
                                    mention)
        self.markables.append(markable)
        self.first_markable.setdefault(entity_id, markable)
        self.by_tokens.setdefault(mention.tokens, []).append(markable)

    def markable_of(self, mention: Mention,
                    entity_id: str | None = None) -> _WrittenMarkable | None:
        """The markable written for ``mention``; when several markables have its tokens, the
        one of entity ``entity_id`` (or of the mention's own EntityID), then the one with the
        same MIN, then the mention itself."""
        candidates = self.by_tokens.get(mention.tokens, [])
        if not candidates:
            return None
        wanted = entity_id or mention.attributes.get("EntityID")
        return max(candidates, key=lambda markable: (
            markable.entity_id == wanted, markable.mention.min_tokens == mention.min_tokens,
            markable.mention is mention))

    def add_entities(self, entities: Iterable[Entity]) -> None:
        for entity in entities:
            for mention in entity.mentions:
                self._add(entity.id, mention)

    def add_non_referring(self, mentions: Iterable[Mention]) -> None:
        taken = {markable.entity_id for markable in self.markables}
        number = 0
        for mention in mentions:
            entity_id = mention.attributes.get("EntityID", "")
            if not is_pseudo(entity_id):
                number += 1
                while f"nr{number}-Pseudo" in taken:
                    number += 1
                entity_id = f"nr{number}-Pseudo"
            taken.add(entity_id)
            self._add(entity_id, mention)

    def add_elements(self, entities: Iterable[Entity]) -> None:
        """Write each element's ``ElementOf`` where the file read gave it (a mention's own
        ``ElementOf`` attribute, where it agrees with the entities), else on the element's
        first mention."""
        plurals_of: dict[str, list[str]] = {}
        for entity in entities:
            for element in entity.elements:
                plurals_of.setdefault(element, []).append(entity.id)
        for element, plurals in plurals_of.items():
            first = self.first_markable.get(element)
            if first is None:
                raise FormatError(f"document {self.document!r}: entity {plurals[0]} has the "
                                  f"element {element}, which has no mention to carry ElementOf")
            placed: set[str] = set()
            for markable in self.markables:
                if markable.entity_id != element:
                    continue
                given = [plural.strip() for plural in
                         markable.mention.attributes.get("ElementOf", "").split(",")]
                for plural in given:
                    if plural in plurals and plural not in markable.element_of:
                        placed.add(plural)
                        markable.element_of.append(plural)
            first.element_of.extend(plural for plural in plurals if plural not in placed)

    def attributes_text(self, markable: _WrittenMarkable) -> str:
        parts = [f"EntityID={markable.entity_id}", f"MarkableID={markable.markable_id}"]
        if markable.mention.min_tokens:
            parts.append(f"Min={_min_text(markable.mention.min_tokens, self.ids)}")
        if markable.element_of:
            parts.append("ElementOf=" + ",".join(markable.element_of))
        for name, value in markable.mention.attributes.items():
            if name not in _MANAGED:
                parts.append(f"{_safe(name, 'attribute', self.document)}="
                             f"{_safe(value, f'attribute {name} value', self.document)}")
        return "|".join(parts)

    def cells(self) -> dict[int, str]:
        chunks = [(start, end, order, markable)
                  for order, markable in enumerate(self.markables)
                  for start, end in _runs(markable.mention.tokens)]
        named = _crossing(chunks)
        closing: dict[int, list[tuple[int, int, str]]] = {}
        opening: dict[int, list[tuple[int, int, str]]] = {}
        single: dict[int, list[str]] = {}
        for start, end, order, markable in chunks:
            attributes = self.attributes_text(markable)
            if start == end:
                single.setdefault(start, []).append(f"({attributes})")
                continue
            opening.setdefault(start, []).append((-end, order, f"({attributes}"))
            closing.setdefault(end, []).append(
                (-start, -order, f"{markable.markable_id})" if named else ")"))
        cells: dict[int, str] = {}
        for position in set(opening) | set(closing) | set(single):
            parts = [text for *_, text in sorted(closing.get(position, []))]
            parts += [text for *_, text in sorted(opening.get(position, []))]
            parts += single.get(position, [])
            cells[position] = "".join(parts)
        return cells


def _runs(tokens: tuple[int, ...]) -> list[tuple[int, int]]:
    """The maximal runs of consecutive positions: the chunks of a discontinuous mention."""
    runs: list[tuple[int, int]] = []
    for token in tokens:
        if runs and runs[-1][1] == token - 1:
            runs[-1] = (runs[-1][0], token)
        else:
            runs.append((token, token))
    return runs


def _crossing(chunks: list[tuple[int, int, int, _WrittenMarkable]]) -> bool:
    """Whether bare closing brackets would close the wrong markable: the writer's cells are
    replayed (closings by latest start, then openings by latest end) and each bare ``)`` must
    close the chunk it stands for."""
    closing: dict[int, list[tuple[int, int, int]]] = {}
    opening: dict[int, list[tuple[int, int, int]]] = {}
    for chunk_number, (start, end, order, _) in enumerate(chunks):
        if start != end:
            opening.setdefault(start, []).append((-end, order, chunk_number))
            closing.setdefault(end, []).append((-start, -order, chunk_number))
    stack: list[int] = []
    for position in sorted(set(opening) | set(closing)):
        for *_, chunk_number in sorted(closing.get(position, [])):
            if not stack or stack.pop() != chunk_number:
                return True
        stack.extend(chunk_number for *_, chunk_number in sorted(opening.get(position, [])))
    return False


def _min_text(tokens: tuple[int, ...], ids: Sequence[str] | None = None) -> str:
    def name(position: int) -> str:
        return ids[position] if ids is not None else str(position + 1)

    runs = _runs(tokens)
    if len(runs) == 1:
        start, end = runs[0]
        return name(start) if start == end else f"{name(start)},{name(end)}"
    return ",".join(f"{name(start)}-{name(end)}" for start, end in runs)


def _bridging_cells(document: Document, identity: _LayerWriter) -> dict[int, str]:
    groups: dict[tuple[int, ...], list[BridgingLink]] = {}
    for link in document.bridging:
        groups.setdefault(link.anaphor.tokens, []).append(link)
    entity_ids = {markable.entity_id for markable in identity.markables}
    opening: dict[int, list[str]] = {}
    closing: dict[int, int] = {}
    for tokens, links in groups.items():
        anaphor = identity.markable_of(links[0].anaphor)
        if anaphor is None:
            raise FormatError(f"document {document.name!r}: bridging anaphor {links[0].anaphor} "
                              "is no identity markable; the UA format cannot hold it")
        parts = [f"MarkableID={anaphor.markable_id}"]
        for link in links:
            relation = _safe(link.relation, "bridging relation", document.name) \
                if link.relation else "_"
            parts.append(f"Rel={relation}")
            if link.antecedent is not None:
                anchor = identity.markable_of(link.antecedent, link.antecedent_entity)
                if anchor is None:
                    raise FormatError(f"document {document.name!r}: bridging anchor "
                                      f"{link.antecedent} is no identity markable; the UA "
                                      "format cannot hold it")
                parts.append(f"MentionAnchor={anchor.markable_id}")
            if link.antecedent_entity is not None:
                if link.antecedent_entity not in entity_ids:
                    raise FormatError(f"document {document.name!r}: bridging anchor entity "
                                      f"{link.antecedent_entity} has no mention")
                parts.append(f"EntityAnchor={link.antecedent_entity}")
        start, end = tokens[0], tokens[-1]
        text = "(" + "|".join(parts)
        if start == end:
            text += ")"
        else:
            closing[end] = closing.get(end, 0) + 1
        opening.setdefault(start, []).append(text)
    cells: dict[int, str] = {}
    for position in set(opening) | set(closing):
        # one-token annotations (ending in ')') last, so that a reader splitting on '('
        # never sees a closing after an opening
        texts = sorted(opening.get(position, []), key=lambda text: text.endswith(")"))
        cells[position] = ")" * closing.get(position, 0) + "".join(texts)
    return cells
