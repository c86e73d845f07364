"""Bootstrap resampling of documents, from the per-document count matrices.

A bootstrap resample draws as many documents as the corpus has, with replacement (Efron &
Tibshirani 1993, ch. 6; over documents, not mentions, because the mentions of one document are
not independent). Because every count is additive, a resample needs no document: it is a
vector ``w`` of document multiplicities, and its corpus counts are ``w @ counts`` for each
metric's documents × fields matrix. Thousands of resamples are one matrix product (a
resamples × documents weight matrix), then each metric's own ``score``
(:func:`anascore.stats.batch.batch_scores`).

Confidence intervals are percentile intervals (Efron & Tibshirani 1993, §13.3): the
``(1 − level) / 2`` and ``(1 + level) / 2`` quantiles of the resampled scores, with numpy's
linear interpolation between order statistics. Every system of one run is resampled with the
same weights (the same seed gives the same resamples), so intervals do not depend on which
other systems were scored alongside.

Memory is bounded: resamples are drawn in chunks of about :data:`CHUNK_ELEMENTS` weights; only
the resampled scores (resamples × 3 values per metric and system) are kept.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from anascore.options import DEFAULT_SEED, DERIVED_METRICS, Options
from anascore.progress import Progress
from anascore.scores import ScoreArrays
from anascore.stats.batch import batch_scores

#: Weights drawn at once (resamples per chunk × documents); about 4 MB of float64.
CHUNK_ELEMENTS = 500_000


@dataclass(frozen=True)
class Interval:
    """The ``low`` and ``high`` ends of a confidence interval (fractions, like scores)."""

    low: float
    high: float

    def to_dict(self) -> dict[str, float]:
        return {"low": self.low, "high": self.high}


@dataclass(frozen=True)
class MetricInterval:
    """Confidence intervals of one metric's recall, precision and F1 (``None`` where the
    metric has no such value: the CoNLL average has only F1)."""

    recall: Interval | None
    precision: Interval | None
    f1: Interval
    level: float
    resamples: int

    def to_dict(self) -> dict[str, Any]:
        result: dict[str, Any] = {"level": self.level, "resamples": self.resamples}
        for name in ("recall", "precision", "f1"):
            interval = getattr(self, name)
            if interval is not None:
                result[name] = interval.to_dict()
        return result


def chunk_sizes(resamples: int, documents: int) -> Iterator[int]:
    """Resamples per chunk, so that a chunk holds about :data:`CHUNK_ELEMENTS` weights."""
    per_chunk = max(1, min(resamples, CHUNK_ELEMENTS // max(documents, 1)))
    left = resamples
    while left > 0:
        size = min(per_chunk, left)
        yield size
        left -= size


def resample_weights(documents: int, resamples: int, rng: np.random.Generator) -> np.ndarray:
    """A resamples × documents matrix of multiplicities: each row draws ``documents``
    documents with replacement, and counts how often each was drawn (each row sums to
    ``documents``)."""
    if documents == 0:
        return np.zeros((resamples, 0))
    drawn = rng.integers(0, documents, size=(resamples, documents))
    drawn += (np.arange(resamples) * documents)[:, None]
    counts = np.bincount(drawn.ravel(), minlength=resamples * documents)
    return counts.reshape(resamples, documents).astype(np.float64)


def counted_metrics(names: Sequence[str]) -> tuple[str, ...]:
    """The counted metrics the reported ``names`` need (derived metrics need their parts)."""
    needed: list[str] = []
    for name in names:
        for part in DERIVED_METRICS.get(name, (name,)):
            if part not in needed:
                needed.append(part)
    return tuple(needed)


def stack(count_sets: Sequence[Mapping[str, np.ndarray]],
          metrics: Sequence[str]) -> tuple[np.ndarray, list[dict[str, slice]]]:
    """Every system's document counts side by side, documents × (systems · fields), and where
    each system's metric lies in the columns, so that one product resamples them all."""
    blocks: list[np.ndarray] = []
    layout: list[dict[str, slice]] = []
    column = 0
    for counts in count_sets:
        places: dict[str, slice] = {}
        for metric in metrics:
            matrix = np.asarray(counts[metric], dtype=np.float64)
            blocks.append(matrix)
            places[metric] = slice(column, column + matrix.shape[1])
            column += matrix.shape[1]
        layout.append(places)
    documents = blocks[0].shape[0] if blocks else 0
    return (np.hstack(blocks) if blocks else np.zeros((documents, 0))), layout


