"""MUC (Vilain et al. 1995): links, counted through partitions.

Recall (Vilain et al., eq. 2 with Pradhan et al. 2014's treatment of predicted mentions):

    R = Σᵢ (|Kᵢ| − p(Kᵢ)) / Σᵢ (|Kᵢ| − 1)

where p(Kᵢ) is the number of parts the response splits key entity Kᵢ into: one per response
entity it shares mentions with (the non-zero cells of row i) and one per key mention the
response did not find. Summed over i, the numerator is Σᵢⱼ nᵢⱼ − (non-zero cells), the number
of correct links the reference scorer counts. Precision exchanges key and response.

With split antecedents (Paun et al. 2023 §5.2), an entity's accommodated set is one more
element, so one more link to find, and finding it costs a penalty 1 − δ:

    R* = Σᵢ (|Kᵢ| − p(Kᵢᵐ) − (1 − δᵢ)) / Σᵢ (|Kᵢ| − 1)

for each key entity with a set, δ being the MUC recall of its set and the aligned response set,
counted only when the response entity holding that set shares a mention with Kᵢ (the link to
the set is then in the response); otherwise δ = 0 and the whole link is missing.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

import numpy as np

from anascore.comparison.contingency import Comparison, Contingency
from anascore.config.metric_names import metric_title
from anascore.metrics.base import PRF_FIELDS, Metric, prf_score, prf_score_batch
from anascore.metrics.split_counts import split_antecedent_counts

if TYPE_CHECKING:
    from anascore.metrics.set_comparison import SetMetric
    from anascore.metrics.split_antecedents import SetAlignment


def count_muc(comparison: Comparison) -> np.ndarray:
    cells = comparison.table.lists
    correct = sum(cells.counts) - len(cells.counts)
    correct_response = correct
    if comparison.response_table is not None:  # repeated spans counted as the UA scorer does
        response_view = comparison.response_table
        correct_response = int(response_view.counts.sum()) - len(response_view.counts)
    key_links = sum(cells.key_sizes) - len(cells.key_sizes)
    response_links = sum(cells.response_sizes) - len(cells.response_sizes)
    return np.array([correct, key_links, correct_response, response_links], dtype=np.float64)


def _muc_of_sets(table: Contingency) -> np.ndarray:
    """MUC between the elements of two sets, a singleton element counting one link that is
    found when its mention is a singleton element of the other set too (as LEA counts
    singletons): otherwise a set of singletons, the common case, would earn nothing even when
    resolved perfectly. The UA scorer counts them the same way."""
    counts = table.counts
    key_single = table.key_sizes[table.rows] == 1
    response_single = table.response_sizes[table.columns] == 1
    both_single = int((key_single & response_single).sum())
    recall_num = int(counts[~key_single].sum()) - int((~key_single).sum()) + both_single
    precision_num = (int(counts[~response_single].sum()) - int((~response_single).sum())
                     + both_single)
    return np.array([recall_num, int(np.maximum(table.key_sizes - 1, 1).sum()), precision_num,
                     int(np.maximum(table.response_sizes - 1, 1).sum())], dtype=np.float64)


@cache
def muc_sets() -> SetMetric:
    """How MUC compares two sets (made, with the set machinery imported, when a document
    first has sets to align: :mod:`anascore.metrics.split_counts`)."""
    from anascore.metrics.set_comparison import SetMetric
    from anascore.metrics.split_antecedents import prf_deltas, prf_weight

    return SetMetric(_muc_of_sets, prf_weight, prf_deltas, linked=True)


def _muc_with_sets(comparison: Comparison, alignments: tuple[SetAlignment, ...]) -> np.ndarray:
    from anascore.metrics.split_antecedents import set_sizes

    (alignment,) = alignments
    table = comparison.table
    correct = int(table.counts.sum()) - len(table.counts)
    key_sizes, response_sizes = set_sizes(comparison)
    return np.array([correct + alignment.delta("recall").sum(), (key_sizes - 1).sum(),
                     correct + alignment.delta("precision").sum(), (response_sizes - 1).sum()],
                    dtype=np.float64)


MUC = Metric("muc", metric_title("muc"), PRF_FIELDS,
             split_antecedent_counts("muc", len(PRF_FIELDS), count_muc,
                                     lambda comparison: (muc_sets(),), _muc_with_sets),
             prf_score,
             "Vilain et al. 1995, A model-theoretic coreference scoring scheme",
             score_batch=prf_score_batch)
