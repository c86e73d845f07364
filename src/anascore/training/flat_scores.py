"""Scores as one flat dictionary, and :func:`compute` in the shape of Hugging Face ``evaluate``.

Model code logs scalars: ``{"muc_f1": 0.71, "conll_score": 0.68, …}``. :func:`flatten_scores`
turns anascore's score objects into such a dictionary, with one naming rule for every metric:

* ``METRIC_recall``, ``METRIC_precision``, ``METRIC_f1`` for a metric with one recall and one
  precision (``mentions``, ``muc``, ``bcub``, ``ceafm``, ``ceafe``, ``lea``, ``mor``, ``zero``,
  ``non_referring``, a layer's ``discourse_deixis.muc`` …);
* BLANC adds its halves: ``blanc_coref_links_f1``, ``blanc_non_coref_links_f1`` (and their
  recall and precision);
* bridging gives each level: ``bridging_anaphor_recognition_f1``, ``bridging_mention_f1``,
  ``bridging_entity_f1`` (and recall, precision);
* an average of other metrics' F1, the CoNLL score, is ``conll_score`` (it has no recall or
  precision of its own).

A value that is not applicable (NaN or ``None`` in a score: nothing to find and nothing
proposed, as for zeros in a corpus without any) is ``None``: it is never written as 0. Raw
counts are left out: they are in :class:`anascore.Report`.

:func:`compute` scores lists of documents' clusters — unlike Hugging Face's ``coval`` module,
which scores all its input as one document, each element is a document of its own, and the
corpus score micro-averages over them as the reference scorer does.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterable, Mapping, Sequence, Sized
from typing import Any

from anascore.core.errors import AnascoreWarning, OptionsError
from anascore.metrics.scores import AverageScore

#: The leaves of a score's ``to_dict()`` that are scores (the others are raw counts).
_SCORE_FIELDS = ("recall", "precision", "f1")


def flatten_scores(scores: Mapping[str, Any]) -> dict[str, float | None]:
    """``{"muc_f1": …, "conll_score": …}`` from scores by metric name (``Report.metrics``,
    or :func:`anascore.stats.sums.scores_from_counts`)."""
    flat: dict[str, float | None] = {}
    for name, result in scores.items():
        if isinstance(result, AverageScore):
            flat[f"{name}_score"] = result.f1
            continue
        _flatten(name, result.to_dict(), flat)
    return flat


def _flatten(prefix: str, values: Mapping[str, Any], flat: dict[str, float | None]) -> None:
    for key, value in values.items():
        if isinstance(value, Mapping):
            _flatten(f"{prefix}_{key}", value, flat)
        elif key in _SCORE_FIELDS:
            flat[f"{prefix}_{key}"] = (None if value is None or math.isnan(value)
                                       else float(value))


def compute(*, predictions: Sequence[Iterable[Iterable[Any]]],
            references: Sequence[Iterable[Iterable[Any]]],
            **options: Any) -> dict[str, float | None]:
    """Score documents' clusters, Hugging Face ``evaluate`` style.

    Parameters
    ----------
    predictions, references
        One element per document: its clusters, each a list of ``(start, end)`` token spans
        with **inclusive** ends, as :class:`anascore.CorefEvaluator` takes them. Documents
        are paired by position.
    **options
        Settings of :func:`anascore.score` (``metrics``, ``preset``, ``keep_singletons`` …).

    Returns
    -------
    dict
        Flat scores (:func:`flatten_scores`) of every reported metric. What the scores were
        computed in spite of (a mention repeated in two clusters …) is issued as an
        :class:`~anascore.core.errors.AnascoreWarning` each.

    >>> compute(predictions=[[[(0, 1), (4, 4)]]], references=[[[(0, 1), (4, 4)]]],
    ...         metrics="muc,conll")["muc_f1"]
    1.0
    """
    from anascore.training.evaluator import CorefEvaluator

    for given in (predictions, references):
        if (isinstance(given, str | bytes | Mapping) or not isinstance(given, Sized)
                or not isinstance(given, Iterable)):
            raise OptionsError("predictions and references are lists of documents' clusters, "
                               f"not {type(given).__name__}")
    if len(predictions) != len(references):
        raise OptionsError(f"{len(predictions)} predictions for {len(references)} references; "
                           "expected one prediction per reference document")
    evaluator = CorefEvaluator(**options)
    for predicted, gold in zip(predictions, references, strict=True):
        evaluator.update(predicted, gold)
    # A dictionary of numbers has no place for them: each is a Python warning.
    for warning in evaluator.warnings:
        warnings.warn(warning, AnascoreWarning, stacklevel=2)
    return flatten_scores(evaluator.scores())
