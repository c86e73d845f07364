"""From files (or documents in memory) to a report: read, pair, then each document through the
per-document pipeline (:mod:`anascore.scoring.document`: prepare, compare, count).

:func:`score` runs it over the paired documents of a key and a response file and returns a
:class:`~anascore.report.Report` holding every document's counts; :func:`score_documents`
over documents in memory.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar

import numpy as np

from anascore.config.format_catalogue import UNNAMED
from anascore.config.options import AUTO_BYTES_PER_PROCESS, Options, refuse_unused
from anascore.core.errors import AnascoreError, DocumentMismatchError
from anascore.core.model import Document, checked_documents
from anascore.core.progress import Progress
from anascore.formats import detect_format, read_documents
from anascore.formats.io.output import require_path
from anascore.formats.io.sources import local_inputs, renamed_warnings
from anascore.formats.io.text_files import check_readable
from anascore.report import Report
from anascore.scoring.document import (
    check_pair,
    count_document,
    on_key_tokens,
    prepare_response,
)
from anascore.scoring.document import prepare_response as checked_response
from anascore.scoring.document_names import (
    none_paired_message,
    not_in_key_message,
    paired_warning,
    pairing_key,
)
from anascore.scoring.file_sets import any_file_set, score_file_sets
from anascore.scoring.key_hash import key_digest
from anascore.scoring.levels import refuse_file_sets, scoring_units
from anascore.stats.count_table import CountTable
from anascore.stats.metric_suite import MetricSuite

if TYPE_CHECKING:  # imported only for documents with split antecedents
    from anascore.metrics.split_antecedents import SetAlignmentDetails

#: The per-document pipeline's functions, importable from here as in 0.1.0 for one release
#: (:mod:`anascore.scoring.document` holds them; ``compare`` of 0.1.0 is its
#: ``compare_layer``, no longer named like :func:`anascore.compare`).
__all__ = ["check_pair", "checked_response", "count_document", "on_key_tokens",
           "score", "score_documents", "score_files", "score_files_many"]

PathLike = str | os.PathLike[str]


def score(key: PathLike, response: PathLike, *, format: str = "auto",
          metrics: str | Iterable[str] | None = None, keep_singletons: bool | None = None,
          match: str | None = None, **settings: Any) -> Report:
    """Score a response file against a key file.

    Parameters
    ----------
    key, response
        Paths of the gold annotation and of the system output.
    format
        ``"auto"`` (detect), ``"conll2012"``, ``"corefud"``, ``"jsonlines"`` or ``"ua"``.
    metrics
        ``None`` for the default metrics (or the preset's), ``"all"`` for every metric but
        the linguistically aware ones, else names from
        :data:`anascore.config.options.METRIC_NAMES` (a list or a comma-separated string).
    keep_singletons
        ``False`` removes single-mention entities from both sides before scoring (default
        ``True``, or the preset's).
    match
        How mentions are aligned: ``"exact"`` (default), ``"min"`` (UA MIN spans),
        ``"head"``, ``"partial"``, ``"craft"``.
    **settings
        Any other field of :class:`~anascore.config.options.Options`, by name: for instance
        ``keep_non_referring``, ``keep_bridging``, ``discourse_deixis``,
        ``keep_split_antecedents=True`` (score split-antecedent plurals, Paun et al. 2023),
        ``only_split_antecedents=True``, ``lea_split_importance=10.0``, ``compat="ua"``,
        ``keep_zeros=False``, ``zero_match="linear"``, ``exclusive_ends=True``; and
        ``preset``: a shared task's settings (:mod:`anascore.config.presets`), which the other
        settings given change.

    Returns
    -------
    Report
        Corpus scores in ``report.metrics``, every document's counts, and warnings.

    Raises
    ------
    anascore.core.errors.AnascoreError
        For bad input, naming the file and line.
    """
    require_path(key, "the key")
    require_path(response, "the response", "; several responses: anascore.compare"
                 if isinstance(response, list | tuple) else "")
    options = Options.create(format=format, metrics=metrics, keep_singletons=keep_singletons,
                             match=match, **settings)
    return score_files(key, response, options)


def score_files(key: PathLike, response: PathLike, options: Options, *,
                progress: bool = False) -> Report:
    """:func:`score` with the settings already in one :class:`Options` (``progress``: a
    progress bar on stderr when it is a terminal)."""
    _refuse_paired_tests(options)
    [report] = score_files_many(key, [response], options, progress=progress)
    return report.with_intervals(progress=progress)


def score_files_many(key: PathLike, responses: Sequence[PathLike], options: Options, *,
                     progress: bool = False) -> list[Report]:
    """One :class:`Report` per response, reading the key once; no intervals or tests (see
    :mod:`anascore.scoring.systems`).

    Documents are counted in several processes when ``options.jobs`` allows it and the files
    suit it (:mod:`anascore.scoring.parallel`), else in one, as :func:`pair_documents_many` pairs
    them; either way each key document goes through :func:`count_key_document`, so the
    reports are the same.
    """
    reports, digest = _score_many(os.fspath(key), [os.fspath(path) for path in responses],
                                  options, progress)
    return [replace(report, key_hash=digest) for report in reports]


def _score_many(key: str, paths: list[str], options: Options,
                progress: bool) -> tuple[list[Report], str]:
    """:func:`score_files_many` without the key's hash in the reports, and the hash
    (:func:`anascore.scoring.key_hash.key_digest`: of the key as read, after every file has been
    checked, so that a missing or malformed file is reported as before)."""
    if any_file_set(key, paths):
        refuse_file_sets(options)

        def score_pair(key_file: str, response_files: Sequence[str | None]) -> list[Report]:
            present = [path for path in response_files if path is not None]
            scored = iter(_score_many(key_file, present, options, False)[0] if present
                          else [])
            alone = None
            reports = []
            for path in response_files:
                if path is None:
                    alone = alone or _against_nothing(key_file, options)
                    reports.append(alone)
                else:
                    reports.append(next(scored))
            return reports

        reports = score_file_sets(key, paths, options.key_documents_only, score_pair)
        return reports, key_digest(key)
    with local_inputs([key, *paths]) as (local, inputs):
        reports = _score_local_files(local[0], local[1:], options, progress)
        return [renamed_warnings(report, inputs) for report in reports], key_digest(local[0])


def _against_nothing(key: str, options: Options) -> Report:
    """A key file scored against a response that lacks it whole (every document empty)."""
    names: list[str] = []
    records: list[dict[str, np.ndarray]] = []
    documents = read_documents(key, options.format, exclusive_ends=options.exclusive_ends,
                               token_columns=options.needs_token_columns)
    for document, _ in scoring_units(((document, (None,)) for document in documents),
                                     options):
        [(record, _, _)] = count_key_document(document, [None], ["(no response file)"],
                                              options)
        names.append(document.name)
        records.append(record)
    return Report.from_records(options, names, records)


def _score_local_files(key: str, paths: list[str], options: Options,
                       progress: bool) -> list[Report]:
    """:func:`score_files_many` of files that can be read as often as needed."""

    tally = _Responses(options, len(paths))

    def count(key_document: Document,
              response_documents: Sequence[Document | None]) -> list[DocumentCounts]:
        return tally.compact(count_key_document(key_document, response_documents, paths,
                                                options))

    ignored: list[list[str]] = [[] for _ in paths]
    with Progress("documents", enabled=None if progress else False) as bar:
        counted = count_in_processes(key, paths, options, count, bar.advance)
        if counted is None:
            bar.reset()
            for key_document, response_documents in pair_documents_many(key, paths, options,
                                                                        ignored):
                tally.add(key_document.name, count(key_document, response_documents))
                bar.advance()
        else:
            # taken off the list as they are added, so that the table grows into the memory
            # the processes' results free (at scale, the whole table is 2.8 MB)
            counted.reverse()
            while counted:
                tally.add(*counted.pop())
    reports = []
    for index, path in enumerate(paths):
        report = tally.report(index)
        first = [*ignored[index], *nothing_to_score(report, key, path, options)]
        reports.append(replace(report, warnings=(*first, *report.warnings)) if first
                       else report)
    return reports


class _Responses:
    """What the documents of a run give each response, as they come: their counts in one
    :class:`~anascore.stats.count_table.CountTable` per response, their warnings and the
    alignments of accommodated sets that documents have."""

    def __init__(self, options: Options, responses: int) -> None:
        self.options = options
        suite = MetricSuite.of(options)
        self.tables = [CountTable(suite) for _ in range(responses)]
        self.warnings: list[list[str]] = [[] for _ in range(responses)]
        self.details: list[dict[str, dict[str, SetAlignmentDetails]]] = [
            {} for _ in range(responses)]

    def compact(self, per_response: Sequence[DocumentCounts]) -> list[DocumentCounts]:
        """Each response's counts of one document as one row of its table (under the key
        ``""``), as :meth:`add` takes them: small to keep, and to send from another
        process."""
        return [({"": table.row(record)}, warnings, details)
                for table, (record, warnings, details) in zip(self.tables, per_response,
                                                              strict=True)]

    def add(self, name: str, per_response: Sequence[DocumentCounts]) -> None:
        """One document's counts (from :meth:`compact`) in every response."""
        for index, (record, warnings, details) in enumerate(per_response):
            self.tables[index].append_row(name, record[""])
            self.warnings[index].extend(warnings)
            if details:
                self.details[index][name] = details

    def report(self, index: int) -> Report:
        return Report.from_table(self.options, self.tables[index], self.warnings[index],
                                 self.details[index])


def nothing_to_score(report: Report, key: str, response: str, options: Options,
                     formats: tuple[str, str] | None = None) -> list[str]:
    """Warnings for a key or response in which not one mention was found to score: an
    all-zero table is then most often a file read as the wrong format (CorefUD files read
    with ``--format ua`` yield no markables), or settings that removed every mention.
    ``formats``: the key's and the response's formats as read, where the caller knows them
    (else ``options.format``, or the format detected from the file)."""
    totals = report.corpus_counts["mentions"]
    warnings = []
    for index, (side, path, mentions) in enumerate((("key", key, totals[1]),
                                                    ("response", response, totals[3]))):
        if mentions:
            continue
        format = (formats[index] if formats is not None
                  else options.format if options.format != "auto" else detect_format(path))
        removed = [] if options.keep_singletons else ["singletons"]
        if not options.keep_zeros:
            removed.append("zeros")
        after = f" after removing {' and '.join(removed)}" if removed else ""
        warnings.append(
            f"{path}: the {side} has no mention to score in its {len(report.document_names)} "
            f"document{'s' if len(report.document_names) != 1 else ''} (read as {format}"
            f"{after}); if the file is in another format, name it with --format")
    return warnings


def with_nothing_to_score(report: Report, key: str, response: str, options: Options, *,
                          after: int = 0, formats: tuple[str, str] | None = None) -> Report:
    """``report`` with :func:`nothing_to_score`'s warnings placed after its first ``after``
    warnings (the files' pairing), where :func:`score` places them: for the commands that
    count as score does (the error analysis, the HTML report)."""
    said = nothing_to_score(report, key, response, options, formats)
    if not said:
        return report
    return replace(report, warnings=(*report.warnings[:after], *said,
                                     *report.warnings[after:]))


#: One response document's counts by metric, warnings and alignments of accommodated sets.
DocumentCounts: TypeAlias = (
    "tuple[dict[str, np.ndarray], list[str], dict[str, SetAlignmentDetails]]")


def count_key_document(key_document: Document, response_documents: Sequence[Document | None],
                       response_paths: Sequence[str], options: Options) -> list[DocumentCounts]:
    """A key document against its document in each response (``None``: the response lacks
    it), through the per-document pipeline: prepared
    (:func:`anascore.scoring.document.prepare_response`), compared and counted
    (:func:`anascore.scoring.document.count_document`)."""
    counted = []
    for path, response_document in zip(response_paths, response_documents, strict=True):
        warnings: list[str] = []
        response_document = prepare_response(key_document, response_document, path, options,
                                             warnings)
        details: list[dict[str, SetAlignmentDetails]] = []
        record = count_document(key_document, response_document, options, warnings, details)
        counted.append((record, warnings, details[0]))
    return counted


_Result = TypeVar("_Result")


def count_in_processes(key: str, responses: Sequence[str], options: Options,
                       count: Callable[[Document, tuple[Document | None, ...]], _Result],
                       advance: Callable[[int], None] | None = None, *,
                       token_columns: bool = False,
                       ) -> list[tuple[str, _Result]] | None:
    """``count`` of every key document, in key order, in several processes
    (:mod:`anascore.scoring.parallel`); ``None`` when ``options.jobs`` asks for one process, or the
    files are not CoNLL-2012, CoNLL-U or UA, or not suited to it, or units are above the
    document (the serial run then reads them, and reports any problem)."""
    paths = (key, *responses)
    if options.level != "document":
        return None  # a unit's documents are joined before they are counted
    try:
        if options.jobs == 1 or (options.jobs == 0 and sum(
                os.path.getsize(path) for path in paths) < AUTO_BYTES_PER_PROCESS):
            return None  # one process: the parallel machinery is not even imported
        from anascore.scoring.parallel import PARALLEL_FORMATS, map_documents, processes_for

        processes = processes_for(options.jobs, paths)
        if processes >= 2:
            # The serial reader's checks of the whole file (NUL bytes, empty files): a file
            # that fails them is left to the serial run, which reports it.
            for path in paths:
                check_readable(path)
        if processes < 2:
            return None
        formats = [detect_format(path) if options.format == "auto" else options.format
                   for path in paths]
        if not all(name in PARALLEL_FORMATS for name in formats):
            return None
    except (AnascoreError, OSError):
        return None
    return map_documents(key, responses, count, processes,
                         token_columns=token_columns or options.needs_token_columns,
                         advance=advance, formats=formats)


def score_documents(key: Iterable[Document], response: Iterable[Document], *,
                    metrics: str | Iterable[str] | None = None, **settings: Any) -> Report:
    """Score documents already in memory (built in Python, with any mention attributes the
    linguistically aware metrics read), with the settings of :func:`score`.

    Response documents are paired with key documents by name; a key document without one is
    scored against an empty response, with a warning, as for files.
    """
    options = Options.create(metrics=metrics, **settings)
    _refuse_paired_tests(options)
    refuse_unused(options, ("sign_key",), "it names the key file's content in the signature, "
                  "and documents in memory have no file; score files with anascore.score")
    key, response = _documents(key, "key"), _documents(response, "response")
    warnings: list[str] = []
    responses = {pairing_key(document.name, options.pair_documents): document
                 for document in response}
    names: list[str] = []
    records: list[dict[str, np.ndarray]] = []
    seen: dict[str, None] = {}  # the key's document names, in order (names: its units')
    paired = 0

    def pairs() -> Iterator[tuple[Document, tuple[Document | None]]]:
        nonlocal paired
        for key_document in key:
            if key_document.name in seen:
                raise DocumentMismatchError(f"document {key_document.name!r} appears twice "
                                            "in the key")
            seen[key_document.name] = None
            found = responses.pop(pairing_key(key_document.name, options.pair_documents), None)
            if found is not None:
                paired += 1
                if found.name != key_document.name:
                    warnings.append(paired_warning("documents in memory", found.name,
                                                   key_document.name))
                    found = replace(found, name=key_document.name)
            yield key_document, (found,)

    for key_document, (read,) in scoring_units(pairs(), options,
                                               lambda _, warning: warnings.append(warning)):
        response_document = prepare_response(key_document, read, None, options, warnings)
        names.append(key_document.name)
        records.append(count_document(key_document, response_document, options, warnings))
    if responses and not paired:  # whatever the flags: scoring it would score nothing
        raise DocumentMismatchError(none_paired_message(
            [document.name for document in responses.values()], list(seen), None))
    if responses and options.key_documents_only:
        warnings.insert(0, f"{len(responses)} response document"
                           f"{'s' if len(responses) != 1 else ''} not in the key ignored")
    elif responses:
        raise DocumentMismatchError(not_in_key_message(
            [document.name for document in responses.values()], list(seen), None))
    return Report.from_records(options, names, records, warnings).with_intervals()


def _documents(documents: Iterable[Document], role: str) -> Iterator[Document]:
    """``documents`` one at a time (a stream stays a stream), when they are documents; else
    an :class:`OptionsError`."""
    return checked_documents(documents, f"the {role}")


def _refuse_paired_tests(options: Options) -> None:
    """Paired tests compare several responses; one response's score cannot run them."""
    refuse_unused(options, ("paired_bs", "paired_ar"),
                  "paired tests compare responses with the first one; give at least two "
                  "responses (anascore.compare(key, [baseline, other, ...]))")


def pair_documents_many(key: PathLike, responses: Sequence[PathLike], options: Options,
                        ignored: list[list[str]] | None = None, *,
                        token_columns: bool = False,
                        ) -> Iterator[tuple[Document, tuple[Document | None, ...]]]:
    """Pair each key document with the document of the same name in every response.

    The key is read once, as a stream, and each response file is a stream of its own: when
    the files list documents in the key's order, memory holds one key document and one
    document per response; a response that lists them in another order holds its early
    documents until their key document comes. A key document a response lacks is paired with
    ``None``; a document named twice is an error, and so is a response document the key
    lacks, unless ``options.key_documents_only``: then ``ignored[i]`` receives response
    ``i``'s warning (the pairs themselves are checked by :func:`check_pair`).
    ``token_columns`` asks the readers for token columns even when no metric needs them
    (grouping by mention or entity type does). Above ``options.level`` ``document`` the
    pairs are those of the scoring units (:func:`anascore.scoring.levels.scoring_units`: every
    document is read first); a key document a response lacks in part of a unit is then
    ``ignored[i]``'s warning.
    """
    key_path = os.fspath(key)
    token_columns = token_columns or options.needs_token_columns
    streams = [_ResponseStream(os.fspath(response), options, token_columns)
               for response in responses]

    def pairs() -> Iterator[tuple[Document, tuple[Document | None, ...]]]:
        seen: set[str] = set()
        for key_document in read_documents(key_path, options.format,
                                           token_columns=token_columns,
                                           exclusive_ends=options.exclusive_ends):
            name = key_document.name
            if name in seen:
                raise DocumentMismatchError(f"document {name!r} appears twice in the key",
                                            path=key_path, line=key_document.line)
            seen.add(name)
            yield key_document, tuple(stream.take(name, seen) for stream in streams)
        for index, stream in enumerate(streams):
            warning = stream.finish(key_path, seen, options.key_documents_only)
            if ignored is not None:
                ignored[index] += stream.pairings  # names paired under another convention
                if warning is not None:
                    ignored[index].append(warning)

    def warn(index: int, warning: str) -> None:
        if ignored is not None:
            ignored[index].append(f"{streams[index].path}: {warning}")

    # Above the document level, the documents of a unit are joined here, between pairing
    # and counting, for every entry point that reads files.
    yield from scoring_units(pairs(), options, warn)


class _ResponseStream:
    """The documents of one response file, handed out by name in the key's order."""

    def __init__(self, path: str, options: Options, token_columns: bool = False) -> None:
        self.path = path
        self.documents = read_documents(path, options.format,
                                        token_columns=token_columns
                                        or options.needs_token_columns,
                                        exclusive_ends=options.exclusive_ends, role="response")
        # documents read before their key document, by the name that pairs them
        # (options.pair_documents: the name, or its normalised form)
        self.pairing = options.pair_documents
        self.waiting: dict[object, Document] = {}
        self.taken: set[object] = set()  # the key names asked for, as they pair
        self.paired = 0  # documents handed out
        self.pairings: list[str] = []  # the warnings of names paired under another convention
        self.unnamed = False  # a marked-up response's one document without a name

    def take(self, name: str, key_names: set[str]) -> Document | None:
        """The document called ``name`` (or, under ``pair_documents="normalized"``, of the
        same normalised name), reading on (and holding what comes first) until it comes;
        ``None`` if the file has no such document."""
        wanted = pairing_key(name, self.pairing)
        self.taken.add(wanted)
        response_document = self.waiting.pop(wanted, None)
        while response_document is None:
            candidate = next(self.documents, None)
            if candidate is None:
                break
            pairs_as = pairing_key(candidate.name, self.pairing)
            if pairs_as == wanted or (candidate.name == UNNAMED
                                      and candidate.source_format == "markup"):
                response_document = candidate
                self.unnamed = self.unnamed or candidate.name == UNNAMED
            elif pairs_as in self.waiting or candidate.name in key_names or (
                    pairs_as in self.taken):
                raise DocumentMismatchError(
                    f"document {candidate.name!r} appears twice in the response",
                    path=self.path, line=candidate.line)
            else:
                self.waiting[pairs_as] = candidate
        if response_document is None:
            return None
        self.paired += 1
        if response_document.name not in (name, UNNAMED):
            self.pairings.append(paired_warning(self.path, response_document.name, name))
        return replace(response_document, name=name)

    def finish(self, key_path: str, key_names: set[str], ignore_extra: bool) -> str | None:
        """A key document's second copy is an error; so is a document the key lacks, unless
        ``ignore_extra``: then it is the warning returned."""
        if self.unnamed and len(key_names) > 1:
            raise DocumentMismatchError(
                f"a marked-up text without '# newdoc id = NAME' is one document, but the key "
                f"{key_path} has {len(key_names)}; name each document", path=self.path,
                line=1)
        extra = list(self.waiting.values())
        for document in self.documents:
            if document.name in key_names or pairing_key(document.name,
                                                          self.pairing) in self.taken:
                raise DocumentMismatchError(
                    f"document {document.name!r} appears twice in the response",
                    path=self.path, line=document.line)
            extra.append(document)
        if not extra:
            return None
        names = [document.name for document in extra]
        if not self.paired:  # whatever the flags: scoring it would score nothing
            raise DocumentMismatchError(none_paired_message(names, key_names, key_path),
                                        path=self.path, line=extra[0].line)
        if ignore_extra:
            shown = ", ".join(map(repr, names[:3]))
            more = f" and {len(names) - 3} more" if len(names) > 3 else ""
            return (f"{self.path}: {len(names)} response document"
                    f"{'s' if len(names) != 1 else ''} not in the key ignored ({shown}{more})")
        raise DocumentMismatchError(not_in_key_message(names, key_names, key_path),
                                    path=self.path, line=extra[0].line)
