"""CEAF (Luo 2005): the best one-to-one alignment of entities.

Both variants pair key and response entities by the assignment g* that maximizes the total
similarity Φ(g*) = Σ φ(Kᵢ, R_g(i)) (Luo 2005, eq. 6), found per connected component
(:mod:`anascore.metrics.entity_pairing`), then

    R = Φ(g*) / Σᵢ φ(Kᵢ, Kᵢ)        P = Φ(g*) / Σⱼ φ(Rⱼ, Rⱼ)

* CEAFm, mention-based: φ₃(K, R) = |K ∩ R| = nᵢⱼ, so the denominators are the numbers of
  key and response mentions.
* CEAFe, entity-based: φ₄(K, R) = 2 |K ∩ R| / (|K| + |R|), so the denominators are the numbers
  of key and response entities. Sizes count every mention, aligned or not.

With split antecedents (Paun et al. 2023 §5.3), an entity's accommodated set is one more
element, and the similarity of two entities whose sets are aligned gains the δ term, the CEAF
recall (for recall) or precision (for precision) of their sets:

    φ₃(Kᵢ, Rⱼ) = |Kᵢᵐ ∩ Rⱼᵐ| + δᵢⱼ        φ₄(Kᵢ, Rⱼ) = 2 (|Kᵢᵐ ∩ Rⱼᵐ| + δᵢⱼ) / (|Kᵢ| + |Rⱼ|)

so recall and precision may come from different entity alignments. (``compat="ua"``: δ is
the F1 of the two sets on both sides, as the UA scorer computes it, so that both sides take
one alignment; U9 in :mod:`anascore.compat.ua_scorer`.)
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING

import numpy as np

from anascore.comparison.contingency import Comparison, Contingency
from anascore.config.metric_names import metric_title
from anascore.metrics.base import PRF_FIELDS, Metric, prf_score, prf_score_batch
from anascore.metrics.entity_pairing import best_assignment_total
from anascore.metrics.rules import metric_rules
from anascore.metrics.split_counts import split_antecedent_counts

if TYPE_CHECKING:
    from anascore.metrics.set_comparison import SetMetric
    from anascore.metrics.split_antecedents import SetAlignment


def _ceafm_similarity(table: Contingency) -> np.ndarray:
    """φ₃ of every cell."""
    return table.counts.astype(np.float64)


def _ceafe_similarity(table: Contingency) -> np.ndarray:
    """φ₄ of every cell."""
    return 2.0 * table.counts / (table.key_sizes[table.rows] + table.response_sizes[table.columns])


def count_ceafm(comparison: Comparison) -> np.ndarray:
    table = comparison.assignment_table or comparison.table
    cells = table.lists  # φ₃ of every cell, as _ceafm_similarity, in Python floats
    total = best_assignment_total(table, [float(count) for count in cells.counts],
                                  whole_numbers=True)
    return np.array([total, sum(cells.key_sizes), total, sum(cells.response_sizes)],
                    dtype=np.float64)


def count_ceafe(comparison: Comparison) -> np.ndarray:
    table = comparison.assignment_table or comparison.table
    cells = table.lists  # φ₄ of every cell, as _ceafe_similarity: numpy's operations, in order
    key_sizes, response_sizes = cells.key_sizes, cells.response_sizes
    similarity = [2.0 * count / (key_sizes[row] + response_sizes[column])
                  for row, column, count in zip(cells.rows, cells.columns, cells.counts,
                                                strict=True)]
    total = best_assignment_total(table, similarity)
    return np.array([total, len(key_sizes), total, len(response_sizes)], dtype=np.float64)


Similarity = Callable[[Contingency], np.ndarray]


def _ceaf_sets(name: str, count: Callable[[Comparison], np.ndarray]) -> Callable[
        [Comparison], tuple[SetMetric, ...]]:
    """How CEAF compares sets: the paper's δ (recall, precision), in the run's conventions
    (:meth:`anascore.metrics.rules.MetricRules.set_metrics`); the paper's set metric is made,
    with the set machinery imported, when a document first has sets to align."""

    def of_sets(table: Contingency) -> np.ndarray:
        return count(Comparison.from_table(table))

    @cache
    def paper() -> tuple[SetMetric, ...]:
        from anascore.metrics.set_comparison import SetMetric
        from anascore.metrics.split_antecedents import prf_deltas, prf_weight

        return (SetMetric(of_sets, prf_weight, prf_deltas),)

    return lambda comparison: metric_rules(comparison).set_metrics(name, paper())


def _ceaf_with_sets(similarity: Similarity, entity_count: bool) -> Callable[
        [Comparison, tuple[SetAlignment, ...]], np.ndarray]:
    def count(comparison: Comparison, alignments: tuple[SetAlignment, ...]) -> np.ndarray:
        from anascore.metrics.split_antecedents import tables_with_sets

        (alignment,) = alignments
        recall_table, precision_table = tables_with_sets(comparison, alignment)
        # The two tables have the same cells, so the recall table's components serve both.
        recall_total = best_assignment_total(recall_table, similarity(recall_table))
        precision_total = best_assignment_total(recall_table, similarity(precision_table))
        if entity_count:
            return np.array([recall_total, len(recall_table.key_sizes), precision_total,
                             len(precision_table.response_sizes)], dtype=np.float64)
        return np.array([recall_total, recall_table.key_sizes.sum(), precision_total,
                         precision_table.response_sizes.sum()], dtype=np.float64)

    return count


CEAFM = Metric("ceafm", metric_title("ceafm"), PRF_FIELDS,
               split_antecedent_counts("ceafm", len(PRF_FIELDS), count_ceafm,
                                       _ceaf_sets("ceafm", count_ceafm),
                                       _ceaf_with_sets(_ceafm_similarity, entity_count=False)),
               prf_score, "Luo 2005, On coreference resolution performance metrics (φ₃)",
               score_batch=prf_score_batch)
CEAFE = Metric("ceafe", metric_title("ceafe"), PRF_FIELDS,
               split_antecedent_counts("ceafe", len(PRF_FIELDS), count_ceafe,
                                       _ceaf_sets("ceafe", count_ceafe),
                                       _ceaf_with_sets(_ceafe_similarity, entity_count=True)),
               prf_score, "Luo 2005, On coreference resolution performance metrics (φ₄)",
               score_batch=prf_score_batch)
