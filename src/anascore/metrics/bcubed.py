"""B³ (Bagga & Baldwin 1998), with predicted mentions as in Pradhan et al. 2014.

Recall averages, over key mentions, the share of the mention's key entity found in the
response entity of its aligned mention; grouped by cell of the contingency table:

    R = Σᵢⱼ nᵢⱼ² / |Kᵢ|  /  Σᵢ |Kᵢ|

Unaligned key mentions contribute 0. Precision exchanges key and response (|Rⱼ| counts all the
response entity's mentions, aligned or not).

With split antecedents (Paun et al. 2023 §5.1), an entity's accommodated set is one more
element, and the cell of two entities whose sets are aligned gains the δ term, the B³ recall
(precision) of their sets:

    R* = Σᵢⱼ (|Kᵢᵐ ∩ Rⱼᵐ| + δᵢⱼ)² / |Kᵢ|  /  Σᵢ |Kᵢ|
"""

from __future__ import annotations

import math
from functools import cache
from typing import TYPE_CHECKING

import numpy as np

from anascore.comparison.contingency import Comparison, Contingency
from anascore.config.metric_names import metric_title
from anascore.metrics.base import (
    PRF_FIELDS,
    Metric,
    prf_score,
    prf_score_batch,
    recall_precision,
)
from anascore.metrics.split_counts import split_antecedent_counts

if TYPE_CHECKING:
    from anascore.metrics.set_comparison import SetMetric
    from anascore.metrics.split_antecedents import SetAlignment


def _bcubed_recall(table: Contingency) -> tuple[float, float]:
    cells = table.lists
    return _bcubed_lists(cells.rows, cells.counts, cells.key_sizes)


def _bcubed_lists(rows: list[int], counts: list[int], sizes: list[int]) -> tuple[float, float]:
    # in Python floats, from the table's lists: numpy's operations on each cell, in order
    numerator = math.fsum([float(count) * float(count) / sizes[row]
                           for row, count in zip(rows, counts, strict=True)])
    return numerator, float(sum(sizes))


def count_bcubed(comparison: Comparison) -> np.ndarray:
    if comparison.response_table is not None:  # repeated spans counted as the UA scorer does
        return recall_precision(_bcubed_recall, comparison)
    # precision is recall with key and response exchanged: the lists, without a table
    cells = comparison.table.lists
    return np.array([*_bcubed_lists(cells.rows, cells.counts, cells.key_sizes),
                     *_bcubed_lists(cells.columns, cells.counts, cells.response_sizes)],
                    dtype=np.float64)


@cache
def bcubed_sets() -> SetMetric:
    """How B³ compares two sets (made, with the set machinery imported, when a document
    first has sets to align: :mod:`anascore.metrics.split_counts`)."""
    from anascore.metrics.split_antecedents import recall_side_sets

    return recall_side_sets(_bcubed_recall)


def _bcubed_with_sets(comparison: Comparison, alignments: tuple[SetAlignment, ...]) -> np.ndarray:
    from anascore.metrics.split_antecedents import tables_with_sets

    (alignment,) = alignments
    recall_table, precision_table = tables_with_sets(comparison, alignment)
    recall_num, recall_den = _bcubed_recall(recall_table)
    precision_num, precision_den = _bcubed_recall(precision_table.transposed())
    return np.array([recall_num, recall_den, precision_num, precision_den], dtype=np.float64)


BCUBED = Metric("bcub", metric_title("bcub"), PRF_FIELDS,
                split_antecedent_counts("bcub", len(PRF_FIELDS), count_bcubed,
                                        lambda comparison: (bcubed_sets(),), _bcubed_with_sets),
                prf_score,
                "Bagga & Baldwin 1998, Algorithms for scoring coreference chains",
                score_batch=prf_score_batch)
