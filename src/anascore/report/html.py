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
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Sequence
from dataclasses import replace
from html import escape
from typing import Any

from anascore.analysis.analyse import ErrorAnalysis, analyse_documents
from anascore.config.options import KEY_HASH_DIGITS, Options
from anascore.core.model import Document, Mention
from anascore.formats.io.conllu_alignment import common_positions
from anascore.report import Report
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


def _chunks(tokens: Sequence[int]) -> list[int] | list[list[int]]:
    """``[start, end]`` for a contiguous mention, else ``[[start, end], …]`` per chunk."""
    chunks: list[list[int]] = []
    for token in tokens:
        if chunks and token == chunks[-1][1] + 1:
            chunks[-1][1] = token
        else:
            chunks.append([token, token])
    return chunks[0] if len(chunks) == 1 else chunks


def _side(side: Any) -> dict[str, Any]:
    return {"m": [_chunks(mention.tokens) for mention in side.mentions],
            "e": side.entity_of.tolist(), "ids": list(side.entity_ids)}


def _marks(errors: Sequence[Any], mentions: Sequence[Mention], attribute: str
           ) -> dict[int, str]:
    index = {mention.tokens: position for position, mention in enumerate(mentions)}
    marks: dict[int, str] = {}
    for error in errors:
        for tokens in getattr(error, attribute):
            position = index.get(tuple(tokens))
            if position is not None and ERROR_MARKS[error.type] not in marks.get(position, ""):
                marks[position] = marks.get(position, "") + ERROR_MARKS[error.type]
    return marks


def _document_data(key: Document, responses: Sequence[Document | None],
                   analyses: Sequence[ErrorAnalysis], options: Options) -> dict[str, Any]:
    from anascore.scoring.pipeline import compare

    words = list(key.tokens)
    empty = ([position for position, node in enumerate(key.nodes.empty) if node]
             if key.nodes is not None else [])
    data: dict[str, Any] = {"n": key.name, "w": words, "s": list(key.sentence_starts),
                            "z": empty, "sys": []}
    data["nr"] = [_chunks(mention.tokens) for mention in key.non_referring]
    data["br"] = [[_chunks(link.anaphor.tokens),
                   _chunks(link.antecedent.tokens) if link.antecedent is not None else None,
                   link.antecedent_entity or "", link.relation] for link in key.bridging]
    data["sa"] = [[entity.id, list(entity.elements)] for entity in key.entities
                  if entity.elements]
    key_side = None
    for response, analysis in zip(responses, analyses, strict=True):
        key_document: Document | None = key
        if response is not None:
            key_document, response = common_positions(key, response)
        comparison = compare(key_document, response, options, [])
        if key_side is None:
            key_side = _side(comparison.key)
            data["k"] = key_side
        document_analysis = next((found for found in analysis.documents
                                  if found.name == key.name and found.layer == "identity"),
                                 None)
        errors = document_analysis.errors if document_analysis is not None else ()
        layer_counts: dict[str, int] = {}
        for found in analysis.documents:
            if found.name == key.name and found.layer != "identity":
                for kind, count in found.counts().items():
                    layer_counts[kind] = layer_counts.get(kind, 0) + count
        system = _side(comparison.response)
        system["a"] = [list(pair) for pair in document_analysis.pairs] \
            if document_analysis is not None else []
        system["km"] = _marks(errors, comparison.key.mentions, "key_mentions")
        system["rm"] = _marks(errors, comparison.response.mentions, "response_mentions")
        system["col"] = _response_colours(key_side["e"], system["e"], system["a"])
        system["c"] = {kind: count for kind, count in
                       {**(document_analysis.counts() if document_analysis else {}),
                        **layer_counts}.items() if count}
        if response is not None:
            system["nr"] = [_chunks(mention.tokens) for mention in response.non_referring]
        data["sys"].append(system)
    return data


def _response_colours(key_entities: Sequence[int], response_entities: Sequence[int],
                      pairs: Sequence[Sequence[int]]) -> list[int]:
    """The colour of each response entity: that of the key entity most of its aligned
    mentions belong to (so an entity found looks the same on both sides), else a colour of
    its own after the key's."""
    votes: dict[int, dict[int, int]] = {}
    for key_index, response_index in pairs:
        entity = response_entities[response_index]
        found = votes.setdefault(entity, {})
        found[key_entities[key_index]] = found.get(key_entities[key_index], 0) + 1
    count = max(response_entities, default=-1) + 1
    first = max(key_entities, default=-1) + 1
    return [max(votes[entity].items(), key=lambda item: (item[1], -item[0]))[0]
            if entity in votes else first + entity for entity in range(count)]


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
        rows.append(f"<tr><th>{escape(metric)}</th>{''.join(cells)}</tr>")
    return (f"<table class='scores'><tr><th>F1</th>{head}</tr>{''.join(rows)}</table>")


