"""BLANC (Recasens & Hovy 2011), for predicted mentions as Luo et al. 2014 generalize it.

Two link sets per side: coreference links (pairs of mentions in one entity) and
non-coreference links (pairs in different entities). From the contingency table, with
aᵢ, bⱼ the aligned mentions of each key and response entity and M all aligned mentions:

* coreference links in common: Σᵢⱼ link(nᵢⱼ), key: Σᵢ link(|Kᵢ|), response: Σⱼ link(|Rⱼ|);
* non-coreference links in common: link(M) − Σᵢ link(aᵢ) − Σⱼ link(bⱼ) + Σᵢⱼ link(nᵢⱼ)
  (aligned pairs split by both sides, by inclusion–exclusion); key: link(Σ|Kᵢ|) − Σᵢ link(|Kᵢ|),
  response likewise.

Each half has recall, precision and F; BLANC averages the halves (Luo et al. 2014, eqs. 9–11),
F being the mean of the two F values. When the key has no coreference links (or no
non-coreference links) only the other half is scored, and when it has neither every value is 0
— the reference scorer v8.01's convention, applied to the corpus sums.

With split antecedents (Paun et al. 2023 §5.5), an entity's accommodated set is one more node
of the link graph (it counts in every link total), and links whose node is a set earn the BLANC
recall (precision) of the set and its aligned partner, for that kind of link:

* a coreference link from Kᵢ's set to a mention of Kᵢ is found when the mention's response
  counterpart is in Rⱼ, the entity holding the aligned set: δᶜᵢⱼ · nᵢⱼ;
* a non-coreference link from Kᵢ's set to a mention of another key entity is found when the
  mention's counterpart is outside Rⱼ: δⁿᵢⱼ · (M − aᵢ − bⱼ + nᵢⱼ);
* a non-coreference link between two aligned sets: δⁿ · δⁿ of the two pairs.

When the key (response) set has no link of a kind (its elements all singletons, or a single
element), the δ for that kind is the recall (precision) of the other kind, BLANC's own
convention of scoring the kind that exists; with no link at all (one singleton element), of
its mentions. Sets are aligned on BLANC's F1, the mean of the two kinds' F1 of these δ
terms. ``compat="ua"``: δ is each kind's F1, each kind aligned on its own F1, as the UA
scorer computes it (U10, U11 in :mod:`anascore.compat.ua_scorer`).
"""

from __future__ import annotations

from functools import cache
from operator import mul
from typing import TYPE_CHECKING

import numpy as np

from anascore.comparison.contingency import Comparison, Contingency, links
from anascore.config.metric_names import metric_title
from anascore.metrics.base import Metric, exact_sum
from anascore.metrics.rules import metric_rules
from anascore.metrics.scores import BlancScore, Score, ScoreArrays, f1_score, f1_scores, ratios
from anascore.metrics.split_counts import split_antecedent_counts

if TYPE_CHECKING:
    from anascore.metrics.set_comparison import SetMetric
    from anascore.metrics.split_antecedents import SetAlignment

FIELDS = (
    "coref_recall_num", "coref_recall_den", "coref_precision_num", "coref_precision_den",
    "non_coref_recall_num", "non_coref_recall_den", "non_coref_precision_num",
    "non_coref_precision_den",
)


def count_blanc(comparison: Comparison) -> np.ndarray:
    # in Python integers, from the table's lists: the same numbers as numpy's int64
    cells = comparison.table.lists
    counts, key_sizes, response_sizes = cells.counts, cells.key_sizes, cells.response_sizes
    common_coref = _links(counts)
    key_coref = _links(key_sizes)
    response_coref = _links(response_sizes)
    row_sums = [0] * len(key_sizes)
    column_sums = [0] * len(response_sizes)
    for row, column, count in zip(cells.rows, cells.columns, counts, strict=True):
        row_sums[row] += count
        column_sums[column] += count
    aligned, key_mentions = sum(counts), sum(key_sizes)
    response_mentions = sum(response_sizes)
    common_non_coref = (aligned * (aligned - 1) // 2 - _links(row_sums) - _links(column_sums)
                        + common_coref)
    key_non_coref = key_mentions * (key_mentions - 1) // 2 - key_coref
    response_non_coref = response_mentions * (response_mentions - 1) // 2 - response_coref
    return np.array([common_coref, key_coref, common_coref, response_coref,
                     common_non_coref, key_non_coref, common_non_coref, response_non_coref],
                    dtype=np.float64)


