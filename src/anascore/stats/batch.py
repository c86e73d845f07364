"""Scores of many corpora at once, from a matrix of summed counts per metric.

A bootstrap resample or a randomization trial is a corpus whose counts are a weighted sum of
the documents' counts; thousands of them are the rows of one resamples × fields matrix per
metric. :func:`batch_scores` turns those matrices into recall, precision and F1 arrays with
each metric's own ``score`` (vectorized when the metric has a ``score_batch``, row by row
otherwise), and derived metrics (the CoNLL average) from their parts — exactly as
:func:`anascore.stats.sums.scores_from_counts` does for one corpus.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np

from anascore.compat import metric_in_conventions
from anascore.config.options import DERIVED_METRICS, Options
from anascore.metrics.scores import RecallPrecisionResult, ScoreArrays


def batch_scores(counts: Mapping[str, np.ndarray], names: Iterable[str],
                 options: Options | None = None) -> dict[str, ScoreArrays]:
    """Recall, precision and F1 arrays (one value per row) of each metric in ``names``.

    ``counts[metric]`` is a rows × fields matrix of summed counts for every counted metric
    that ``names`` needs (derived metrics need their parts). ``options`` configure the
    metrics whose fields depend on them, in the conventions of ``options.compat``
    (:func:`anascore.compat.metric_in_conventions`).
    """
    results: dict[str, ScoreArrays] = {}
    for name in names:
        if name in DERIVED_METRICS:
            parts = [results[part] if part in results
                     else _score_rows(part, counts[part], options)
                     for part in DERIVED_METRICS[name]]
            total = np.zeros(len(parts[0].f1))
            for part in parts:
                total = total + part.f1
            results[name] = ScoreArrays(None, None, total / len(parts))
        else:
            results[name] = _score_rows(name, counts[name], options)
    return results


def _score_rows(name: str, matrix: np.ndarray, options: Options | None) -> ScoreArrays:
    metric = metric_in_conventions(name, options)
    matrix = np.atleast_2d(np.asarray(matrix, dtype=np.float64))
    if metric.score_batch is not None:
        return metric.score_batch(matrix)
    results = [metric.score(row) for row in matrix]
    with_recall = [result for result in results if isinstance(result, RecallPrecisionResult)]
    has_recall = len(with_recall) == len(results)
    return ScoreArrays(
        np.array([result.recall for result in with_recall]) if has_recall else None,
        np.array([result.precision for result in with_recall]) if has_recall else None,
        np.array([result.f1 for result in results]),
    )
