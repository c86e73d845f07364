"""The ``Entity=`` brackets of a run of plain CorefUD sentences, read at once.

:class:`~.corefud_sentences.Sentences` reads a run of plain sentences in bulk; this module
reads the coreference of their annotated MISC cells (:func:`read_brackets`). One regular
expression cuts every cell of the run at once into tokens: a cell that is one ``Entity=``
item (no ``|``) into its brackets, any other cell (``SplitAnte=``, ``Bridge=``, several
items) whole. Each bracket's text is parsed once (:func:`_action`, kept by the fields of
``# global.Entity`` in force: a file's brackets recur, ``(e12-person-1-``, ``e12)``), and
one loop opens and closes the mentions, holding each open one as a small list
(:data:`~.corefud_mentions.OpenEntry`) rather than an object.

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

#: A run's annotated cells, each after a newline, cut into tokens: ``\nEntity=`` before a
#: cell that is one non-empty ``Entity=`` item; its brackets (as the careful reading's
#: ``_CHUNK`` finds them); ``\n`` and the whole cell, for any other cell.
_TOKEN = re.compile(r"\nEntity=(?=[^|\n]+(?:\n|\Z))|\n[^\n]*|\([^()\n]+\)?|[^()\n]+\)")
#: The same for cells without ``|`` (one item each), faster: ``\nEntity=`` needs no look
#: ahead (an empty ``Entity=`` cell is sent to the careful reading before).
_TOKEN_ONE_ITEM = re.compile(r"\nEntity=|\n[^\n]*|\([^()\n]+\)?|[^()\n]+\)")
_ENTITY = "\nEntity="

# What a token says (the first item of its action).
_CELL, _OPEN, _SINGLE, _CLOSE, _CAREFUL = range(5)
_ACTIONS: dict[tuple[str, ...], dict[str, tuple[Any, ...]]] = {}
#: How many bracket texts are kept by fields (GUM's bracket texts mostly come once).
_ACTIONS_LIMIT = 1 << 12

_new = object.__new__
_set_tokens = Mention.__dict__["tokens"].__set__
_set_line = Mention.__dict__["line"].__set__
_set_head = Mention.__dict__["head"].__set__
_set_min_tokens = Mention.__dict__["min_tokens"].__set__
_set_attributes = Mention.__dict__["attributes"].__set__


def _actions(fields: tuple[str, ...]) -> dict[str, tuple[Any, ...]]:
    actions = _ACTIONS.get(fields)
    if actions is None or len(actions) >= _ACTIONS_LIMIT:
        if len(_ACTIONS) >= 16:
            _ACTIONS.clear()
        actions = _ACTIONS[fields] = {_ENTITY: (_CELL,)}
    return actions


def _action(chunk: str, fields: tuple[str, ...]) -> tuple[Any, ...]:
    """What a bracket says, for the loop of :func:`read_brackets`: ``(_CLOSE, entity)``;
    ``(_OPEN or _SINGLE, entity, type, head index, MIN indices, attributes, least)``, where
    ``least`` is the fewest positions its head index and MIN fit in; or ``(_CAREFUL,)``."""
    text = chunk.strip("()")
    if chunk[0] != "(":
        return (_CAREFUL,) if text.endswith("]") else (_CLOSE, text)
    try:
        entity, entity_type, head_index, min_indices, attributes = opening_fields(text, fields)
    except FormatError:
        return (_CAREFUL,)
    if entity.endswith("]") or (min_indices is not None and min(min_indices) < 1):
        return (_CAREFUL,)
    least = max(head_index or 1, max(min_indices) if min_indices else 1)
    kind = _OPEN if chunk[-1] != ")" else _SINGLE if least == 1 else _CAREFUL
    if kind == _CAREFUL:
        return (_CAREFUL,)
    return (kind, entity, entity_type, head_index, min_indices,
            MappingProxyType(attributes) if attributes else NO_ATTRIBUTES, least)


def read_brackets(builder: DocumentBuilder, fields: tuple[str, ...], path: str,
                  indices: Sequence[int], cells: Sequence[str], base: int,
                  lines: list[int]) -> None:
    """Read the annotated MISC ``cells`` of a run (in order; ``indices``: their nodes in the
    run, whose first node is position ``base``, ``lines`` each node's line) as the careful
    reading reads them cell by cell."""
    joined = "\n" + "\n".join(cells)
    tokens = (_TOKEN if "|" in joined else _TOKEN_ONE_ITEM).findall(joined)
    if "".join(tokens) != joined or "Entity=" in cells:
        # A malformed or empty Entity= value: an error, found carefully (an empty one would
        # make the token that begins an Entity= cell).
        for index, cell in zip(indices, cells, strict=True):
            read_misc(cell, base + index, fields, builder, path, lines[index])
        return
    actions = _actions(fields)
    get_action = actions.get
    open_mentions: dict[str, list[Any]] = builder.open_mentions
    open_get = open_mentions.get
    mentions, opened = builder.mentions, builder.opened
    mentions_get = mentions.get
    entity_types, headless, sentence_of = builder.entity_types, builder.headless, \
        builder.sentence_of
    spans = builder.spans._made
    spans_get = spans.get
    next_index = iter(indices).__next__
    entries = 0  # open entries (OpenEntry) held in open_mentions
    position = line = sentence = -1
    for token in tokens:
        action = get_action(token)
        if action is None:
            if token[0] == "\n":  # a cell that is not one Entity= item: careful
                index = next_index()
                position, line = base + index, lines[index]
                if entries:
                    careful_state(builder)
                    entries = 0
                read_misc(token[1:], position, fields, builder, path, line)
                continue
            if len(actions) >= _ACTIONS_LIMIT:
                actions = _actions(fields)
                get_action = actions.get
            action = actions[token] = _action(token, fields)
        kind = action[0]
        if kind == _CELL:
            index = next_index()
            position = base + index
            line, sentence = lines[index], sentence_of[position]
            continue
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
                    mention = _new(Mention)
                    _set_tokens(mention, span)
                    _set_line(mention, entry[1])
                    _set_head(mention, None if head_index is None else start + head_index - 1)
                    _set_min_tokens(mention, None if min_indices is None else tuple(
                        sorted({start + index - 1 for index in min_indices})))
                    _set_attributes(mention, entry[6])
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
            _, entity, entity_type, head_index, min_indices, attributes, _ = action
            if entity_type and entity not in entity_types:
                entity_types[entity] = entity_type
            key = (position, position)
            span = spans_get(key)
            if span is None:
                span = spans[key] = (position,)
            mention = _new(Mention)
            _set_tokens(mention, span)
            _set_line(mention, line)
            _set_head(mention, None if head_index is None else position)
            _set_min_tokens(mention, None if min_indices is None else span)
            _set_attributes(mention, attributes)
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
            _, entity, entity_type, head_index, min_indices, attributes, least = action
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
        read_chunk(token, position, fields, builder, path, line)
    if entries:  # mentions left open at a sentence's end: held as the careful reading holds
        careful_state(builder)
