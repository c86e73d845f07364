"""Result values: recall, precision and F1 with the counts they come from.

Every score is a ratio of additive counts; these types hold the ratios *and* the counts, with
named fields (never tuples whose order must be remembered). Fractions are in [0, 1]; only text
reports show percentages.

Not applicable is not 0. A ratio whose denominator is 0 says nothing: a corpus without zero
anaphors has no zero recall. Metrics whose 0/0 no reference scorer fixes (zeros, bridging) build
their scores with :meth:`Score.from_counts` ``(…, empty="n/a")``: a 0/0 recall or precision is
``NaN`` (never a number that could pass for 0 in arithmetic or a comparison), and
``Score.applicable`` is false with ``Score.reason`` saying why. The identity metrics keep the
reference scorers' convention (0/0 is 0; the Perl scorer's and the CorefUD scorer's test suites
assert it, e.g. MUC on a key of singletons only), ``empty="zero"``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any, Protocol, runtime_checkable

import numpy as np


def ratio(numerator: float, denominator: float) -> float:
    """``numerator / denominator``, 0 when the denominator is 0 (the reference scorer's
    convention)."""
    return numerator / denominator if denominator else 0.0


def f1_score(recall: float, precision: float) -> float:
    """The harmonic mean of recall and precision, 0 when both are 0.

    A ``NaN`` (not applicable) side: F1 is not applicable when both sides are; when only one
    is, the other one's numerator counts matches that cannot exist (a key with nothing to find
    leaves every response proposal wrong, and the reverse), so F1 is that side's value, 0 —
    ``2·TP / (2·TP + FP + FN)`` with TP = 0. (A positive defined side with an undefined one
    cannot arise from counts; it gives ``NaN``.)
    """
    if math.isnan(recall) or math.isnan(precision):
        defined = precision if math.isnan(recall) else recall
        return 0.0 if defined == 0 else math.nan
    total = recall + precision
    return 2 * recall * precision / total if total else 0.0


#: ``empty=`` of :meth:`Score.from_counts`: 0/0 gives 0 (the reference scorers' convention)
#: or not applicable (``NaN``, with a reason).
EMPTY_CONVENTIONS = ("zero", "n/a")
#: Why a recall, a precision, or both are not applicable.
RECALL_NOT_APPLICABLE = "the key has nothing to find (recall 0/0)"
PRECISION_NOT_APPLICABLE = "the response proposes nothing (precision 0/0)"
BOTH_NOT_APPLICABLE = "neither the key nor the response has anything to score (0/0)"


def defined_ratio(numerator: float, denominator: float) -> float:
    """``numerator / denominator``, ``NaN`` (not applicable) when the denominator is 0."""
    return numerator / denominator if denominator else math.nan


def is_applicable(value: float | None) -> bool:
    """Whether a score value is a number (not ``None`` or ``NaN``, not applicable)."""
    return value is not None and not math.isnan(value)


def not_applicable_reason(recall_den: float, precision_den: float) -> str | None:
    """Why a 0/0 score is not applicable (``None`` when neither side is 0/0)."""
    if not recall_den and not precision_den:
        return BOTH_NOT_APPLICABLE
    if not recall_den:
        return RECALL_NOT_APPLICABLE
    if not precision_den:
        return PRECISION_NOT_APPLICABLE
    return None


def json_number(value: float) -> float | None:
    """A score value for JSON: ``None`` (``null``) where not applicable (JSON has no NaN)."""
    return None if math.isnan(value) else value


class NotApplicableEqual:
    """Equality of a result, field by field, where a value that is not applicable (``NaN``)
    equals another that is not: two results of the same counts are equal. (A dataclass's own
    ``==`` compared its fields as one tuple up to Python 3.12, which took the one ``math.nan``
    object as equal to itself, and field by field with ``==`` from 3.13, where ``NaN`` equals
    nothing: the same result was equal to itself or not by Python version.) Hashing agrees."""

    __slots__ = ()

    def _compared(self) -> tuple[Any, ...]:
        return tuple(None if isinstance(value, float) and math.isnan(value) else value
                     for value in (getattr(self, field.name) for field in fields(self)))  # type: ignore[arg-type]

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, NotApplicableEqual)
        return self._compared() == other._compared()

    def __hash__(self) -> int:
        return hash(self._compared())


@dataclass(frozen=True, eq=False)
class Score(NotApplicableEqual):
    """Recall, precision and F1 of one metric, with their numerators and denominators.

    A value that is not applicable (0/0 under ``empty="n/a"``) is ``NaN``; ``reason`` then
    says which side is 0/0, and ``applicable`` is false when F1 itself is not applicable.
    Test with ``applicable`` (or :func:`is_applicable`), never by comparing with 0.
    """

    recall: float
    precision: float
    f1: float
    recall_num: float
    recall_den: float
    precision_num: float
    precision_den: float
    reason: str | None = None

    @classmethod
    def from_counts(cls, recall_num: float, recall_den: float, precision_num: float,
                    precision_den: float, *, empty: str = "zero") -> Score:
        """The score of the counts; ``empty`` is what 0/0 gives: ``"zero"`` (the reference
        scorers' convention) or ``"n/a"`` (``NaN``, with a ``reason``)."""
        if empty == "zero":
            recall = ratio(recall_num, recall_den)
            precision = ratio(precision_num, precision_den)
            reason = None
        elif empty == "n/a":
            recall = defined_ratio(recall_num, recall_den)
            precision = defined_ratio(precision_num, precision_den)
            reason = not_applicable_reason(recall_den, precision_den)
        else:
            raise ValueError(f"empty must be one of {', '.join(EMPTY_CONVENTIONS)}, "
                             f"not {empty!r}")
        return cls(recall, precision, f1_score(recall, precision), float(recall_num),
                   float(recall_den), float(precision_num), float(precision_den), reason)

    @property
    def applicable(self) -> bool:
        """Whether F1 is a number (false when neither side has anything to score)."""
        return not math.isnan(self.f1)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: a value that is not applicable is ``null``, with
        ``"not_applicable"`` saying why."""
        result: dict[str, Any] = {
            "recall": json_number(self.recall), "precision": json_number(self.precision),
            "f1": json_number(self.f1),
            "recall_num": self.recall_num, "recall_den": self.recall_den,
            "precision_num": self.precision_num, "precision_den": self.precision_den,
        }
        if self.reason is not None:
            result["not_applicable"] = self.reason
        return result


@dataclass(frozen=True, eq=False)
class BlancScore(NotApplicableEqual):
    """BLANC: the combined recall, precision and F1, and its two halves."""

    recall: float
    precision: float
    f1: float
    coref_links: Score
    non_coref_links: Score

    def to_dict(self) -> dict[str, Any]:
        return {
            "recall": self.recall, "precision": self.precision, "f1": self.f1,
            "coref_links": self.coref_links.to_dict(),
            "non_coref_links": self.non_coref_links.to_dict(),
        }


@dataclass(frozen=True, eq=False)
class AverageScore(NotApplicableEqual):
    """An unweighted mean of other metrics' F1 (the CoNLL score)."""

    f1: float
    of: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"f1": self.f1}


