"""The metric registry: names to :class:`~anascore.metrics.base.Metric` values.

Every identity metric counts from the per-document contingency table; the CoNLL score is
derived from three of them (:data:`anascore.options.DERIVED_METRICS`).
"""

from __future__ import annotations

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

REGISTRY: dict[str, Metric] = {
    metric.name: metric for metric in (MENTIONS, MUC, BCUBED, CEAFM, CEAFE, BLANC, LEA,
                                       LMUC, LBCUBED, LCEAFM, LCEAFE, DOMINANT, MOR, ZERO)
}


def metric_for(name: str, options: Options | None) -> Metric:
    """The registered metric ``name``, configured by ``options`` when its count fields depend
    on them (``Metric.configure``)."""
    metric = REGISTRY[name]
    if metric.configure is None or options is None:
        return metric
    return metric.configure(options)


__all__ = ["PRF_FIELDS", "REGISTRY", "Metric", "metric_for"]
