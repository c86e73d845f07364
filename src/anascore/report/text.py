"""The default text table: one row per metric, recall, precision and F1 in percent."""

from __future__ import annotations

from anascore.metrics import REGISTRY
from anascore.metrics.dominant import DominantScore, class_table_text
from anascore.report import Report
from anascore.scores import AverageScore, MetricResult

_TITLES = {"conll": "CoNLL"}


def _row(name: str, score: MetricResult) -> str:
    title = _TITLES.get(name) or REGISTRY[name].title
    if isinstance(score, AverageScore):
        return f"{title:<10}{'':>10}{'':>11}{score.f1 * 100:>9.2f}"
    return (f"{title:<10}{score.recall * 100:>10.2f}{score.precision * 100:>11.2f}"
            f"{score.f1 * 100:>9.2f}")


def render_text(report: Report, *, per_document: bool = False) -> str:
    """The metrics table (and, if asked, one table per document), then the signature."""
    header = f"{'metric':<10}{'recall':>10}{'precision':>11}{'F1':>9}"
    lines: list[str] = []
    if per_document:
        for name, scores in report.per_document().items():
            lines += [f"document {name}", header]
            lines += [_row(metric, score) for metric, score in scores.items()]
            lines.append("")
        lines.append(f"corpus ({len(report.document_names)} documents)")
    lines.append(header)
    lines += [_row(name, score) for name, score in report.metrics.items()]
    for score in report.metrics.values():
        if isinstance(score, DominantScore):
            lines += ["", *class_table_text(score)]
    lines.append("")
    if report.options.only_split_antecedents:
        lines.append("mode: split-antecedent plurals only (Paun et al. 2023 §7)")
    elif report.options.keep_split_antecedents:
        lines.append("mode: split-antecedent plurals scored (Paun et al. 2023)")
    lines.append(f"signature: {report.signature}")
    return "\n".join(lines) + "\n"
