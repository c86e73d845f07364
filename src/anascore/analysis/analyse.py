"""``anascore.analyse_errors``: classify every error of a response and measure what each type costs.

Reads and pairs documents as :func:`anascore.score` does, sends each pair through the same
per-document pipeline (:mod:`anascore.scoring.document`), classifies the errors of the very
comparison the score counts (:mod:`anascore.analysis.classification`) and recounts every
metric with each type's errors fixed (:mod:`anascore.analysis.impact`). Nothing is written to
disk.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

import numpy as np

from anascore.analysis.classification import (
    ERROR_TYPES,
    ClassifiedError,
    DocumentAnalysis,
    classify,
)
from anascore.analysis.impact import fixed_counts
from anascore.analysis.non_entity_layers import (
    LAYER_ERRORS,
    classify_bridging,
    classify_non_referring,
)
from anascore.config.options import Options
from anascore.core.errors import OptionsError
from anascore.core.model import Document
from anascore.formats.io.output import require_path
from anascore.metrics.scores import json_number
from anascore.report import Report

#: The impact rows: each error type alone, then every type at once.
FIXES = (*ERROR_TYPES, "all")


@dataclass(frozen=True)
class ErrorAnalysis:
    """Every document's classified errors, the response's scores (``report``) and the scores
    with each error type fixed (``impact[TYPE]``; ``impact["all"]``: every error fixed)."""

    documents: tuple[DocumentAnalysis, ...]
    texts: MappingProxyType[str, tuple[str, ...]]
    report: Report
    impact: MappingProxyType[str, Report]
    error_types: tuple[str, ...] = ERROR_TYPES

    @property
    def fixes(self) -> tuple[str, ...]:
        """The rows of the impact table: each error type, then ``all``."""
        return (*self.error_types, "all")

    def __repr__(self) -> str:
        counts = ", ".join(f"{kind}={count}" for kind, count in self.counts().items())
        documents = len(dict.fromkeys(document.name for document in self.documents))
        return f"ErrorAnalysis({documents} documents: {counts})"

    def _repr_html_(self) -> str:
        """The error counts and each type's impact on F1 (a notebook shows it)."""
        from anascore.report.notebook import html_table

        table = self.impact_table()
        counts = self.counts()
        metrics = list(self.report.metrics)
        rows = [(kind, [str(counts.get(kind, "")) if kind in counts else "",
                        *(signed_points(table[kind][metric]['delta_f1'])
                          for metric in metrics)])
                for kind in self.fixes]
        return html_table("Errors and the F1 gained by fixing each type (percentage points)",
                          ["errors", *metrics], rows)

    def to_dataframe(self) -> Any:
        """A pandas DataFrame (the ``pandas`` extra): a row per error type (and ``all``), its
        number of errors and, per metric, the F1 with that type fixed (``muc_f1``) and the
        gain (``muc_delta_f1``), as fractions, as in the JSON and CSV outputs and
        :meth:`anascore.report.Report.to_dataframe` (the text tables print percents)."""
        from anascore.report.notebook import dataframe

        table = self.impact_fractions()
        counts = self.counts()
        return dataframe({kind: {"errors": counts.get(kind, sum(counts.values())),
                                 **{f"{metric}_{part}": values[part]
                                    for metric, values in table[kind].items()
                                    for part in ("f1", "delta_f1")}}
                          for kind in self.fixes}, ["error type"])

    @property
    def errors(self) -> tuple[ClassifiedError, ...]:
        return tuple(error for document in self.documents for error in document.errors)

    def counts(self, layer: str | None = None) -> dict[str, int]:
        """Corpus-level number of errors of each type (of every layer classified, or of
        ``layer``)."""
        total = dict.fromkeys(self.error_types, 0)
        for document in self.documents:
            if layer is None or document.layer == layer:
                for kind, count in document.counts().items():
                    total[kind] += count
        return total

    def per_document(self) -> dict[str, dict[str, int]]:
        """Every document's number of errors of each type (all layers), in key order."""
        found: dict[str, dict[str, int]] = {}
        for document in self.documents:
            total = found.setdefault(document.name, dict.fromkeys(self.error_types, 0))
            for kind, count in document.counts().items():
                total[kind] += count
        return found

    @property
    def layers(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(document.layer for document in self.documents))

    def impact_table(self) -> dict[str, dict[str, dict[str, float]]]:
        """``{TYPE: {METRIC: {"f1", "delta_f1"}}}`` in percent (F1 with only that type's
        errors fixed, and its gain over the response)."""
        return {kind: {metric: {part: 100 * value for part, value in values.items()}
                       for metric, values in row.items()}
                for kind, row in self.impact_fractions().items()}

    def impact_fractions(self) -> dict[str, dict[str, dict[str, float]]]:
        """:meth:`impact_table` as fractions, the unit of the JSON and CSV outputs."""
        base = self.report.metrics
        return {kind: {metric: {"f1": result.f1, "delta_f1": result.f1 - base[metric].f1}
                       for metric, result in self.impact[kind].metrics.items()}
                for kind in self.fixes}

    def mention_text(self, document: str, tokens: tuple[int, ...], context: int = 3) -> str:
        """The words of a mention, in brackets, with ``context`` words either side."""
        words = self.texts.get(document, ())
        if not words or not tokens:
            return str(tokens)
        start, end = max(tokens[0] - context, 0), min(tokens[-1] + context + 1, len(words))
        inside = set(tokens)
        shown = []
        for position in range(start, end):
            word = words[position] if position < len(words) else "?"
            if position in inside and (position - 1) not in inside:
                word = "[" + word
            if position in inside and (position + 1) not in inside:
                word += "]"
            shown.append(word)
        return " ".join(shown)

    def error_list(self) -> list[dict[str, Any]]:
        return [{"document": error.document, "type": error.type, "layer": error.layer,
                 "key_mentions": [self.mention_text(error.document, tokens)
                                  for tokens in error.key_mentions],
                 "response_mentions": [self.mention_text(error.document, tokens)
                                       for tokens in error.response_mentions],
                 "key_tokens": [list(tokens) for tokens in error.key_mentions],
                 "response_tokens": [list(tokens) for tokens in error.response_mentions],
                 "key_entities": list(error.key_entities),
                 "response_entities": list(error.response_entities)}
                for error in self.errors]

    def to_dict(self, *, per_document: bool = False, listed: bool = False) -> dict[str, Any]:
        # A metric not applicable here (0/0: no zero anaphor in the key …) is NaN in Python
        # and null in JSON, as in Report.to_dict; NaN is not JSON.
        result: dict[str, Any] = {
            "errors": self.counts(),
            # fractions, as every JSON anascore writes (impact_table is in percent)
            "impact": {kind: {metric: {part: json_number(value) for part, value
                                       in values.items()}
                              for metric, values in row.items()}
                       for kind, row in self.impact_fractions().items()},
            "scores": {metric: json_number(found.f1) for metric, found
                       in self.report.metrics.items()}}
        if len(self.layers) > 1:
            result["errors_by_layer"] = {layer: self.counts(layer) for layer in self.layers}
        if per_document:
            result["per_document"] = self.per_document()
        if listed:
            result["list"] = self.error_list()
        return result


