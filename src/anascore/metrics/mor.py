"""MOR, the mention overlap ratio (Žabokrtský et al. 2022, Findings of the CRAC 2022 shared
task, §5): how much of the key mentions' tokens the response mentions cover, independently
of how mentions are matched for the coreference metrics.

Key and response mentions are paired one to one so as to maximize the total number of shared
positions Σ |K ∩ R| (mentions that share no position are never paired, so the pairing splits
into small groups of overlapping mentions, each solved exactly, as CEAF's entity pairing is:
:mod:`anascore.metrics.entity_pairing`), and

    R = Σ |K ∩ R| / Σ_K |K|        P = Σ |K ∩ R| / Σ_R |R|

over the paired mentions in the numerator and all mentions in the denominators. The CorefUD
scorer computes it the same way (``mention_overlap``), grouping mentions by overlapping
position ranges; positions include empty nodes.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import defaultdict

import numpy as np

from anascore.comparison.contingency import CellComponents, Comparison
from anascore.config.metric_names import metric_title
from anascore.metrics.base import PRF_FIELDS, Metric, prf_score
from anascore.metrics.entity_pairing import components_total


def count_mor(comparison: Comparison) -> np.ndarray:
    key, response = comparison.key.spans, comparison.response.spans
    # Identical mentions are paired in some best pairing, so they are set aside: if K = R
    # were paired with R' and K' instead, pairing K with R and K' with R' loses nothing, as
    # |K ∩ R'| + |K ∩ K'| = |K ∩ (R' ∪ K')| + |K ∩ R' ∩ K'| ≤ |K| + |K' ∩ R'|.
    # One to one: copies of a span (compat="ua" keeps them) each take a copy of their own.
    response_tokens = sum(map(len, response))
    found = comparison.alignment.spans_found
    if found is not None and len(found) == len(response) and comparison.response.unique_spans:
        # exact matching already looked each response span up among the key's (one copy of
        # each on both sides)
        key_left, response_left, total_identical = _found_aside(key, response, found,
                                                                response_tokens)
    else:
        key_left, response_left, total_identical = _set_identical_aside(key, response)
    total = total_identical
    if key_left and response_left:
        total += _overlap_total(key, response, key_left, response_left)
    return np.array([total, sum(map(len, key)), total, response_tokens], dtype=np.float64)


def _found_aside(key: list[tuple[int, ...]], response: list[tuple[int, ...]],
                 found: list[int], response_tokens: int) -> tuple[list[int], list[int], float]:
    """:func:`_set_identical_aside` of sides holding each span once, ``found[r]`` being the
    key mention of response mention ``r``'s span (-1: none), and ``response_tokens`` the
    response's positions: the same lists and total (the positions of the response mentions
    paired, whole numbers)."""
    response_left = [index for index, key_index in enumerate(found) if key_index < 0]
    total = float(response_tokens - sum([len(response[index]) for index in response_left]))
    paired = len(response) - len(response_left)
    if paired == len(key) or not response_left:
        return [], [], total  # one side all paired: nothing left to overlap
    taken = set(found)
    return [index for index in range(len(key)) if index not in taken], response_left, total


def _set_identical_aside(key: list[tuple[int, ...]], response: list[tuple[int, ...]],
                         ) -> tuple[list[int], list[int], float]:
    """The key and the response mentions (indices, in order) left once each key mention is
    paired with an identical response mention where one is left (the last copy of its span),
    and the tokens of the mentions so paired."""
    key_spans, response_spans = set(key), set(response)
    if len(key_spans) == len(key) and len(response_spans) == len(response):
        # one copy of each span on both sides (the usual case): the common spans pair
        common = key_spans & response_spans
        total = float(sum(map(len, common)))
        if len(common) == len(key) or len(common) == len(response):
            return [], [], total  # one side all paired: nothing left to overlap
        return ([index for index, tokens in enumerate(key) if tokens not in common],
                [index for index, tokens in enumerate(response) if tokens not in common],
                total)
    copies: dict[tuple[int, ...], list[int]] = {}
    for index, tokens in enumerate(response):
        copies.setdefault(tokens, []).append(index)
    key_left = []
    paired: set[int] = set()
    total = 0
    for key_index, tokens in enumerate(key):
        left = copies.get(tokens)
        if left:
            paired.add(left.pop())
            total += len(tokens)
        else:
            key_left.append(key_index)
    return key_left, [index for index in range(len(response)) if index not in paired], \
        float(total)


def _overlap_total(key: list[tuple[int, ...]], response: list[tuple[int, ...]],
                   key_left: list[int], response_left: list[int]) -> float:
    """The best one-to-one total of shared positions between the mentions left."""
    cells = _span_overlaps(key, response, key_left, response_left)
    if cells is None:
        cells = _shared_positions(key, response, key_left, response_left)
    rows, columns, values = cells
    if not values:
        return 0.0
    if len(set(rows)) == len(rows) == len(set(columns)):
        # no mention overlaps two others: each pair is its own best pairing, and the
        # overlaps, whole numbers, sum exactly in any order
        return float(sum(values))
    # whole numbers: every best pairing has the same exact total, whatever the cells' order
    return components_total(CellComponents.of(rows, columns, len(key), len(response)),
                            values, whole_numbers=True)


#: The overlapping pairs of mentions: key indices, response indices, shared positions.
Overlaps = tuple[list[int], list[int], list[float]]


def _span_overlaps(key: list[tuple[int, ...]], response: list[tuple[int, ...]],
                   key_left: list[int], response_left: list[int]) -> Overlaps | None:
    """The overlapping pairs of the mentions left when every one of them is a contiguous
    span (positions sorted, each once, as a mention holds them: the last is then the first
    plus the length less one), found by their ends: the response spans sorted by start, and
    for each key span only those starting within reach of it (no longer than the longest
    response span before it, none after its end); ``None`` when a mention is not a span."""
    spans = []
    for index in response_left:
        tokens = response[index]
        if not tokens or tokens[-1] - tokens[0] + 1 != len(tokens):
            return None
        spans.append((tokens[0], tokens[-1], index))
    spans.sort()
    starts = [start for start, _, _ in spans]
    reach = max([end - start for start, end, _ in spans])
    rows: list[int] = []
    columns: list[int] = []
    values: list[float] = []
    for key_index in key_left:
        tokens = key[key_index]
        if not tokens or tokens[-1] - tokens[0] + 1 != len(tokens):
            return None
        first, last = tokens[0], tokens[-1]
        for place in range(bisect_left(starts, first - reach), bisect_right(starts, last)):
            start, end, response_index = spans[place]
            if end >= first:
                rows.append(key_index)
                columns.append(response_index)
                values.append(float(min(end, last) - max(start, first) + 1))
    return rows, columns, values


def _shared_positions(key: list[tuple[int, ...]], response: list[tuple[int, ...]],
                      key_left: list[int], response_left: list[int]) -> Overlaps:
    """The overlapping pairs of any mentions left (discontinuous ones too), counted
    position by position."""
    by_token: dict[int, list[int]] = defaultdict(list)
    for index in response_left:
        for token in response[index]:
            by_token[token].append(index)
    overlaps: dict[tuple[int, int], float] = {}
    for key_index in key_left:
        for token in key[key_index]:
            for response_index in by_token.get(token, ()):
                pair = (key_index, response_index)
                overlaps[pair] = overlaps.get(pair, 0.0) + 1.0
    return ([key_index for key_index, _ in overlaps],
            [response_index for _, response_index in overlaps], list(overlaps.values()))


MOR = Metric("mor", metric_title("mor"), PRF_FIELDS, count_mor, prf_score,
             "Žabokrtský et al. 2022, Findings of the Shared Task on Multilingual Coreference "
             "Resolution (mention overlap ratio)")