def _errors_table(names: Sequence[str], analyses: Sequence[ErrorAnalysis]) -> str:
    head = "".join(f"<th>{escape(name)}</th>" for name in names)
    rows = []
    for kind in analyses[0].error_types:
        cells = "".join(f"<td>{analysis.counts()[kind]}</td>" for analysis in analyses)
        mark = ERROR_MARKS.get(kind)
        badge = f"<span class='err {mark}'>{mark}</span> " if mark else ""
        rows.append(f"<tr><th>{badge}"
                    f"{kind.replace('_', ' ')}</th>{cells}</tr>")
    return f"<table class='scores'><tr><th>errors</th>{head}</tr>{''.join(rows)}</table>"


def _impact_chart(names: Sequence[str], analyses: Sequence[ErrorAnalysis],
                  metric: str) -> str:
    """A horizontal bar chart (inline SVG) of the F1 points each error type costs."""
    bar, gap, label, width = 14, 4, 150, 300
    rows = [(kind, [analysis.impact_table()[kind][metric]["delta_f1"]
                    for analysis in analyses]) for kind in analyses[0].error_types]
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
    parts.append(f"<text x='{label}' y='{height - 4}' class='axis'>{escape(metric)} F1 "
                 "points gained by fixing only that type</text></svg>")
    return "".join(parts)


def _plot_svg(reports: Sequence[Report], names: Sequence[str]) -> str:
    """The bar chart of ``anascore plot`` (matplotlib, the ``plot`` extra) as inline SVG, or
    a note that it needs matplotlib."""
    import importlib.util
    import tempfile

    if importlib.util.find_spec("matplotlib") is None:
        return "<p class='note'>The score plot needs matplotlib (pip install 'anascore[plot]').</p>"
    from anascore.report.plot import plot_report

    data = reports[0].to_dict()
    if len(reports) > 1:  # the fields the systems share, as anascore score --output json
        data = {**{field: data[field] for field in ("signature", "options", "documents")},
                "systems": {name: report.to_dict() for name, report in zip(names, reports,
                                                                           strict=True)}}
    with tempfile.TemporaryDirectory() as folder:
        target = os.path.join(folder, "scores.svg")
        plot_report(data, target)
        with open(target, encoding="utf-8") as stream:
            svg = stream.read()
    return svg[svg.find("<svg"):]