def points(value: float) -> str:
    """A score in percent as the tables print it; ``n/a`` when it is not applicable."""
    return "n/a" if math.isnan(value) else f"{value:.2f}"


def signed_points(value: float) -> str:
    """A gain in percentage points; ``n/a`` when the score is not applicable."""
    return "n/a" if math.isnan(value) else f"{value:+.2f}"


def analyse_errors(key: str | os.PathLike[str], response: str | os.PathLike[str], *,
           format: str = "auto", metrics: str | Iterable[str] | None = None,
           keep_singletons: bool | None = None, match: str | None = None,
           **settings: Any) -> ErrorAnalysis:
    """Classify the errors of ``response`` against ``key`` (Kummerfeld & Klein 2013) and
    measure their impact on every requested metric; options as :func:`anascore.score`."""
    given: dict[str, Any] = {name: value for name, value in (("keep_singletons", keep_singletons),
                                              ("match", match)) if value is not None}
    options = Options.create(format=format, metrics=metrics, **given, **settings)
    return analyse_files(key, response, options)


def analyse_files(key: str | os.PathLike[str], response: str | os.PathLike[str],
                  options: Options) -> ErrorAnalysis:
    """:func:`analyse_errors` with the settings already in one :class:`Options`: documents
    are analysed in several processes where ``anascore score`` would count them so
    (:mod:`anascore.scoring.parallel`; the same analysis, in key order), else one by one."""
    [analysis] = analyse_files_many(key, [response], options)
    return analysis


