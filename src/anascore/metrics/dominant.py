"""Dominant-mention evaluation (Žitkus et al. 2023, §4.3 and Appendices A–C).

Every mention of an entity but its dominant mention (:mod:`anascore.comparison.dominance`) is an
*annotation*: a referent, linked to the entity's dominant mention, with the coreference type
code the input gives it (attribute
:data:`~anascore.comparison.dominance.COREFERENCE_TYPE_ATTRIBUTE`,
e.g. ``ppas``: pronominal, personal, anaphoric, single antecedent). Single-mention entities
make no annotation (§4.1: the scheme has no singletons). Key and response annotations are
paired by their referents (aligned mentions) and classified (Table A2):

====  ======================================================================================
TP    correct annotation: the response links the referent to the key's dominant mention
      (the mention aligned with it) with the key's type code
WT    correct dominant mention, wrong type
WL    right type, wrong dominant mention ("wrong linkage")
WTL   wrong dominant mention and wrong type
FN    a key annotation whose referent makes no response annotation (missed, or the
      response's dominant mention)
FP    a response annotation whose referent makes no key annotation
====  ======================================================================================

Per coreference class i (eqs. 37–39), with the coefficients k = ``dominant_coefficients``:

    P_i = (k₁TP + k₂WT + k₃WL + k₄WTL) / (TP + WT + WL + WTL + FP)
    R_i = (k₁TP + k₂WT + k₃WL + k₄WTL) / (TP + WT + WL + WTL + FN)

then over the n_a *attempted* classes: micro (eqs. 43–45: the class counts summed, then the
same ratios), macro (eqs. 40–42: the mean of P_i and of R_i, F their harmonic mean), and scheme
coverage (eqs. 46–48: Σ P_i / n and Σ R_i / n, n the number of classes of the scheme).

Decisions (``docs/linguistic-metrics.md``):

* A paired annotation counts in the class of the key's type code, an FN in the key's, an FP in
  the response's: Table 3 has one row per class holding all six counts.
* A class is the longest of ``coreference_classes`` that prefixes the code: the default
  ``p, g, d, a, e`` gives the scheme's first level, full codes (``ppas, ppps, …``) one class
  per code (Appendix D); a code no class prefixes is an error. With no classes
  (``coreference_classes=()``) types are not read and never compared (the paper's option to
  drop WT and WTL, §4.3): one class, ``all``.
* Attempted classes are ``attempted_classes`` when given, else every class with an annotation
  in key or response. This keeps Appendix C's micro recall of 0.5: its missed annotation
  ("president" → "Barack Obama", a feature, class g) is of a class the response never labels.
* Types are compared as whole codes; dominant mentions through the mention alignment.

The counts are additive: six per class, in ``coreference_classes`` order.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from anascore.comparison.contingency import Comparison
from anascore.comparison.dominance import COREFERENCE_TYPE_ATTRIBUTE, dominant_mentions
from anascore.comparison.mention_types import comparison_types
from anascore.config.linguistic_settings import (
    DEFAULT_COREFERENCE_CLASSES,
    DEFAULT_DOMINANT_COEFFICIENTS,
)
from anascore.config.metric_names import metric_title
from anascore.config.options import Options
from anascore.core.errors import FormatError
from anascore.core.float_sums import sum_in_order
from anascore.metrics.base import Metric
from anascore.metrics.scores import f1_score, ratio
from anascore.selection.sides import Side

#: The six annotation classes of Table A2, in the order of the counts.
KINDS: tuple[str, ...] = ("tp", "wt", "wl", "wtl", "fn", "fp")
TP, WT, WL, WTL, FN, FP = range(6)
#: The name of the one class of an evaluation without coreference types.
UNTYPED_CLASS = "all"
#: Žitkus et al.'s names of their first-level classes (Table 1).
CLASS_TITLES: dict[str, str] = {"p": "Pronominal", "g": "Generic nominal",
                                "d": "Definitive nominal", "a": "Adverbial", "e": "Ellipsis"}


@dataclass(frozen=True)
class Annotation:
    """A referent (mention index) linked to its entity's dominant mention, with its type."""

    referent: int
    dominant: int
    code: str | None


