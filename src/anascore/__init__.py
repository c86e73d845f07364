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

from anascore._moved import install as _install_moved_paths
from anascore.core.errors import (
    AnascoreError,
    AnascoreWarning,
    DocumentMismatchError,
    FormatError,
    OptionsError,
)
from anascore.core.version import __version__

_install_moved_paths()

if TYPE_CHECKING:
    from anascore.agree.core import Agreement, agreement
    from anascore.analysis.analyse import analyse_errors
    from anascore.config.options import METRIC_NAMES, Options
    from anascore.config.presets import PRESET_NAMES, preset_options
    from anascore.formats.io.conversion import convert
    from anascore.formats.writers.ua import write_ua
    from anascore.metrics.scores import AverageScore, BlancScore, BridgingScore, Score
    from anascore.report import Report
    from anascore.report.systems import SystemsReport
    from anascore.scoring.groups import score_groups
    from anascore.scoring.pipeline import score, score_documents, score_files
    from anascore.scoring.systems import compare
    from anascore.training.evaluator import PRF, CorefEvaluator
    from anascore.training.flat_scores import compute

_LAZY = {
    "agreement": "anascore.agree.core",
    "Agreement": "anascore.agree.core",
    "compare": "anascore.scoring.systems",
    "compute": "anascore.training.flat_scores",
    "convert": "anascore.formats.io.conversion",
    "PRF": "anascore.training.evaluator",
    "CorefEvaluator": "anascore.training.evaluator",
    "write_ua": "anascore.formats.writers.ua",
    "analyse_errors": "anascore.analysis.analyse",
    "METRIC_NAMES": "anascore.config.options",
    "Options": "anascore.config.options",
    "PRESET_NAMES": "anascore.config.presets",
    "preset_options": "anascore.config.presets",
    "Report": "anascore.report",
    "SystemsReport": "anascore.report.systems",
    "AverageScore": "anascore.metrics.scores",
    "BlancScore": "anascore.metrics.scores",
    "BridgingScore": "anascore.metrics.scores",
    "Score": "anascore.metrics.scores",
    "score": "anascore.scoring.pipeline",
    "score_documents": "anascore.scoring.pipeline",
    "score_groups": "anascore.scoring.groups",
    "score_files": "anascore.scoring.pipeline",
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
    "analyse_errors",
    "compare",
    "compute",
    "convert",
    "preset_options",
    "score",
    "score_documents",
    "score_files",
    "score_groups",
    "write_ua",
]
