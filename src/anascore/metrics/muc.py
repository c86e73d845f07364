"""MUC (Vilain et al. 1995): links, counted through partitions.

Recall (Vilain et al., eq. 2 with Pradhan et al. 2014's treatment of predicted mentions):

    R = Σᵢ (|Kᵢ| − p(Kᵢ)) / Σᵢ (|Kᵢ| − 1)

where p(Kᵢ) is the number of parts the response splits key entity Kᵢ into: one per response
entity it shares mentions with (the non-zero cells of row i) and one per key mention the
response did not find. Summed over i, the numerator is Σᵢⱼ nᵢⱼ − (non-zero cells), the number
of correct links the reference scorer counts. Precision exchanges key and response.
"""

from __future__ import annotations

import numpy as np

from anascore.contingency import Comparison
from anascore.metrics.base import PRF_FIELDS, Metric, prf_score, prf_score_batch


def count_muc(comparison: Comparison) -> np.ndarray:
    table = comparison.table
    correct = int(table.counts.sum()) - len(table.counts)
    key_links = int((table.key_sizes - 1).sum())
    response_links = int((table.response_sizes - 1).sum())
    return np.array([correct, key_links, correct, response_links], dtype=np.float64)


MUC = Metric("muc", "MUC", PRF_FIELDS, count_muc, prf_score,
             "Vilain et al. 1995, A model-theoretic coreference scoring scheme",
             score_batch=prf_score_batch)
