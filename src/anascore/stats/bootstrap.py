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

Memory is bounded: resamples are drawn in chunks of about :data:`CHUNK_ELEMENTS` values (the
weights, and the resampled counts); only the resampled scores (resamples × 3 values per metric
and system) are kept, in arrays allocated once, and a count of resamples whose scores would
not fit in :data:`anascore.stats.adequacy.KEPT_BYTES` is refused before anything is drawn.

Not applicable. A resample whose counts are 0/0 for a metric that reports 0/0 as not
applicable (zeros, bridging: :mod:`anascore.metrics.scores`) has a ``NaN`` score; intervals are
taken
over the resamples where the score is defined, and :attr:`MetricInterval.applicable_resamples`
says how many that was. An interval that cannot mean anything — one document, too few
resamples, a metric that only one document has anything for — is not applicable: ``NaN``
ends and a ``reason`` (:mod:`anascore.stats.adequacy`).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from anascore.config.options import DEFAULT_SEED, DERIVED_METRICS
from anascore.core.progress import Progress
from anascore.metrics.scores import ScoreArrays, json_number
from anascore.stats.adequacy import check_resamples, interval_not_applicable
from anascore.stats.batch import batch_scores
from anascore.stats.metric_suite import MetricSuite

#: Values drawn or summed at once (resamples per chunk × the wider of documents and count
#: columns); about 4 MB of float64 per matrix.
CHUNK_ELEMENTS = 500_000
#: An interval whose ends are not numbers (not applicable).
NOT_APPLICABLE = float("nan")


@dataclass(frozen=True)
class Interval:
    """The ``low`` and ``high`` ends of a confidence interval (fractions, like scores)."""

    low: float
    high: float

    def to_dict(self) -> dict[str, float | None]:
        return {"low": json_number(self.low), "high": json_number(self.high)}


@dataclass(frozen=True)
class MetricInterval:
    """Confidence intervals of one metric's recall, precision and F1 (``None`` where the
    metric has no such value: the CoNLL average has only F1)."""

    recall: Interval | None
    precision: Interval | None
    f1: Interval
    level: float
    resamples: int
    applicable_resamples: int | None = None
    reason: str | None = None

    @property
    def applicable(self) -> bool:
        """Whether the F1 interval has ends (false: see ``reason``)."""
        return not math.isnan(self.f1.low)

    def to_dict(self) -> dict[str, Any]:
        result: dict[str, Any] = {"level": self.level, "resamples": self.resamples}
        if self.applicable_resamples is not None and self.applicable_resamples != self.resamples:
            result["applicable_resamples"] = self.applicable_resamples
        for name in ("recall", "precision", "f1"):
            interval = getattr(self, name)
            if interval is not None:
                result[name] = interval.to_dict()
        if self.reason is not None:
            result["not_applicable"] = self.reason
        return result