def build_report(key_documents: Sequence[Document],
                 responses: Sequence[Sequence[Document | None]], names: Sequence[str],
                 options: Options, *, title: str = "anascore report",
                 group_by: str | None = None, genre_pattern: str | None = None,
                 warnings: Sequence[str] = (), said: list[str] | None = None,
                 files: tuple[str, Sequence[str]] | None = None,
                 key_hash: str | None = None) -> str:
    """The HTML text of the report: ``responses[i][d]`` is system ``i``'s document for key
    document ``d`` (``None`` where it lacks it); ``group_by`` adds grouped scores
    (:mod:`anascore.scoring.groups`). ``said``, when given, receives the warnings the page lists,
    for the command to print. ``files``: the key's and the responses' files, when read from
    files (a side without a mention to score is then said, as anascore score says it);
    ``key_hash``, the SHA-256 of the key file (:mod:`anascore.scoring.key_hash`), is shown beside
    the
    mode and goes into the signature as ``options.sign_key`` asks."""
    from anascore.scoring.groups import check_kind, group_documents, group_mentions
    from anascore.scoring.pipeline import with_nothing_to_score

    if group_by is not None:
        check_kind(group_by, options, genre_pattern)
    analyses = [analyse_documents(list(zip(key_documents, system, strict=True)), options,
                                  list(warnings))
                for system in responses]
    grouped = []
    if group_by in ("document", "genre"):
        grouped = [group_documents(analysis.report, group_by, genre_pattern)
                   for analysis in analyses]
    elif group_by is not None:
        grouped = [group_mentions(list(zip(key_documents, system, strict=True)), group_by,
                                  options) for system in responses]
    reports = [analysis.report for analysis in analyses]
    if files is not None:
        # The formats as read (a copy of standard input or of a gzip file is gone by now).
        def read_as(documents: Sequence[Document | None]) -> str:
            found = next((document.source_format for document in documents
                          if document is not None and document.source_format), None)
            return found or options.format

        key_format = read_as(key_documents)
        reports = [with_nothing_to_score(report, files[0], path, options,
                                         formats=(key_format, read_as(system)))
                   for report, path, system in zip(reports, files[1], responses, strict=True)]
    if options.confidence:
        reports = [report.with_intervals() for report in reports]
    if key_hash is not None:
        reports = [replace(report, key_hash=key_hash) for report in reports]
    documents = [
        _document_data(key, [system[index] for system in responses], analyses, options)
        for index, key in enumerate(key_documents)]
    per_document = [[{metric: _number(score.f1) for metric, score in
                      report.document(key.name).items()} for key in key_documents]
                    for report in reports]
    chart_metric = "conll" if "conll" in reports[0].metrics else next(iter(reports[0].metrics))
    data = {"systems": list(names), "metrics": list(reports[0].metrics),
            "documents": documents, "perDocument": per_document,
            "marks": ERROR_MARKS}
    groups_html = "".join(
        f"<h3>{escape(name)}</h3>{groups._repr_html_()}"
        for name, groups in zip(names, grouped, strict=False))
    page_warnings = list(dict.fromkeys([*(w for report in reports for w in report.warnings),
                                        *(w for groups in grouped for w in groups.warnings)]))
    if said is not None:
        said.extend(page_warnings)
    layers = ["identity"] + [name for name, on in (
        ("discourse deixis", options.discourse_deixis),
        ("non-referring markables", options.keep_non_referring),
        ("bridging", options.keep_bridging)) if on]
    body = {
        "TITLE": escape(title),
        "MODE": escape(_mode(reports[0]) + (f" · key sha256 {key_hash[:KEY_HASH_DIGITS]}…"
                                              if key_hash is not None else "")),
        "LAYERS": escape(", ".join(layers)),
        "SCORES": _scores_table(names, reports),
        "PLOT": _plot_svg(reports, names),
        "ERRORS": _errors_table(names, analyses),
        "IMPACT": _impact_chart(names, analyses, chart_metric),
        "GROUPS": groups_html or "<p class='note'>No grouping asked (--group-by).</p>",
        "WARNINGS": "".join(f"<li>{escape(warning)}</li>" for warning in page_warnings),
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


def report_files(key: str, responses: Sequence[str], names: Sequence[str], options: Options,
                 *, group_by: str | None = None, genre_pattern: str | None = None,
                 said: list[str] | None = None) -> str:
    """Read ``key`` and every response (files, or folders and patterns paired file by file:
    :mod:`anascore.scoring.file_sets`), and build the report (:func:`build_report`; ``said``
    receives the page's warnings)."""
    from anascore.analysis.analyse import check_options
    from anascore.formats.io.sources import local_inputs
    from anascore.scoring.file_sets import any_file_set, document_pairs, is_file_set
    from anascore.scoring.key_hash import key_digest
    from anascore.scoring.pipeline import checked_response, pair_documents_many

    check_options(options)
    ignored: list[list[str]] = [[] for _ in responses]
    keys: list[Document] = []
    systems: list[list[Document | None]] = [[] for _ in responses]
    warnings: list[str] = []
    # Standard input, pipes and gzip files as anascore score reads them (copied, within a
    # bound: anascore.formats.io.sources; messages name them as given).
    with local_inputs([key, *responses]) as (local, inputs):
        for key_document, response_documents in document_pairs(local[0], local[1:], options,
                                                               pair_documents_many, ignored,
                                                               token_columns=True):
            keys.append(key_document)
            for system, path, read in zip(systems, responses, response_documents,
                                          strict=True):
                # A response on other tokens (marked-up text) as anascore score reads it.
                system.append(checked_response(key_document, read, path, options, warnings))
        # The key as read (a copy of standard input or of a gzip file, while it is here).
        digest = (key_digest(local[0]) if os.path.isfile(local[0]) or is_file_set(local[0])
                  else None)
    # The files' and the documents' pairing first (response files missing or ignored), as
    # anascore score reports them.
    warnings = [inputs.rename(warning) for warning in
                [*(warning for found in ignored for warning in found), *warnings]]
    title = f"anascore report: {os.path.basename(os.path.normpath(key))}"
    return build_report(keys, systems, names, options, title=title, group_by=group_by,
                        genre_pattern=genre_pattern, warnings=warnings, said=said,
                        files=None if any_file_set(key, responses) else (key, responses),
                        key_hash=digest)
