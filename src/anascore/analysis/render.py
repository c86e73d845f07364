"""The error analysis as text, JSON, CSV or Markdown: a table of error counts (a column per
system), the impact table (per error type, each metric's F1 with only that type fixed, and its
gain), optionally every document's counts and the list of errors. The CSV is one long table
(:data:`CSV_COLUMNS`) a program reads as it is; JSON and CSV give scores as fractions."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping
from typing import Any

from anascore.analysis import OUTPUTS as OUTPUTS  # the choices, re-exported
from anascore.analysis.analyse import ErrorAnalysis, points, signed_points
from anascore.analysis.classification import ERROR_TYPES
from anascore.config.metric_names import metric_title
from anascore.formats.io.csv_output import csv_records


def analyses_to_dict(analyses: Mapping[str, ErrorAnalysis], *, per_document: bool = False,
                     listed: bool = False) -> dict[str, Any]:
    """One system: its :meth:`ErrorAnalysis.to_dict`; several: ``{"systems": {NAME: …}}``."""
    found = {name: analysis.to_dict(per_document=per_document, listed=listed)
             for name, analysis in analyses.items()}
    if len(found) == 1:
        return next(iter(found.values()))
    return {"systems": found}


def _rows(analyses: Mapping[str, ErrorAnalysis], per_document: bool
          ) -> list[tuple[str, list[list[str]]]]:
    """Titled tables of strings (first row: the header; metrics by their titles, ``B3``,
    as ``anascore score`` prints them, where JSON and CSV keep their names)."""
    names = list(analyses)
    tables = []
    counts = {name: analysis.counts() for name, analysis in analyses.items()}
    types = next(iter(analyses.values())).error_types if analyses else ERROR_TYPES
    tables.append(("Errors (Kummerfeld & Klein 2013)",
                   [["error type", *names]]
                   + [[kind, *(str(counts[name][kind]) for name in names)]
                      for kind in types]))
    for name, analysis in analyses.items():
        impact = analysis.impact_table()
        metrics = list(analysis.report.metrics)
        title = "Impact: F1 with only that type fixed (gain)"
        if len(names) > 1:
            title += f" — {name}"
        rows = [["fixed", *map(metric_title, metrics)],  # titled as score's tables title them
                ["none", *(points(100 * analysis.report.metrics[metric].f1)
                           for metric in metrics)]]
        rows += [[kind, *(_fixed(impact[kind][metric]) for metric in metrics)]
                 for kind in analysis.fixes]
        tables.append((title, rows))
    if per_document:
        for name, analysis in analyses.items():
            title = "Errors per document" + (f" — {name}" if len(names) > 1 else "")
            tables.append((title, [["document", *analysis.error_types]]
                           + [[document, *(str(count) for count in counts.values())]
                              for document, counts in analysis.per_document().items()]))
    return tables


#: The columns of ``anascore errors --output csv``: one long table, a row per value. ``section``
#: says what a row holds: ``errors`` (a type's number of errors in ``value``), ``score`` (a
#: metric's F1 as the response is), ``impact`` (a metric's F1 with only ``type`` fixed in
#: ``value``, its gain in ``delta``), ``document`` (``--per-document``: a type's number of
#: errors in one document) and ``error`` (``--list``: one error, its mentions and entities).
#: Scores are fractions, as in every JSON and CSV anascore writes; an empty cell is n/a.
CSV_COLUMNS: tuple[str, ...] = (
    "system", "section", "document", "type", "layer", "metric", "value", "delta",
    "key_mentions", "response_mentions", "key_entities", "response_entities")


def _number(value: float) -> float | None:
    """A score as a CSV cell: the number, or an empty cell when it is not applicable."""
    return None if math.isnan(value) else value


def _csv_records(analyses: Mapping[str, ErrorAnalysis], per_document: bool,
                 listed: bool) -> Iterator[dict[str, Any]]:
    for name, analysis in analyses.items():
        for kind, count in analysis.counts().items():
            yield {"system": name, "section": "errors", "type": kind, "value": count}
        for metric, found in analysis.report.metrics.items():
            yield {"system": name, "section": "score", "metric": metric,
                   "value": _number(found.f1)}
        for kind, row in analysis.impact_fractions().items():
            for metric, values in row.items():
                yield {"system": name, "section": "impact", "type": kind, "metric": metric,
                       "value": _number(values["f1"]), "delta": _number(values["delta_f1"])}
        if per_document:
            for document, counts in analysis.per_document().items():
                for kind, count in counts.items():
                    yield {"system": name, "section": "document", "document": document,
                           "type": kind, "value": count}
        if listed:
            for error in analysis.error_list():
                yield {"system": name, "section": "error", "document": error["document"],
                       "type": error["type"], "layer": error["layer"],
                       "key_mentions": " | ".join(error["key_mentions"]),
                       "response_mentions": " | ".join(error["response_mentions"]),
                       "key_entities": " ".join(error["key_entities"]),
                       "response_entities": " ".join(error["response_entities"])}


def _fixed(values: Mapping[str, float]) -> str:
    """``F1 (gain)``, or ``n/a`` for a metric not applicable to these documents."""
    if math.isnan(values["f1"]):
        return "n/a"
    return f"{points(values['f1'])} ({signed_points(values['delta_f1'])})"


def _listing(analyses: Mapping[str, ErrorAnalysis], markdown: bool) -> str:
    from anascore.report.markdown import escape as escape_markdown

    lines = []
    for name, analysis in analyses.items():
        heading = "Errors" + (f" of {name}" if len(analyses) > 1 else "")
        lines.append(f"## {heading}" if markdown else heading)
        for error in analysis.error_list():
            key = "; ".join(error["key_mentions"]) or "—"
            response = "; ".join(error["response_mentions"]) or "—"
            entities = ("key " + ",".join(error["key_entities"]) if error["key_entities"]
                        else "") + (" response " + ",".join(error["response_entities"])
                                    if error["response_entities"] else "")
            kind = error["type"] if error["layer"] == "identity" else \
                f"{error['type']} ({error['layer'].replace('_', ' ')})"
            fields = [error["document"], kind, f"key: {key}", f"response: {response}",
                      entities.strip()]
            lines.append("- " + " · ".join(map(escape_markdown, fields)) if markdown
                         else "\t".join(fields))
        lines.append("")
    return "\n".join(lines)


def render_errors(analyses: Mapping[str, ErrorAnalysis], output: str, *,
                  per_document: bool = False, listed: bool = False) -> str:
    """``analyses`` (by system name, in order) as ``output``."""
    if output == "json":
        return json.dumps(analyses_to_dict(analyses, per_document=per_document, listed=listed),
                          indent=2, ensure_ascii=False) + "\n"
    if output == "csv":
        return csv_records(CSV_COLUMNS, _csv_records(analyses, per_document, listed))
    tables = _rows(analyses, per_document)
    from anascore.report.markdown import escape as escape_markdown

    markdown = output == "markdown"
    parts = []
    for title, rows in tables:
        if markdown:
            parts.append(f"### {escape_markdown(title)}\n")
            parts += ["| " + " | ".join(map(escape_markdown, row)) + " |" for row in rows[:1]]
            parts.append("|" + "|".join("---" for _ in rows[0]) + "|")
            parts += ["| " + " | ".join(map(escape_markdown, row)) + " |" for row in rows[1:]]
        else:
            widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
            parts.append(title)
            for row in rows:
                parts.append("  ".join(cell.ljust(width) if column == 0 else cell.rjust(width)
                                       for column, (cell, width)
                                       in enumerate(zip(row, widths, strict=True))).rstrip())
        parts.append("")
    text = "\n".join(parts)
    if listed:
        text += "\n" + _listing(analyses, markdown)
    return text
