"""``anascore agree``'s outputs: text, JSON, CSV and Markdown.

Every output names the rule for missing mentions and what α's items are. Names of
annotations and documents come from the command line and the files: text shows them with
control characters escaped (:func:`anascore.core.errors.printable`), Markdown escapes its syntax,
CSV quotes them (the ``csv`` module) and puts ``'`` before a text cell that a spreadsheet
would read as a formula.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from typing import Any

from anascore.agree.alpha import MISSING_DESCRIPTIONS
from anascore.agree.core import ITEMS, Agreement
from anascore.agree.pairs import SYMMETRIC_MATCHES, PairAgreement
from anascore.config.presets import describe_mode
from anascore.core.errors import printable
from anascore.formats.io.csv_output import csv_rows
from anascore.report.markdown import escape, render_markdown_table
from anascore.report.tables import (
    NOT_APPLICABLE,
    Cell,
    Column,
    Percent,
    Table,
    metric_title,
    render_text_table,
)
from anascore.stats.bootstrap import Interval

#: The CSV columns.
CSV_COLUMNS = ("document", "kind", "a", "b", "measure", "value", "low", "high")


def render_agreement(result: Agreement, output: str, *, per_document: bool = False) -> str:
    """``result`` as ``output`` (``text``, ``json``, ``csv``, ``markdown``) prints it;
    JSON and CSV always hold the per-document rows, the tables only with
    ``per_document``."""
    if output == "json":
        return json.dumps(result.to_dict(), indent=2, allow_nan=False) + "\n"
    if output == "csv":
        return render_csv(result)
    tables = agreement_tables(result, per_document=per_document,
                              name=printable if output == "text" else str)
    header = (f"Agreement of {len(result.names)} annotations on "
              f"{len(result.document_names)} document"
              f"{'s' if len(result.document_names) != 1 else ''}")
    notes = [f"alpha items: {ITEMS}; {result.items} items",
             f"missing mentions ({result.missing}): {MISSING_DESCRIPTIONS[result.missing]}",
             _symmetry_note(result.pairs, printable if output == "text" else str)]
    if output == "markdown":
        lines = [f"**{escape(header)}**", ""]
        for table in tables:
            lines += [*render_markdown_table(table), ""]
        lines += [escape(note) + "  " for note in notes]
        lines += ["", f"Mode: {escape(describe_mode(result.options))}", "",
                  f"Signature: `{result.options.signature()}`"]
        return "\n".join(lines) + "\n"
    lines = [header, ""]
    for table in tables:
        lines += [*render_text_table(table), ""]
    lines += notes
    lines += [f"mode: {describe_mode(result.options)}",
              f"signature: {result.options.signature()}"]
    return "\n".join(lines) + "\n"


def _symmetry_note(pairs: Sequence[PairAgreement], name: Callable[[str], str]) -> str:
    if all(pair.symmetric for pair in pairs):
        return ("pairwise scores are F1, the same with either annotation as the key "
                "(A-B = B-A)")
    match = pairs[0].report.options.match
    if match not in SYMMETRIC_MATCHES:
        return (f"pairwise scores are F1 with the first annotation of each pair as the key: "
                f"--match {match} reads the key's spans (mention agreement by exact spans: "
            f"Mentions (exact), the same either way)")
    shown = ", ".join(f"{name(pair.a)}-{name(pair.b)} "
                      f"({', '.join(map(metric_title, pair.asymmetric()))})"
                      for pair in pairs if not pair.symmetric)
    return ("pairwise scores are F1, the same with either annotation as the key (A-B = B-A), "
            f"except BLANC for {shown}: one annotation has a kind of link (coreference or "
            "non-coreference) that the other lacks, and BLANC scores the kinds the key (the "
            "first) has")


def _alpha_text(value: float) -> str:
    return NOT_APPLICABLE if math.isnan(value) else f"{value:.4f}"


def _interval_text(interval: Interval) -> str:
    if math.isnan(interval.low):
        return NOT_APPLICABLE
    return f"[{interval.low:.4f}, {interval.high:.4f}]"


def agreement_tables(result: Agreement, *, per_document: bool = False,
                     name: Callable[[str], str] = str) -> list[Table]:
    """The tables of the text and Markdown outputs: α by distance; every pair's F1 (and
    their mean); for three or more annotations the CoNLL (or last metric's) F1 matrix; with
    ``per_document``, α and the pairs' mean F1 of every document."""
    tables = [_alpha_table(result)]
    metrics = list(result.pairs[0].f1())
    with_intervals = result.pairs[0].report.intervals is not None
    rows: list[tuple[Cell, ...]] = []
    for pair in result.pairs:
        scores = pair.f1()
        intervals = pair.report.intervals or {}
        rows.append((name(pair.a), name(pair.b),
                     *(Percent(scores[metric],
                               intervals[metric].f1 if metric in intervals else None)
                       for metric in metrics)))
    if len(result.pairs) > 1:
        mean = result.mean_f1()
        rows.append(("mean", "", *(Percent(mean[metric]) for metric in metrics)))
    tables.append(Table(
        "Pairwise agreement (F1" + (", with intervals" if with_intervals else "") + ")",
        (Column("a", numeric=False), Column("b", numeric=False),
         *(Column(_title(metric)) for metric in metrics)), tuple(rows)))
    if len(result.names) > 2:
        tables.append(_matrix(result, "conll" if "conll" in metrics else metrics[-1], name))
    if per_document:
        tables.append(_per_document_table(result, metrics, name))
    return tables


def _title(metric: str) -> str:
    return "Mentions (exact)" if metric == "mentions_exact" else metric_title(metric)


def _alpha_table(result: Agreement) -> Table:
    intervals = result.alpha_intervals
    columns = [Column("distance", numeric=False), Column("alpha")]
    if intervals is not None:
        columns.append(Column(f"{result.options.confidence_level:.0%} interval"))
    rows = []
    for distance, value in result.alpha.items():
        row: list[Cell] = [_distance_title(distance), _alpha_text(value)]
        if intervals is not None:
            row.append(_interval_text(intervals[distance]))
        rows.append(tuple(row))
    return Table("Krippendorff's alpha over mentions", tuple(columns), tuple(rows))


def _distance_title(name: str) -> str:
    """``jaccard``; another layer's ``discourse_deixis.jaccard`` as ``DD jaccard``."""
    layer, dot, distance = name.rpartition(".")
    return f"{'DD' if layer == 'discourse_deixis' else layer} {distance}" if dot else name


def _matrix(result: Agreement, metric: str, name: Callable[[str], str]) -> Table:
    """The pairwise F1 of one metric, an annotation per row and column (symmetric)."""
    found = {(pair.a, pair.b): pair.f1()[metric] for pair in result.pairs}
    rows = []
    for first in result.names:
        cells: list[Cell] = [name(first)]
        for second in result.names:
            if first == second:
                cells.append("")
            else:
                value = found.get((first, second), found.get((second, first)))
                cells.append(None if value is None else Percent(value))
        rows.append(tuple(cells))
    return Table(f"{_title(metric)} F1 by pair",
                 (Column("", numeric=False), *(Column(name(other)) for other in result.names)),
                 tuple(rows))


def _per_document_table(result: Agreement, metrics: Sequence[str],
                        name: Callable[[str], str]) -> Table:
    documents = set(result.pair_documents())
    shown = [metric for metric in ("mentions", "conll") if metric in metrics] or [metrics[-1]]
    rows = []
    for document in result.document_names:
        alpha = result.document_alpha(document)
        mean = result.mean_f1(document) if document in documents else {}
        rows.append((name(document), *(_alpha_text(value) for value in alpha.values()),
                     *(Percent(mean[metric]) if metric in mean else None
                       for metric in shown)))
    label = "mean F1 " if len(result.pairs) > 1 else "F1 "
    return Table("Per document",
                 (Column("document", numeric=False),
                  *(Column(f"alpha {_distance_title(name)}") for name in result.counts),
                  *(Column(label + _title(metric)) for metric in shown)), tuple(rows))


def render_csv(result: Agreement) -> str:
    """One row per value: α per distance and every pair's F1 per metric, for the corpus
    (``document`` empty) and every document; ``kind`` says which (``alpha``, ``pair``,
    ``mean``); scores as fractions."""
    table: list[list[Any]] = [list(CSV_COLUMNS),
                              ["", "missing", "", "", result.missing, "", "", ""]]
    documents = set(result.pair_documents())

    def number(value: float | None) -> str:
        return "" if value is None or math.isnan(value) else repr(float(value))

    def rows(document: str | None) -> None:
        cell = "" if document is None else document
        alpha = result.alpha if document is None else result.document_alpha(document)
        intervals = result.alpha_intervals if document is None else None
        for distance, value in alpha.items():
            interval = None if intervals is None else intervals[distance]
            table.append([cell, "alpha", "", "", distance, number(value),
                             number(None if interval is None else interval.low),
                             number(None if interval is None else interval.high)])
        if document is not None and document not in documents:
            return
        for pair in result.pairs:
            pair_intervals = pair.report.intervals if document is None else None
            for metric, value in pair.f1(document).items():
                found = None if pair_intervals is None else pair_intervals.get(metric)
                table.append([cell, "pair", pair.a, pair.b, metric,
                                 number(value),
                                 number(None if found is None else found.f1.low),
                                 number(None if found is None else found.f1.high)])
        if len(result.pairs) > 1:
            for metric, value in result.mean_f1(document).items():
                table.append([cell, "mean", "", "", metric, number(value), "", ""])

    rows(None)
    for document in result.document_names:
        rows(document)
    return csv_rows(table)
