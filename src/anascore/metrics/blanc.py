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
"""

from __future__ import annotations

import numpy as np

from anascore.contingency import Comparison, links
from anascore.metrics.base import Metric
from anascore.scores import BlancScore, Score, ScoreArrays, f1_scores, ratios

FIELDS = (
    "coref_recall_num", "coref_recall_den", "coref_precision_num", "coref_precision_den",
    "non_coref_recall_num", "non_coref_recall_den", "non_coref_precision_num",
    "non_coref_precision_den",
)


def count_blanc(comparison: Comparison) -> np.ndarray:
    table = comparison.table
    common_coref = int(links(table.counts).sum())
    key_coref = int(links(table.key_sizes).sum())
    response_coref = int(links(table.response_sizes).sum())
    common_non_coref = (int(links(np.array(table.aligned))) - int(links(table.row_sums()).sum())
                        - int(links(table.column_sums()).sum()) + common_coref)
    key_non_coref = int(links(np.array(table.key_sizes.sum()))) - key_coref
    response_non_coref = int(links(np.array(table.response_sizes.sum()))) - response_coref
    return np.array([common_coref, key_coref, common_coref, response_coref,
                     common_non_coref, key_non_coref, common_non_coref, response_non_coref],
                    dtype=np.float64)


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


BLANC = Metric("blanc", "BLANC", FIELDS, count_blanc, score_blanc,
               "Recasens & Hovy 2011; Luo et al. 2014, An extension of BLANC to system mentions",
               score_batch=score_blanc_batch)
