"""The tables every human-readable output shows, built once from a report.

Text, Markdown and LaTeX render the same :class:`Table` values, so the three never disagree
on what is shown: the scores (a row per metric for one system, a row per system with a column
per metric for several), the confidence intervals, the paired tests, and the per-document
scores. Cells hold fractions (scores, p-values) and are formatted by the renderer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from anascore.config.metric_names import DERIVED_METRICS, metric_title
from anascore.metrics.dominant import DominantScore
from anascore.metrics.scores import (
    BridgingScore,
    MetricResult,
    RecallPrecisionResult,
    is_applicable,
)
from anascore.report.systems import SystemsReport, test_notes
from anascore.stats.adequacy import interval_warnings
from anascore.stats.bootstrap import Interval
from anascore.stats.significance import APPROXIMATE_RANDOMIZATION, PAIRED_BOOTSTRAP

#: Titles of the derived metrics (kept importable here; the catalogue titles every metric:
#: :func:`anascore.config.metric_names.metric_title`).
DERIVED_TITLES = {name: metric_title(name) for name in DERIVED_METRICS}
#: The parts of a bridging score, each a row of one system's scores table (the entity level,
#: which the interval and every one-column table give, last).
BRIDGING_PARTS = {"anaphor_recognition": "anaphors", "mention": "mention", "entity": "entity"}
#: What each test is called in table titles.
TEST_TITLES = {
    PAIRED_BOOTSTRAP: "Paired bootstrap (Koehn 2004)",
    APPROXIMATE_RANDOMIZATION: "Approximate randomization (Riezler & Maxwell 2005)",
}
#: The mark of a score significantly different from the baseline's.
SIGNIFICANT = "*"
#: How tables show a value that is not applicable (0/0; a test on too few documents).
NOT_APPLICABLE = "n/a"
#: A value that is not applicable, in a cell.
NAN = float("nan")


@dataclass(frozen=True)
class Percent:
    """A score (a fraction), shown in percent, optionally with its interval and a mark."""

    value: float
    interval: Interval | None = None
    mark: str = ""


@dataclass(frozen=True)
class Signed:
    """A difference of scores (a fraction), shown in percentage points with its sign."""

    value: float
    interval: Interval | None = None


@dataclass(frozen=True)
class Probability:
    """A p-value or a rate, shown as a fraction; ``mark`` flags significance."""

    value: float
    mark: str = ""


@dataclass(frozen=True)
class Range:
    """An interval of scores alone, shown in percent."""

    interval: Interval


Cell = str | Percent | Signed | Probability | Range | None


@dataclass(frozen=True)
class Column:
    """``title`` heads the column, under ``group`` when columns share one (the metric of
    recall, precision and F1 columns); ``numeric`` columns are right-aligned."""

    title: str
    numeric: bool = True
    group: str = ""

    @property
    def heading(self) -> str:
        """The title with its group, for one-line headers."""
        return f"{self.group} {self.title}" if self.group else self.title


@dataclass(frozen=True)
class Table:
    """A titled table of cells; ``best_of_column``: the renderer may highlight each numeric
    column's highest score (LaTeX bolds it)."""

    title: str
    columns: tuple[Column, ...]
    rows: tuple[tuple[Cell, ...], ...]
    note: str = ""
    best_of_column: bool = False
    kind: str = field(default="scores", compare=False)


def _prf_cells(score: MetricResult, interval: Any, full: bool) -> list[Cell]:
    f1 = Percent(score.f1, interval.f1 if interval is not None else None)
    if not full:
        return [f1]
    if not isinstance(score, RecallPrecisionResult):  # an average of F1s
        return [None, None, f1]
    recall_interval = interval.recall if interval is not None else None
    precision_interval = interval.precision if interval is not None else None
    return [Percent(score.recall, recall_interval), Percent(score.precision, precision_interval),
            f1]


