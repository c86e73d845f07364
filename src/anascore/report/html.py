"""``anascore report``: one self-contained HTML file to look at a system's output.

The file holds the corpus scores (with intervals when asked), the per-document table
(sortable), the error table of the error analysis (:mod:`anascore.analysis`) with an impact
chart, grouped scores when asked, and every document's text side by side — key and response
— with mentions bracketed and coloured by entity, errors marked by type, zeros, discontinuous
mentions, non-referring markables, bridging links and split-antecedent plurals shown.
Clicking an entity highlights its mentions on both sides (a response mention aligned to one
of them too).

Everything is inline (CSS, JavaScript, the data as one JSON object, the plot as SVG): the file
opens without a network. Documents are drawn only when opened, so a whole corpus (GUM: 281
documents) stays light (``docs/report.md``).

This module only draws the page from the data it is given (:class:`ReportPage`); the scoring
and the error analysis that gather that data are :mod:`anascore.analysis.report_page`'s.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from anascore.config.metric_names import metric_title
from anascore.config.options import KEY_HASH_DIGITS
from anascore.report import Report
from anascore.report.groups import GroupedScores
from anascore.report.html_template import TEMPLATE, fill

#: What the JSON of the page's data block must not hold as such, and its escape: "<" (a
#: "</script>" would close the block, a "<!--<script>" keep its "</script>" from closing it),
#: ">" and "&" (as is customary), and U+2028 and U+2029 (line ends to JavaScript before
#: ES2019). They occur in JSON only inside strings, where a \u escape is the same text.
_SCRIPT_ESCAPES = (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                   ("\u2028", "\\u2028"), ("\u2029", "\\u2029"))

#: A UTF-16 surrogate, alone in a Python string (:func:`_as_unicode`).
_SURROGATE = re.compile("[\ud800-\udfff]")

#: The letter each error type is marked with on the text.
ERROR_MARKS = {"span_error": "S", "conflated_entities": "C", "divided_entity": "D",
               "extra_mention": "X", "missing_mention": "M", "extra_entity": "E",
               "missing_entity": "N"}


def _percent(value: float) -> str:
    return "n/a" if math.isnan(value) else f"{100 * value:.2f}"


def _scores_table(names: Sequence[str], reports: Sequence[Report]) -> str:
    metrics = list(reports[0].metrics)
    head = "".join(f"<th>{escape(name)}</th>" for name in names)
    rows = []
    for metric in metrics:
        cells = []
        for report in reports:
            score = report.metrics[metric]
            text = _percent(score.f1)
            if report.intervals is not None and metric in report.intervals:
                interval = report.intervals[metric]
                low, high = getattr(interval, "low", math.nan), getattr(interval, "high", math.nan)
                if not (math.isnan(low) or math.isnan(high)):
                    text += f" <small>[{100 * low:.2f}, {100 * high:.2f}]</small>"
            cells.append(f"<td>{text}</td>")
        rows.append(f"<tr><th>{escape(metric_title(metric))}</th>{''.join(cells)}</tr>")
    return (f"<table class='scores'><tr><th>F1</th>{head}</tr>{''.join(rows)}</table>")


def _errors_table(names: Sequence[str], error_types: Sequence[str],
                  errors: Sequence[SystemErrors]) -> str:
    head = "".join(f"<th>{escape(name)}</th>" for name in names)
    rows = []
    for kind in error_types:
        cells = "".join(f"<td>{system.counts[kind]}</td>" for system in errors)
        mark = ERROR_MARKS.get(kind)
        badge = f"<span class='err {mark}'>{mark}</span> " if mark else ""
        rows.append(f"<tr><th>{badge}"
                    f"{kind.replace('_', ' ')}</th>{cells}</tr>")
    return f"<table class='scores'><tr><th>errors</th>{head}</tr>{''.join(rows)}</table>"


def _impact_chart(names: Sequence[str], error_types: Sequence[str],
                  errors: Sequence[SystemErrors], metric: str) -> str:
    """A horizontal bar chart (inline SVG) of the F1 points each error type costs."""
    bar, gap, label, width = 14, 4, 150, 300
    rows = [(kind, [system.impact[kind][metric] for system in errors])
            for kind in error_types]
    largest = max((value for _, values in rows for value in values if not math.isnan(value)),
                  default=0) or 1
    height = len(rows) * (len(names) * bar + gap * 2) + 24
    parts = [f"<svg class='chart' width='{label + width + 60}' height='{height}' "
             f"role='img' aria-label='F1 gained by fixing each error type'>"]
    y = 4
    colours = ["#3b6fb6", "#d07a2b", "#4a9a5b", "#8a5bb0", "#b04a4a"]
    for kind, values in rows:
        parts.append(f"<text x='{label - 6}' y='{y + bar}' text-anchor='end'>"
                     f"{kind.replace('_', ' ')}</text>")
        for index, value in enumerate(values):
            if math.isnan(value):  # the metric is not applicable to these documents
                parts.append(f"<text x='{label + 4}' y='{y + bar - 3}'>n/a</text>")
                y += bar
                continue
            length = max(0.0, value) / largest * width
            parts.append(f"<rect x='{label}' y='{y}' width='{length:.1f}' height='{bar - 2}' "
                         f"fill='{colours[index % len(colours)]}'><title>{escape(names[index])}"
                         f": +{value:.2f}</title></rect>"
                         f"<text x='{label + length + 4:.1f}' y='{y + bar - 3}'>+{value:.2f}"
                         "</text>")
            y += bar
        y += gap * 2
    parts.append(f"<text x='{label}' y='{height - 4}' class='axis'>"
                 f"{escape(metric_title(metric))} F1 points gained by fixing only that type"
                 "</text></svg>")
    return "".join(parts)


def _plot_svg(reports: Sequence[Report], names: Sequence[str]) -> str:
    """The bar chart of ``anascore plot`` (matplotlib, the ``plot`` extra) as inline SVG, or
    a note that it needs matplotlib."""
    import importlib.util
    import tempfile

    if importlib.util.find_spec("matplotlib") is None:
        return "<p class='note'>The score plot needs matplotlib (pip install matplotlib).</p>"
    from anascore.report.plot import plot_report

    data = reports[0].to_dict()
    # Names as the page shows them (a lone surrogate, which matplotlib cannot draw, as
    # U+FFFD: _as_unicode); a report of one response names no system: given apart.
    names = [_SURROGATE.sub("\ufffd", name) for name in names]
    name = names[0] if len(reports) == 1 else None
    if len(reports) > 1:  # the fields the systems share, as anascore score --output json
        data = {**{field: data[field] for field in ("signature", "options", "documents")},
                "systems": {name: report.to_dict() for name, report in zip(names, reports,
                                                                           strict=True)}}
    with tempfile.TemporaryDirectory() as folder:
        target = os.path.join(folder, "scores.svg")
        plot_report(data, target, name=name)
        with open(target, encoding="utf-8") as stream:
            svg = stream.read()
    return svg[svg.find("<svg"):]


@dataclass(frozen=True)
class SystemErrors:
    """What the page shows of one system's error analysis: the corpus's number of errors of
    each type, and each type's impact (``{TYPE: {METRIC: F1 points gained by fixing only
    that type}}``, :meth:`anascore.analysis.analyse.ErrorAnalysis.impact_table`)."""

    counts: Mapping[str, int]
    impact: Mapping[str, Mapping[str, float]]


@dataclass(frozen=True)
class ReportPage:
    """Everything the page shows, gathered by :mod:`anascore.analysis.report_page` (which
    scores and analyses the documents): this module only draws it.

    ``documents`` holds each key document's data for the page's script (its words, both
    sides' mentions and entities, the error marks: ``report_page.document_data``);
    ``layers`` the layers the errors are classified on; ``key_hash`` the SHA-256 of the key
    file, shown beside the mode."""

    title: str
    names: Sequence[str]
    reports: Sequence[Report]
    error_types: Sequence[str]
    errors: Sequence[SystemErrors]
    documents: Sequence[dict[str, Any]]
    grouped: Sequence[GroupedScores] = ()
    warnings: Sequence[str] = ()
    layers: Sequence[str] = ("identity",)
    key_hash: str | None = None


def render_page(page: ReportPage) -> str:
    """The HTML text of the page (see the module docstring)."""
    reports, names = page.reports, page.names
    per_document = [[{metric: _number(score.f1) for metric, score in
                      report.document(document["n"]).items()} for document in page.documents]
                    for report in reports]
    chart_metric = "conll" if "conll" in reports[0].metrics else next(iter(reports[0].metrics))
    metrics = list(reports[0].metrics)
    data = {"systems": list(names), "metrics": metrics,
            "titles": [metric_title(metric) for metric in metrics],
            "documents": list(page.documents), "perDocument": per_document,
            "marks": ERROR_MARKS}
    groups_html = "".join(
        f"<h3>{escape(name)}</h3>{groups._repr_html_()}"
        for name, groups in zip(names, page.grouped, strict=False))
    key_hash = page.key_hash
    body = {
        "TITLE": escape(page.title),
        "MODE": escape(_mode(reports[0]) + (f" · key sha256 {key_hash[:KEY_HASH_DIGITS]}…"
                                              if key_hash is not None else "")),
        "LAYERS": escape(", ".join(page.layers)),
        # the run's signature as score prints it, whether or not the plot (which also
        # carries it) can be drawn
        "SIGNATURE": escape(reports[0].signature),
        "SCORES": _scores_table(names, reports),
        "PLOT": _plot_svg(reports, names),
        "ERRORS": _errors_table(names, page.error_types, page.errors),
        "IMPACT": _impact_chart(names, page.error_types, page.errors, chart_metric),
        "GROUPS": groups_html or "<p class='note'>No grouping asked (--group-by).</p>",
        "WARNINGS": "".join(f"<li>{escape(warning)}</li>" for warning in page.warnings),
        "DATA": script_json(data),
    }
    return _as_unicode(fill(TEMPLATE, body))

def _as_unicode(page: str) -> str:
    """The page as text UTF-8 can hold: the bytes of a file name (or of ``--names``) that
    are not UTF-8 reach Python as lone surrogates (``os.fsdecode``), which no encoder writes;
    each is shown as U+FFFD, as a terminal shows it."""
    try:
        page.encode("utf-8")  # four times faster than the search, which few pages need
    except UnicodeEncodeError:
        return _SURROGATE.sub("\ufffd", page)
    return page


def script_json(data: Any) -> str:
    """``data`` as JSON to put inside a ``<script>`` element: no character of it can end the
    element or change how HTML reads it (``_SCRIPT_ESCAPES``); ``JSON.parse`` of the
    element's text gives ``data`` back."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    for character, escape_ in _SCRIPT_ESCAPES:  # str.replace: 10 times str.translate's speed
        text = text.replace(character, escape_)
    return text


def _mode(report: Report) -> str:
    from anascore.config.presets import describe_mode

    return describe_mode(report.options)


def _number(value: float) -> float | None:
    return None if math.isnan(value) else round(value, 6)