def annotations_of(side: Side, dominant: np.ndarray, typed: bool) -> list[Annotation]:
    """Every mention of a multi-mention entity but its dominant one, as an annotation."""
    document = side.document
    result = []
    for index, mention in enumerate(side.mentions):
        entity = int(side.entity_of[index])
        if side.entity_sizes[entity] < 2 or dominant[entity] == index:
            continue
        code = mention.attributes.get(COREFERENCE_TYPE_ATTRIBUTE) if typed else None
        if typed and not code:
            raise FormatError(
                f"mention {mention} has no {COREFERENCE_TYPE_ATTRIBUTE} attribute; the "
                "dominant-mention evaluation by coreference class needs the type code of every "
                "mention but the dominant ones (or coreference_classes='none' to evaluate "
                "without types)",
                path=document.path if document is not None else None, line=mention.line)
        result.append(Annotation(index, int(dominant[entity]), code))
    return result


def class_of(code: str | None, classes: tuple[str, ...], side: Side, referent: int) -> int:
    """The index of the longest class that prefixes ``code`` (0 without classes)."""
    if not classes:
        return 0
    best = -1
    for position, prefix in enumerate(classes):
        if code is not None and code.startswith(prefix) and (
                best < 0 or len(prefix) > len(classes[best])):
            best = position
    if best < 0:
        mention = side.mentions[referent]
        document = side.document
        raise FormatError(f"mention {mention} has coreference type {code!r}, in none of the "
                          f"coreference classes {', '.join(classes)}; list its class "
                          "(coreference_classes, --coreference-classes)",
                          path=document.path if document is not None else None,
                          line=mention.line)
    return best


def count_dominant(comparison: Comparison) -> np.ndarray:
    """Six counts (TP, WT, WL, WTL, FN, FP) per coreference class of one document."""
    options = comparison.options
    classes = options.coreference_classes
    typed = bool(classes)
    counts = np.zeros((max(len(classes), 1), len(KINDS)), dtype=np.float64)

    def key_types() -> np.ndarray:
        return comparison_types(comparison, "dominant").key

    def response_types() -> np.ndarray:
        return comparison_types(comparison, "dominant").response

    key, response = comparison.key, comparison.response
    key_annotations = {annotation.referent: annotation for annotation in
                       annotations_of(key, dominant_mentions(key, key_types), typed)}
    response_annotations = annotations_of(
        response, dominant_mentions(response, response_types), typed)
    key_of = np.full(response.mention_count, -1, dtype=np.int64)
    key_of[comparison.alignment.response] = comparison.alignment.key
    for annotation in response_annotations:
        twin = int(key_of[annotation.referent])
        gold = key_annotations.pop(twin, None) if twin >= 0 else None
        if gold is None:
            counts[class_of(annotation.code, classes, response, annotation.referent), FP] += 1
            continue
        right_dominant = key_of[annotation.dominant] == gold.dominant
        right_type = annotation.code == gold.code
        kind = (TP if right_type else WT) if right_dominant else (WL if right_type else WTL)
        counts[class_of(gold.code, classes, key, gold.referent), kind] += 1
    for gold in key_annotations.values():
        counts[class_of(gold.code, classes, key, gold.referent), FN] += 1
    return counts.reshape(-1)


@dataclass(frozen=True)
class Averages:
    """Recall, precision and F of one kind of average."""

    recall: float
    precision: float
    f1: float

    @classmethod
    def of(cls, recall: float, precision: float) -> Averages:
        return cls(recall, precision, f1_score(recall, precision))

    def to_dict(self) -> dict[str, float]:
        return {"recall": self.recall, "precision": self.precision, "f1": self.f1}