def chunk_sizes(resamples: int, width: int) -> Iterator[int]:
    """Resamples per chunk, so that a chunk's matrices (resamples × ``width``: documents, or
    count columns) hold about :data:`CHUNK_ELEMENTS` values each."""
    per_chunk = max(1, min(resamples, CHUNK_ELEMENTS // max(width, 1)))
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
                 names: Sequence[str], suite: MetricSuite | None = None
                 ) -> list[dict[str, ScoreArrays]]:
    """Scores of each system from the stacked corpus counts of many resamples."""
    return [batch_scores({metric: totals[:, place] for metric, place in places.items()}, names,
                         suite)
            for places in layout]


def bootstrap_scores(count_sets: Sequence[Mapping[str, np.ndarray]], names: Sequence[str], *,
                     resamples: int, seed: int = DEFAULT_SEED, progress: bool = False,
                     suite: MetricSuite | None = None,
                     what: str = "--confidence (confidence=)") -> list[dict[str, ScoreArrays]]:
    """The scores of ``resamples`` bootstrap resamples of the documents, for every system.

    ``count_sets[s][metric]`` is system ``s``'s documents × fields matrix (every system scored
    on the same documents, in the same order); all systems share each resample's weights.
    Returns, per system and reported metric, arrays of ``resamples`` values.
    """
    check_resamples(resamples, what, 3 * len(names) * len(count_sets))
    metrics = counted_metrics(names)
    matrix, layout = stack(count_sets, metrics)
    documents = matrix.shape[0]
    rng = np.random.default_rng(seed)
    kept: list[dict[str, ScoreArrays]] = []
    done = 0
    with Progress("bootstrap", resamples, enabled=None if progress else False) as bar:
        for size in chunk_sizes(resamples, max(documents, matrix.shape[1])):
            weights = resample_weights(documents, size, rng)
            chunk = split_scores(weights @ matrix, layout, names, suite)
            if not kept:
                kept = [{name: _allocate(scores[name], resamples) for name in names}
                        for scores in chunk]
            for system, scores in enumerate(chunk):
                for name in names:
                    _fill(kept[system][name], scores[name], done)
            done += size
            bar.advance(size)
    return kept


def _allocate(like: ScoreArrays, resamples: int) -> ScoreArrays:
    """Arrays for ``resamples`` values of the kinds ``like`` has."""
    def empty(values: np.ndarray | None) -> np.ndarray | None:
        return None if values is None else np.empty(resamples)

    f1 = empty(like.f1)
    assert f1 is not None
    return ScoreArrays(empty(like.recall), empty(like.precision), f1)


def _fill(target: ScoreArrays, chunk: ScoreArrays, start: int) -> None:
    for name in ("recall", "precision", "f1"):
        into, values = getattr(target, name), getattr(chunk, name)
        if into is not None:
            into[start:start + len(values)] = values


def percentile_interval(values: np.ndarray, level: float) -> Interval:
    """The percentile interval of ``values`` at confidence ``level``, over the values that
    are applicable (not ``NaN``); not applicable when none is."""
    values = values[~np.isnan(values)]
    if not len(values):
        return Interval(NOT_APPLICABLE, NOT_APPLICABLE)
    low, high = np.percentile(values, [50 * (1 - level), 50 * (1 + level)])
    return Interval(float(low), float(high))


def contributing_documents(matrix: np.ndarray) -> int:
    """The documents with any count of a metric (the others add nothing to its sums)."""
    matrix = np.atleast_2d(np.asarray(matrix, dtype=np.float64))
    return int(np.count_nonzero(np.any(matrix != 0, axis=1))) if matrix.size else 0


def metric_documents(counts: Mapping[str, np.ndarray], name: str) -> int:
    """The documents with any count of ``name`` (a derived metric: of any of its parts)."""
    parts = DERIVED_METRICS.get(name, (name,))
    matrix = np.hstack([np.atleast_2d(np.asarray(counts[part], dtype=np.float64))
                        for part in parts])
    return contributing_documents(matrix)


def interval_reason(documents: int, contributing: int, resamples: int,
                    level: float) -> str | None:
    """Why a metric's interval is not applicable: too few documents or resamples for any
    interval, or only one document with anything for this metric."""
    reason = interval_not_applicable(documents, resamples, level)
    if reason is None and contributing < 2:
        reason = ("no document has anything for this metric" if contributing == 0 else
                  "only one document has anything for this metric: every resample scores as "
                  "that document does")
    return reason


def intervals_from_scores(scores: Mapping[str, ScoreArrays], level: float,
                          resamples: int, reasons: Mapping[str, str | None] | None = None
                          ) -> dict[str, MetricInterval]:
    """Percentile intervals of every metric's recall, precision and F1 (not applicable for
    the metrics ``reasons`` gives a reason for)."""
    result: dict[str, MetricInterval] = {}
    missing = Interval(NOT_APPLICABLE, NOT_APPLICABLE)
    for name, arrays in scores.items():
        reason = (reasons or {}).get(name)
        if reason is not None:
            result[name] = MetricInterval(
                None if arrays.recall is None else missing,
                None if arrays.precision is None else missing, missing, level, resamples,
                reason=reason)
            continue
        recall = None if arrays.recall is None else percentile_interval(arrays.recall, level)
        precision = (None if arrays.precision is None
                     else percentile_interval(arrays.precision, level))
        applicable = int(np.count_nonzero(~np.isnan(arrays.f1)))
        result[name] = MetricInterval(
            recall, precision, percentile_interval(arrays.f1, level), level, resamples,
            applicable_resamples=applicable,
            reason=None if applicable else "the score is not applicable in any resample")
    return result


def confidence_intervals(count_sets: Sequence[Mapping[str, np.ndarray]], names: Sequence[str],
                         *, resamples: int, level: float = 0.95, seed: int = DEFAULT_SEED,
                         progress: bool = False,
                         suite: MetricSuite | None = None) -> list[dict[str, MetricInterval]]:
    """Percentile bootstrap intervals of every reported metric, for every system.

    >>> import numpy as np
    >>> counts = {"muc": np.array([[1.0, 2, 1, 1], [2, 2, 2, 2], [0, 2, 0, 1]])}
    >>> [interval] = confidence_intervals([counts], ["muc"], resamples=200, seed=1)
    >>> 0 <= interval["muc"].f1.low <= interval["muc"].f1.high <= 1
    True
    """
    documents = len(next(iter(count_sets[0].values()))) if count_sets and count_sets[0] else 0
    reasons = [{name: interval_reason(documents, metric_documents(counts, name), resamples,
                                      level) for name in names} for counts in count_sets]
    if all(reason is not None for system in reasons for reason in system.values()):
        return [_all_not_applicable(names, system, level, resamples, count_sets[0], suite)
                for system in reasons]
    scores = bootstrap_scores(count_sets, names, resamples=resamples, seed=seed,
                              progress=progress, suite=suite)
    return [intervals_from_scores(system, level, resamples, system_reasons)
            for system, system_reasons in zip(scores, reasons, strict=True)]


def _all_not_applicable(names: Sequence[str], reasons: Mapping[str, str | None], level: float,
                        resamples: int, counts: Mapping[str, np.ndarray],
                        suite: MetricSuite | None) -> dict[str, MetricInterval]:
    """Not-applicable intervals of every metric, without resampling (one document, too few
    resamples): each metric's recall and precision intervals exist where its scores do."""
    totals = {metric: np.atleast_2d(np.asarray(counts[metric], dtype=np.float64)).sum(axis=0)
              for metric in counted_metrics(names)}
    shapes = batch_scores({metric: totals[metric][None, :] for metric in totals}, names,
                          suite)
    return intervals_from_scores(shapes, level, resamples, reasons)
