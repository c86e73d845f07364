"""The metric registry: names to :class:`~anascore.metrics.base.Metric` values.

Every identity metric counts from the per-document contingency table; the CoNLL score is
derived from three of them (:data:`anascore.config.options.DERIVED_METRICS`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from importlib import import_module

import numpy as np

from anascore.config.metric_names import (  # where each metric is defined: the catalogue's
    DERIVED_METRICS,
    ENTITY_LAYERS,
    IDENTITY_METRICS,
    METRIC_LOCATIONS,
)
from anascore.config.options import Options
from anascore.metrics.base import PRF_FIELDS, Metric
from anascore.metrics.rules import METRIC_DEFAULTS, MetricRules
from anascore.metrics.scores import MetricResult

#: The identity metrics counted again on every other layer of entities, as ``LAYER.METRIC``
#: (``conll`` is derived from three of them).
LAYER_METRICS: tuple[str, ...] = tuple(name for name in IDENTITY_METRICS
                                       if name not in DERIVED_METRICS)


class MetricRegistry(Mapping[str, Metric]):
    """Metric names to :class:`Metric` values, each module imported the first time one of its
    metrics is looked up: a run of the identity metrics never loads the linguistically aware
    or the layer metrics (their imports cost as much as scoring dozens of documents)."""

    def __init__(self) -> None:
        self._names = (*METRIC_LOCATIONS, *(f"{layer}.{name}" for layer in ENTITY_LAYERS
                                             for name in LAYER_METRICS))
        self._loaded: dict[str, Metric] = {}

    def __getitem__(self, name: str) -> Metric:
        metric = self._loaded.get(name)
        if metric is None:
            if name not in self._names:
                raise KeyError(name)
            layer, _, base = name.rpartition(".")
            if layer:
                from anascore.metrics.layers import on_layer

                metric = on_layer(self[base], layer)
            else:
                module, attribute = METRIC_LOCATIONS[name]
                metric = getattr(import_module(module), attribute)
            self._loaded[name] = metric
        return metric

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)


REGISTRY = MetricRegistry()

def metric_for(name: str, options: Options | None,
               rules: MetricRules = METRIC_DEFAULTS) -> Metric:
    """The registered metric ``name``, configured by ``options`` when its count fields depend
    on them (``Metric.configure``), and counted and scored in the conventions ``rules`` (the
    run's, which the pipeline resolves from ``options.compat``:
    :func:`anascore.compat.metric_for`; by default anascore's own).
    :meth:`MetricRules.metric` may replace ``score``: a replacement comes with its
    ``score_batch`` for resampling, or none, and resampling then scores each row with the
    replacement."""
    metric = REGISTRY[name]
    if options is None:
        return metric
    if metric.configure is not None:
        metric = metric.configure(options)
    return rules.metric(name, metric, options)


def score_function(name: str, options: Options | None,
                   rules: MetricRules = METRIC_DEFAULTS) -> Callable[[np.ndarray], MetricResult]:
    """How the summed counts of metric ``name`` become a score under ``options``, in the
    conventions ``rules``."""
    return metric_for(name, options, rules).score


__all__ = ["PRF_FIELDS", "REGISTRY", "Metric",
           "metric_for", "score_function"]
