"""The metric registry: names to :class:`~anascore.metrics.base.Metric` values.

Every identity metric counts from the per-document contingency table; the CoNLL score is
derived from three of them (:data:`anascore.options.DERIVED_METRICS`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np

from anascore.metrics.base import PRF_FIELDS, Metric
from anascore.metrics.bcubed import BCUBED
from anascore.metrics.blanc import BLANC
from anascore.metrics.ceaf import CEAFE, CEAFM
from anascore.metrics.dominant import DOMINANT
from anascore.metrics.lea import LEA
from anascore.metrics.linguistic import LBCUBED, LCEAFE, LCEAFM, LMUC
from anascore.metrics.mentions import MENTIONS
from anascore.metrics.mor import MOR
from anascore.metrics.muc import MUC
from anascore.metrics.zeros import ZERO
from anascore.options import Options
from anascore.scores import MetricResult, ScoreArrays

REGISTRY: dict[str, Metric] = {
    metric.name: metric for metric in (MENTIONS, MUC, BCUBED, CEAFM, CEAFE, BLANC, LEA,
                                       LMUC, LBCUBED, LCEAFM, LCEAFE, DOMINANT, MOR, ZERO)
}


def _register_layers() -> None:
    """Non-referring and bridging; the identity metrics on the discourse-deixis layer."""
    from anascore.metrics.bridging import BRIDGING
    from anascore.metrics.compat_ua import score_blanc_ua, score_blanc_ua_batch
    from anascore.metrics.layers import on_layer
    from anascore.metrics.non_referring import NON_REFERRING
    from anascore.options import ENTITY_LAYERS

    REGISTRY[NON_REFERRING.name] = NON_REFERRING
    REGISTRY[BRIDGING.name] = BRIDGING
    COMPAT_SCORES["ua", "blanc"] = score_blanc_ua
    COMPAT_SCORE_BATCHES["ua", "blanc"] = score_blanc_ua_batch
    for layer in ENTITY_LAYERS:
        for metric in (MENTIONS, MUC, BCUBED, CEAFM, CEAFE, BLANC, LEA):
            REGISTRY[f"{layer}.{metric.name}"] = on_layer(metric, layer)
        COMPAT_SCORES["ua", f"{layer}.blanc"] = score_blanc_ua
        COMPAT_SCORE_BATCHES["ua", f"{layer}.blanc"] = score_blanc_ua_batch


#: Score functions that replace a metric's ``score`` under ``compat`` (``(compat, name)``).
COMPAT_SCORES: dict[tuple[str, str], Callable[[np.ndarray], MetricResult]] = {}
#: Their ``score_batch`` (many corpora at once, the same digits), where there is one.
COMPAT_SCORE_BATCHES: dict[tuple[str, str], Callable[[np.ndarray], ScoreArrays]] = {}
_register_layers()


def metric_for(name: str, options: Options | None) -> Metric:
    """The registered metric ``name``, configured by ``options`` when its count fields depend
    on them (``Metric.configure``), and scored in the conventions of ``options.compat``
    (:data:`COMPAT_SCORES`, with :data:`COMPAT_SCORE_BATCHES` for resampling; without one,
    resampling scores each row with the replacement)."""
    metric = REGISTRY[name]
    if options is None:
        return metric
    if metric.configure is not None:
        metric = metric.configure(options)
    replacement = COMPAT_SCORES.get((options.compat, name))
    if replacement is not None:
        metric = replace(metric, score=replacement,
                         score_batch=COMPAT_SCORE_BATCHES.get((options.compat, name)))
    return metric


def score_function(name: str, options: Options | None) -> Callable[[np.ndarray], MetricResult]:
    """How the summed counts of metric ``name`` become a score under ``options``."""
    return metric_for(name, options).score


__all__ = ["COMPAT_SCORES", "COMPAT_SCORE_BATCHES", "PRF_FIELDS", "REGISTRY", "Metric",
           "metric_for", "score_function"]
