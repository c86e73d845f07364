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
    copies: dict[tuple[int, ...], list[int]] = {}
    for index, tokens in enumerate(response):
        copies.setdefault(tokens, []).append(index)
    identical: dict[int, int] = {}
    for key_index, tokens in enumerate(key):
        left = copies.get(tokens)
        if left:
            identical[key_index] = left.pop()
    total_identical = float(sum(len(key[index]) for index in identical))
    paired_responses = set(identical.values())
    by_token: dict[int, list[int]] = defaultdict(list)
    for index, tokens in enumerate(response):
        if index in paired_responses:
            continue
        for token in tokens:
            by_token[token].append(index)
    overlaps: dict[tuple[int, int], float] = {}
    for key_index, tokens in enumerate(key):
        if key_index in identical:
            continue
        for token in tokens:
            for response_index in by_token.get(token, ()):
                pair = (key_index, response_index)
                overlaps[pair] = overlaps.get(pair, 0.0) + 1.0
    pairs = np.array(list(overlaps), dtype=np.int64).reshape(len(overlaps), 2)
    table = Contingency(np.ones(len(key), dtype=np.int64), np.ones(len(response), dtype=np.int64),
                        pairs[:, 0], pairs[:, 1], np.ones(len(overlaps), dtype=np.int64))
    total = total_identical + best_assignment_total(
        table, np.fromiter(overlaps.values(), dtype=np.float64, count=len(overlaps)))
    return np.array([total, sum(map(len, key)), total, sum(map(len, response))],
                    dtype=np.float64)


MOR = Metric("mor", metric_title("mor"), PRF_FIELDS, count_mor, prf_score,
             "Žabokrtský et al. 2022, Findings of the Shared Task on Multilingual Coreference "
             "Resolution (mention overlap ratio)")
