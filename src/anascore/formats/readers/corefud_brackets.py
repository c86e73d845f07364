"""The ``Entity=`` brackets of a run of plain CorefUD sentences, read at once.

:class:`~.corefud_sentences.Sentences` reads a run of plain sentences in bulk; this module
reads the coreference of their annotated MISC cells (:func:`read_brackets`). Each cell
that is one ``Entity=`` item (no ``|``) is cut into its brackets once, and each bracket's
text parsed once (:func:`_cell_actions`, :func:`_action`; both kept by the fields of
``# global.Entity`` in force: a file's cells and brackets recur, ``(e12-person-1-``,
``e12)``); one loop then opens and closes the mentions, holding each open one as a small
list (:data:`~.corefud_mentions.OpenEntry`) rather than an object.

It does only what it can prove right: a mention that closes in the sentence it opened in,
whose head index and MIN fit it, of a bracket without a discontinuous part. Everything
else — a part, a bracket that cannot be parsed, a close with nothing open, a head index
beyond the mention, a cell that is not one ``Entity=`` item — is read by the careful code
(:func:`~.corefud_mentions.read_chunk`, :func:`~.corefud_mentions.read_misc`) at that
bracket, after the open entries are turned into what it holds
(:func:`~.corefud_mentions.careful_state`): every error is its error, at the same line, and
every mention and entity comes in the same order.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from types import MappingProxyType
from typing import Any

from anascore.core.errors import FormatError
from anascore.core.model import NO_ATTRIBUTES, Mention
from anascore.formats.readers.corefud_mentions import (
    DocumentBuilder,
    OpenEntry,
    careful_state,
    opening_fields,
    read_chunk,
    read_misc,
)

# What a bracket says (the first item of its action).
_OPEN, _SINGLE, _CLOSE, _CAREFUL = range(4)
#: Each bracket text's action, and each cell's actions, by the fields of ``# global.Entity``
#: (a file's cells recur: 27k distinct among 268k at scale, of 859 distinct brackets).
_ACTIONS: dict[tuple[str, ...], dict[str, tuple[Any, ...]]] = {}
_CELLS: dict[tuple[str, ...], dict[str, tuple[tuple[Any, ...], ...]]] = {}
#: How many bracket texts and cells are kept by fields (GUM's mostly come once). The cells
#: are few so that the kept ones do not raise the run's peak memory (16k cells: +2.2 MB at
#: scale, above the input file's size; 2k: 0.5 MB less than before they were kept).
_ACTIONS_LIMIT = 1 << 12
_CELLS_LIMIT = 1 << 11
#: An ``Entity=`` value's brackets, as the careful reading finds them.
_CHUNK = re.compile(r"\([^()]+\)?|[^()]+\)")

def _cache(caches: dict[tuple[str, ...], dict[str, Any]], fields: tuple[str, ...],
           limit: int) -> dict[str, Any]:
    cache = caches.get(fields)
    if cache is None or len(cache) >= limit:
        if len(caches) >= 16:
            caches.clear()
        cache = caches[fields] = {}
    return cache


def _cell_actions(cell: str, fields: tuple[str, ...]) -> tuple[tuple[Any, ...], ...]:
    """The actions of a MISC cell's brackets, if it is one well-formed ``Entity=`` item;
    ``()`` otherwise (several items, SplitAnte, Bridge, an empty or malformed value: the
    careful reading reads the cell)."""
    value = cell[7:]
    if not cell.startswith("Entity=") or "|" in cell or not value:
        return ()
    chunks = _CHUNK.findall(value)
    if "".join(chunks) != value:
        return ()
    actions = _cache(_ACTIONS, fields, _ACTIONS_LIMIT)
    found = []
    for chunk in chunks:
        action = actions.get(chunk)
        if action is None:
            action = actions[chunk] = _action(chunk, fields)
        found.append(action)
    return tuple(found)


def _action(chunk: str, fields: tuple[str, ...]) -> tuple[Any, ...]:
    """What a bracket says, for the loop of :func:`read_brackets`: ``(_CLOSE, entity,
    chunk)``; ``(_OPEN or _SINGLE, entity, type, head index, MIN indices, attributes, least,
    chunk)``, where ``least`` is the fewest positions its head index and MIN fit in; or
    ``(_CAREFUL, chunk)``."""
    text = chunk.strip("()")
    if chunk[0] != "(":
        return (_CAREFUL, chunk) if text.endswith("]") else (_CLOSE, text, chunk)
    try:
        entity, entity_type, head_index, min_indices, attributes = opening_fields(text, fields)
    except FormatError:
        return (_CAREFUL, chunk)
    if entity.endswith("]") or (min_indices is not None and min(min_indices) < 1):
        return (_CAREFUL, chunk)
    least = max(head_index or 1, max(min_indices) if min_indices else 1)
    kind = _OPEN if chunk[-1] != ")" else _SINGLE if least == 1 else _CAREFUL
    if kind == _CAREFUL:
        return (_CAREFUL, chunk)
    return (kind, entity, entity_type, head_index, min_indices,
            MappingProxyType(attributes) if attributes else NO_ATTRIBUTES, least, chunk)


def read_brackets(builder: DocumentBuilder, fields: tuple[str, ...], path: str,
                  indices: Sequence[int], cells: Sequence[str], base: int,
                  lines: list[int]) -> None:
    """Read the annotated MISC ``cells`` of a run (in order; ``indices``: their nodes in the
    run, whose first node is position ``base``, ``lines`` each node's line) as the careful
    reading reads them cell by cell."""
    known = _cache(_CELLS, fields, _CELLS_LIMIT)
    get_cell = known.get
    open_mentions: dict[str, list[Any]] = builder.open_mentions
    open_get = open_mentions.get
    mentions, opened = builder.mentions, builder.opened
    mentions_get = mentions.get
    entity_types, headless, sentence_of = builder.entity_types, builder.headless, \
        builder.sentence_of
    spans = builder.spans.by_ends
    spans_get = spans.get
    new_mention = Mention.made
    entries = 0  # open entries (OpenEntry) held in open_mentions
    for index, cell in zip(indices, cells, strict=True):
        position, line = base + index, lines[index]
        cell_actions = get_cell(cell)
        if cell_actions is None:
            if len(known) >= _CELLS_LIMIT:
                known = _cache(_CELLS, fields, _CELLS_LIMIT)
                get_cell = known.get
            cell_actions = known[cell] = _cell_actions(cell, fields)
        if not cell_actions:  # not one well-formed Entity= item: careful
            if entries:
                careful_state(builder)
                entries = 0
            read_misc(cell, position, fields, builder, path, line)
            continue
        sentence = sentence_of[position]
        for action in cell_actions:
            kind = action[0]
            if kind == _CLOSE:
                entity = action[1]
                stack = open_get(entity)
                if stack:
                    entry: OpenEntry = stack[-1]
                    if (type(entry) is list and entry[2] == sentence
                            and position - entry[3] >= entry[8] - 1):
                        stack.pop()
                        entries -= 1
                        start = entry[3]
                        key = (start, position)
                        span = spans_get(key)
                        if span is None:
                            span = spans[key] = tuple(range(start, position + 1))
                        head_index, min_indices = entry[4], entry[5]
                        mention = new_mention(
                            span, entry[1],
                            None if head_index is None else start + head_index - 1,
                            None if min_indices is None else tuple(
                                sorted({start + index - 1 for index in min_indices})),
                            entry[6])
                        entry[7] = mention
                        made = mentions_get(entity)
                        if made is None:
                            mentions[entity] = [mention]
                        else:
                            made.append(mention)
                        if head_index is None:
                            headless.append(mention)
                        continue
            elif kind == _SINGLE:
                _, entity, entity_type, head_index, min_indices, attributes, _, _ = action
                if entity_type and entity not in entity_types:
                    entity_types[entity] = entity_type
                key = (position, position)
                span = spans_get(key)
                if span is None:
                    span = spans[key] = (position,)
                mention = new_mention(span, line, None if head_index is None else position,
                               None if min_indices is None else span, attributes)
                opened[entity] = mention
                made = mentions_get(entity)
                if made is None:
                    mentions[entity] = [mention]
                else:
                    made.append(mention)
                if head_index is None:
                    headless.append(mention)
                continue
            elif kind == _OPEN:
                _, entity, entity_type, head_index, min_indices, attributes, least, _ = action
                if entity_type and entity not in entity_types:
                    entity_types[entity] = entity_type
                entry = [entity, line, sentence, position, head_index, min_indices, attributes,
                         None, least]
                stack = open_get(entity)
                if stack is None:
                    open_mentions[entity] = [entry]
                else:
                    stack.append(entry)
                opened[entity] = entry
                entries += 1
                continue
            # Anything else (and a close the loop cannot prove right): the careful reading.
            if entries:
                careful_state(builder)
                entries = 0
            read_chunk(action[-1], position, fields, builder, path, line)
    if entries:  # mentions left open at a sentence's end: held as the careful reading holds
        careful_state(builder)
