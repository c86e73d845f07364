"""Pairwise agreement: every pair of annotations scored as ``anascore score A B`` scores it.

The identity metrics' F1 does not depend on which annotation is the key (each metric's
precision is its recall with key and response swapped), so a pair's F1 is its agreement and
only F1 is reported. Two exceptions, which the output names (:meth:`PairAgreement.asymmetric`;
a pair is always scored with the earlier annotation as the key): BLANC when one annotation
has a kind of link the other lacks (it then scores the kinds the key has), and every metric
under a matching method other than exact (``min``, ``head``, ``partial``, ``craft`` read the
key's MIN span or head). Mention agreement by exact spans is reported besides the
chosen method's.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from anascore.config.options import Options
from anascore.metrics.scores import json_number
from anascore.report import Report
from anascore.scoring.pipeline import PathLike, score_files_many

#: Matching methods whose alignment does not depend on which side is the key.
SYMMETRIC_MATCHES: tuple[str, ...] = ("exact",)


@dataclass(frozen=True)
class PairAgreement:
    """Annotations ``a`` and ``b`` scored against each other (``a`` as the key): ``report``
    by the run's settings; ``exact`` the mention agreement by exact spans when the run
    matches mentions otherwise (``None``: the report's own)."""

    a: str
    b: str
    report: Report
    exact: Report | None = None

    @property
    def symmetric(self) -> bool:
        """Whether every F1 is the same with ``b`` as the key."""
        return not self.asymmetric()

    def asymmetric(self, document: str | None = None) -> tuple[str, ...]:
        """The metrics whose F1 depends on which annotation is the key (corpus, or one
        document): every one under a matching method that reads the key's spans; else BLANC
        when one annotation has a kind of link (coreference, non-coreference) that the other
        lacks, for BLANC then scores only the kinds the key has (the reference scorer's
        rule, :mod:`anascore.metrics.blanc`); else none."""
        if self.report.options.match not in SYMMETRIC_MATCHES:
            return tuple(self.report.options.reported_metrics)
        found = []
        for name in self.report.options.reported_metrics:
            if name.rpartition(".")[2] != "blanc":
                continue
            counts = (self.report.corpus_counts[name] if document is None
                      else self.report.counts[name][self.report.document_names.index(document)])
            key_coref, response_coref, key_non_coref, response_non_coref = (
                counts[1] > 0, counts[3] > 0, counts[5] > 0, counts[7] > 0)
            if key_coref != response_coref or key_non_coref != response_non_coref:
                found.append(name)
        return tuple(found)

    def f1(self, document: str | None = None) -> dict[str, float]:
        """Each reported metric's F1 (and ``mentions_exact``), for the corpus or one
        document."""
        scores = (self.report.metrics if document is None
                  else self.report.document(document))
        result = {name: score.f1 for name, score in scores.items()}
        if self.exact is not None:
            exact = (self.exact.metrics if document is None
                     else self.exact.document(document))
            result["mentions_exact"] = exact["mentions"].f1
        return result

    def to_dict(self, document: str | None = None) -> dict[str, Any]:
        """``a``, ``b`` and ``metrics`` shaped as ``anascore score``'s, F1 only; the corpus
        object also has ``symmetric`` and the F1 intervals when they were asked for."""
        result: dict[str, Any] = {"a": self.a, "b": self.b,
                                  "metrics": f1_objects(self.f1(document))}
        if document is None:
            result["symmetric"] = self.symmetric
            if not self.symmetric:
                result["asymmetric"] = list(self.asymmetric())
            if self.report.intervals is not None:
                result["intervals"] = {name: {"level": interval.level,
                                              "resamples": interval.resamples,
                                              "f1": interval.f1.to_dict()}
                                       for name, interval in self.report.intervals.items()}
        return result


def f1_objects(f1: Mapping[str, float]) -> dict[str, Any]:
    """F1 values as ``anascore score``'s JSON ``metrics`` holds them (``{"muc": {"f1": …}}``,
    a layer's metrics under the layer's name; ``null`` where not applicable)."""
    result: dict[str, Any] = {}
    for name, value in f1.items():
        layer, dot, metric = name.rpartition(".")
        (result.setdefault(layer, {}) if dot else result)[metric] = {"f1": json_number(value)}
    return result


def pair_agreements(paths: Sequence[PathLike], names: Sequence[str],
                    options: Options) -> list[PairAgreement]:
    """Every pair of annotations, ``i`` before ``j``:
    :func:`anascore.scoring.pipeline.score_files_many`
    with annotation ``i`` as the key and the later ones as responses (``i`` read once), then
    the intervals ``options.confidence`` asks for, as ``anascore score`` gives them."""
    exact_options = (None if options.match == "exact"
                     else options.with_settings(match="exact", metrics=("mentions",),
                                                confidence=0))
    pairs = []
    for first in range(len(paths) - 1):
        later = list(paths[first + 1:])
        reports = score_files_many(paths[first], later, options)
        exact = (score_files_many(paths[first], later, exact_options)
                 if exact_options is not None else [None] * len(later))
        for offset, (report, exact_report) in enumerate(zip(reports, exact, strict=True)):
            pairs.append(PairAgreement(names[first], names[first + 1 + offset],
                                       report.with_intervals(), exact_report))
    return pairs


def mean_f1(pairs: Sequence[PairAgreement], document: str | None = None) -> dict[str, float]:
    """The mean over the pairs of each metric's F1 (``NaN`` where a pair's is not
    applicable)."""
    found = [pair.f1(document) for pair in pairs]
    if not found:
        return {}
    return {name: math.fsum(scores[name] for scores in found) / len(found)
            for name in found[0]}
