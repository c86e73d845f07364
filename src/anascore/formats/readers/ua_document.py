"""One document of a UA file, from the token lines the file loop collected to a
:class:`~anascore.core.model.Document`.

:mod:`anascore.formats.readers.ua` reads the file line by line and hands each document's lines
to a :class:`_DocumentReader`, which splits them into cells (fast when every line is
regular), finds the CoNLL-U nodes and sentences, reads the markable columns
(:mod:`anascore.formats.readers.ua_markables`), the bridging column and the heads.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import compress
from types import MappingProxyType

from anascore.core.errors import FormatError, shorten
from anascore.core.model import (
    NO_ATTRIBUTES,
    BridgingLink,
    ConlluNodes,
    Document,
    Entity,
    Mention,
    SpanTokens,
)
from anascore.formats.dependencies import (
    CYCLE,
    id_positions,
    mention_head,
    untreed_head,
)
from anascore.formats.dependencies import governors as dependency_governors
from anascore.formats.readers.ua_bridging import bridging_links
from anascore.formats.readers.ua_bulk import (
    BulkMarkables,
    LayerMentions,
    as_layer,
    bulk_entities,
    read_markables,
)
from anascore.formats.readers.ua_markables import (
    _EMPTY,
    _RANGE_ID,
    _TOKEN_ID,
    Markable,
    MarkableLayer,
    _brackets,
    is_pseudo,
)


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
    id_cells: tuple[str, ...] = ()  # the IDs alone
    deps: tuple[str, ...] = ()
    lines: list[int] = field(default_factory=list)
    sentence_of: list[int] = field(default_factory=list)
    sentence_starts: list[int] = field(default_factory=list)
    sentence_ids: list[str] = field(default_factory=list)
    sentence_lines: list[int] = field(default_factory=list)
    identity: MarkableLayer = field(default_factory=lambda: MarkableLayer("IDENTITY"))
    deixis: MarkableLayer = field(default_factory=lambda: MarkableLayer("DISCOURSE_DEIXIS"))
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
    # The fast path's documents: markable columns of the common shape read a column at a
    # time (ua_bulk), by column name; each token's sentence as blank lines number them.
    bulk: bool = False
    bulk_layers: dict[str, BulkMarkables] = field(default_factory=dict)
    blank_sentence: list[int] = field(default_factory=list)
    # Token ID -> position, and each token's governor (None: none known), when asked for.
    _tree: tuple[Mapping, list[int | None]] | None = None
    _has_root: bool | None = None

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
        self.read_columns(columns, numbers, token_rows)

    def read_columns(self, columns: Mapping[str, Sequence[str]], numbers: list[int],
                     token_rows: Sequence[int] | None) -> None:
        """Read the columns of the rows (cells by column name, each row's line): the token
        rows among them (``None``: every row is a token), their forms, nodes and sentences,
        and the markable, bridging and dependency columns."""
        row_count = len(numbers)
        kept_before: dict[int, list[str]] = {}
        if self.keep_all:
            for row, text in self.comments:
                kept_before.setdefault(row, []).append(text)
        if token_rows is not None:
            chosen = set(token_rows)
            if self.keep_all:
                for row in range(row_count):
                    if row not in chosen:
                        kept_before.setdefault(row + 1, []).append(
                            "\t".join(values[row] for values in columns.values()))
            columns = {name: [values[row] for row in token_rows]
                       for name, values in columns.items()}
            numbers = [numbers[row] for row in token_rows]
            token_of_row = _next_token(token_rows, row_count)
        else:
            token_of_row = None
        count = len(numbers)

        def token_at(row: int) -> int:
            return row if token_of_row is None else token_of_row[row]

        self.words = tuple(columns.get("FORM") or ("_",) * count)
        self.deps = tuple(columns.get("DEPS") or ("_",) * count)
        self.lines = numbers
        blank_tokens = (self.blanks if token_of_row is None
                        else [token_of_row[row] for row in self.blanks])
        self._sentences(blank_tokens, token_of_row, count, numbers)
        blank_sentence = _sentence_numbers(blank_tokens, count)
        self.id_cells = tuple(columns.get("ID") or ("_",) * count)
        self.blank_sentence = blank_sentence
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
                bulk = read_markables(cells) if self.bulk else None
                if bulk is not None:
                    self.bulk_layers[name] = bulk
                else:
                    layer.read_column(cells, blank_sentence, self.path, numbers)
        cells = columns.get("BRIDGING")
        if cells is not None:
            for token in _annotated(cells):
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

    def _sentences(self, blank_tokens: Sequence[int], token_of_row: list[int] | None,
                   count: int, numbers: list[int]) -> None:
        """Sentences open at the first token after a blank or ``# sent_id`` line (and at the
        first token); each takes the last ``# sent_id`` noted since the previous one.
        (``blank_tokens``: the token after each blank line; ``token_of_row``: the token at or
        after each row, ``None`` when every row is a token.)"""
        sent_tokens = [row for row, _ in self.sent_ids]
        if token_of_row is not None:
            sent_tokens = [token_of_row[row] for row in sent_tokens]
        starts = sorted({0, *blank_tokens, *sent_tokens})
        if starts[-1] >= count:
            starts = [start for start in starts if start < count]
        # The last one before a start wins.
        names = dict(zip(sent_tokens, [name for _, name in self.sent_ids], strict=True))
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
        ids = self.id_cells
        empty = (tuple("." in token_id for token_id in ids) if "." in "".join(ids)
                 else (False,) * len(ids))
        identity_mentions, entities, non_referring, entity_ids = self._mentions(self.identity)
        _, deixis_entities, _, _ = self._mentions(self.deixis)
        bridging: tuple[BridgingLink, ...] = ()
        if self.bridging:
            mention_of: Mapping[str, Mention]
            if isinstance(identity_mentions, list):  # read in bulk: in the markables' order
                bulk = self.bulk_layers["IDENTITY"]
                mention_of = dict(zip(bulk.markable_ids, identity_mentions, strict=True))
                entity_of_markable = dict(zip(bulk.markable_ids, bulk.entity_ids,
                                              strict=True))
            else:
                mention_of = identity_mentions
                entity_of_markable = {markable.markable_id: markable.entity_id
                                      for markable in self.identity.markables.values()}
            bridging = bridging_links(self.bridging, mention_of, entity_of_markable,
                                      entity_ids, self.name, self.path)
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

    def _mentions(self, layer: MarkableLayer) -> tuple[
            Mapping[str, Mention] | list[Mention], tuple[Entity, ...], tuple[Mention, ...],
            set[str]]:
        """A layer's mentions (by MarkableID; a list in the order of the markables when the
        column was read in bulk), entities, non-referring mentions and EntityIDs."""
        bulk = self.bulk_layers.get(layer.column)
        if bulk is not None:
            made: LayerMentions | None = bulk_entities(bulk, self.lines, self._governors)
            if made is not None:
                return made
            # Made as the line-by-line reader makes them, from the markables it reads.
            layer = as_layer(bulk, layer.column, self.lines, self.blank_sentence)
            del self.bulk_layers[layer.column]
            if layer.column == "IDENTITY":
                self.identity = layer
            else:
                self.deixis = layer
        elif not layer.markables:
            return {}, (), (), set()
        positions, governors = self._positions_and_governors()
        return self._entities(layer, positions, governors)

    def _governors(self) -> list[int | None] | None:
        """Each token's governor; ``None`` when no token's is known."""
        if not self._rooted():  # no root: no sentence is a tree
            return None
        governors = self._positions_and_governors()[1]
        return None if governors.count(None) == len(governors) else governors

    def _positions_and_governors(self) -> tuple[Mapping, list[int | None]]:
        """Token ID -> position (:func:`~anascore.formats.dependencies.id_positions`) and
        each token's governor, worked out the first time they are asked for (a document
        whose markables need no Min and whose file gives no HEAD needs neither)."""
        if self._tree is None:
            ids = list(zip(self.id_cells, self.blank_sentence, strict=True))
            lookup = id_positions(ids)
            positions, self._ids_unique = lookup
            if self._rooted():
                governors = dependency_governors(ids, self.dependency_heads, lookup)
            else:  # no root: no sentence is a tree
                governors = [None] * len(ids)
            self._tree = positions, governors
        return self._tree

    def _rooted(self) -> bool:
        """Whether a HEAD cell is ``0`` (a sentence's root), looked for once."""
        if self._has_root is None:
            self._has_root = "0" in self.dependency_heads
        return self._has_root

    def _entities(self, layer: MarkableLayer, positions: Mapping,
                  governors: list[int | None]) -> tuple[
            dict[str, Mention], tuple[Entity, ...], tuple[Mention, ...], set[str]]:
        per_document = self._ids_unique
        mention_of: dict[str, Mention] = {}
        mentions_of: dict[str, list[Mention]] = {}
        non_referring: list[Mention] = []
        elements_of: dict[str, list[str]] = {}
        element_lines: dict[str, int] = {}
        spans = SpanTokens()  # copies of a span share its positions
        # No token's governor known (a file without HEADs): no mention is headed by the tree.
        untreed = governors.count(None) == len(governors)
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
            head: int | None
            if len(tokens) == 1:
                # One token: its own head, unless it governs itself (a cycle); what
                # mention_head says of it, whatever its MIN.
                head = CYCLE if governors[tokens[0]] == tokens[0] else tokens[0]
            elif untreed:
                head = untreed_head(tokens, min_tokens)
            else:
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

    def _min_tokens(self, text: str, markable: Markable, positions: Mapping,
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

#: The columns the reader takes values from (without ``all_columns``).
_READ_COLUMNS = ("ID", "FORM", "DEPS", "UPOS", "HEAD", "IDENTITY", "BRIDGING",
                 "DISCOURSE_DEIXIS")
#: Columns the writer makes from the annotation or the nodes (the others are kept as read).
_REGENERATED = frozenset({"ID", "FORM", "DEPS", "IDENTITY", "BRIDGING", "DISCOURSE_DEIXIS"})
#: The CoNLL-U columns kept under their own lower-case names (as the CorefUD reader keeps
#: them); other columns (CODI-CRAC's REFERENCE, NOM_SEM) as ``column:NAME``.
_CONLLU_COLUMNS = frozenset({"LEMMA", "UPOS", "XPOS", "FEATS", "HEAD", "DEPREL", "MISC"})
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


def _annotated(cells: Sequence[str]) -> list[int]:
    """The positions of the cells that are not ``_`` (most of a UA column's cells are)."""
    if cells.count("_") == len(cells):
        return []
    return list(compress(range(len(cells)), map("_".__ne__, cells)))


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
