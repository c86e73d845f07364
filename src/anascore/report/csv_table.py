"""CSV output: one tidy table of every number, for spreadsheets and data frames.

One row per (section, system, document, metric), where ``section`` is ``corpus`` (corpus
scores, with their intervals when computed), ``document`` (per-document scores), or the name
of a paired test (``paired-bs``, ``paired-ar``: one row per compared system and metric). A
metric of several parts has a row per part after its own: ``bridging:anaphor_recognition``,
``bridging:mention``, ``bridging:entity``; ``dominant:CLASS`` and its averages.
Scores and p-values are fractions, as in the JSON output; empty cells where a value does not
apply — a score that is not applicable (0/0, :mod:`anascore.metrics.scores`) or a test that cannot
mean
anything on so few documents is empty, with the reason in the ``note`` column (as are the
warnings of a test or interval that rests on too little data). Every row carries the
signature, so that a row taken out of the file still says how it was computed.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from anascore.formats.io.csv_output import csv_records
from anascore.metrics.dominant import Averages, ClassScore, DominantScore
from anascore.metrics.scores import BridgingScore, MetricResult, Score, is_applicable
from anascore.report.systems import SystemsReport

COLUMNS = (
    "section", "system", "document", "metric", "recall", "precision", "f1",
    "recall_low", "recall_high", "precision_low", "precision_high", "f1_low", "f1_high",
    "baseline", "delta", "delta_low", "delta_high", "win_rate", "p_value", "p_adjusted",
    "trials", "note", "signature",
)


def _score_fields(score: MetricResult | Averages | ClassScore) -> dict[str, Any]:
    """Recall, precision and F1 (empty where not applicable), and why one is not."""
    result: dict[str, Any] = {"recall": _value(getattr(score, "recall", None)),
              "precision": _value(getattr(score, "precision", None)), "f1": _value(score.f1)}
    reason = getattr(score, "reason", None)
    if reason is not None:
        result["note"] = f"n/a: {reason}"
    return result


def _value(value: float | None) -> float | None:
    """A value, or ``None`` (an empty cell) where it is not applicable."""
    return value if value is not None and is_applicable(value) else None


def _parts(metric: str, score: MetricResult) -> list[tuple[str, Score]]:
    """The levels of a bridging score as rows of their own, ``bridging:mention`` …; its own
    row holds the entity level, the score CODI-CRAC ranks by."""
    if not isinstance(score, BridgingScore):
        return []
    return [(f"{metric}:{part.name}", getattr(score, part.name)) for part in fields(score)]


def render_csv(systems: SystemsReport, *, per_document: bool = False,
               sort_by: str | None = None) -> str:
    """Every number of the report as CSV rows (see the module docstring)."""
    rows: list[dict[str, Any]] = []
    for system, report in zip(systems.names, systems.reports, strict=True):
        for metric, score in report.metrics.items():
            row = {"section": "corpus", "system": system, "metric": metric,
                   **_score_fields(score)}
            if report.intervals is not None:
                interval = report.intervals[metric]
                for name in ("recall", "precision", "f1"):
                    bounds = getattr(interval, name)
                    if bounds is not None:
                        row[f"{name}_low"] = _value(bounds.low)
                        row[f"{name}_high"] = _value(bounds.high)
            rows.append(row)
            rows += [{"section": "corpus", "system": system, "metric": part,
                      **_score_fields(values)} for part, values in _parts(metric, score)]
    for system, report in zip(systems.names, systems.reports, strict=True):
        dominant = report.metrics.get("dominant")
        if isinstance(dominant, DominantScore):  # its classes and averages, as 'dominant:CLASS'
            parts = [(item.coreference_class, item) for item in dominant.classes] + [
                ("micro", dominant.micro), ("macro", dominant.macro), ("scheme", dominant.scheme)]
            rows += [{"section": "corpus", "system": system, "metric": f"dominant:{part}",
                      **_score_fields(values)} for part, values in parts]
    for result in systems.tests:
        rows.append({"section": result.test, "system": result.system, "metric": result.metric,
                     "f1": _value(result.system_f1), "baseline": result.baseline,
                     "delta": _value(result.delta), "delta_low": _value(result.delta_low),
                     "delta_high": _value(result.delta_high),
                     "win_rate": _value(result.win_rate), "p_value": _value(result.p_value),
                     "p_adjusted": _value(result.p_adjusted), "trials": result.trials,
                     "note": result.note})
    if per_document or sort_by is not None:
        for system, report in zip(systems.names, systems.reports, strict=True):
            scores = report.per_document()
            for document in report.document_order(sort_by):
                for metric, score in scores[document].items():
                    rows += [{"section": "document", "system": system, "document": document,
                              "metric": name, **_score_fields(values)}
                             for name, values in [(metric, score), *_parts(metric, score)]]
    for row in rows:
        row["signature"] = systems.signature
    return csv_records(COLUMNS, rows)
