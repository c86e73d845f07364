"""CEAF (Luo 2005): the best one-to-one alignment of entities.

Both variants pair key and response entities by the assignment g* that maximizes the total
similarity Φ(g*) = Σ φ(Kᵢ, R_g(i)) (Luo 2005, eq. 6), found per connected component
(:mod:`anascore.metrics.assignment`), then

    R = Φ(g*) / Σᵢ φ(Kᵢ, Kᵢ)        P = Φ(g*) / Σⱼ φ(Rⱼ, Rⱼ)

* CEAFm, mention-based: φ₃(K, R) = |K ∩ R| = nᵢⱼ, so the denominators are the numbers of
  key and response mentions.
* CEAFe, entity-based: φ₄(K, R) = 2 |K ∩ R| / (|K| + |R|), so the denominators are the numbers
  of key and response entities. Sizes count every mention, aligned or not.
"""

from __future__ import annotations

import numpy as np

from anascore.contingency import Comparison
from anascore.metrics.assignment import best_assignment_total
from anascore.metrics.base import PRF_FIELDS, Metric, prf_score, prf_score_batch


def count_ceafm(comparison: Comparison) -> np.ndarray:
    table = comparison.table
    total = best_assignment_total(table, table.counts.astype(np.float64))
    return np.array([total, table.key_sizes.sum(), total, table.response_sizes.sum()],
                    dtype=np.float64)


def count_ceafe(comparison: Comparison) -> np.ndarray:
    table = comparison.table
    similarity = 2.0 * table.counts / (table.key_sizes[table.rows]
                                       + table.response_sizes[table.columns])
    total = best_assignment_total(table, similarity)
    return np.array([total, len(table.key_sizes), total, len(table.response_sizes)],
                    dtype=np.float64)


CEAFM = Metric("ceafm", "CEAFm", PRF_FIELDS, count_ceafm, prf_score,
               "Luo 2005, On coreference resolution performance metrics (φ₃)",
               score_batch=prf_score_batch)
CEAFE = Metric("ceafe", "CEAFe", PRF_FIELDS, count_ceafe, prf_score,
               "Luo 2005, On coreference resolution performance metrics (φ₄)",
               score_batch=prf_score_batch)
