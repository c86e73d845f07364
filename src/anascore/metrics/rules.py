"""What the metrics ask of a run's conventions, and anascore's own answers.

Where another scorer counts or scores otherwise (``compat="ua"``: the UA scorer 2.0's BLANC,
its CEAF of split antecedents, its matching of non-referring markables and bridging…), a
metric calls a hook of :class:`MetricRules`. The metrics never look the conventions up: the
pipeline resolves them once (:func:`anascore.compat.conventions`) and hands them down, to
:func:`anascore.metrics.metric_for` and, through the document's
:class:`~anascore.comparison.contingency.Comparison` (``comparison.rules``), to every count
(:func:`metric_rules`). :class:`MetricDefaults` is anascore's own conventions: every hook
leaves the default path as it is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, cast

if TYPE_CHECKING:
    import numpy as np

    from anascore.comparison.contingency import Comparison
    from anascore.config.options import Options
    from anascore.core.model import BridgingLink
    from anascore.metrics.base import Metric
    from anascore.metrics.set_comparison import ElementTables, SetMetric


class MetricRules(Protocol):
    """The metrics' hooks (the module docstring). :class:`anascore.compat.Conventions`
    answers them; :class:`MetricDefaults` is anascore's own answer."""

    def metric(self, name: str, metric: Metric, options: Options) -> Metric:
        """The metric ``name`` as a run with ``options`` counts and scores it
        (:func:`anascore.metrics.metric_for`)."""
        ...

    def non_referring_match(self, options: Options) -> str:
        """The matching method for non-referring markables."""
        ...

    def bridging_match(self, options: Options) -> str:
        """The matching method for bridging anaphors and anchors."""
        ...

    def bridging_entity_test(self, comparison: Comparison) -> Callable[
            [BridgingLink, BridgingLink], bool | None] | None:
        """A test of whether a response link finds the key link's anchor entity, or
        ``None`` (anascore's); the test may answer ``None`` for a pair it leaves to
        anascore's."""
        ...

    def zero_counterparts(self, comparison: Comparison,
                          counterpart: dict[int, int]) -> dict[int, int]:
        """Key mention → its response counterpart, for the zero score."""
        ...

    def set_metrics(self, name: str, metrics: tuple[SetMetric, ...]) -> tuple[SetMetric, ...]:
        """How metric ``name`` compares accommodated sets."""
        ...

    def set_pairs(self, comparison: Comparison, tables: ElementTables,
                  weights: np.ndarray) -> list[tuple[int, int]] | None:
        """The pairing of the accommodated sets (``None``: anascore's)."""
        ...


class MetricDefaults:
    """anascore's own metrics: the papers' (and the reference scorer v8.01's) conventions."""

    def metric(self, name: str, metric: Metric, options: Options) -> Metric:
        return metric

    def non_referring_match(self, options: Options) -> str:
        return options.match

    def bridging_match(self, options: Options) -> str:
        return options.match

    def bridging_entity_test(self, comparison: Comparison) -> Callable[
            [BridgingLink, BridgingLink], bool | None] | None:
        return None

    def zero_counterparts(self, comparison: Comparison,
                          counterpart: dict[int, int]) -> dict[int, int]:
        return counterpart

    def set_metrics(self, name: str, metrics: tuple[SetMetric, ...]) -> tuple[SetMetric, ...]:
        return metrics

    def set_pairs(self, comparison: Comparison, tables: ElementTables,
                  weights: np.ndarray) -> list[tuple[int, int]] | None:
        return None


#: anascore's own metrics, for a comparison or a caller without the run's conventions.
METRIC_DEFAULTS: MetricRules = MetricDefaults()


def metric_rules(comparison: Comparison) -> MetricRules:
    """The metrics' hooks of the conventions ``comparison`` was made in (anascore's own when
    it was made without them: a table given by hand, a caller that passes none).

    The comparison stage, below the metrics, types its ``rules`` by its own protocol; the
    conventions the pipeline hands down answer every stage's hooks
    (:class:`anascore.compat.Conventions`), the metrics' among them.
    """
    rules = comparison.rules
    return METRIC_DEFAULTS if rules is None else cast("MetricRules", rules)