def analyse_files_many(key: str | os.PathLike[str],
                       responses: Sequence[str | os.PathLike[str]],
                       options: Options) -> list[ErrorAnalysis]:
    """:func:`analyse_files` of each response against one key, which is read as given once:
    a key on standard input (``anascore errors - R1 R2``) is copied once for every
    response, as ``anascore score`` does (each response's analysis read it again, and the
    second found standard input empty)."""
    from anascore.formats.io.sources import local_inputs, renamed_warnings

    require_path(key, "the key")
    for response in responses:
        require_path(response, "the response")
    check_options(options)
    # Standard input, pipes and gzip files are read as anascore score reads them
    # (anascore.formats.io.sources: copied, within a bound; messages name them as given).
    given = [os.fspath(response) for response in responses]
    with local_inputs([os.fspath(key), *given]) as ([local_key, *local_responses], inputs):
        analyses = [_analyse_local(local_key, local, path, options)
                    for local, path in zip(local_responses, given, strict=True)]
    return [replace(analysis, report=renamed_warnings(analysis.report, inputs))
            for analysis in analyses]


def _analyse_local(local_key: str, local_response: str, response_path: str,
                   options: Options) -> ErrorAnalysis:
    """The analysis of one response file read from ``local_response`` (a copy of standard
    input, a pipe or a gzip file, or the file itself), named ``response_path`` as given."""
    from anascore.scoring.document import prepare_response
    from anascore.scoring.file_sets import any_file_set, document_pairs
    from anascore.scoring.pipeline import (
        count_in_processes,
        pair_documents_many,
        with_nothing_to_score,
    )

    def analyse(key_document: Document,
                response_documents: tuple[Document | None, ...]) -> _DocumentResult:
        warnings: list[str] = []
        # A response on other tokens (align_tokens, marked-up text) as anascore score reads it.
        response_document = prepare_response(key_document, response_documents[0],
                                             response_path, options, warnings)
        return _analyse_document(key_document, response_document, options, warnings)

    # Token columns: the part-of-speech tags give mentions a head where the format has none
    # (span errors pair mentions by head, as the analyser of Kummerfeld & Klein does).
    # Folders and patterns (anascore.scoring.file_sets) are analysed file by file, in one process.
    ignored: list[list[str]] = [[]]
    file_sets = any_file_set(local_key, [local_response])
    done = None if file_sets else count_in_processes(
        local_key, [local_response], options, analyse, token_columns=True)
    if done is None:
        done = [(key_document.name, analyse(key_document, response_documents))
                for key_document, response_documents in document_pairs(
                    local_key, [local_response], options, pair_documents_many, ignored,
                    token_columns=True)]
    analysis = _assemble([result for _, result in done], options, ignored[0])
    if not file_sets:
        # An all-zero analysis of a file read in the wrong format: said, as anascore
        # score says it (the copies of standard input and gzip files read while here).
        analysis = replace(analysis, report=with_nothing_to_score(
            analysis.report, local_key, local_response, options, after=len(ignored[0])))
    return analysis


#: Settings whose layers or sets the classification does not cover yet (see
#: ``docs/error-analysis.md``), with what to do instead.
UNCLASSIFIED = {
    "keep_split_antecedents": "split-antecedent plurals are not classified yet",
    "compat": "the UA scorer's conventions (compat='ua') are not followed by the error analysis",
    "window": "documents are analysed whole, not in windows",
}


