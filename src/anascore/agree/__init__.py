"""Agreement between annotations of the same documents (``anascore agree``,
``anascore.agreement``): Krippendorff's α over mentions with set distances (:mod:`.alpha`)
and every pair of annotations scored with the identity metrics (:mod:`.pairs`); see
docs/agreement.md.

The names are imported when first used (PEP 562), so that the command line registers
``agree`` without loading the scoring modules.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from anascore.agree.core import Agreement, agreement, agreement_files

#: The set distances of alpha, by the names the output uses (:mod:`.alpha`; here, so that the
#: command line offers them without importing the computation).
DISTANCES: tuple[str, ...] = ("jaccard", "masi", "masi-dkpro", "binary")
#: What a mention one annotator lacks counts as (:mod:`.alpha`).
MISSING_RULES: tuple[str, ...] = ("empty", "shared")

_LAZY = {
    "Agreement": "anascore.agree.core",
    "agreement": "anascore.agree.core",
    "agreement_files": "anascore.agree.core",
}


def __getattr__(name: str) -> Any:
    try:
        module = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'anascore.agree' has no attribute {name!r}") from None
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


__all__ = ["DISTANCES", "MISSING_RULES", "Agreement", "agreement", "agreement_files"]
