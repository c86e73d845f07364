"""The metrics of a run, as the statistics need them: names, order, and how each one scores.

A :class:`MetricSuite` is made once from the settings (:meth:`MetricSuite.of`) and handed to
the statistics (:mod:`anascore.stats.sums`, :mod:`anascore.stats.batch`,
:mod:`anascore.stats.bootstrap`, :mod:`anascore.stats.significance`), which thus never read
the settings themselves. It holds

- the **counted** metrics, in the order of their count vectors (a document's row of the
  count table, :mod:`anascore.stats.count_table`), each configured as the run counts and
  scores it (:func:`anascore.compat.metric_in_conventions`: count fields that depend on the
  settings, the reference scorer's conventions of ``compat``);
- the **reported** metrics, in report order, **derived** metrics among them: a derived
  metric (the CoNLL average of MUC, B³ and CEAFe) is a member like any other, scored from
  its parts' scores, with no counts of its own.

Corpus scores are functions of summed counts alone (micro-averaging, as the reference scorer
does), so :meth:`MetricSuite.scores` and :meth:`MetricSuite.batch_scores` are all it takes
to score a corpus, a document, or thousands of resamples.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache

import numpy as np

from anascore.compat import metric_in_conventions
from anascore.config.options import DERIVED_METRICS, Options
from anascore.core.float_sums import sum_in_order
from anascore.metrics import Metric
from anascore.metrics.scores import AverageScore, MetricResult, RecallPrecisionResult, ScoreArrays


@dataclass(frozen=True, eq=False)
class MetricSuite:
    """The counted and reported metrics of a run (see the module docstring).

    ``options`` is ``None`` for the registry's metrics as they are (unconfigured, anascore's
    own conventions), which scores any metric by name."""

    options: Options | None
    counted: tuple[str, ...]
    reported: tuple[str, ...]
    derived: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: DERIVED_METRICS)
    _configured: dict[str, Metric] = field(default_factory=dict, repr=False)

    @staticmethod
    def of(options: Options | None) -> MetricSuite:
        """The suite of a run with ``options`` (made once per settings); ``None``: the
        registry's metrics, unconfigured."""
        return _suite(options)

    def metric(self, name: str) -> Metric:
        """Counted metric ``name`` as this run counts and scores it."""
        found = self._configured.get(name)
        if found is None:
            found = self._configured[name] = metric_in_conventions(name, self.options)
        return found

    def fields(self, name: str) -> tuple[str, ...]:
        """The fields of counted metric ``name``'s count vector."""
        return self.metric(name).fields

    @property
    def widths(self) -> tuple[tuple[str, int], ...]:
        """Each counted metric with the length of its count vector, in count order."""
        return tuple((name, len(self.fields(name))) for name in self.counted)

    def is_derived(self, name: str) -> bool:
        return name in self.derived

    def counted_for(self, names: Iterable[str]) -> list[str]:
        """The counted metrics that scoring ``names`` needs (a derived metric needs its
        parts), each once, in order."""
        needed: dict[str, None] = {}
        for name in names:
            for part in self.derived.get(name, (name,)):
                needed[part] = None
        return list(needed)

    def scores(self, counts: Mapping[str, np.ndarray], names: Iterable[str] | None = None,
               ) -> dict[str, MetricResult]:
        """The score of each metric in ``names`` (default: the reported ones) from summed
        counts (one vector per counted metric); a derived metric is the mean of its parts'
        F1."""
        results: dict[str, MetricResult] = {}
        for name in self.reported if names is None else names:
            if name in self.derived:
                parts = self.derived[name]
                f1_values = [self.metric(part).score(counts[part]).f1 for part in parts]
                results[name] = AverageScore(sum_in_order(f1_values) / len(f1_values), parts)
            else:
                results[name] = self.metric(name).score(counts[name])
        return results

    def batch_scores(self, counts: Mapping[str, np.ndarray], names: Iterable[str] | None = None,
                     ) -> dict[str, ScoreArrays]:
        """Recall, precision and F1 arrays (one value per row) of each metric in ``names``
        (default: the reported ones): ``counts[metric]`` is a rows × fields matrix of summed
        counts, each row a corpus (a resample), scored as :meth:`scores` scores one."""
        results: dict[str, ScoreArrays] = {}
        for name in self.reported if names is None else names:
            if name in self.derived:
                parts = [results[part] if part in results
                         else self._score_rows(part, counts[part])
                         for part in self.derived[name]]
                total = np.zeros(len(parts[0].f1))
                for part in parts:
                    total = total + part.f1
                results[name] = ScoreArrays(None, None, total / len(parts))
            else:
                results[name] = self._score_rows(name, counts[name])
        return results

    def _score_rows(self, name: str, matrix: np.ndarray) -> ScoreArrays:
        metric = self.metric(name)
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


@cache
def _suite(options: Options | None) -> MetricSuite:
    if options is None:
        return MetricSuite(None, (), ())
    return MetricSuite(options, tuple(options.computed_metrics),
                       tuple(options.reported_metrics))