def _links(sizes: list[int]) -> int:
    """Coreference links among groups of these sizes: Σ n (n − 1) / 2 (as
    :func:`anascore.comparison.contingency.links` summed), as (Σ n² − Σ n) / 2, exact in
    integers (each n (n − 1) is even), with the products made in C."""
    return (sum(map(mul, sizes, sizes)) - sum(sizes)) // 2


def score_blanc(counts: np.ndarray) -> BlancScore:
    coref = Score.from_counts(*(float(value) for value in counts[:4]))
    non_coref = Score.from_counts(*(float(value) for value in counts[4:]))
    key_has_coref, key_has_non_coref = counts[1] > 0, counts[5] > 0
    if key_has_coref and key_has_non_coref:
        return BlancScore((coref.recall + non_coref.recall) / 2,
                          (coref.precision + non_coref.precision) / 2,
                          (coref.f1 + non_coref.f1) / 2, coref, non_coref)
    if key_has_coref:
        return BlancScore(coref.recall, coref.precision, coref.f1, coref, non_coref)
    if key_has_non_coref:
        return BlancScore(non_coref.recall, non_coref.precision, non_coref.f1, coref, non_coref)
    return BlancScore(0.0, 0.0, 0.0, coref, non_coref)


def blanc_of_sets(table: Contingency) -> np.ndarray:
    """BLANC's counts between the elements of two sets, then the aligned mentions and the
    key's and response's mentions (for sets with no link of either kind)."""
    return np.concatenate([count_blanc(Comparison.from_table(table)),
                           [table.aligned, table.key_sizes.sum(), table.response_sizes.sum()]])


def _blanc_deltas(counts: np.ndarray) -> np.ndarray:
    """δ for coreference and non-coreference links, recall and precision side: the share of
    that kind of link found; where a set has no link of that kind, of the other kind; where
    it has no link at all (a single singleton element), of its mentions."""
    (coref_recall_num, coref_recall_den, coref_precision_num, coref_precision_den,
     non_recall_num, non_recall_den, non_precision_num, non_precision_den,
     aligned, key_mentions, response_mentions) = counts.tolist()

    def share(*fractions: tuple[float, float]) -> float:
        for numerator, denominator in fractions:
            if denominator:
                return numerator / denominator
        return 0.0

    mention_recall, mention_precision = (aligned, key_mentions), (aligned, response_mentions)
    return np.array([
        share((coref_recall_num, coref_recall_den), (non_recall_num, non_recall_den),
              mention_recall),
        share((coref_precision_num, coref_precision_den),
              (non_precision_num, non_precision_den), mention_precision),
        share((non_recall_num, non_recall_den), (coref_recall_num, coref_recall_den),
              mention_recall),
        share((non_precision_num, non_precision_den),
              (coref_precision_num, coref_precision_den), mention_precision),
    ])


def _blanc_weight(counts: np.ndarray) -> float:
    """The F1 the alignment maximizes: BLANC's, the mean of the two kinds' F1 (of their δ
    terms, so that sets lacking a kind of link are still compared)."""
    coref_recall, coref_precision, non_recall, non_precision = _blanc_deltas(counts).tolist()
    return (f1_score(coref_recall, coref_precision) + f1_score(non_recall, non_precision)) / 2


@cache
def blanc_sets() -> SetMetric:
    """How BLANC compares two sets (made, with the set machinery imported, when a document
    first has sets to align: :mod:`anascore.metrics.split_counts`)."""
    from anascore.metrics.set_comparison import SetMetric

    return SetMetric(blanc_of_sets, _blanc_weight, _blanc_deltas,
                     ("coref_recall", "coref_precision", "non_coref_recall",
                      "non_coref_precision"), split_fields=slice(0, 8))


