"""The identity metrics on another layer of entities.

Discourse deixis is annotated like identity coreference — markables in chains, in their own
column with their own entities (Yu et al. 2022 §4.4) — and the UA scorer scores it with the
same metrics. The selection step builds that layer's comparison from the layer's entities
(:func:`anascore.selection.sides.layer_document`); these metrics count it with the identity metrics,
under the names ``LAYER.METRIC`` (``discourse_deixis.muc``), so that one run reports both
layers side by side.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from anascore.comparison.contingency import Comparison
from anascore.config.metric_names import metric_title
from anascore.metrics.base import Metric


def on_layer(metric: Metric, layer: str) -> Metric:
    """``metric`` counted on ``layer``'s comparison (scored, one corpus or many, as
    ``metric`` is)."""

    def count(comparison: Comparison) -> np.ndarray:
        return metric.count(comparison.layers[layer])

    return replace(metric, name=f"{layer}.{metric.name}",
                   title=metric_title(f"{layer}.{metric.name}"), count=count)
