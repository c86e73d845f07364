"""Corpus counts are sums of document counts; scores come last.

The reference scorer micro-averages: it adds the documents' numerators and denominators and
divides once. Sums here are correctly rounded (``math.fsum`` per field), so the order of
documents never changes a score.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

import numpy as np

from anascore.metrics.scores import MetricResult
from anascore.stats.metric_suite import MetricSuite


def column_sums(matrix: np.ndarray) -> np.ndarray:
    """The correctly rounded sum of each column of a documents × fields matrix."""
    matrix = np.asarray(matrix, dtype=np.float64)
    if matrix.ndim == 1:
        return matrix.copy()
    return np.array([math.fsum(column) for column in matrix.T.tolist()], dtype=np.float64)


def scores_from_counts(counts: Mapping[str, np.ndarray], names: Iterable[str],
                       suite: MetricSuite | None = None) -> dict[str, MetricResult]:
    """The score of each metric in ``names`` from summed counts (one vector per metric), as
    the run's ``suite`` scores it (:meth:`MetricSuite.scores`: its metrics configured by the
    settings, in the conventions of ``compat``); ``None``: the registry's metrics as they
    are."""
    return (suite or MetricSuite.of(None)).scores(counts, names)
