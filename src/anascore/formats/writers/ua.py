"""Writing the UA exploded format (CoNLL-U Plus), which the UA scorer 2.0 reads.

The format, and the rules its reader enforces: :mod:`anascore.formats.readers.ua`. IDENTITY,
BRIDGING and DISCOURSE_DEIXIS are written at the positions the UA scorer reads them from
(:data:`WRITTEN_COLUMNS`); the file's own other columns and comments are written back when
the source kept them.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import IO

from anascore.config.format_catalogue import names_where
from anascore.core.errors import FormatError
from anascore.core.model import (
    BridgingLink,
    Document,
    Entity,
    Mention,
    checked_documents,
)
from anascore.formats.dependencies import governors as dependency_governors
from anascore.formats.dependencies import id_positions, mention_head
from anascore.formats.io.output import atomic_output
from anascore.formats.readers.ua import DEFAULT_COLUMNS
from anascore.formats.readers.ua_markables import is_pseudo
from anascore.formats.sentences import kept_lines, sentence_ids, sentence_of

#: The columns :func:`write_ua` writes: IDENTITY, BRIDGING and DISCOURSE_DEIXIS at the
#: positions the UA scorer reads them from (11th, 12th, 13th).
WRITTEN_COLUMNS: tuple[str, ...] = DEFAULT_COLUMNS[:13]
#: The formats whose documents keep their CoNLL-U token IDs (written back as they were).
_CONLLU_FORMATS = names_where(lambda facts: facts.conllu)
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
            and document.source_format in _CONLLU_FORMATS)


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


def heads_read_back(document: Document) -> dict[tuple[int, ...], int | None]:
    """The head :func:`~anascore.formats.readers.ua.read_ua` gives each identity mention of
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