def _significance_marks(systems: SystemsReport) -> dict[tuple[str, str], str]:
    """``(system, metric) -> mark`` for scores that differ from the baseline's, by the paired
    bootstrap when it ran, else by approximate randomization (Holm-adjusted p below
    1 − confidence level)."""
    alpha = 1 - systems.options.confidence_level
    chosen = systems.test_results(PAIRED_BOOTSTRAP) or systems.test_results(
        APPROXIMATE_RANDOMIZATION)
    return {(result.system, result.metric): SIGNIFICANT for result in chosen
            if result.p_adjusted < alpha}


def significance_note(systems: SystemsReport) -> str:
    if not systems.tests:
        return ""
    test = PAIRED_BOOTSTRAP if systems.test_results(PAIRED_BOOTSTRAP) else \
        APPROXIMATE_RANDOMIZATION
    alpha = 1 - systems.options.confidence_level
    compared = len(systems.names) - 1
    return (f"{SIGNIFICANT} differs from {systems.baseline} (the baseline) with p < {alpha:g} "
            f"({TEST_TITLES[test].split(' (')[0].lower()}, Holm-adjusted over "
            f"{compared} system{'s' if compared > 1 else ''}).")


def scores_table(systems: SystemsReport, *, full: bool = False,
                 inline_intervals: bool = True) -> Table:
    """The corpus scores: a row per metric for one system, a row per system for several
    (with each score's interval beside it, unless ``inline_intervals`` is false: then
    :func:`intervals_table` shows them)."""
    metrics = systems.options.reported_metrics
    with_intervals = systems.reports[0].intervals is not None
    if len(systems.reports) == 1:
        report = systems.reports[0]
        columns = [Column("Metric", numeric=False), Column("Recall"), Column("Precision"),
                   Column("F1")]
        rows = []
        for name, score in report.metrics.items():
            interval = report.intervals[name] if report.intervals is not None else None
            if isinstance(score, BridgingScore):
                rows += [(f"{metric_title(name)} {label}",
                          *_prf_cells(getattr(score, part),
                                      interval if part == "entity" else None, True))
                         for part, label in BRIDGING_PARTS.items()]
                continue
            rows.append((metric_title(name), *_prf_cells(score, interval, True)))
        level = f"{systems.options.confidence_level:.0%}"
        note = (f"Intervals: {level} bootstrap percentile intervals "
                f"({systems.options.confidence} resamples of the documents)."
                if with_intervals else "")
        note = " ".join(part for part in (note, not_applicable_note(systems, with_intervals))
                        if part)
        return Table(f"Scores of {systems.names[0]} ({len(systems.document_names)} documents)",
                     tuple(columns), tuple(rows), note)
    columns = [Column("System", numeric=False), *_metric_columns(metrics, full)]
    marks = _significance_marks(systems)
    rows = []
    for system, report in zip(systems.names, systems.reports, strict=True):
        cells: list[Cell] = [system]
        for name in metrics:
            interval = (report.intervals[name] if report.intervals is not None
                        and inline_intervals else None)
            metric_cells = _prf_cells(report.metrics[name], interval, full)
            last = metric_cells[-1]
            assert isinstance(last, Percent)
            metric_cells[-1] = Percent(last.value, last.interval, marks.get((system, name), ""))
            cells += metric_cells
        rows.append(tuple(cells))
    notes = []
    if with_intervals and inline_intervals:
        notes.append(f"Intervals: {systems.options.confidence_level:.0%} bootstrap percentile "
                     f"intervals ({systems.options.confidence} resamples of the documents).")
    if systems.tests:
        notes.append(significance_note(systems))
    notes.append(not_applicable_note(systems, with_intervals and inline_intervals))
    what = "recall, precision and F1" if full else "F1"
    return Table(f"Scores ({what}, %) on {len(systems.document_names)} documents",
                 tuple(columns), tuple(rows), " ".join(notes), best_of_column=True)


