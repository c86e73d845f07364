"""The markable columns of a UA file (IDENTITY, DISCOURSE_DEIXIS): their cells' brackets, the
attributes inside them, and the markables they open and close.

:mod:`anascore.formats.readers.ua` states the rules (the bracket syntax, attribute names
matched ignoring case and underscores, ``-Pseudo`` entities); this module reads one column of
one document at a time (:class:`MarkableLayer`), for :mod:`anascore.formats.readers.ua_document`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import compress

from anascore.core.errors import FormatError, shorten

PSEUDO_SUFFIXES: tuple[str, ...] = ("-Pseudo", "_Pseudo")
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
#: The attributes of most markables: an EntityID and a MarkableID, nothing else; and the
#: cell of one such markable, opening (or opening and closing) on its token.
_SIMPLE = re.compile(r"EntityID=([^|=]+)\|MarkableID=([^|=]+)")
_SIMPLE_CELL = re.compile(r"\(EntityID=([^|=()@]+)\|MarkableID=([^|=()@]+)(\))?")
#: What a markable column's cell may hold, as its errors say.
_MARKABLE_CELL = ("'_' or brackets such as '(EntityID=1|MarkableID=m1', ')', "
                  "'(EntityID=1|MarkableID=m1)'")


@dataclass(slots=True)
class Markable:
    """A markable being read: its chunks (token ranges) and attributes."""

    markable_id: str
    entity_id: str
    attributes: dict[str, str]
    line: int
    sentence: int
    chunks: list[list[int]] = field(default_factory=list)


@dataclass
class MarkableLayer:
    """The markables of one column (IDENTITY or DISCOURSE_DEIXIS) of one document."""

    column: str
    markables: dict[str, Markable] = field(default_factory=dict)
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
        annotated = ([] if cells.count("_") == len(cells) else
                     compress(range(len(cells)), map("_".__ne__, cells)))
        for token in annotated:
            cell = cells[token]
            if cell == ")" and open_ids:  # the innermost open markable ends here
                markables[open_ids.pop()].chunks[-1][1] = token
                continue
            line = lines[token]
            simple = _SIMPLE_CELL.fullmatch(cell)
            if (simple is not None and simple[2] not in markables and cell.isprintable()
                    and " " not in cell):
                # '(EntityID=…|MarkableID=…' or '(…)', as most cells are: what the lines
                # below make of it, without taking the cell apart bracket by bracket.
                entity_id, markable_id, closes = simple.groups()
                markables[markable_id] = Markable(
                    markable_id, entity_id,
                    {"EntityID": entity_id, "MarkableID": markable_id}, line,
                    sentences[token], [[token, -1 if closes is None else token]])
                if closes is None:
                    open_ids.append(markable_id)
                continue
            for opening, closes_at_once, closing in _brackets(cell, column, _MARKABLE_CELL,
                                                              path, line):
                if opening is None:
                    if closing is None:
                        continue  # '@' between brackets
                    if closing or not open_ids:
                        self._close(closing, token, path, line)
                    else:
                        markables[open_ids.pop()].chunks[-1][1] = token
                    continue
                simple = _SIMPLE.fullmatch(opening)
                if (simple is not None and simple[2] not in markables
                        and opening.isprintable() and " " not in opening):
                    # 'EntityID=…|MarkableID=…', as most files write them: what the lines
                    # below make of it, without splitting.
                    entity_id, markable_id = simple.groups()
                    markables[markable_id] = Markable(
                        markable_id, entity_id,
                        {"EntityID": entity_id, "MarkableID": markable_id}, line,
                        sentences[token], [[token, token if closes_at_once else -1]])
                    if not closes_at_once:
                        open_ids.append(markable_id)
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
                markables[markable_id] = Markable(
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

    def _open(self, text: str, token: int, sentence: int, path: str, line: int) -> Markable:
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
            markable = Markable(markable_id, entity_id, attributes, line, sentence)
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
