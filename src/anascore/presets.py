"""Shared-task settings as named :class:`~anascore.options.Options` values, and the mode of a
run in words.

The settings are those the UA scorer 2.0 applies for its ``--shared-task`` names (its README
and ``SHARED_TASK_SETTINGS``), and for CODI-CRAC 2021 those of Khosla et al. 2021 as Yu et al.
2022 §5.3 report them (the identity task with singletons and split antecedents, as in 2022):

=================  =============================================================================
``conll12``        identity coreference without singletons; MUC, B³, CEAFe, CoNLL
``crac18``         identity with singletons; MUC, B³, CEAFe, CoNLL; non-referring identification
``codicrac21``     identity with singletons and split antecedents; MUC, B³, CEAFe, CoNLL
``codicrac22-ar``  the same (CODI-CRAC 2022 task 1, anaphora resolution)
``codicrac22-br``  bridging (task 2): anaphor recognition, mention and entity anchors
``codicrac22-dd``  discourse deixis (task 3) with singletons and split antecedents; MUC, B³,
                   CEAFe, CoNLL of the discourse-deixis layer
``craft19``        identity with singletons, CRAFT 2019 partial matching; MUC, B³, CEAFe, CoNLL
=================  =============================================================================

A preset fixes settings, not the input format (detected as usual) nor ``compat``: add
``compat="ua"`` to reproduce the UA scorer's numbers where its conventions differ.
"""

from __future__ import annotations

from typing import Any

from anascore.errors import OptionsError
from anascore.options import IDENTITY_METRICS, MATCH_METHODS, Options

_CONLL = ("muc", "bcub", "ceafe", "conll")
_IDENTITY_WITH_PLURALS: dict[str, Any] = {
    "keep_singletons": True, "keep_split_antecedents": True, "metrics": _CONLL,
}

#: Each preset's settings (everything else is the default).
PRESET_SETTINGS: dict[str, dict[str, Any]] = {
    "conll12": {"keep_singletons": False, "metrics": _CONLL},
    "crac18": {"keep_singletons": True, "keep_non_referring": True,
               "metrics": (*_CONLL, "non_referring")},
    "codicrac21": _IDENTITY_WITH_PLURALS,
    "codicrac22-ar": _IDENTITY_WITH_PLURALS,
    "codicrac22-br": {"keep_singletons": True, "keep_bridging": True, "metrics": ("bridging",)},
    "codicrac22-dd": {"keep_singletons": True, "keep_split_antecedents": True,
                      "discourse_deixis": True,
                      "metrics": tuple(f"discourse_deixis.{name}" for name in _CONLL)},
    "craft19": {"keep_singletons": True, "match": "craft", "metrics": _CONLL},
}
PRESET_NAMES: tuple[str, ...] = tuple(PRESET_SETTINGS)


def preset_options(name: str) -> Options:
    """The :class:`Options` of a preset."""
    try:
        settings = PRESET_SETTINGS[name]
    except KeyError:
        raise OptionsError(f"unknown preset {name!r}; expected one of "
                           f"{', '.join(PRESET_NAMES)}") from None
    if settings.get("match", "exact") not in MATCH_METHODS:
        raise OptionsError(f"preset {name} needs match={settings['match']!r}, which this "
                           f"version of anascore lacks (it has {', '.join(MATCH_METHODS)})")
    return Options(**settings)


#: Settings a preset leaves free: the input format, the conventions, the resampling of
#: intervals and tests (they add to the numbers, never change them), and the settings of the
#: linguistically aware metrics (no preset reports them; naming one changes the metrics).
FREE_SETTINGS: tuple[str, ...] = (
    "format", "compat", "confidence", "confidence_level", "seed", "paired_bs", "paired_ar",
    "link_weights", "mention_type_function", "dominant_coefficients", "coreference_classes",
    "attempted_classes", "scheme_classes",
)


def preset_name(options: Options) -> str | None:
    """The name of the preset ``options`` are (:data:`FREE_SETTINGS` aside; presets with the
    same settings are named together, ``codicrac21/codicrac22-ar``), or ``None``."""
    compared = options.with_settings(**{name: Options.__dataclass_fields__[name].default
                                        for name in FREE_SETTINGS})
    names = [name for name, settings in PRESET_SETTINGS.items()
             if settings.get("match", "exact") in MATCH_METHODS
             and compared == Options(**settings)]
    return "/".join(names) or None


def describe_mode(options: Options) -> str:
    """The mode of a run in words, for reports: what is scored (the three reporting options
    of Yu et al. 2022 §4.1 for entities, and the other layers), how mentions are matched, and
    the conventions followed."""
    reported = options.reported_metrics
    entities = ["singletons" if options.keep_singletons else "no singletons"]
    if options.keep_split_antecedents:
        entities.append("only split-antecedent plurals" if options.only_split_antecedents
                        else "split-antecedent plurals")
    else:
        entities.append("no split antecedents")
    layers = []
    if any(name in IDENTITY_METRICS for name in reported):
        layers.append("identity coreference")
    if any(name.startswith("discourse_deixis.") for name in reported):
        layers.append("discourse deixis")
    parts = [f"{' and '.join(layers)} ({', '.join(entities)})"] if layers else []
    if options.keep_non_referring:
        parts.append("non-referring markables")
    if options.keep_bridging:
        parts.append("bridging references")
    matching = {"exact": "exact mention matching",
                "min": "MIN-span matching"}.get(options.match, f"{options.match} matching")
    text = f"{', '.join(parts)}; {matching}"
    text += ("; UA scorer 2.0 conventions" if options.compat == "ua"
             else "; anascore conventions")
    name = preset_name(options)
    if name:
        text += f"; preset {name}"
    return text