def split_scores(totals: np.ndarray, layout: Sequence[Mapping[str, slice]],
                 names: Sequence[str], options: Options | None = None
                 ) -> list[dict[str, ScoreArrays]]:
    """Scores of each system from the stacked corpus counts of many resamples."""
    return [batch_scores({metric: totals[:, place] for metric, place in places.items()}, names,
                         options)
            for places in layout]


def bootstrap_scores(count_sets: Sequence[Mapping[str, np.ndarray]], names: Sequence[str], *,
                     resamples: int, seed: int = DEFAULT_SEED, progress: bool = False,
                     options: Options | None = None) -> list[dict[str, ScoreArrays]]:
    """The scores of ``resamples`` bootstrap resamples of the documents, for every system.

    ``count_sets[s][metric]`` is system ``s``'s documents × fields matrix (every system scored
    on the same documents, in the same order); all systems share each resample's weights.
    Returns, per system and reported metric, arrays of ``resamples`` values.
    """
    metrics = counted_metrics(names)
    matrix, layout = stack(count_sets, metrics)
    documents = matrix.shape[0]
    rng = np.random.default_rng(seed)
    parts: list[list[dict[str, ScoreArrays]]] = []
    with Progress("bootstrap", resamples, enabled=None if progress else False) as bar:
        for size in chunk_sizes(resamples, documents):
            weights = resample_weights(documents, size, rng)
            parts.append(split_scores(weights @ matrix, layout, names, options))
            bar.advance(size)
    return [{name: concatenate([chunk[system][name] for chunk in parts]) for name in names}
            for system in range(len(count_sets))]


def concatenate(chunks: Sequence[ScoreArrays]) -> ScoreArrays:
    """One :class:`ScoreArrays` from the arrays of consecutive chunks."""
    def join(name: str) -> np.ndarray | None:
        values = [getattr(chunk, name) for chunk in chunks]
        return None if values[0] is None else np.concatenate(values)

    f1 = join("f1")
    assert f1 is not None
    return ScoreArrays(join("recall"), join("precision"), f1)


def percentile_interval(values: np.ndarray, level: float) -> Interval:
    """The percentile interval of ``values`` at confidence ``level``."""
    low, high = np.percentile(values, [50 * (1 - level), 50 * (1 + level)])
    return Interval(float(low), float(high))


def intervals_from_scores(scores: Mapping[str, ScoreArrays], level: float,
                          resamples: int) -> dict[str, MetricInterval]:
    """Percentile intervals of every metric's recall, precision and F1."""
    result: dict[str, MetricInterval] = {}
    for name, arrays in scores.items():
        recall = None if arrays.recall is None else percentile_interval(arrays.recall, level)
        precision = (None if arrays.precision is None
                     else percentile_interval(arrays.precision, level))
        result[name] = MetricInterval(recall, precision, percentile_interval(arrays.f1, level),
                                      level, resamples)
    return result


def confidence_intervals(count_sets: Sequence[Mapping[str, np.ndarray]], names: Sequence[str],
                         *, resamples: int, level: float = 0.95, seed: int = DEFAULT_SEED,
                         progress: bool = False,
                         options: Options | None = None) -> list[dict[str, MetricInterval]]:
    """Percentile bootstrap intervals of every reported metric, for every system.

    >>> import numpy as np
    >>> counts = {"muc": np.array([[1.0, 2, 1, 1], [2, 2, 2, 2], [0, 2, 0, 1]])}
    >>> [interval] = confidence_intervals([counts], ["muc"], resamples=200, seed=1)
    >>> 0 <= interval["muc"].f1.low <= interval["muc"].f1.high <= 1
    True
    """
    scores = bootstrap_scores(count_sets, names, resamples=resamples, seed=seed,
                              progress=progress, options=options)
    return [intervals_from_scores(system, level, resamples) for system in scores]
