"""One-to-one pairings that maximize a total score, tie-broken as the CorefUD scorer does.

The CorefUD scorer (and the UA scorer 2.0 it shares its matching with) sorts the mentions
still unmatched on each side by start, then end, then size, scores every key × response
pair, and keeps the pairs :func:`scipy.optimize.linear_sum_assignment` chooses with a
positive score. The sort order is the tie-break: among equally good pairings the assignment
prefers the earlier mentions (the scorer's README: "pick the mention that overlaps with m with
proportionally the smallest difference; if still more than one remains, pick the one that
starts earlier, then the one that ends earlier").

Here, by default, pairs with a zero score are never built: the pairs are split into the
connected components of the graph of positive scores, a component with one key or one
response mention takes its best partner (the first in sort order among equals: the
documented rule), and larger components are solved by ``linear_sum_assignment`` on their
rows and columns in the same sort order (through
:func:`anascore.core.assignment.maximum_assignment`, which gives scipy's assignment, ties
included, without importing scipy for a small component). The optimum is the same as the
scorer's; among equally good pairings the choice can differ from the scorer's, whose
whole-matrix assignment does not always follow its documented rule. ``compat="ua"`` solves
the scorer's whole matrix instead, and so makes its choices
(:func:`anascore.compat.ua_scorer.whole_matrix_pairs`, U14).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from anascore.core.assignment import maximum_assignment
from anascore.core.components import edge_components
from anascore.core.model import Mention

#: A maximum-score one-to-one pairing: scores of ``(key, response)`` pairs and the ranks of
#: the keys and responses in, the chosen pairs out (:func:`best_pairs`'s shape).
Pairing = Callable[[dict[tuple[int, int], float], dict[int, int], dict[int, int]],
                   list[tuple[int, int]]]


def mention_order(mention: Mention) -> tuple[int, int, int, tuple[int, ...]]:
    """The CorefUD scorer's mention order: start, end, number of positions (then the
    positions themselves, so that the order is total)."""
    return mention.tokens[0], mention.tokens[-1], len(mention.tokens), mention.tokens


def ranks(mentions: Sequence[Mention], indices: Sequence[int]) -> dict[int, int]:
    """The rank of each of ``indices`` among them in :func:`mention_order`."""
    ordered = sorted(indices, key=lambda index: mention_order(mentions[index]))
    return {index: rank for rank, index in enumerate(ordered)}


def best_pairs(scores: dict[tuple[int, int], float], key_rank: dict[int, int],
               response_rank: dict[int, int]) -> list[tuple[int, int]]:
    """The pairs ``(key, response)`` of a maximum-score one-to-one pairing of positive
    ``scores``, ties broken by rank (see the module docstring)."""
    if not scores:
        return []
    edges = list(scores)
    components = [[edges[index] for index in component] for component in edge_components(edges)]
    chosen: list[tuple[int, int]] = []
    for pairs in components:
        keys = sorted({key for key, _ in pairs}, key=key_rank.__getitem__)
        responses = sorted({response for _, response in pairs}, key=response_rank.__getitem__)
        if len(keys) == 1 or len(responses) == 1:
            best = max(pairs, key=lambda pair: (scores[pair], -key_rank[pair[0]],
                                                -response_rank[pair[1]]))
            chosen.append(best)
            continue
        row_of = {key: row for row, key in enumerate(keys)}
        column_of = {response: column for column, response in enumerate(responses)}
        matrix = np.zeros((len(keys), len(responses)))
        for key, response in pairs:
            matrix[row_of[key], column_of[response]] = scores[key, response]
        rows, columns = maximum_assignment(matrix)
        chosen.extend((keys[row], responses[column]) for row, column in
                      zip(rows.tolist(), columns.tolist(), strict=True)
                      if matrix[row, column] > 0)
    return chosen