def intervals_table(systems: SystemsReport, *, full: bool = False) -> Table | None:
    """The intervals of several systems' scores, a row per system (``None`` without
    intervals)."""
    if systems.reports[0].intervals is None:
        return None
    columns = [Column("System", numeric=False)]
    for name in systems.options.reported_metrics:
        title = metric_title(name)
        if full:
            columns += [Column("R", group=title), Column("P", group=title),
                        Column("F1", group=title)]
        else:
            columns.append(Column(title))
    rows = []
    for system, report in zip(systems.names, systems.reports, strict=True):
        assert report.intervals is not None
        cells: list[Cell] = [system]
        for name in systems.options.reported_metrics:
            interval = report.intervals[name]
            values = [interval.recall, interval.precision, interval.f1] if full else \
                [interval.f1]
            cells += [Range(value) if value is not None else None for value in values]
        rows.append(tuple(cells))
    level = f"{systems.options.confidence_level:.0%}"
    reasons = " ".join(part for part in (_interval_reasons(systems),
                                         _interval_caution(systems)) if part)
    return Table(f"{level} confidence intervals (%)", tuple(columns), tuple(rows),
                 f"Bootstrap percentile intervals, {systems.options.confidence} resamples of "
                 f"the documents, seed {systems.options.seed}."
                 + (f" {reasons}" if reasons else ""), kind="intervals")


def not_applicable_note(systems: SystemsReport, intervals: bool) -> str:
    """Why the scores (and, with ``intervals``, the intervals) shown as n/a are not
    applicable, each reason once with what it applies to."""
    found: dict[str, list[str]] = {}
    for system, report in zip(systems.names, systems.reports, strict=True):
        for name, score in report.metrics.items():
            parts = ([(f"{metric_title(name)} {label}", getattr(score, part))
                      for part, label in BRIDGING_PARTS.items()]
                     if isinstance(score, BridgingScore) else [(metric_title(name), score)])
            for title, part in parts:
                reason = getattr(part, "reason", None)
                if reason is not None:
                    who = title if len(systems.names) == 1 else f"{title} of {system}"
                    found.setdefault(reason, []).append(who)
    text = " ".join(f"n/a ({', '.join(dict.fromkeys(names))}): {reason}."
                    for reason, names in found.items())
    if intervals:
        text = " ".join(part for part in (text, _interval_reasons(systems),
                                          _interval_caution(systems)) if part)
    return text


def _interval_caution(systems: SystemsReport) -> str:
    """The warnings about intervals on too few documents or resamples, as sentences."""
    options = systems.options
    warnings = interval_warnings(len(systems.document_names), options.confidence,
                                 options.confidence_level)
    return " ".join(f"Caution: {warning}." for warning in warnings)


def _interval_reasons(systems: SystemsReport) -> str:
    found: dict[str, list[str]] = {}
    for report in systems.reports:
        for name, interval in (report.intervals or {}).items():
            if interval.reason is not None:
                found.setdefault(interval.reason, []).append(metric_title(name))
    return " ".join(f"Intervals n/a ({', '.join(dict.fromkeys(names))}): {reason}."
                    for reason, names in found.items())


def test_tables(systems: SystemsReport) -> list[Table]:
    """One table per test run: a row per system and metric, with the smallest p the test
    could have given (``min p``); ``n/a`` where the test is not applicable, and the notes of
    results that cannot reject or rest on too little data under the table."""
    tables = []
    for test in (PAIRED_BOOTSTRAP, APPROXIMATE_RANDOMIZATION):
        results = systems.test_results(test)
        if not results:
            continue
        alpha = 1 - systems.options.confidence_level
        bootstrap = test == PAIRED_BOOTSTRAP
        columns = [Column("System", numeric=False), Column("Metric", numeric=False),
                   Column("ΔF1")]
        if bootstrap:
            columns += [Column(f"{systems.options.confidence_level:.0%} CI of Δ"),
                        Column("wins")]
        columns += [Column("p"), Column("p (Holm)"), Column("min p")]
        rows = []
        for result in results:
            cells: list[Cell] = [result.system, metric_title(result.metric),
                                 Signed(result.delta)]
            if bootstrap:
                if result.delta_low is not None and result.delta_high is not None:
                    cells += [Signed(result.delta,
                                     Interval(result.delta_low, result.delta_high)),
                              Probability(result.win_rate if result.win_rate is not None
                                          else NAN)]
                else:
                    cells += [Signed(NAN), Probability(NAN)]
            mark = SIGNIFICANT if result.p_adjusted < alpha else ""
            floor = result.smallest_p if result.applicable else None
            cells += [Probability(result.p_value), Probability(result.p_adjusted, mark),
                      Probability(floor if floor is not None else NAN)]
            rows.append(tuple(cells))
        trials = results[0].trials
        what = "resamples" if bootstrap else "trials"
        note = (f"Against {systems.baseline} (the baseline), {trials} {what}, seed "
                f"{systems.options.seed}. ΔF1 in percentage points; p two-sided; "
                f"{SIGNIFICANT}: Holm-adjusted p < {alpha:g}; min p: the smallest p this test "
                f"could give on these documents and {what}.")
        if bootstrap:
            note += " wins: share of resamples where the system scores higher."
        note += "".join(f" {item.text(test_name=False)}." for item in test_notes(results))
        tables.append(Table(TEST_TITLES[test], tuple(columns), tuple(rows), note,
                            kind="tests"))
    return tables


