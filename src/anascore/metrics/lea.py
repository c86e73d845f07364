"""LEA, the link-based entity-aware metric (Moosavi & Strube 2016).

Recall (Moosavi & Strube 2016, §5):

    R = Σᵢ |Kᵢ| · ( Σⱼ link(Kᵢ ∩ Rⱼ) / link(Kᵢ) )  /  Σᵢ |Kᵢ|,   link(n) = n (n − 1) / 2

Each key entity weighs its size (its importance) and is resolved to the share of its links
the response recovers. A singleton has one self-link, as in CoVal: it is resolved when its
mention is aligned with a response mention that is itself a singleton (a response entity of
size 1). Precision exchanges key and response.

With split antecedents (Paun et al. 2023 §5.4), an entity's accommodated set is one more
element, an entity with a set weighs β |Kᵢ| (β = ``lea_split_importance``), and the links
from the set to the mentions a response entity shares with Kᵢ count δ each, δ being the LEA
recall (precision) of the two aligned sets:

    links(Kᵢ ∩ Rⱼ) = link(|Kᵢᵐ ∩ Rⱼᵐ|) + δᵢⱼ · |Kᵢᵐ ∩ Rⱼᵐ|

(the paper prints the factor as |Kᵢᵐ ∩ Rⱼᵐ| − 1, but its own check, δ = 1 giving
link(|Kᵢᵐ ∩ Rⱼᵐ| + 1), holds only for |Kᵢᵐ ∩ Rⱼᵐ|: there is one link from the set to each
shared mention; the UA scorer counts the same).
"""

from __future__ import annotations

import math
from functools import cache
from typing import TYPE_CHECKING

import numpy as np

from anascore.comparison.contingency import Comparison, Contingency, links
from anascore.config.metric_names import metric_title
from anascore.metrics.base import (
    PRF_FIELDS,
    Metric,
    exact_sum,
    prf_score,
    prf_score_batch,
    recall_precision,
)
from anascore.metrics.split_counts import split_antecedent_counts

if TYPE_CHECKING:
    from anascore.metrics.set_comparison import SetMetric
    from anascore.metrics.split_antecedents import SetAlignment


def _lea_recall(table: Contingency, set_links: np.ndarray | None = None,
                importance: np.ndarray | None = None) -> tuple[float, float]:
    """LEA recall counts; ``set_links`` adds, per key entity, the credited links to its
    accommodated set, and ``importance`` multiplies its weight (β)."""
    if set_links is None and importance is None:
        return _lea_recall_lists(table)
    sizes = table.key_sizes
    if len(sizes) == 0:
        return 0.0, 0.0
    common = np.bincount(table.rows, weights=links(table.counts), minlength=len(sizes))
    if set_links is not None:
        common = common + set_links
    singleton_cells = (sizes[table.rows] == 1) & (table.response_sizes[table.columns] == 1)
    common[table.rows[singleton_cells]] = 1.0
    all_links = np.maximum(links(sizes), 1)
    weights = sizes if importance is None else importance * sizes
    numerator = exact_sum(weights * (common / all_links))
    return numerator, exact_sum(weights)


def _lea_recall_lists(table: Contingency) -> tuple[float, float]:
    cells = table.lists
    return _lea_lists(cells.rows, cells.columns, cells.counts, cells.key_sizes,
                      cells.response_sizes)


def _lea_lists(rows: list[int], columns: list[int], counts: list[int], sizes: list[int],
               response_sizes: list[int]) -> tuple[float, float]:
    """:func:`_lea_recall` without accommodated sets, in Python from the table's lists, to the
    same digits: an entity's links found are whole numbers (summed as integers, exactly as
    numpy's float sums of them), a singleton entity whose mention is aligned with a
    response singleton has its self-link (1.0, whatever else its row holds), and only the
    entities with a link found have a term other than 0.0 (``math.fsum`` is exact: terms of
    0.0 change nothing, nor does their order), so the others are left out; the weights sum
    to the number of mentions, a whole number, as ``math.fsum`` rounds it."""
    if not sizes:
        return 0.0, 0.0
    found: dict[int, int] = {}
    self_links: set[int] = set()
    for row, column, count in zip(rows, columns, counts, strict=True):
        if count > 1:
            found[row] = found.get(row, 0) + count * (count - 1) // 2
        if sizes[row] == 1 and response_sizes[column] == 1:
            self_links.add(row)
    terms = [float(sizes[row]) * (float(links) / max(sizes[row] * (sizes[row] - 1) // 2, 1))
             for row, links in found.items() if row not in self_links]
    terms += [1.0] * len(self_links)  # float(1) * (1.0 / max(0, 1))
    return math.fsum(terms), float(sum(sizes))


def count_lea(comparison: Comparison) -> np.ndarray:
    if comparison.response_table is not None:  # repeated spans counted as the UA scorer does
        return recall_precision(_lea_recall, comparison)
    # precision is recall with key and response exchanged: the lists, without a table
    cells = comparison.table.lists
    return np.array([*_lea_lists(cells.rows, cells.columns, cells.counts, cells.key_sizes,
                                 cells.response_sizes),
                     *_lea_lists(cells.columns, cells.rows, cells.counts, cells.response_sizes,
                                 cells.key_sizes)], dtype=np.float64)


@cache
def lea_sets() -> SetMetric:
    """How LEA compares two sets (made, with the set machinery imported, when a document
    first has sets to align: :mod:`anascore.metrics.split_counts`)."""
    from anascore.metrics.split_antecedents import recall_side_sets

    return recall_side_sets(_lea_recall)


def _lea_with_sets(comparison: Comparison, alignments: tuple[SetAlignment, ...]) -> np.ndarray:
    from anascore.metrics.split_antecedents import common_mentions, set_sizes

    (alignment,) = alignments
    table = comparison.table
    key_sizes, response_sizes = set_sizes(comparison)
    beta = comparison.options.lea_split_importance
    shared = common_mentions(table, alignment.key, alignment.response)
    recall_links = np.bincount(alignment.key, weights=alignment.delta("recall") * shared,
                               minlength=len(key_sizes))
    precision_links = np.bincount(alignment.response,
                                  weights=alignment.delta("precision") * shared,
                                  minlength=len(response_sizes))
    key_importance = np.where(key_sizes > table.key_sizes, beta, 1.0)
    response_importance = np.where(response_sizes > table.response_sizes, beta, 1.0)
    with_sizes = Contingency(key_sizes, response_sizes, table.rows, table.columns, table.counts)
    recall_num, recall_den = _lea_recall(with_sizes, recall_links, key_importance)
    precision_num, precision_den = _lea_recall(with_sizes.transposed(), precision_links,
                                               response_importance)
    return np.array([recall_num, recall_den, precision_num, precision_den], dtype=np.float64)


LEA = Metric("lea", metric_title("lea"), PRF_FIELDS,
             split_antecedent_counts("lea", len(PRF_FIELDS), count_lea,
                                     lambda comparison: (lea_sets(),), _lea_with_sets),
             prf_score,
             "Moosavi & Strube 2016, Which coreference evaluation metric do you trust?",
             score_batch=prf_score_batch)
