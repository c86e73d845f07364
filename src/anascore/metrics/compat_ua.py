"""Scores in the UA scorer 2.0's (and the CorefUD scorer's) conventions, for ``compat="ua"``.

BLANC. Each half of BLANC (coreference links, non-coreference links) is scored when the key
*or the response* has links of that kind; the combined values average the halves scored, and
are 0 when neither is. The reference scorer v8.01 (anascore's default) scores a half only when
the key has links of that kind. With a key of one entity and a response that splits it, the
key has no non-coreference link but the response has: v8.01 reports the coreference half, the
UA scorer the mean of it and a zero half — exactly half the value (reference cases M3, M6, N3,
N6; ``docs/differences-ua.md``).
"""

from __future__ import annotations

import numpy as np

from anascore.scores import BlancScore, Score, ScoreArrays, f1_scores, ratios


def score_blanc_ua(counts: np.ndarray) -> BlancScore:
    coref = Score.from_counts(*(float(value) for value in counts[:4]))
    non_coref = Score.from_counts(*(float(value) for value in counts[4:]))
    halves = [half for half, (key_links, response_links)
              in ((coref, (counts[1], counts[3])), (non_coref, (counts[5], counts[7])))
              if key_links > 0 or response_links > 0]
    if not halves:
        return BlancScore(0.0, 0.0, 0.0, coref, non_coref)
    count = len(halves)
    return BlancScore(sum(half.recall for half in halves) / count,
                      sum(half.precision for half in halves) / count,
                      sum(half.f1 for half in halves) / count, coref, non_coref)


def score_blanc_ua_batch(counts: np.ndarray) -> ScoreArrays:
    """:func:`score_blanc_ua` of every row of a resamples × fields matrix (the same
    operations, so the same digits)."""
    recalls, precisions, f1s, scored = [], [], [], []
    for start in (0, 4):
        recall = ratios(counts[:, start], counts[:, start + 1])
        precision = ratios(counts[:, start + 2], counts[:, start + 3])
        recalls.append(recall)
        precisions.append(precision)
        f1s.append(f1_scores(recall, precision))
        scored.append((counts[:, start + 1] > 0) | (counts[:, start + 3] > 0))
    count = scored[0].astype(np.int64) + scored[1]

    def mean(values: list[np.ndarray]) -> np.ndarray:
        total = np.where(scored[0], values[0], 0.0) + np.where(scored[1], values[1], 0.0)
        return ratios(total, count)

    return ScoreArrays(mean(recalls), mean(precisions), mean(f1s))
