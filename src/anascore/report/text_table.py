"""The default text table: one row per metric, recall, precision and F1 in percent."""

from __future__ import annotations

from anascore.config.metric_names import metric_title
from anascore.config.presets import describe_mode
from anascore.metrics.scores import (
    BridgingScore,
    MetricResult,
    RecallPrecisionResult,
    is_applicable,
)
from anascore.report import Report

_BRIDGING_PARTS = {"anaphor_recognition": "anaphors", "mention": "mention", "entity": "entity"}


def _rows(name: str, score: MetricResult) -> list[tuple[str, MetricResult]]:
    title = metric_title(name)
    if isinstance(score, BridgingScore):
        return [(f"{title} {label}", getattr(score, part))
                for part, label in _BRIDGING_PARTS.items()]
    return [(title, score)]


def _percent(value: float, width: int) -> str:
    """A score in percent, or ``n/a`` (not applicable: 0/0), right-aligned."""
    return f"{'n/a':>{width}}" if not is_applicable(value) else f"{value * 100:>{width}.2f}"


def _row(title: str, score: MetricResult, width: int) -> str:
    if not isinstance(score, RecallPrecisionResult):  # an average of F1s
        return f"{title:<{width}}{'':>10}{'':>11}{_percent(score.f1, 9)}"
    return (f"{title:<{width}}{_percent(score.recall, 10)}{_percent(score.precision, 11)}"
            f"{_percent(score.f1, 9)}")


def not_applicable_notes(scores: dict[str, MetricResult]) -> list[str]:
    """A line per score (or bridging level) that is not applicable, saying why."""
    notes = []
    for name, score in scores.items():
        for title, part in _rows(name, score):
            reason = getattr(part, "reason", None)
            if reason is not None:
                notes.append(f"{title}: n/a — {reason}")
    return notes


def _table(scores: dict[str, MetricResult]) -> list[str]:
    rows = [row for name, score in scores.items() for row in _rows(name, score)]
    width = max([10, *(len(title) + 2 for title, _ in rows)])
    return [f"{'metric':<{width}}{'recall':>10}{'precision':>11}{'F1':>9}",
            *(_row(title, score, width) for title, score in rows)]


def render_text(report: Report, *, per_document: bool = False) -> str:
    """The metrics table (and, if asked, one table per document), then the mode and the
    signature."""
    lines: list[str] = []
    if per_document:
        for name, scores in report.per_document().items():
            lines.append(f"document {name}")
            lines += _table(scores)
            lines += not_applicable_notes(scores)
            lines.append("")
        lines.append(f"corpus ({len(report.document_names)} documents)")
    lines += _table(report.metrics)
    lines += not_applicable_notes(report.metrics)
    if "dominant" in report.metrics:
        from anascore.metrics.dominant import DominantScore, class_table_text

        dominant = report.metrics["dominant"]
        assert isinstance(dominant, DominantScore)
        lines += ["", *class_table_text(dominant)]
    lines.append("")
    lines.append(f"mode: {describe_mode(report.options)}")
    lines.append(f"signature: {report.signature}")
    return "\n".join(lines) + "\n"
