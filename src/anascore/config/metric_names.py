"""The metric catalogue: every metric's name, title, description and place in a report, once.

Each output reads its metric names and titles from here — the option parser (which names a
run may ask for), the metric registry (where each metric is defined, imported when first
used: :mod:`anascore.metrics`), the tables (text, Markdown, LaTeX, CSV), the HTML page and
its charts, the plots and the lab — so that a metric is called the same everywhere, and a
new metric is one line here plus its module.

The order of :data:`CATALOGUE` is the order reports list the metrics in. A metric derived
from others (the CoNLL score: the mean F1 of MUC, B³ and CEAFe, Pradhan et al. 2014) names
them in ``derived_from`` and has no module. The identity metrics are counted again on each
other layer of entities (:data:`ENTITY_LAYERS`) under ``LAYER.METRIC`` names
(``discourse_deixis.muc``), titled with the layer's short title (``DD MUC``).
"""

from __future__ import annotations

from typing import NamedTuple


class MetricName(NamedTuple):
    """One metric of the catalogue.

    ``group``: ``identity`` (the default selection, counted on every layer of entities),
    ``corefud`` (the CorefUD supplements, in ``all``), ``link_weighted`` and ``dominant``
    (the linguistically aware metrics, computed only when named), ``layer`` (scores of an
    annotation layer switched on by its setting). ``defined_in``: the module and the name of
    the metric's :class:`~anascore.metrics.base.Metric` value (``None`` for a derived
    metric); ``derived_from``: the metrics a derived one is computed from; ``latex``: the
    title as papers typeset it, where LaTeX output sets it otherwise (``B$^3$``).

    A row of a constant table, so a named tuple: every command imports the catalogue, and a
    frozen dataclass's generated methods are compiled at import."""

    name: str
    title: str
    description: str
    group: str
    defined_in: str | None = None
    derived_from: tuple[str, ...] = ()
    latex: str | None = None

    @property
    def derived(self) -> bool:
        """Whether the metric is computed from other metrics' scores, not counted."""
        return bool(self.derived_from)


_METRICS = "anascore.metrics."

#: Every metric counted from a document or derived from others, in report order.
CATALOGUE: tuple[MetricName, ...] = (
    MetricName("mentions", "Mentions", "mention identification", "identity",
               _METRICS + "mentions:MENTIONS"),
    MetricName("muc", "MUC", "links (Vilain et al. 1995)", "identity",
               _METRICS + "muc:MUC"),
    MetricName("bcub", "B3", "mentions (Bagga & Baldwin 1998)", "identity",
               _METRICS + "bcubed:BCUBED", latex=r"B$^3$"),
    MetricName("ceafm", "CEAFm", "mention-based entity alignment (Luo 2005)", "identity",
               _METRICS + "ceaf:CEAFM", latex=r"CEAF$_m$"),
    MetricName("ceafe", "CEAFe", "entity-based entity alignment (Luo 2005)", "identity",
               _METRICS + "ceaf:CEAFE", latex=r"CEAF$_e$"),
    MetricName("blanc", "BLANC", "coreference and non-coreference links (Recasens & Hovy "
               "2011)", "identity", _METRICS + "blanc:BLANC"),
    MetricName("lea", "LEA", "link-based entity aware (Moosavi & Strube 2016)", "identity",
               _METRICS + "lea:LEA"),
    MetricName("conll", "CoNLL", "the mean F1 of MUC, B3 and CEAFe (Pradhan et al. 2014)",
               "identity", derived_from=("muc", "bcub", "ceafe")),
    MetricName("mor", "MOR", "mention overlap ratio (Žabokrtský et al. 2022)", "corefud",
               _METRICS + "mor:MOR"),
    MetricName("zero", "Zeros", "zero anaphora (Žabokrtský et al. 2022)", "corefud",
               _METRICS + "zeros:ZERO"),
    MetricName("lmuc", "LMUC", "MUC weighted by mention types (Chen & Ng 2013)",
               "link_weighted", _METRICS + "linguistic:LMUC"),
    MetricName("lbcub", "LB3", "B3 weighted by mention types (Chen & Ng 2013)",
               "link_weighted", _METRICS + "linguistic:LBCUBED"),
    MetricName("lceafm", "LCEAFm", "CEAFm weighted by mention types (Chen & Ng 2013)",
               "link_weighted", _METRICS + "linguistic:LCEAFM"),
    MetricName("lceafe", "LCEAFe", "CEAFe weighted by mention types (Chen & Ng 2013)",
               "link_weighted", _METRICS + "linguistic:LCEAFE"),
    MetricName("dominant", "Dominant", "dominant mentions (Žitkus et al. 2023)", "dominant",
               _METRICS + "dominant:DOMINANT"),
    MetricName("non_referring", "Non-referring", "non-referring markables identified "
               "(Yu et al. 2022)", "layer", _METRICS + "non_referring:NON_REFERRING"),
    MetricName("bridging", "Bridging", "bridging links (Yu et al. 2022)", "layer",
               _METRICS + "bridging:BRIDGING"),
)

