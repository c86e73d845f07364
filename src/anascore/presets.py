"""Shared-task presets: the settings each shared task scored its systems with.

A preset is a named set of :class:`~anascore.options.Options` settings. Choosing one
(``--preset crac24``, ``score(..., preset="crac24")``) fills in every setting it fixes and puts
its name first in the signature; a setting also given explicitly must agree with the preset
(otherwise an :class:`~anascore.errors.OptionsError`: a preset never silently overrides what
the user asked for, and never is silently overridden). The metrics a preset lists are the
default report; naming metrics replaces them (metrics never change each other's numbers).

The CRAC presets follow the CorefUD scorer (``ufal/corefud-scorer``), the official scorer of
the CRAC shared tasks on multilingual coreference resolution:

* ``crac22`` — CRAC 2022 (Žabokrtský et al. 2022, Findings §5): CorefUD scorer 1.0, partial
  match, singletons excluded, zeros scored and aligned by their position (1.0 had no other
  way), the CoNLL score as the primary metric with MOR and the zero-anaphora score beside it.
* ``crac23`` — CRAC 2023: scorer 1.1, head match, singletons excluded, zeros by position.
* ``crac24`` — CRAC 2024 (Novák et al. 2024): scorer 1.2, head match, singletons excluded,
  zeros aligned by their dependencies (``zero_match="dependent"``), gold empty nodes no
  longer given to systems.
* ``crac25`` — CRAC 2025 (CODI-CRAC 2025 findings): the same evaluation as 2024 (scorer 1.2
  defaults: head match, no singletons, dependent zeros); the scorer has no later release.

The UA scorer's own ``-t crac22``/``crac23`` settings are documented there to differ slightly
from the official results because of a one-to-many partial-match bug of the CorefUD scorer
1.0/1.1, fixed in 1.2; anascore (and these presets) always align one to one.
"""

from __future__ import annotations

from typing import Any

from anascore.errors import OptionsError

_CRAC_METRICS = ("mentions", "muc", "bcub", "ceafe", "conll", "mor", "zero")

#: Preset name → the settings it fixes (``metrics`` is the default report).
PRESETS: dict[str, dict[str, Any]] = {
    "crac22": {"match": "partial", "keep_singletons": False, "keep_zeros": True,
               "zero_match": "linear", "metrics": _CRAC_METRICS},
    "crac23": {"match": "head", "keep_singletons": False, "keep_zeros": True,
               "zero_match": "linear", "metrics": _CRAC_METRICS},
    "crac24": {"match": "head", "keep_singletons": False, "keep_zeros": True,
               "zero_match": "dependent", "metrics": _CRAC_METRICS},
    "crac25": {"match": "head", "keep_singletons": False, "keep_zeros": True,
               "zero_match": "dependent", "metrics": _CRAC_METRICS},
}


def preset_settings(name: str) -> dict[str, Any]:
    """A copy of the settings preset ``name`` fixes."""
    try:
        return dict(PRESETS[name])
    except KeyError:
        raise OptionsError(f"unknown preset {name!r}; expected one of "
                           f"{', '.join(PRESETS)}") from None


def check_preset(options: Any) -> None:
    """Raise :class:`OptionsError` when ``options`` contradicts its preset."""
    fixed = preset_settings(options.preset)
    fixed.pop("metrics")
    for name, value in fixed.items():
        if getattr(options, name) != value:
            raise OptionsError(
                f"preset {options.preset} sets {name}={value!r}, but {name}="
                f"{getattr(options, name)!r} was asked for; drop the preset or the setting")
