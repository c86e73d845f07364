"""Result values: recall, precision and F1 with the counts they come from.

Every score is a ratio of additive counts; these types hold the ratios *and* the counts, with
named fields (never tuples whose order must be remembered). Fractions are in [0, 1]; only text
reports show percentages.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Union

import numpy as np

if TYPE_CHECKING:  # the dominant-mention metric's module imports this one
    from anascore.metrics.dominant import DominantScore


def ratio(numerator: float, denominator: float) -> float:
    """``numerator / denominator``, 0 when the denominator is 0 (the reference scorer's
    convention)."""
    return numerator / denominator if denominator else 0.0


def f1_score(recall: float, precision: float) -> float:
    """The harmonic mean of recall and precision, 0 when both are 0."""
    total = recall + precision
    return 2 * recall * precision / total if total else 0.0


@dataclass(frozen=True)
class Score:
    """Recall, precision and F1 of one metric, with their numerators and denominators."""

    recall: float
    precision: float
    f1: float
    recall_num: float
    recall_den: float
    precision_num: float
    precision_den: float

    @classmethod
    def from_counts(cls, recall_num: float, recall_den: float, precision_num: float,
                    precision_den: float) -> Score:
        recall = ratio(recall_num, recall_den)
        precision = ratio(precision_num, precision_den)
        return cls(recall, precision, f1_score(recall, precision), float(recall_num),
                   float(recall_den), float(precision_num), float(precision_den))

    def to_dict(self) -> dict[str, Any]:
        return {
            "recall": self.recall, "precision": self.precision, "f1": self.f1,
            "recall_num": self.recall_num, "recall_den": self.recall_den,
            "precision_num": self.precision_num, "precision_den": self.precision_den,
        }


@dataclass(frozen=True)
class BlancScore:
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


@dataclass(frozen=True)
class AverageScore:
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

    def to_dict(self) -> dict[str, Any]:
        return {
            "anaphor_recognition": self.anaphor_recognition.to_dict(),
            "mention": self.mention.to_dict(),
            "entity": self.entity.to_dict(),
        }


#: What a metric's ``score`` returns. ``Union``, not ``|``: ``DominantScore`` is named by a
#: string, as its module imports this one.
MetricResult = Union[Score, BlancScore, AverageScore, BridgingScore, "DominantScore"]


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


def f1_scores(recall: np.ndarray, precision: np.ndarray) -> np.ndarray:
    """:func:`f1_score` element-wise (the same operations, so the same digits)."""
    total = recall + precision
    result = np.zeros(total.shape)
    np.divide(2 * recall * precision, total, out=result, where=total != 0)
    return result
