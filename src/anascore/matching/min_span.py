"""MIN-span matching: the Universal Anaphora scorer's partial matching.

A key mention may carry a *minimal span* (UA ``Min``; MUC's MIN): the words a system must
find. A response mention **matches** a key mention when it lies within the key mention and
covers its MIN (Yu et al. 2022, §4 and the UA scorer's README, *Partial Matching*):

    MIN(k) ⊆ r ⊆ k

and the pair is worth ``|r| / |k|``, the share of the key mention the response found. Mentions
are aligned one-to-one in two steps, as the UA scorer 2.0 does: first every pair of mentions
with the same tokens (exact matches), then, among the mentions left, the pairing of greatest
total worth (Kuhn 1955; Munkres 1957), found per connected component of the graph of possible
pairs. A key mention without MIN is matched exactly or not at all.

The alignment is one-to-one, so every metric counts a partially matched pair as it counts an
exact one. Ties (two pairings of equal worth) are broken by text order: mentions are taken by
start, end, length, then tokens, so the order of entities in a file never changes a score.

``compat="ua"`` reproduces the UA scorer 2.0 exactly
(:func:`anascore.compat.ua_scorer.align_min_ua`,
U3): it also accepts a response mention that *contains* the key mention when the key mention
covers the response's own MIN, and solves one dense assignment over all mentions left, which
decides ties the way the scorer does; it uses the helpers below with ``symmetric=True`` and
``by_tokens=False``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

import numpy as np

from anascore.core.assignment import maximum_assignment
from anascore.core.components import edge_components
from anascore.core.model import Mention
from anascore.matching.exact import Alignment, align_exact


def min_match_worth(key: Mention, response: Mention) -> float:
    """``|r| / |k|`` when ``MIN(k) ⊆ r ⊆ k``, else 0 (0 also when the key has no MIN)."""
    if not key.min_tokens:
        return 0.0
    response_tokens = set(response.tokens)
    if response_tokens.issubset(key.tokens) and response_tokens.issuperset(key.min_tokens):
        return len(response_tokens) / len(key.tokens)
    return 0.0


def align_min(key: Sequence[Mention], response: Sequence[Mention]) -> Alignment:
    """Exact matches first, then the best one-to-one MIN matches of the mentions left."""
    exact = align_exact(key, response)
    key_left = unaligned_in_order(len(key), exact.key, key)
    response_left = unaligned_in_order(len(response), exact.response, response)
    edges = candidate_pairs(key, response, key_left, response_left, symmetric=False)
    pairs = _best_pairs(edges)
    return with_pairs(exact, pairs)


def unaligned_in_order(count: int, aligned: np.ndarray, mentions: Sequence[Mention], *,
                       by_tokens: bool = True) -> list[int]:
    """The unaligned mention indices in text order: start, end, length, then (unless the UA
    scorer's order is wanted, which keeps the given order there) the tokens."""
    taken = set(aligned.tolist())
    left = [index for index in range(count) if index not in taken]
    if by_tokens:
        left.sort(key=lambda index: (mentions[index].start, mentions[index].end,
                                     len(mentions[index].tokens), mentions[index].tokens))
    else:
        left.sort(key=lambda index: (mentions[index].start, mentions[index].end,
                                     len(mentions[index].tokens)))
    return left


def candidate_pairs(key: Sequence[Mention], response: Sequence[Mention], key_left: list[int],
                     response_left: list[int], *, symmetric: bool) -> list[
                         tuple[int, int, float]]:
    """``(key index, response index, worth)`` of every possible MIN match among the mentions
    left. Key mentions are looked up by the first token of their MIN, which a matching
    response mention must contain."""
    keys_by_min: dict[int, list[int]] = defaultdict(list)
    for index in key_left:
        key_min = key[index].min_tokens
        if key_min:
            keys_by_min[key_min[0]].append(index)
    edges: dict[tuple[int, int], float] = {}
    for response_index in response_left:
        mention = response[response_index]
        for token in mention.tokens:
            for key_index in keys_by_min.get(token, ()):
                value = min_match_worth(key[key_index], mention)
                if value > 0:
                    edges[key_index, response_index] = value
    if symmetric:
        # the UA scorer also tries the response's own MIN: k ⊆ r and MIN(r) ⊆ k
        responses_by_min: dict[int, list[int]] = defaultdict(list)
        for index in response_left:
            response_min = response[index].min_tokens
            if response_min:
                responses_by_min[response_min[0]].append(index)
        for key_index in key_left:
            mention = key[key_index]
            for token in mention.tokens:
                for response_index in responses_by_min.get(token, ()):
                    if (key_index, response_index) in edges:
                        continue
                    value = min_match_worth(response[response_index], mention)
                    if value > 0:
                        edges[key_index, response_index] = value
    order_key = {index: rank for rank, index in enumerate(key_left)}
    order_response = {index: rank for rank, index in enumerate(response_left)}
    return sorted(((k, r, value) for (k, r), value in edges.items()),
                  key=lambda edge: (order_key[edge[0]], order_response[edge[1]]))


def _best_pairs(edges: list[tuple[int, int, float]]) -> list[tuple[int, int]]:
    """The one-to-one pairs of greatest total worth, per connected component."""
    if not edges:
        return []
    components = [[edges[index] for index in component]
                  for component in edge_components((key, response) for key, response, _ in edges)]
    pairs: list[tuple[int, int]] = []
    for component in components:
        if len(component) == 1:
            pairs.append(component[0][:2])
            continue
        rows = list(dict.fromkeys(edge[0] for edge in component))
        columns = list(dict.fromkeys(edge[1] for edge in component))
        row_of = {index: row for row, index in enumerate(rows)}
        column_of = {index: column for column, index in enumerate(columns)}
        worth = np.zeros((len(rows), len(columns)))
        for key_index, response_index, value in component:
            worth[row_of[key_index], column_of[response_index]] = value
        chosen_rows, chosen_columns = maximum_assignment(worth)
        for row, column in zip(chosen_rows.tolist(), chosen_columns.tolist(), strict=True):
            if worth[row, column] > 0:
                pairs.append((rows[row], columns[column]))
    return pairs


def with_pairs(exact: Alignment, pairs: list[tuple[int, int]]) -> Alignment:
    """``exact`` with the MIN-matched ``pairs`` added."""
    if not pairs:
        return exact
    key_indices = np.concatenate([exact.key, np.array([k for k, _ in pairs], dtype=np.int64)])
    response_indices = np.concatenate([exact.response,
                                       np.array([r for _, r in pairs], dtype=np.int64)])
    return Alignment(key_indices, response_indices)
