"""The result of a scoring run, and the outputs made from it.

A :class:`Report` keeps every document's counts (a documents × fields matrix per metric), so
corpus scores, per-document scores, and later resampling all come from the same object.
Renderers (:mod:`anascore.report.text_table`, :mod:`anascore.report.reference_layout`) only read it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np

from anascore.config.options import KEY_HASH_DIGITS, Options
from anascore.config.presets import describe_mode
from anascore.core.version import __version__
from anascore.metrics.scores import MetricResult
from anascore.stats.count_table import CountTable
from anascore.stats.metric_suite import MetricSuite
from anascore.stats.sums import column_sums, scores_from_counts

if TYPE_CHECKING:
    from anascore.metrics.split_antecedents import SetAlignmentDetails
    from anascore.stats.bootstrap import MetricInterval


@dataclass(frozen=True)
class Report:
    """Scores of one response against one key.

    Attributes
    ----------
    options
        The settings of the run.
    document_names
        The key's documents, in key order.
    counts
        For each computed metric, a matrix with one row of counts per document (columns:
        the metric's ``fields``).
    warnings
        Everything anascore noticed and scored anyway (repeated mentions, missing documents).
    set_alignments
        By document name, the alignments of split-antecedent sets each metric made (only
        documents with accommodated sets), for :meth:`to_dict` with ``details=True``.
    intervals
        Bootstrap confidence intervals of every reported metric, when ``options.confidence``
        asks for them (:meth:`with_intervals`); else ``None``.
    key_hash
        The SHA-256 (hexadecimal) of the key file's content (:mod:`anascore.scoring.key_hash`), in
        the JSON output and, with ``options.sign_key``, in the signature; ``None`` for
        documents scored in memory.
    """

    options: Options
    document_names: tuple[str, ...]
    counts: dict[str, np.ndarray]
    warnings: tuple[str, ...] = field(default=())
    set_alignments: dict[str, dict[str, SetAlignmentDetails]] = field(default_factory=dict)
    intervals: Mapping[str, MetricInterval] | None = None
    key_hash: str | None = None

    @classmethod
    def from_records(cls, options: Options, names: Sequence[str],
                     records: Sequence[dict[str, np.ndarray]],
                     warnings: Sequence[str] = (),
                     set_alignments: Sequence[dict[str, SetAlignmentDetails]] = ()) -> Report:
        """A report from per-document count records (one dict per document) and, optionally,
        each document's alignments of split-antecedent sets."""
        table = CountTable(MetricSuite.of(options))
        for name, record in zip(names, records, strict=True):
            table.append(name, record)
        alignments = {name: found for name, found in zip(names, set_alignments, strict=False)
                      if found}
        return cls.from_table(options, table, warnings, alignments)

    @classmethod
    def from_table(cls, options: Options, table: CountTable, warnings: Sequence[str] = (),
                   set_alignments: Mapping[str, dict[str, SetAlignmentDetails]] | None = None,
                   ) -> Report:
        """A report of the documents of a count table
        (:class:`~anascore.stats.count_table.CountTable`) and, by document name, their
        alignments of split-antecedent sets."""
        return cls(options, tuple(table.names), table.matrices(), tuple(warnings),
                   dict(set_alignments or {}))

    @cached_property
    def suite(self) -> MetricSuite:
        """The metrics of the run (:class:`~anascore.stats.metric_suite.MetricSuite`)."""
        return MetricSuite.of(self.options)

    @property
    def table(self) -> CountTable:
        """Every document's counts as a :class:`~anascore.stats.count_table.CountTable`."""
        return CountTable.from_matrices(self.suite, self.document_names, self.counts)

    def __repr__(self) -> str:
        from anascore.report.notebook import f1_summary

        return (f"Report({len(self.document_names)} documents, {describe_mode(self.options)}: "
                f"F1 {f1_summary(self.metrics, self.intervals)}"
                f"{f'; {len(self.warnings)} warnings' if self.warnings else ''})")

    def _repr_html_(self) -> str:
        """The corpus scores as a table (a notebook shows it), with their intervals."""
        from anascore.report.notebook import html_table, score_cells

        intervals = self.intervals or {}
        rows = [(name, score_cells(score, intervals.get(name)))
                for name, score in self.metrics.items()]
        caption = (f"{len(self.document_names)} documents; {describe_mode(self.options)}"
                   f"{f'; {len(self.warnings)} warnings' if self.warnings else ''}")
        return html_table(caption, ["recall", "precision", "F1"], rows)

    def to_dataframe(self, *, per_document: bool = False) -> Any:
        """The scores as a pandas DataFrame (the ``pandas`` extra): a row per metric with
        recall, precision and F1 (NaN where not applicable), and with intervals their ends
        (``f1_low``, ``f1_high`` …); ``per_document``: a row per document and metric."""
        from anascore.report.notebook import dataframe, score_record

        if not per_document:
            intervals = self.intervals or {}
            return dataframe({name: score_record(score, intervals.get(name))
                              for name, score in self.metrics.items()}, ["metric"])
        return dataframe({(document, name): score_record(score)
                          for document, scores in self.per_document().items()
                          for name, score in scores.items()}, ["document", "metric"])

    @property
    def version(self) -> str:
        return __version__

    @property
    def signature(self) -> str:
        return self.options.signature(self.key_hash)

    def key_fields(self) -> dict[str, str]:
        """The key's hash as the JSON output gives it: ``key_hash`` (the signature's short
        form) and ``key_sha256`` (the whole digest); nothing without a key file."""
        if self.key_hash is None:
            return {}
        return {"key_hash": self.key_hash[:KEY_HASH_DIGITS], "key_sha256": self.key_hash}

    @cached_property
    def corpus_counts(self) -> dict[str, np.ndarray]:
        """The corpus counts: the sums of the document counts."""
        return {name: column_sums(matrix) for name, matrix in self.counts.items()}

    @cached_property
    def metrics(self) -> dict[str, MetricResult]:
        """Corpus (micro-averaged) scores, by metric name."""
        return scores_from_counts(self.corpus_counts, self.options.reported_metrics,
                                  self.suite)

    def document(self, name: str) -> dict[str, MetricResult]:
        """The scores of one document."""
        try:
            row = self.document_names.index(name)
        except ValueError:
            raise KeyError(f"no document {name!r} in this report") from None
        return scores_from_counts({metric: matrix[row] for metric, matrix in self.counts.items()},
                                  self.options.reported_metrics, self.suite)

    def per_document(self) -> dict[str, dict[str, MetricResult]]:
        """Scores of every document, in key order."""
        return {name: self.document(name) for name in self.document_names}

    def split_antecedent_details(self) -> dict[str, dict[str, list[dict[str, Any]]]]:
        """Per document and metric, every pair of accommodated sets the metric's alignment
        made (Paun et al. 2023 §4.2): key and response entity, their elements, the δ terms the
        metric added (``recall``, ``precision``; BLANC: per kind of link) and the F1 the
        alignment maximized; then the sets left unaligned (paired with the empty set, δ 0)."""
        return {document: {metric: found.to_list() for metric, found in metrics.items()}
                for document, metrics in self.set_alignments.items()}

    def with_intervals(self, *, progress: bool = False) -> Report:
        """A copy with the bootstrap intervals ``options.confidence`` asks for (itself if it
        asks for none), resampled from the document counts
        (:func:`anascore.stats.bootstrap.confidence_intervals`)."""
        if not self.options.confidence:
            return self
        from anascore.stats.bootstrap import confidence_intervals

        [intervals] = confidence_intervals(
            [self.counts], self.options.reported_metrics, resamples=self.options.confidence,
            level=self.options.confidence_level, seed=self.options.seed, progress=progress,
            suite=self.suite)
        return self.with_interval_warnings(intervals)

    def with_interval_warnings(self, intervals: Mapping[str, MetricInterval]) -> Report:
        """A copy with ``intervals``, and warnings where they rest on too little data or are
        not applicable (:func:`anascore.stats.adequacy.interval_warnings`)."""
        from anascore.stats.adequacy import interval_warnings, too_few_documents
        from anascore.stats.bootstrap import metric_documents

        options = self.options
        documents = len(self.document_names)
        found = interval_warnings(documents, options.confidence, options.confidence_level)
        if not too_few_documents(documents, options.confidence_level):
            few = {name: metric_documents(self.counts, name) for name, interval
                   in intervals.items() if interval.reason is None}
            found += [f"the confidence interval of {name} rests on the {count} of {documents} "
                      "documents that have anything for it, too few for a percentile "
                      "bootstrap interval to cover what it says"
                      for name, count in few.items()
                      if too_few_documents(count, options.confidence_level)]
        by_reason: dict[str, list[str]] = {}
        for name, interval in intervals.items():
            if interval.reason is not None:
                by_reason.setdefault(interval.reason, []).append(name)
        found += [f"confidence intervals not applicable ({', '.join(names)}): {reason}"
                  for reason, names in by_reason.items()]
        warnings = tuple(dict.fromkeys((*self.warnings, *found)))
        return replace(self, intervals=intervals, warnings=warnings)

    def document_order(self, sort_by: str | None = None) -> list[str]:
        """Document names in key order, or by ``sort_by``'s F1, lowest (worst) first (ties in
        key order)."""
        if sort_by is None:
            return list(self.document_names)
        if sort_by not in self.options.reported_metrics:
            raise KeyError(f"metric {sort_by!r} is not reported; expected one of "
                           f"{', '.join(self.options.reported_metrics)}")
        scores = self.per_document()

        def worst_first(name: str) -> tuple[bool, float]:
            f1 = scores[name][sort_by].f1
            return (f1 != f1, f1 if f1 == f1 else 0.0)  # not applicable (NaN) last

        return sorted(self.document_names, key=worst_first)

    def to_dict(self, *, per_document: bool = False, details: bool = False,
                sort_by: str | None = None, response: str | None = None) -> dict[str, Any]:
        """The JSON object ``anascore score --output json`` prints; ``details`` adds
        :meth:`split_antecedent_details` under ``"split_antecedents"``; ``sort_by`` orders the
        per-document scores by that metric's F1, worst first; ``response``: the response's
        name (its file name, as a report of several systems names each), under
        ``"response"``, for whoever draws or tabulates the report (``anascore plot``)."""
        result: dict[str, Any] = {
            "version": self.version,
            "signature": self.signature,
            "mode": describe_mode(self.options),
            "options": self.options.to_dict(),
            "documents": len(self.document_names),
            **self.key_fields(),
            **({"response": response} if response is not None else {}),
            "metrics": _nested(self.metrics),
            "warnings": list(self.warnings),
        }
        if self.intervals is not None:
            result["intervals"] = _nested(self.intervals)
        if per_document:
            scores = self.per_document()
            result["per_document"] = {
                name: {"metrics": _nested(scores[name])}
                for name in self.document_order(sort_by)
            }
            if sort_by is not None:
                result["per_document_sorted_by"] = sort_by
        if details:
            result["split_antecedents"] = self.split_antecedent_details()
        return result

    def to_json(self, *, per_document: bool = False, details: bool = False,
                sort_by: str | None = None, response: str | None = None) -> str:
        import json  # only for JSON output

        return json.dumps(self.to_dict(per_document=per_document, details=details,
                                       sort_by=sort_by, response=response), indent=2)


def _nested(scores: Mapping[str, MetricResult | MetricInterval]) -> dict[str, Any]:
    """Scores (or intervals) as JSON, a layer's metrics (``discourse_deixis.muc``) under the
    layer's name (``{"discourse_deixis": {"muc": …}}``)."""
    result: dict[str, Any] = {}
    for name, score in scores.items():
        layer, dot, metric = name.rpartition(".")
        (result.setdefault(layer, {}) if dot else result)[metric] = score.to_dict()
    return result