def _metric_columns(metrics: Sequence[str], full: bool) -> list[Column]:
    """A column per metric (its F1), or with ``full`` three under its title: R, P and F1."""
    if not full:
        return [Column(metric_title(name)) for name in metrics]
    return [Column(part, group=metric_title(name)) for name in metrics
            for part in ("R", "P", "F1")]


def document_tables(systems: SystemsReport, *, full: bool = False,
                    sort_by: str | None = None) -> list[Table]:
    """A table per system: a row per document (worst first when ``sort_by`` names a
    metric), a column per metric."""
    metrics = systems.options.reported_metrics
    columns = [Column("Document", numeric=False), *_metric_columns(metrics, full)]
    tables = []
    for system, report in zip(systems.names, systems.reports, strict=True):
        scores = report.per_document()
        rows = []
        for document in report.document_order(sort_by):
            cells: list[Cell] = [document]
            for name in metrics:
                cells += _prf_cells(scores[document][name], None, full)
            rows.append(tuple(cells))
        order = (f", worst {metric_title(sort_by)} F1 first" if sort_by is not None
                 else ", in key order")
        what = "recall, precision and F1" if full else "F1"
        tables.append(Table(f"Documents of {system} ({what}, %{order})", tuple(columns),
                            tuple(rows), _document_note(rows), kind="documents"))
    return tables


def _document_note(rows: Sequence[tuple[Cell, ...]]) -> str:
    """A note when some document's score is not applicable."""
    if any(isinstance(cell, Percent) and not is_applicable(cell.value)
           for row in rows for cell in row):
        return (f"{NOT_APPLICABLE}: not applicable in that document (0/0: neither the key nor "
                "the response has anything the metric scores); such a document adds nothing "
                "to the corpus score.")
    return ""


def dominant_class_tables(systems: SystemsReport) -> list[Table]:
    """The dominant-mention evaluation's per-class table (Žitkus et al. 2023, Table 3) of each
    system, with its micro, macro and scheme-coverage averages."""
    tables: list[Table] = []
    counts = ("TP", "WT", "WL", "WTL", "FN", "FP", "S*")
    columns = (Column("Coreference class", numeric=False), *(Column(name) for name in counts),
               Column("Precision"), Column("Recall"), Column("F1"))
    for system, report in zip(systems.names, systems.reports, strict=True):
        score = report.metrics.get("dominant")
        if not isinstance(score, DominantScore):
            continue
        rows: list[tuple[Cell, ...]] = []
        for item in score.classes:
            title = item.title if item.attempted else f"{item.title} (not attempted)"
            rows.append((title, *(f"{value:g}" for value in (
                item.tp, item.wt, item.wl, item.wtl, item.fn, item.fp, item.key_annotations)),
                Percent(item.precision), Percent(item.recall), Percent(item.f1)))
        attempted = len(score.attempted)
        for name, average in ((f"micro ({attempted} attempted)", score.micro),
                              (f"macro ({attempted} attempted)", score.macro),
                              (f"scheme ({score.scheme_classes} "
                               f"class{'es' if score.scheme_classes != 1 else ''})",
                               score.scheme)):
            rows.append((name, *([None] * len(counts)), Percent(average.precision),
                         Percent(average.recall), Percent(average.f1)))
        k = ", ".join(f"{value:g}" for value in score.coefficients)
        tables.append(Table(f"Dominant mentions of {system} by coreference class (%)",
                            columns, tuple(rows), f"k = {k} (Žitkus et al. 2023).",
                            kind="dominant"))
    return tables


