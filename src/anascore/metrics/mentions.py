"""Mention identification: how many key mentions the response found.

Recall is the share of key mentions aligned with a response mention, precision the share of
response mentions aligned with a key mention (the reference scorer's *Identification of
Mentions* line).
"""

from __future__ import annotations

import numpy as np

from anascore.comparison.contingency import Comparison
from anascore.config.metric_names import metric_title
from anascore.metrics.base import PRF_FIELDS, Metric, prf_score, prf_score_batch


def count_mentions(comparison: Comparison) -> np.ndarray:
    cells = comparison.table.lists  # whole numbers: the sums numpy's would be
    aligned = sum(cells.counts)
    # repeated spans counted as the UA scorer does: precision from the response's own table
    aligned_response = (aligned if comparison.response_table is None
                        else comparison.response_table.aligned)
    return np.array([aligned, sum(cells.key_sizes), aligned_response,
                     sum(cells.response_sizes)], dtype=np.float64)


MENTIONS = Metric("mentions", metric_title("mentions"), PRF_FIELDS, count_mentions, prf_score,
                  "Pradhan et al. 2014, mention identification",
                  score_batch=prf_score_batch)