@dataclass(frozen=True)
class ClassScore:
    """One coreference class: its six counts and its P_i, R_i, F_i (eqs. 37–39)."""

    coreference_class: str
    title: str
    tp: float
    wt: float
    wl: float
    wtl: float
    fn: float
    fp: float
    credit: float
    recall: float
    precision: float
    f1: float
    attempted: bool

    @property
    def key_annotations(self) -> float:
        """S* of Table 3: TP + WT + WL + WTL + FN."""
        return self.tp + self.wt + self.wl + self.wtl + self.fn

    @property
    def response_annotations(self) -> float:
        return self.tp + self.wt + self.wl + self.wtl + self.fp

    def to_dict(self) -> dict[str, Any]:
        return {"class": self.coreference_class, "title": self.title, "tp": self.tp,
                "wt": self.wt, "wl": self.wl, "wtl": self.wtl, "fn": self.fn, "fp": self.fp,
                "key_annotations": self.key_annotations,
                "response_annotations": self.response_annotations,
                "recall": self.recall, "precision": self.precision, "f1": self.f1,
                "attempted": self.attempted}


@dataclass(frozen=True)
class DominantScore:
    """The dominant-mention evaluation: micro recall, precision and F1 (the headline, as in
    the paper's Table 2), the macro and scheme-coverage averages, and every class."""

    recall: float
    precision: float
    f1: float
    micro: Averages
    macro: Averages
    scheme: Averages
    classes: tuple[ClassScore, ...]
    attempted: tuple[str, ...]
    scheme_classes: int
    coefficients: tuple[float, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "recall": self.recall, "precision": self.precision, "f1": self.f1,
            "micro": self.micro.to_dict(),
            "macro": {**self.macro.to_dict(), "classes": len(self.attempted)},
            "scheme": {**self.scheme.to_dict(), "classes": self.scheme_classes},
            "attempted": list(self.attempted),
            "coefficients": list(self.coefficients),
            "classes": [score.to_dict() for score in self.classes],
        }


def dominant_score(counts: np.ndarray, classes: tuple[str, ...],
                   coefficients: tuple[float, ...], attempted: tuple[str, ...] | None,
                   scheme_classes: int | None) -> DominantScore:
    """The scores of summed counts (six per class, in ``classes`` order)."""
    labels = classes or (UNTYPED_CLASS,)
    table = np.asarray(counts, dtype=np.float64).reshape(len(labels), len(KINDS))
    titles = CLASS_TITLES if classes == DEFAULT_COREFERENCE_CLASSES else {}
    chosen = set(attempted) if attempted is not None else {
        label for label, row in zip(labels, table, strict=True) if row.any()}
    scores = []
    for label, row in zip(labels, table.tolist(), strict=True):
        tp, wt, wl, wtl, fn, fp = row
        credit = (coefficients[0] * tp + coefficients[1] * wt + coefficients[2] * wl
                  + coefficients[3] * wtl)
        recall = ratio(credit, tp + wt + wl + wtl + fn)
        precision = ratio(credit, tp + wt + wl + wtl + fp)
        scores.append(ClassScore(label, titles.get(label, label), tp, wt, wl, wtl, fn, fp,
                                 credit, recall, precision, f1_score(recall, precision),
                                 label in chosen))
    used = [score for score in scores if score.attempted]
    credit = sum_in_order(score.credit for score in used)
    micro = Averages.of(ratio(credit, sum(score.key_annotations for score in used)),
                        ratio(credit, sum(score.response_annotations for score in used)))
    recall_sum = sum_in_order(score.recall for score in used)
    precision_sum = sum_in_order(score.precision for score in used)
    macro = Averages.of(ratio(recall_sum, len(used)), ratio(precision_sum, len(used)))
    scheme_size = scheme_classes if scheme_classes is not None else len(labels)
    scheme = Averages.of(recall_sum / scheme_size, precision_sum / scheme_size)
    return DominantScore(micro.recall, micro.precision, micro.f1, micro, macro, scheme,
                         tuple(scores), tuple(score.coreference_class for score in used),
                         scheme_size, tuple(coefficients))


