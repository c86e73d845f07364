"""Corpus counts are sums of document counts; scores come last.

The reference scorer micro-averages: it adds the documents' numerators and denominators and
divides once. Sums here are correctly rounded (``math.fsum`` per field), so the order of
documents never changes a score.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

import numpy as np

from anascore.compat import metric_in_conventions
from anascore.config.options import DERIVED_METRICS, Options
from anascore.metrics.scores import AverageScore, MetricResult


def column_sums(matrix: np.ndarray) -> np.ndarray:
    """The correctly rounded sum of each column of a documents × fields matrix."""
    matrix = np.asarray(matrix, dtype=np.float64)
    if matrix.ndim == 1:
        return matrix.copy()
    return np.array([math.fsum(column) for column in matrix.T.tolist()], dtype=np.float64)


def scores_from_counts(counts: Mapping[str, np.ndarray], names: Iterable[str],
                       options: Options | None = None) -> dict[str, MetricResult]:
    """The score of each metric in ``names`` from summed counts (one vector per metric);
    ``options`` configure the metrics whose count fields depend on them and choose the
    conventions of ``options.compat`` (:func:`anascore.compat.metric_in_conventions`)."""
    results: dict[str, MetricResult] = {}
    for name in names:
        if name in DERIVED_METRICS:
            parts = DERIVED_METRICS[name]
            f1_values = [metric_in_conventions(part, options).score(counts[part]).f1
                         for part in parts]
            results[name] = AverageScore(sum(f1_values) / len(f1_values), parts)
        else:
            results[name] = metric_in_conventions(name, options).score(counts[name])
    return results
