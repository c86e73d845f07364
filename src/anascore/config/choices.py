"""The values each setting may take: the metric names (and the spellings a user may take from
a table), the match methods, formats, cut policies, zero matching, conventions, window rules and
levels.

Plain data at the bottom of ``config/``, so that :mod:`anascore.config.settings` (the table of
settings the command line and :class:`~anascore.config.options.Options` are derived from) and
:mod:`anascore.config.options` can both name them; :mod:`anascore.config.options` re-exports every
name for those who import them from there.
"""

from __future__ import annotations

from anascore.config.format_catalogue import CATALOGUE
from anascore.config.metric_names import (  # the metric catalogue's names, re-exported
    COREFUD_METRICS,
    DERIVED_METRICS,
    ENTITY_LAYERS,
    IDENTITY_METRICS,
    METRIC_NAMES,
    canonical_metric,
)

#: What the default selects: the identity metrics.
DEFAULT_METRICS: tuple[str, ...] = IDENTITY_METRICS
#: What ``all`` selects: the identity metrics and the CorefUD supplements; a report adds the
#: metrics of the layers its settings switch on (:attr:`Options.reported_metrics`:
#: ``non_referring``, ``bridging``, ``discourse_deixis.*``). The linguistically aware metrics
#: need mention types or coreference type codes and are computed only when named.
ALL_METRICS: tuple[str, ...] = IDENTITY_METRICS + COREFUD_METRICS
#: The metric of a setting that enables it (a layer metric is reported when its setting is on).
METRIC_SETTINGS: dict[str, str] = {
    "non_referring": "keep_non_referring",
    "bridging": "keep_bridging",
    **{f"{layer}.{name}": layer for layer in ENTITY_LAYERS for name in IDENTITY_METRICS},
}

MATCH_METHODS: tuple[str, ...] = ("exact", "min", "head", "partial", "craft")
#: The ``format`` choices: detect it, or one of the catalogue's (mention-based CoNLL is read as
#: CoNLL-2012, its own name for it).
FORMATS: tuple[str, ...] = ("auto", *(facts.name for facts in CATALOGUE if facts.choosable))
#: What happens to a key token a response mention on other tokens covers only in part
#: (:mod:`anascore.formats.io.token_alignment`).
CUT_POLICIES: tuple[str, ...] = ("extend", "shrink", "refuse")
#: How zero mentions (mentions headed by a CoNLL-U empty node) are aligned.
ZERO_MATCH_METHODS: tuple[str, ...] = ("linear", "dependent")
#: ``none``: anascore's own conventions (the papers'); ``ua``: the UA scorer 2.0's and the
#: CorefUD scorer's, wherever they are deterministic (``docs/differences-ua.md``,
#: ``docs/differences-corefud.md``, ``docs/split-antecedents.md``).
COMPAT_MODES: tuple[str, ...] = ("none", "ua")
#: How a document is cut into windows (``window``; :mod:`anascore.selection.windows`): ``clean``
#: consecutive windows, each mention in the one holding its first word; ``bookcoref``
#: BookCoref's ``gold_window`` rules.
WINDOW_RULES: tuple[str, ...] = ("clean", "bookcoref")
#: How response documents are paired with key documents: by their exact names (the reference
#: scorer's way), or by their names with the conventions of CoNLL-2012 parts and e2e-coref
#: ``doc_key``s taken away (:func:`anascore.scoring.document_names.normalized`).
DOCUMENT_PAIRINGS: tuple[str, ...] = ("exact", "normalized")
#: The scoring units (:mod:`anascore.scoring.levels`): each document (the reference scorer's), the
#: documents of a subtopic, of a topic, or the whole corpus scored as one document.
LEVELS: tuple[str, ...] = ("document", "subtopic", "topic", "corpus")
#: The resampling seed when none is given, so that a command run twice prints the same numbers.
DEFAULT_SEED = 12345


__all__ = [
    "ALL_METRICS", "COMPAT_MODES", "COREFUD_METRICS", "CUT_POLICIES", "DEFAULT_METRICS",
    "DEFAULT_SEED", "DERIVED_METRICS", "DOCUMENT_PAIRINGS", "ENTITY_LAYERS", "FORMATS",
    "IDENTITY_METRICS",
    "LEVELS", "MATCH_METHODS", "METRIC_NAMES", "METRIC_SETTINGS", "WINDOW_RULES",
    "ZERO_MATCH_METHODS", "canonical_metric",
]