#: Layers of entities scored with the identity metrics besides the identity layer; a layer's
#: metrics are named ``LAYER.METRIC`` (``discourse_deixis.muc``).
ENTITY_LAYERS: tuple[str, ...] = ("discourse_deixis",)
#: The short title a layer's metrics are titled with (``DD MUC``).
LAYER_TITLES: dict[str, str] = {"discourse_deixis": "DD"}

_BY_NAME: dict[str, MetricName] = {metric.name: metric for metric in CATALOGUE}


def metrics_in(group: str) -> tuple[str, ...]:
    """The names of the metrics of ``group`` (see :class:`MetricName`), in report order."""
    return tuple(metric.name for metric in CATALOGUE if metric.group == group)


#: The identity metrics: what the default selects, and what every layer of entities
#: (identity, discourse deixis) is scored with.
IDENTITY_METRICS: tuple[str, ...] = metrics_in("identity")
#: The CorefUD supplements (Žabokrtský et al. 2022): mention overlap (MOR) and zero anaphora.
#: Reported when asked for (by name, ``all`` or a CRAC preset), not by default.
COREFUD_METRICS: tuple[str, ...] = metrics_in("corefud")
#: Every metric, in the order reports list them (the layers' metrics last).
METRIC_NAMES: tuple[str, ...] = (
    *(metric.name for metric in CATALOGUE),
    *(f"{layer}.{name}" for layer in ENTITY_LAYERS for name in IDENTITY_METRICS),
)
#: Metrics computed from others rather than from the contingency table.
DERIVED_METRICS: dict[str, tuple[str, ...]] = {
    **{metric.name: metric.derived_from for metric in CATALOGUE if metric.derived},
    **{f"{layer}.{metric.name}": tuple(f"{layer}.{name}" for name in metric.derived_from)
       for layer in ENTITY_LAYERS for metric in CATALOGUE
       if metric.derived and metric.group == "identity"},
}
#: Where each counted metric is defined: its module and the name of its ``Metric`` value.
METRIC_LOCATIONS: dict[str, tuple[str, str]] = {
    metric.name: (metric.defined_in.partition(":")[0], metric.defined_in.partition(":")[2])
    for metric in CATALOGUE if metric.defined_in is not None}


def metric_title(name: str) -> str:
    """How tables, pages and plots title metric ``name`` (``B3``, ``CoNLL``, ``DD MUC``); a
    name the catalogue lacks is its own title."""
    layer, dot, base = name.rpartition(".")
    if dot and layer in ENTITY_LAYERS:
        return f"{LAYER_TITLES.get(layer, layer)} {metric_title(base)}"
    found = _BY_NAME.get(name)
    return found.title if found is not None else name


def metric_description(name: str) -> str:
    """What metric ``name`` scores, in a few words (a layer's metric: on that layer)."""
    layer, dot, base = name.rpartition(".")
    if dot and layer in ENTITY_LAYERS:
        return f"{metric_description(base)}, on the {layer.replace('_', ' ')} layer"
    return _BY_NAME[name].description


#: Spellings of a metric besides its name and its title (in any case).
_ALIASES: dict[str, str] = {"b³": "bcub", "bcubed": "bcub", "lb³": "lbcub"}
#: Each lower-case title or alias that is not the metric's name (``b3`` for ``bcub``).
_TITLE_ALIASES: dict[str, str] = {
    **{metric.title.lower(): metric.name for metric in CATALOGUE
       if metric.title.lower() != metric.name}, **_ALIASES}
_LAYER_ALIASES: dict[str, str] = {title.lower(): layer for layer, title in LAYER_TITLES.items()}


def canonical_metric(name: str) -> str:
    """A metric's name from any spelling a user may take from a table: case does not matter,
    and the printed titles are names too (``B3``, ``CoNLL``, ``DD MUC``, ``Zeros``).

    >>> canonical_metric("B3"), canonical_metric("CoNLL"), canonical_metric("DD CEAFe")
    ('bcub', 'conll', 'discourse_deixis.ceafe')
    """
    text = " ".join(name.strip().lower().split())
    layer, separator, metric = text.rpartition("." if "." in text else " ")
    if separator and (layer in ENTITY_LAYERS or layer in _LAYER_ALIASES):
        layer = _LAYER_ALIASES.get(layer, layer)
        return f"{layer}.{_TITLE_ALIASES.get(metric, metric)}"
    return _TITLE_ALIASES.get(text, text)
