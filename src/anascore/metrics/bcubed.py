"""B³ (Bagga & Baldwin 1998), with predicted mentions as in Pradhan et al. 2014.

Recall averages, over key mentions, the share of the mention's key entity found in the
response entity of its aligned mention; grouped by cell of the contingency table:

    R = Σᵢⱼ nᵢⱼ² / |Kᵢ|  /  Σᵢ |Kᵢ|

Unaligned key mentions contribute 0. Precision exchanges key and response (|Rⱼ| counts all the
response entity's mentions, aligned or not).
"""

from __future__ import annotations

import numpy as np

from anascore.contingency import Comparison, Contingency
from anascore.metrics.base import (
    PRF_FIELDS,
    Metric,
    exact_sum,
    prf_score,
    prf_score_batch,
    recall_precision,
)


def _bcubed_recall(table: Contingency) -> tuple[float, float]:
    counts = table.counts.astype(np.float64)
    numerator = exact_sum(counts * counts / table.key_sizes[table.rows])
    return numerator, float(table.key_sizes.sum())


def count_bcubed(comparison: Comparison) -> np.ndarray:
    return recall_precision(_bcubed_recall, comparison)


BCUBED = Metric("bcub", "B3", PRF_FIELDS, count_bcubed, prf_score,
                "Bagga & Baldwin 1998, Algorithms for scoring coreference chains",
                score_batch=prf_score_batch)