@dataclass(frozen=True)
class BridgingScore:
    """Bridging: anaphor recognition, and resolution to the anchor mention and to the anchor
    entity (Yu et al. 2022 §4.5). ``recall``, ``precision`` and ``f1`` are the entity-level
    ones, the score CODI-CRAC ranks bridging systems by."""

    anaphor_recognition: Score
    mention: Score
    entity: Score

    @property
    def recall(self) -> float:
        return self.entity.recall

    @property
    def precision(self) -> float:
        return self.entity.precision

    @property
    def f1(self) -> float:
        return self.entity.f1

    @property
    def applicable(self) -> bool:
        return self.entity.applicable

    @property
    def reason(self) -> str | None:
        return self.entity.reason

    def to_dict(self) -> dict[str, Any]:
        return {
            "anaphor_recognition": self.anaphor_recognition.to_dict(),
            "mention": self.mention.to_dict(),
            "entity": self.entity.to_dict(),
        }


class MetricResult(Protocol):
    """What a metric's ``score`` returns, whatever the metric: its F1 (the value every table
    and ranking shows first) and its JSON form.

    A protocol, not a list of the result types: a metric module defines its own result
    (:class:`Score`, :class:`BlancScore`, :class:`AverageScore`, :class:`BridgingScore`, the
    dominant-mention evaluation's ``DominantScore``) without this module, at the bottom of the
    metrics, naming it. Renderers and statistics that show recall and precision ask a result
    whether it has them (:class:`RecallPrecisionResult`).
    """

    @property
    def f1(self) -> float:
        """The F1 score (``NaN`` where it is not applicable)."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (a value that is not applicable is ``null``)."""
        ...