@lru_cache(maxsize=32)
def configured_dominant(classes: tuple[str, ...], coefficients: tuple[float, ...],
                        attempted: tuple[str, ...] | None,
                        scheme_classes: int | None) -> Metric:
    """The ``dominant`` metric for one set of classes (its count fields depend on them)."""
    labels = classes or (UNTYPED_CLASS,)

    def score(counts: np.ndarray) -> DominantScore:
        return dominant_score(counts, classes, coefficients, attempted, scheme_classes)

    fields = tuple(f"{label}:{kind}" for label in labels for kind in KINDS)
    return Metric("dominant", metric_title("dominant"), fields, count_dominant, score, _REFERENCE,
                  configure=configure_dominant)


def configure_dominant(options: Options) -> Metric:
    return configured_dominant(options.coreference_classes, options.dominant_coefficients,
                               options.attempted_classes, options.scheme_classes)


def class_table_rows(score: DominantScore) -> list[dict[str, Any]]:
    """Table 3 as rows: one per class, then micro, macro and scheme-coverage averages
    (fractions; counts as numbers)."""
    rows: list[dict[str, Any]] = []
    for item in score.classes:
        rows.append({"class": item.title, "tp": item.tp, "wt": item.wt, "wl": item.wl,
                     "wtl": item.wtl, "fn": item.fn, "fp": item.fp,
                     "key_annotations": item.key_annotations, "precision": item.precision,
                     "recall": item.recall, "f1": item.f1})
    for name, averages in (("micro", score.micro), ("macro", score.macro),
                           ("scheme", score.scheme)):
        rows.append({"class": name, "precision": averages.precision,
                     "recall": averages.recall, "f1": averages.f1})
    return rows


def class_table_csv(score: DominantScore) -> str:
    """Table 3 as CSV (``class,tp,wt,wl,wtl,fn,fp,key_annotations,precision,recall,f1``)."""
    from anascore.formats.io.csv_output import csv_records

    columns = ["class", "tp", "wt", "wl", "wtl", "fn", "fp", "key_annotations", "precision",
               "recall", "f1"]
    counts = set(columns[1:8])
    return csv_records(columns, ({name: int(value) if name in counts else value
                                  for name, value in row.items()}
                                 for row in class_table_rows(score)))


def class_table_text(score: DominantScore) -> list[str]:
    """Table 3 as text lines, percentages with two decimals."""
    attempted = len(score.attempted)
    averages = ((f"micro ({attempted} attempted)", score.micro),
                (f"macro ({attempted} attempted)", score.macro),
                (f"scheme ({score.scheme_classes} "
                 f"{'class' if score.scheme_classes == 1 else 'classes'})", score.scheme))
    width = max([len(item.title) for item in score.classes]
                + [len(name) for name, _ in averages] + [len("coreference class")]) + 2
    header = (f"{'coreference class':<{width}}" + "".join(f"{name:>7}" for name in
                                                           ("TP", "WT", "WL", "WTL", "FN", "FP",
                                                            "S*"))
              + f"{'precision':>11}{'recall':>9}{'F1':>9}")
    k = ", ".join(f"{value:g}" for value in score.coefficients)
    lines = [f"dominant mentions (Žitkus et al. 2023), k = {k}", header]
    for item in score.classes:
        counts = (item.tp, item.wt, item.wl, item.wtl, item.fn, item.fp, item.key_annotations)
        mark = "" if item.attempted else " (not attempted)"
        lines.append(f"{item.title:<{width}}" + "".join(f"{value:>7g}" for value in counts)
                     + f"{item.precision * 100:>11.2f}{item.recall * 100:>9.2f}"
                     f"{item.f1 * 100:>9.2f}{mark}")
    blank = " " * (7 * 7)
    for name, average in averages:
        lines.append(f"{name:<{width}}{blank}{average.precision * 100:>11.2f}"
                     f"{average.recall * 100:>9.2f}{average.f1 * 100:>9.2f}")
    return lines


_REFERENCE = ("Žitkus, Butkienė & Butleris 2023, Linguistically aware evaluation of coreference "
              "resolution from the perspective of higher-level applications (§4.3, eqs. 37–48)")
DOMINANT = configured_dominant(DEFAULT_COREFERENCE_CLASSES, DEFAULT_DOMINANT_COEFFICIENTS,
                               None, None)
