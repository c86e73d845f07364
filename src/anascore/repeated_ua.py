"""Repeated mentions counted as the UA scorer 2.0 counts them (``compat="ua"``, exact
matching).

anascore scores a span annotated twice once (:mod:`anascore.selection`). The UA scorer keeps
every copy in its entity and finds a mention's partner entity through a dictionary from spans
to entities, filled entity after entity, so that a span in several entities points to the
*last* of them (in the order entities first appear in the file). Its metrics then read, for
each copy:

* recall of MUC, B³, LEA and BLANC (and BLANC's precision numerators): key copies against the
  response entity that owns their span — the table ``c[i, j]`` = copies in key entity ``i``
  whose span the response's entity ``j`` owns;
* precision of MUC, B³ and LEA: response copies against the key entity that owns their span —
  ``d[i, j]`` = copies in response entity ``j`` whose span the key's entity ``i`` owns;
* CEAF: for each pair of entities, the key copies whose span the response entity contains —
  ``e[i, j]`` (one table for recall and precision).

Entity sizes count copies. With no repeated span the three tables are the ordinary contingency
table; with repeated spans :func:`ua_comparison` builds them, and the metrics read ``d`` and
``e`` through :class:`~anascore.contingency.Comparison` (``response_table``,
``assignment_table``). The order dependence is the UA scorer's own; anascore's default avoids
it (``docs/differences-ua.md``).
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from anascore.contingency import Comparison, Contingency
from anascore.matching import Alignment
from anascore.options import Options
from anascore.selection import Side


def has_repeated_spans(side: Side) -> bool:
    return len({mention.tokens for mention in side.mentions}) != len(side.mentions)


def ua_comparison(key: Side, response: Side, options: Options) -> Comparison:
    """The comparison of two sides that hold repeated spans, in the UA scorer's counting."""
    key_owner = _owners(key)
    response_owner = _owners(response)
    response_entities_of: dict[tuple[int, ...], set[int]] = defaultdict(set)
    for mention, entity in zip(response.mentions, response.entity_of.tolist(), strict=True):
        response_entities_of[mention.tokens].add(entity)
    by_key: dict[tuple[int, int], int] = defaultdict(int)
    by_response: dict[tuple[int, int], int] = defaultdict(int)
    by_membership: dict[tuple[int, int], int] = defaultdict(int)
    for mention, entity in zip(key.mentions, key.entity_of.tolist(), strict=True):
        owner = response_owner.get(mention.tokens)
        if owner is not None:
            by_key[entity, owner] += 1
        for member in response_entities_of.get(mention.tokens, ()):
            by_membership[entity, member] += 1
    for mention, entity in zip(response.mentions, response.entity_of.tolist(), strict=True):
        owner = key_owner.get(mention.tokens)
        if owner is not None:
            by_response[owner, entity] += 1
    key_sizes, response_sizes = key.entity_sizes.tolist(), response.entity_sizes.tolist()
    return Comparison(
        key, response, _copies_in_order(key, response),
        Contingency.from_cells(key_sizes, response_sizes, dict(by_key)), options,
        response_table=Contingency.from_cells(key_sizes, response_sizes, dict(by_response)),
        assignment_table=Contingency.from_cells(key_sizes, response_sizes,
                                                dict(by_membership)))


def _owners(side: Side) -> dict[tuple[int, ...], int]:
    """Span → the last entity (in file order) holding it."""
    owners: dict[tuple[int, ...], int] = {}
    for mention, entity in zip(side.mentions, side.entity_of.tolist(), strict=True):
        owners[mention.tokens] = max(entity, owners.get(mention.tokens, -1))
    return owners


def _copies_in_order(key: Side, response: Side) -> Alignment:
    """A one-to-one alignment for readers of ``Comparison.alignment``: the n-th copy of a span
    in the key with its n-th copy in the response."""
    waiting: dict[tuple[int, ...], list[int]] = defaultdict(list)
    for index, mention in enumerate(response.mentions):
        waiting[mention.tokens].append(index)
    pairs = []
    for index, mention in enumerate(key.mentions):
        copies = waiting.get(mention.tokens)
        if copies:
            pairs.append((index, copies.pop(0)))
    return Alignment(np.array([k for k, _ in pairs], dtype=np.int64),
                     np.array([r for _, r in pairs], dtype=np.int64))