def all_tables(systems: SystemsReport, *, full: bool = False, per_document: bool = False,
               sort_by: str | None = None, inline_intervals: bool = True) -> list[Table]:
    """Every table of a report, in the order outputs show them (several systems' intervals
    beside their scores, or in a table of their own)."""
    tables = [scores_table(systems, full=full, inline_intervals=inline_intervals)]
    if not inline_intervals and len(systems.reports) > 1:
        intervals = intervals_table(systems, full=full)
        if intervals is not None:
            tables.append(intervals)
    tables += test_tables(systems)
    tables += dominant_class_tables(systems)
    if per_document or sort_by is not None:
        tables += document_tables(systems, full=full, sort_by=sort_by)
    return tables


# Text -------------------------------------------------------------------------------------

def format_cell(cell: Cell) -> str:
    """A cell as plain text: scores in percent with two decimals, intervals in brackets."""
    if cell is None:
        return ""
    if isinstance(cell, str):
        return cell
    if isinstance(cell, Percent):
        if not is_applicable(cell.value):
            return NOT_APPLICABLE
        text = f"{cell.value * 100:.2f}{cell.mark}"
        if cell.interval is not None:
            text += (f" [{NOT_APPLICABLE}]" if not is_applicable(cell.interval.low) else
                     f" [{_percent(cell.interval.low)}, {_percent(cell.interval.high)}]")
        return text
    if isinstance(cell, Signed):
        if not is_applicable(cell.value):
            return NOT_APPLICABLE
        if cell.interval is not None:
            return f"[{_signed(cell.interval.low)}, {_signed(cell.interval.high)}]"
        return _signed(cell.value)
    if isinstance(cell, Range):
        if not is_applicable(cell.interval.low):
            return NOT_APPLICABLE
        return f"{cell.interval.low * 100:.2f}–{cell.interval.high * 100:.2f}"
    if not is_applicable(cell.value):
        return NOT_APPLICABLE
    return f"{cell.value:.4f}{cell.mark}"


def _percent(value: float) -> str:
    return NOT_APPLICABLE if not is_applicable(value) else f"{value * 100:.2f}"


def _signed(value: float) -> str:
    return NOT_APPLICABLE if not is_applicable(value) else f"{value * 100:+.2f}"


def render_text_table(table: Table) -> list[str]:
    """A table as aligned text lines: its title, header, rows and note."""
    texts = [[format_cell(cell) for cell in row] for row in table.rows]
    headers = [column.heading for column in table.columns]
    widths = [max([len(headers[index]), *(len(row[index]) for row in texts)])
              for index in range(len(headers))]

    def line(values: Sequence[str]) -> str:
        parts = [value.rjust(width) if column.numeric else value.ljust(width)
                 for value, width, column in zip(values, widths, table.columns, strict=True)]
        return "  ".join(parts).rstrip()

    lines = [table.title, line(headers)]
    lines += [line(row) for row in texts]
    if table.note:
        lines.append(table.note)
    return lines


def render_text_tables(tables: Sequence[Table], signature: str, *, mode: str | None = None
                       ) -> str:
    """Tables one after the other, then the mode in words (when given) and the signature."""
    lines: list[str] = []
    for table in tables:
        lines += render_text_table(table)
        lines.append("")
    if mode is not None:
        lines.append(f"mode: {mode}")
    lines.append(f"signature: {signature}")
    return "\n".join(lines) + "\n"
