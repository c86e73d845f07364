"""anascore: scores anaphora and coreference resolution.

>>> import anascore
>>> report = anascore.score("key.conll", "response.conll")  # doctest: +SKIP
>>> report.metrics["muc"].f1  # doctest: +SKIP

The public names are imported when first used (PEP 562), so that ``import anascore`` and the
command line load only the modules a run needs.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from anascore.errors import (
    AnascoreError,
    AnascoreWarning,
    DocumentMismatchError,
    FormatError,
    OptionsError,
)
from anascore.version import __version__

if TYPE_CHECKING:
    from anascore.agree.core import Agreement, agreement
    from anascore.compare_systems import compare
    from anascore.conversion import convert
    from anascore.evaluator import PRF, CorefEvaluator
    from anascore.flat_scores import compute
    from anascore.formats.ua import write_ua
    from anascore.options import METRIC_NAMES, Options
    from anascore.presets import PRESET_NAMES, preset_options
    from anascore.report import Report
    from anascore.report.systems import SystemsReport
    from anascore.scores import AverageScore, BlancScore, BridgingScore, Score
    from anascore.scoring import score, score_documents, score_files

_LAZY = {
    "agreement": "anascore.agree.core",
    "Agreement": "anascore.agree.core",
    "compare": "anascore.compare_systems",
    "compute": "anascore.flat_scores",
    "convert": "anascore.conversion",
    "PRF": "anascore.evaluator",
    "CorefEvaluator": "anascore.evaluator",
    "write_ua": "anascore.formats.ua",
    "analyse_errors": "anascore.analysis.errors",
    "METRIC_NAMES": "anascore.options",
    "Options": "anascore.options",
    "PRESET_NAMES": "anascore.presets",
    "preset_options": "anascore.presets",
    "Report": "anascore.report",
    "SystemsReport": "anascore.report.systems",
    "AverageScore": "anascore.scores",
    "BlancScore": "anascore.scores",
    "BridgingScore": "anascore.scores",
    "Score": "anascore.scores",
    "score": "anascore.scoring",
    "score_documents": "anascore.scoring",
    "score_groups": "anascore.grouping",
    "score_files": "anascore.scoring",
}


def __getattr__(name: str) -> Any:
    try:
        module = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'anascore' has no attribute {name!r}") from None
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "METRIC_NAMES",
    "PRESET_NAMES",
    "PRF",
    "Agreement",
    "AnascoreError",
    "AnascoreWarning",
    "AverageScore",
    "BlancScore",
    "BridgingScore",
    "CorefEvaluator",
    "DocumentMismatchError",
    "FormatError",
    "Options",
    "OptionsError",
    "Report",
    "Score",
    "SystemsReport",
    "__version__",
    "agreement",
    "compare",
    "compute",
    "convert",
    "preset_options",
    "score",
    "score_documents",
    "score_files",
    "write_ua",
]
