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

from anascore.metrics.scores import ScoreArrays
from anascore.stats.metric_suite import MetricSuite


def batch_scores(counts: Mapping[str, np.ndarray], names: Iterable[str],
                 suite: MetricSuite | None = None) -> dict[str, ScoreArrays]:
    """Recall, precision and F1 arrays (one value per row) of each metric in ``names``.

    ``counts[metric]`` is a rows × fields matrix of summed counts for every counted metric
    that ``names`` needs (derived metrics need their parts), scored as the run's ``suite``
    scores them (:meth:`MetricSuite.batch_scores`); ``None``: the registry's metrics as
    they are.
    """
    return (suite or MetricSuite.of(None)).batch_scores(counts, names)
