"""anascore: scores anaphora and coreference resolution.

>>> import anascore
>>> report = anascore.score("key.conll", "response.conll")  # doctest: +SKIP
>>> report.metrics["muc"].f1  # doctest: +SKIP
"""

from anascore.convert import convert
from anascore.errors import AnascoreError, DocumentMismatchError, FormatError, OptionsError
from anascore.evaluator import PRF, CorefEvaluator
from anascore.options import METRIC_NAMES, Options
from anascore.report import Report
from anascore.scores import AverageScore, BlancScore, Score
from anascore.scoring import score, score_files
from anascore.version import __version__

__all__ = [
    "METRIC_NAMES",
    "PRF",
    "AnascoreError",
    "AverageScore",
    "BlancScore",
    "CorefEvaluator",
    "DocumentMismatchError",
    "FormatError",
    "Options",
    "OptionsError",
    "Report",
    "Score",
    "__version__",
    "convert",
    "score",
    "score_files",
]