def check_options(options: Options) -> None:
    """Refuse settings the analysis would not honour (a silent substitute would report
    impacts on a different evaluation from the one asked for)."""
    for name, why in UNCLASSIFIED.items():
        if getattr(options, name) not in (False, None, "none"):
            flag = "--" + name.replace("_", "-")
            raise OptionsError(f"anascore errors: {why}; drop {flag} (or the preset that sets "
                               "it: give its other settings by hand), and score that part "
                               "with anascore score")


def analyse_documents(pairs: Iterable[tuple[Document, Document | None]], options: Options,
                      warnings: list[str] | None = None) -> ErrorAnalysis:
    """The analysis of documents already in memory, paired key and response."""
    check_options(options)
    results = [_analyse_document(key_document, response_document, options, [])
               for key_document, response_document in pairs]
    return _assemble(results, options, warnings or [])


#: One document analysed: its name, words, warnings, the analysis of each layer classified,
#: and every metric's counts as the response is (``""``) and with each fix (by kind).
_DocumentResult = tuple[str, tuple[str, ...], list[str], list[DocumentAnalysis],
                        dict[str, dict[str, np.ndarray]]]


def _analyse_document(key_document: Document, response_document: Document | None,
                      options: Options, warnings: list[str]) -> _DocumentResult:
    """One document through the scoring pipeline (:mod:`anascore.scoring.document`: prepared,
    compared, counted, as ``anascore score`` counts it), its errors classified in that very
    comparison, and every metric recounted with each type of error fixed."""
    from anascore.scoring.document import count_comparison, document_comparisons

    metrics = options.computed_metrics
    types = error_types(options)
    # One comparison: windows are refused (check_options).
    [comparison] = document_comparisons(key_document, response_document, options, warnings)
    by_layer = {"identity": classify(key_document.name, comparison)}
    by_layer.update({layer: classify(key_document.name, layer_comparison, layer)
                     for layer, layer_comparison in comparison.layers.items()})
    if options.keep_non_referring:
        by_layer["non_referring"] = classify_non_referring(key_document.name, comparison)
    if options.keep_bridging:
        by_layer["bridging"] = classify_bridging(key_document.name, comparison)
    records = {"": count_comparison(comparison, options)}
    present = {error.type for analysis in by_layer.values() for error in analysis.errors}
    for kind in (*types, "all"):
        fixes = types if kind == "all" else (kind,)
        records[kind] = (records[""] if not present.intersection(fixes)
                         else fixed_counts(comparison, by_layer, fixes, metrics))
    return (key_document.name, key_document.tokens, warnings, list(by_layer.values()),
            records)


def _assemble(results: Iterable[_DocumentResult], options: Options,
              warnings: list[str] | None = None) -> ErrorAnalysis:
    """The analysis of a corpus from its documents' results, in key order."""
    types = error_types(options)
    fixes_asked = (*types, "all")
    warnings = list(warnings or [])
    names: list[str] = []
    texts: dict[str, tuple[str, ...]] = {}
    analyses: list[DocumentAnalysis] = []
    records: dict[str, list[dict[str, np.ndarray]]] = {kind: [] for kind in (*fixes_asked, "")}
    for name, words, document_warnings, document_analyses, document_records in results:
        names.append(name)
        texts[name] = words
        warnings.extend(document_warnings)
        analyses.extend(document_analyses)
        for kind in records:
            records[kind].append(document_records[kind])
    report = Report.from_records(options, names, records[""], warnings)
    impact = {kind: Report.from_records(options, names, records[kind]) for kind in fixes_asked}
    return ErrorAnalysis(tuple(analyses), MappingProxyType(texts), report,
                         MappingProxyType(impact), types)


def error_types(options: Options) -> tuple[str, ...]:
    """The error types classified with ``options``: Kummerfeld & Klein's seven, and the
    categories of the non-referring and bridging layers when they are scored
    (:mod:`anascore.analysis.non_entity_layers`)."""
    types: tuple[str, ...] = ERROR_TYPES
    for setting, (_, layer_types) in LAYER_ERRORS.items():
        if getattr(options, setting):
            types = (*types, *layer_types)
    return types
