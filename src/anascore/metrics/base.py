"""The one shape every metric has.

A metric turns a document's :class:`~anascore.comparison.contingency.Comparison` (usually just its
contingency table) into a small vector of additive counts (its ``fields``), and turns a sum
of such vectors into a score. Because the counts add up, a corpus score is the score of the
summed document counts, and bootstrap resampling or parallel runs never need the documents
again.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from anascore.comparison.contingency import Comparison, Contingency
from anascore.config.options import Options
from anascore.metrics.scores import MetricResult, Score, ScoreArrays, f1_scores, ratios

#: The counts of a metric with one recall and one precision.
PRF_FIELDS: tuple[str, ...] = ("recall_num", "recall_den", "precision_num", "precision_den")


@dataclass(frozen=True)
class Metric:
    """A registered metric: its name, title, count fields, and the two functions.

    ``score_batch``, when given, is ``score`` for many count vectors at once (the rows of a
    resamples × fields matrix) and must give the same digits; bootstrap intervals and paired
    tests use it, and fall back to calling ``score`` on each row without it.

    ``configure``, for a metric whose count fields depend on the options (the
    dominant-mention evaluation counts per coreference class), gives the metric as a run's
    options set it up; :func:`anascore.metrics.metric_for` applies it.
    """

    name: str
    title: str
    fields: tuple[str, ...]
    count: Callable[[Comparison], np.ndarray]
    score: Callable[[np.ndarray], MetricResult]
    reference: str
    score_batch: Callable[[np.ndarray], ScoreArrays] | None = None
    configure: Callable[[Options], Metric] | None = None


def prf_score(counts: np.ndarray) -> Score:
    """The score of a metric whose fields are :data:`PRF_FIELDS`."""
    recall_num, recall_den, precision_num, precision_den = (float(value) for value in counts)
    return Score.from_counts(recall_num, recall_den, precision_num, precision_den)


def prf_score_batch(counts: np.ndarray) -> ScoreArrays:
    """:func:`prf_score` of every row of a matrix whose columns are :data:`PRF_FIELDS`."""
    recall = ratios(counts[:, 0], counts[:, 1])
    precision = ratios(counts[:, 2], counts[:, 3])
    return ScoreArrays(recall, precision, f1_scores(recall, precision))


def exact_sum(values: Iterable[float] | np.ndarray) -> float:
    """A correctly rounded sum, so that the order of entities or documents never changes a
    score (``math.fsum``)."""
    return math.fsum(np.asarray(values, dtype=np.float64).tolist())


def recall_precision(recall_side: Callable[[Contingency], tuple[float, float]],
                     comparison: Comparison) -> np.ndarray:
    """Counts of a metric whose precision is its recall with key and response exchanged."""
    recall_num, recall_den = recall_side(comparison.table)
    precision_num, precision_den = recall_side(comparison.precision_table)
    return np.array([recall_num, recall_den, precision_num, precision_den], dtype=np.float64)
