"""MOR, the mention overlap ratio (Žabokrtský et al. 2022, Findings of the CRAC 2022 shared
task, §5): how much of the key mentions' tokens the response mentions cover, independently
of how mentions are matched for the coreference metrics.

Key and response mentions are paired one to one so as to maximize the total number of shared
positions Σ |K ∩ R| (mentions that share no position are never paired, so the pairing splits
into small groups of overlapping mentions, each solved exactly, as CEAF's entity pairing is:
:mod:`anascore.metrics.assignment`), and

    R = Σ |K ∩ R| / Σ_K |K|        P = Σ |K ∩ R| / Σ_R |R|

over the paired mentions in the numerator and all mentions in the denominators. The CorefUD
scorer computes it the same way (``mention_overlap``), grouping mentions by overlapping
position ranges; positions include empty nodes.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from anascore.contingency import Comparison, Contingency
from anascore.metrics.assignment import best_assignment_total
from anascore.metrics.base import PRF_FIELDS, Metric, prf_score


def count_mor(comparison: Comparison) -> np.ndarray:
    key, response = comparison.key.mentions, comparison.response.mentions
    key_tokens = sum(len(mention.tokens) for mention in key)
    response_tokens = sum(len(mention.tokens) for mention in response)
    # Identical mentions are paired in some best pairing, so they are set aside: if K = R
    # were paired with R' and K' instead, pairing K with R and K' with R' loses nothing, as
    # |K ∩ R'| + |K ∩ K'| = |K ∩ (R' ∪ K')| + |K ∩ R' ∩ K'| ≤ |K| + |K' ∩ R'|.
    index_of = {mention.tokens: index for index, mention in enumerate(response)}
    identical = {key_index: index_of[mention.tokens] for key_index, mention in enumerate(key)
                 if mention.tokens in index_of}
    total_identical = float(sum(len(key[index].tokens) for index in identical))
    paired_responses = set(identical.values())
    by_token: dict[int, list[int]] = defaultdict(list)
    for index, mention in enumerate(response):
        if index in paired_responses:
            continue
        for token in mention.tokens:
            by_token[token].append(index)
    overlaps: dict[tuple[int, int], float] = {}
    for key_index, mention in enumerate(key):
        if key_index in identical:
            continue
        for token in mention.tokens:
            for response_index in by_token.get(token, ()):
                pair = (key_index, response_index)
                overlaps[pair] = overlaps.get(pair, 0.0) + 1.0
    pairs = list(overlaps)
    table = Contingency(np.ones(len(key), dtype=np.int64), np.ones(len(response), dtype=np.int64),
                        np.asarray([pair[0] for pair in pairs], dtype=np.int64),
                        np.asarray([pair[1] for pair in pairs], dtype=np.int64),
                        np.ones(len(pairs), dtype=np.int64))
    total = total_identical + best_assignment_total(
        table, np.asarray([overlaps[pair] for pair in pairs], dtype=np.float64))
    return np.array([total, key_tokens, total, response_tokens], dtype=np.float64)


MOR = Metric("mor", "MOR", PRF_FIELDS, count_mor, prf_score,
             "Žabokrtský et al. 2022, Findings of the Shared Task on Multilingual Coreference "
             "Resolution (mention overlap ratio)")
