"""The settings of each shared-task preset, as plain data (:mod:`anascore.config.presets` documents
them and where each comes from; :class:`~anascore.config.options.Options` applies them).

This module imports nothing of anascore, so that ``options`` can apply presets and ``presets``
can build ``Options`` values without an import cycle.
"""

from __future__ import annotations

from typing import Any

_CONLL = ("muc", "bcub", "ceafe", "conll")
_CRAC = ("mentions", *_CONLL, "mor", "zero")
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
    "crac22": {"match": "partial", "keep_singletons": False, "keep_zeros": True,
               "zero_match": "linear", "metrics": _CRAC},
    "crac23": {"match": "head", "keep_singletons": False, "keep_zeros": True,
               "zero_match": "linear", "metrics": _CRAC},
    "crac24": {"match": "head", "keep_singletons": False, "keep_zeros": True,
               "zero_match": "dependent", "metrics": _CRAC},
    "crac25": {"match": "head", "keep_singletons": False, "keep_zeros": True,
               "zero_match": "dependent", "metrics": _CRAC},
    # The scorer's defaults as for crac25, and the metrics of the script the task's scores
    # were computed with (corefud-scorer.py -m muc bcub ceafe zero): no MOR, no mentions.
    "crac26": {"match": "head", "keep_singletons": False, "keep_zeros": True,
               "zero_match": "dependent", "metrics": (*_CONLL, "zero")},
}
#: Cross-document coreference: the unit scored and the singletons of each project's own
#: evaluation code (docs/presets.md names the repository, commit and file of each).
_CDCR_CORPUS: dict[str, Any] = {"level": "corpus", "keep_singletons": True, "metrics": _CONLL}
_CDCR_SEPARATE_MENTIONS = ("mentions", "muc", "bcub", "ceafe", "lea", "conll")
PRESET_SETTINGS.update({
    "barhom2019": _CDCR_CORPUS,
    "wec-eng": _CDCR_CORPUS,
    "cattan2021": {"level": "corpus", "keep_singletons": False,
                   "metrics": ("muc", "bcub", "ceafe", "lea", "conll")},
    "scico": {"level": "topic", "keep_singletons": False, "metrics": _CDCR_SEPARATE_MENTIONS},
    "ucdcr": {"level": "subtopic", "keep_singletons": False, "metrics": _CONLL},
})
PRESET_NAMES: tuple[str, ...] = tuple(PRESET_SETTINGS)
