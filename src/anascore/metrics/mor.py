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

from collections import defaultdict

import numpy as np

from anascore.comparison.contingency import Comparison, Contingency
from anascore.config.metric_names import metric_title
from anascore.metrics.base import PRF_FIELDS, Metric, prf_score
from anascore.metrics.entity_pairing import best_assignment_total


def count_mor(comparison: Comparison) -> np.ndarray:
    key = [mention.tokens for mention in comparison.key.mentions]
    response = [mention.tokens for mention in comparison.response.mentions]
    # Identical mentions are paired in some best pairing, so they are set aside: if K = R
    # were paired with R' and K' instead, pairing K with R and K' with R' loses nothing, as
    # |K ∩ R'| + |K ∩ K'| = |K ∩ (R' ∪ K')| + |K ∩ R' ∩ K'| ≤ |K| + |K' ∩ R'|.
    # One to one: copies of a span (compat="ua" keeps them) each take a copy of their own.
    key_left, response_left, total_identical = _set_identical_aside(key, response)
    total = total_identical
    if key_left and response_left:
        total += _overlap_total(key, response, key_left, response_left)
    return np.array([total, sum(map(len, key)), total, sum(map(len, response))],
                    dtype=np.float64)


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
    if not overlaps:
        return 0.0
    if (len({key_index for key_index, _ in overlaps}) == len(overlaps)
            == len({response_index for _, response_index in overlaps})):
        # no mention overlaps two others: each pair is its own best pairing, and the
        # overlaps, whole numbers, sum exactly in any order
        return float(sum(overlaps.values()))
    pairs = np.array(list(overlaps), dtype=np.int64).reshape(len(overlaps), 2)
    table = Contingency(np.ones(len(key), dtype=np.int64), np.ones(len(response), dtype=np.int64),
                        pairs[:, 0], pairs[:, 1], np.ones(len(overlaps), dtype=np.int64))
    return best_assignment_total(table, list(overlaps.values()), whole_numbers=True)


MOR = Metric("mor", metric_title("mor"), PRF_FIELDS, count_mor, prf_score,
             "Žabokrtský et al. 2022, Findings of the Shared Task on Multilingual Coreference "
             "Resolution (mention overlap ratio)")