def _blanc_sets(comparison: Comparison) -> tuple[SetMetric, ...]:
    """How BLANC compares sets, in the run's conventions
    (:meth:`anascore.metrics.rules.MetricRules.set_metrics`)."""
    return metric_rules(comparison).set_metrics("blanc", (blanc_sets(),))


def _blanc_with_sets(comparison: Comparison, alignments: tuple[SetAlignment, ...]) -> np.ndarray:
    from anascore.metrics.split_antecedents import common_mentions, set_sizes

    table = comparison.table
    key_sizes, response_sizes = set_sizes(comparison)
    common_coref = int(links(table.counts).sum())
    common_non_coref = (int(links(np.array(table.aligned))) - int(links(table.row_sums()).sum())
                        - int(links(table.column_sums()).sum()) + common_coref)
    coref = next(alignment for alignment in alignments if alignment.has("coref_recall"))
    shared = common_mentions(table, coref.key, coref.response)
    non_coref = next(alignment for alignment in alignments if alignment.has("non_coref_recall"))
    outside = (table.aligned - table.row_sums()[non_coref.key]
               - table.column_sums()[non_coref.response]
               + common_mentions(table, non_coref.key, non_coref.response))

    def non_coref_credit(deltas: np.ndarray) -> float:
        between_sets = (exact_sum(deltas) ** 2 - exact_sum(deltas * deltas)) / 2
        responses, times = np.unique(non_coref.response, return_counts=True)
        for response in responses[times > 1]:  # sets credited to one equal set (UA)
            same = deltas[non_coref.response == response]
            between_sets -= (exact_sum(same) ** 2 - exact_sum(same * same)) / 2
        return common_non_coref + exact_sum(deltas * outside) + between_sets

    key_coref = int(links(key_sizes).sum())
    response_coref = int(links(response_sizes).sum())
    return np.array([
        common_coref + exact_sum(coref.delta("coref_recall") * shared), key_coref,
        common_coref + exact_sum(coref.delta("coref_precision") * shared), response_coref,
        non_coref_credit(non_coref.delta("non_coref_recall")),
        int(links(np.array(key_sizes.sum()))) - key_coref,
        non_coref_credit(non_coref.delta("non_coref_precision")),
        int(links(np.array(response_sizes.sum()))) - response_coref,
    ], dtype=np.float64)


def score_blanc_batch(counts: np.ndarray) -> ScoreArrays:
    """:func:`score_blanc` of every row of a resamples × fields matrix."""
    halves = []
    for start in (0, 4):
        recall = ratios(counts[:, start], counts[:, start + 1])
        precision = ratios(counts[:, start + 2], counts[:, start + 3])
        halves.append((recall, precision, f1_scores(recall, precision)))
    (coref_r, coref_p, coref_f), (non_r, non_p, non_f) = halves
    key_has_coref, key_has_non_coref = counts[:, 1] > 0, counts[:, 5] > 0
    both = key_has_coref & key_has_non_coref
    only_coref = key_has_coref & ~key_has_non_coref
    only_non_coref = key_has_non_coref & ~key_has_coref

    def combine(coref: np.ndarray, non_coref: np.ndarray) -> np.ndarray:
        return np.select([both, only_coref, only_non_coref],
                         [(coref + non_coref) / 2, coref, non_coref], 0.0)

    return ScoreArrays(combine(coref_r, non_r), combine(coref_p, non_p),
                       combine(coref_f, non_f))


BLANC = Metric("blanc", metric_title("blanc"), FIELDS,
               split_antecedent_counts("blanc", len(FIELDS), count_blanc, _blanc_sets,
                                       _blanc_with_sets),
               score_blanc,
               "Recasens & Hovy 2011; Luo et al. 2014, An extension of BLANC to system mentions",
               score_batch=score_blanc_batch)
