"""The data of the ``anascore report`` page: the scoring, the error analysis and the grouped
scores its tables and texts show, gathered here and drawn by :mod:`anascore.report.html`.

:func:`report_files` reads the key and the responses as ``anascore score`` pairs them
(:mod:`anascore.scoring.file_sets`), :func:`gather_page` scores and analyses every pair
(:func:`anascore.analysis.analyse.analyse_documents`) and collects what the page shows as a
:class:`~anascore.report.html.ReportPage`; :func:`build_report` does both and renders it. The
page lives in ``report/`` as renderers do, below the scoring; its data is gathered above the
scoring, here.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from anascore.analysis.analyse import ErrorAnalysis, analyse_documents, check_options
from anascore.config.options import Options
from anascore.core.model import Document, Mention
from anascore.formats.io.sources import local_inputs
from anascore.report.html import ERROR_MARKS, ReportPage, SystemErrors, render_page
from anascore.scoring.document import compare_layer, prepare_pair, prepare_response
from anascore.scoring.file_sets import any_file_set, document_pairs, is_file_set
from anascore.scoring.groups import check_kind, group_documents, group_mentions
from anascore.scoring.key_hash import key_digest
from anascore.scoring.pipeline import (
    pair_documents_many,
    with_nothing_to_score,
)


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


def document_data(key: Document, responses: Sequence[Document | None],
                   analyses: Sequence[ErrorAnalysis], options: Options) -> dict[str, Any]:
    """What the page's script draws of key document ``key``: its words, sentences and empty
    nodes, the key's mentions and entities, and for each system (``responses[i]``, its
    analysis ``analyses[i]``) its mentions, entities, alignment, error marks and colours."""
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
        # the pipeline's own prepare and compare steps (scoring/document.py), so the page
        # draws the comparison the scores counted; their warnings were given by the scoring
        key_document, response = prepare_pair(key, response, options, [])
        comparison = compare_layer(key_document, response, options, [])
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


def gather_page(key_documents: Sequence[Document],
                responses: Sequence[Sequence[Document | None]], names: Sequence[str],
                options: Options, *, title: str = "anascore report",
                group_by: str | None = None, genre_pattern: str | None = None,
                warnings: Sequence[str] = (),
                files: tuple[str, Sequence[str]] | None = None,
                key_hash: str | None = None) -> ReportPage:
    """The data of the page: ``responses[i][d]`` is system ``i``'s document for key
    document ``d`` (``None`` where it lacks it); ``group_by`` adds grouped scores
    (:mod:`anascore.scoring.groups`). ``files``: the key's and the responses' files, when read
    from files (a side without a mention to score is then said, as anascore score says it);
    ``key_hash``, the SHA-256 of the key file (:mod:`anascore.scoring.key_hash`), is shown
    beside the mode and goes into the signature as ``options.sign_key`` asks."""
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
        document_data(key, [system[index] for system in responses], analyses, options)
        for index, key in enumerate(key_documents)]
    page_warnings = list(dict.fromkeys([*(w for report in reports for w in report.warnings),
                                        *(w for groups in grouped for w in groups.warnings)]))
    layers = ["identity"] + [name for name, on in (
        ("discourse deixis", options.discourse_deixis),
        ("non-referring markables", options.keep_non_referring),
        ("bridging", options.keep_bridging)) if on]
    errors = []
    for analysis in analyses:
        impact = analysis.impact_table()
        errors.append(SystemErrors(
            analysis.counts(),
            {kind: {metric: values["delta_f1"] for metric, values in impact[kind].items()}
             for kind in analysis.error_types}))
    return ReportPage(title=title, names=list(names), reports=reports,
                      error_types=analyses[0].error_types, errors=errors,
                      documents=documents, grouped=grouped, warnings=page_warnings,
                      layers=layers, key_hash=key_hash)


def build_report(key_documents: Sequence[Document],
                 responses: Sequence[Sequence[Document | None]], names: Sequence[str],
                 options: Options, *, title: str = "anascore report",
                 group_by: str | None = None, genre_pattern: str | None = None,
                 warnings: Sequence[str] = (), said: list[str] | None = None,
                 files: tuple[str, Sequence[str]] | None = None,
                 key_hash: str | None = None) -> str:
    """The HTML text of the page (:func:`gather_page`, drawn by
    :func:`anascore.report.html.render_page`). ``said``, when given, receives the warnings
    the page lists, for the command to print."""
    page = gather_page(key_documents, responses, names, options, title=title,
                       group_by=group_by, genre_pattern=genre_pattern, warnings=warnings,
                       files=files, key_hash=key_hash)
    if said is not None:
        said.extend(page.warnings)
    return render_page(page)


def page_title(key: str, names: Sequence[str]) -> str:
    """The page's title: the systems (as the tables name them) and the key as given (a folder
    of GUM is ``gum/dep``, not its last part ``dep``)."""
    shown = "standard input" if key == "-" else os.path.normpath(key)
    return f"anascore report: {', '.join(names)} against {shown}"


def report_files(key: str, responses: Sequence[str], names: Sequence[str], options: Options,
                 *, group_by: str | None = None, genre_pattern: str | None = None,
                 said: list[str] | None = None) -> str:
    """Read ``key`` and every response (files, or folders and patterns paired file by file:
    :mod:`anascore.scoring.file_sets`), and build the report (:func:`build_report`; ``said``
    receives the page's warnings)."""
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
                system.append(prepare_response(key_document, read, path, options, warnings))
        # The key as read (a copy of standard input or of a gzip file, while it is here).
        digest = (key_digest(local[0]) if os.path.isfile(local[0]) or is_file_set(local[0])
                  else None)
    # The files' and the documents' pairing first (response files missing or ignored), as
    # anascore score reports them.
    warnings = [inputs.rename(warning) for warning in
                [*(warning for found in ignored for warning in found), *warnings]]
    title = page_title(key, names)
    return build_report(keys, systems, names, options, title=title, group_by=group_by,
                        genre_pattern=genre_pattern, warnings=warnings, said=said,
                        files=None if any_file_set(key, responses) else (key, responses),
                        key_hash=digest)
