"""LEA, the link-based entity-aware metric (Moosavi & Strube 2016).

Recall (Moosavi & Strube 2016, §5):

    R = Σᵢ |Kᵢ| · ( Σⱼ link(Kᵢ ∩ Rⱼ) / link(Kᵢ) )  /  Σᵢ |Kᵢ|,   link(n) = n (n − 1) / 2

Each key entity weighs its size (its importance) and is resolved to the share of its links
the response recovers. A singleton has one self-link, as in CoVal: it is resolved when its
mention is aligned with a response mention that is itself a singleton (a response entity of
size 1). Precision exchanges key and response.
"""

from __future__ import annotations

import numpy as np

from anascore.contingency import Comparison, Contingency, links
from anascore.metrics.base import (
    PRF_FIELDS,
    Metric,
    exact_sum,
    prf_score,
    prf_score_batch,
    recall_precision,
)


def _lea_recall(table: Contingency) -> tuple[float, float]:
    sizes = table.key_sizes
    if len(sizes) == 0:
        return 0.0, 0.0
    common = np.bincount(table.rows, weights=links(table.counts), minlength=len(sizes))
    singleton_cells = (sizes[table.rows] == 1) & (table.response_sizes[table.columns] == 1)
    common[table.rows[singleton_cells]] = 1.0
    all_links = np.maximum(links(sizes), 1)
    numerator = exact_sum(sizes * (common / all_links))
    return numerator, float(sizes.sum())


def count_lea(comparison: Comparison) -> np.ndarray:
    return recall_precision(_lea_recall, comparison)


LEA = Metric("lea", "LEA", PRF_FIELDS, count_lea, prf_score,
             "Moosavi & Strube 2016, Which coreference evaluation metric do you trust?",
             score_batch=prf_score_batch)