@runtime_checkable
class RecallPrecisionResult(MetricResult, Protocol):
    """A result with a recall and a precision besides its F1: every metric's but an average
    of other metrics' F1 (:class:`AverageScore`, the CoNLL score). ``isinstance`` tells them
    apart."""

    @property
    def recall(self) -> float:
        """The recall (``NaN`` where it is not applicable)."""
        ...

    @property
    def precision(self) -> float:
        """The precision (``NaN`` where it is not applicable)."""
        ...


@dataclass(frozen=True)
class ScoreArrays:
    """Recall, precision and F1 of many count vectors at once (one value per row of a
    resamples × fields matrix), for bootstrap and significance tests. ``recall`` and
    ``precision`` are ``None`` for a metric that reports only F1 (the CoNLL average)."""

    recall: np.ndarray | None
    precision: np.ndarray | None
    f1: np.ndarray


def ratios(numerators: np.ndarray, denominators: np.ndarray) -> np.ndarray:
    """:func:`ratio` element-wise: 0 where the denominator is 0."""
    numerators = np.asarray(numerators, dtype=np.float64)
    denominators = np.asarray(denominators, dtype=np.float64)
    result = np.zeros(np.broadcast(numerators, denominators).shape)
    np.divide(numerators, denominators, out=result, where=denominators != 0)
    return result


def defined_ratios(numerators: np.ndarray, denominators: np.ndarray) -> np.ndarray:
    """:func:`defined_ratio` element-wise: ``NaN`` where the denominator is 0."""
    numerators = np.asarray(numerators, dtype=np.float64)
    denominators = np.asarray(denominators, dtype=np.float64)
    result = np.full(np.broadcast(numerators, denominators).shape, np.nan)
    np.divide(numerators, denominators, out=result, where=denominators != 0)
    return result


def f1_scores(recall: np.ndarray, precision: np.ndarray) -> np.ndarray:
    """:func:`f1_score` element-wise (the same operations, so the same digits; ``NaN`` sides
    as :func:`f1_score` treats them)."""
    total = recall + precision
    result = np.zeros(total.shape)
    np.divide(2 * recall * precision, total, out=result, where=total != 0)
    recall_missing, precision_missing = np.isnan(recall), np.isnan(precision)
    if recall_missing.any() or precision_missing.any():
        defined = np.where(recall_missing, precision, recall)
        result = np.where(recall_missing | precision_missing,
                          np.where(defined == 0, 0.0, np.nan), result)
    return result


def prf_arrays(counts: np.ndarray, *, empty: str = "zero") -> ScoreArrays:
    """:meth:`Score.from_counts` of every row of a matrix whose four columns are recall's and
    precision's numerators and denominators; ``empty`` as there (``"n/a"``: ``NaN``)."""
    divide = defined_ratios if empty == "n/a" else ratios
    recall = divide(counts[:, 0], counts[:, 1])
    precision = divide(counts[:, 2], counts[:, 3])
    return ScoreArrays(recall, precision, f1_scores(recall, precision))
