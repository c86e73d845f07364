"""Folders and globs as inputs: a corpus that ships one file per document or per dataset.

``anascore score KEY RESPONSE`` where KEY and RESPONSE are folders (or glob patterns the shell
did not expand, such as ``'keys/*.conllu'``) pairs their files by relative path — the path
below the folder, or below the fixed part of the pattern — and scores each pair, as for
documents within one file: a key file without a response file is scored against an empty
response, with a warning; a response file without a key file is an error, unless
``key_documents_only`` (``--key-documents-only``) asks to ignore it, with a warning. The
reports of the pairs are joined into one (their documents in key-file order), so every
statistic, table and interval treats the corpus as one.

The same pairing (:func:`pair_files`: its warnings and refusals) serves the commands that need
the documents themselves — ``anascore errors``, ``anascore report`` and ``score --group-by``
with mention groups: :func:`document_pairs` hands out the documents of every pair of files in
turn, as those of the concatenated files would come.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence

from anascore.config.options import Options
from anascore.core.errors import AnascoreError, DocumentMismatchError, FormatError
from anascore.core.model import Document
from anascore.formats.io.sources import local_inputs
from anascore.report import Report
from anascore.scoring.document_names import nearest
from anascore.scoring.levels import refuse_file_sets
from anascore.stats.count_table import CountTable

#: Characters that make a path a glob pattern.
_GLOB = frozenset("*?[")


def is_file_set(path: str) -> bool:
    """Whether ``path`` names several files: a folder, or a pattern that is not a file."""
    return os.path.isdir(path) or (not os.path.exists(path) and bool(_GLOB & set(path)))


def members(path: str) -> dict[str, str]:
    """The files of a folder (recursively; hidden files and folders left out) or of a glob
    pattern, by their path relative to the folder or to the pattern's fixed part."""
    if os.path.isdir(path):
        found: dict[str, str] = {}
        for folder, subfolders, files in os.walk(path):
            subfolders[:] = sorted(name for name in subfolders if not name.startswith("."))
            for name in sorted(files):
                if not name.startswith("."):
                    full = os.path.join(folder, name)
                    found[os.path.relpath(full, path)] = full
        if not found:
            raise FormatError("is an empty folder; expected annotated files", path=path)
        return found
    import glob  # only for a pattern of files

    matched = sorted(match for match in glob.glob(path, recursive=True)
                     if os.path.isfile(match))
    if not matched:
        raise FormatError("no file matches this pattern", path=path)
    fixed = path[:min(path.index(character) for character in _GLOB & set(path))]
    base = fixed if fixed.endswith(os.sep) or not fixed else os.path.dirname(fixed)
    return {os.path.relpath(match, base or "."): match for match in matched}


#: Every key file with its relative path and the response file of each set (``None`` where
#: a set lacks it).
FilePairs = list[tuple[str, str, tuple[str | None, ...]]]


def any_file_set(key: str, responses: Sequence[str]) -> bool:
    """Whether the key or a response is a folder or pattern (:func:`pair_files` pairs them)."""
    return is_file_set(key) or any(is_file_set(path) for path in responses)


def pair_files(key: str, responses: Sequence[str], ignore_extra: bool,
               ) -> tuple[FilePairs, list[list[str]]]:
    """The files of ``key`` paired with those of each response set by relative path, and each
    set's warnings (response files ignored, response files missing); a file mixed with a set,
    or a response file without a key file (unless ``ignore_extra``), is an error."""
    if not is_file_set(key):
        raise AnascoreError("is a file, but a response is a folder or pattern; give a "
                            "folder or pattern of keys too", path=key)
    key_files = members(key)
    response_files = []
    for response in responses:
        if not is_file_set(response):
            what = "is a directory" if os.path.isdir(key) else "is a pattern of files"
            raise AnascoreError(f"{what} (a set of keys), but the response {response} is a "
                                "file; give a folder or pattern of responses too, or a key "
                                "file", path=key)
        response_files.append(members(response))
    warnings: list[list[str]] = [[] for _ in responses]
    for index, (response, files) in enumerate(zip(responses, response_files, strict=True)):
        extra = sorted(set(files) - set(key_files))
        if extra and not ignore_extra:
            guesses = nearest(extra[0], key_files)
            hint = f"; did you mean {' or '.join(map(repr, guesses))}?" if guesses else ""
            more = f" and {len(extra) - 1} more" if len(extra) > 1 else ""
            raise DocumentMismatchError(
                f"response file {extra[0]!r}{more} has no key file in {key}{hint}; "
                "--key-documents-only ignores such files", path=files[extra[0]])
        if extra:
            warnings[index].append(f"{response}: {len(extra)} response file"
                                   f"{'s' if len(extra) != 1 else ''} without a key file "
                                   f"ignored ({', '.join(map(repr, extra[:3]))})")
    pairs: FilePairs = []
    for relative, key_file in key_files.items():
        chosen = tuple(files.get(relative) for files in response_files)
        for index, path in enumerate(chosen):
            if path is None:
                warnings[index].append(f"{responses[index]}: no response file {relative!r}; "
                                       "its documents are scored as empty responses")
        pairs.append((relative, key_file, chosen))
    return pairs, warnings


def score_file_sets(key: str, responses: Sequence[str], ignore_extra: bool,
                    score_pair: Callable[[str, Sequence[str | None]], list[Report]],
                    ) -> list[Report]:
    """One joined report per response set: each key file scored against the response file
    of the same relative path in every set (``score_pair(key_file, response_files)``, with
    ``None`` for a missing response file)."""
    pairs, warnings = pair_files(key, responses, ignore_extra)
    parts: list[list[Report]] = [[] for _ in responses]
    for _, key_file, chosen in pairs:
        for index, report in enumerate(score_pair(key_file, chosen)):
            parts[index].append(report)
    return [joined(reports, extra) for reports, extra in zip(parts, warnings, strict=True)]


#: How the documents of one key file and its response files are paired
#: (:func:`anascore.scoring.pipeline.pair_documents_many`: ``pair(key, responses, options, ignored,
#: token_columns=…)``).
PairDocuments = Callable[..., Iterator[tuple[Document, tuple[Document | None, ...]]]]


def document_pairs(key: str | os.PathLike[str], responses: Sequence[str | os.PathLike[str]],
                   options: Options, pair_documents: PairDocuments,
                   ignored: list[list[str]] | None = None, *, token_columns: bool = False,
                   ) -> Iterator[tuple[Document, tuple[Document | None, ...]]]:
    """``pair_documents`` of files, or of folders and patterns: then the documents of every
    pair of files (:func:`pair_files`) in turn, as those of the concatenated files would
    come (``None`` for each document of a missing response file; a document named in two key
    files is an error); ``ignored[i]`` receives response ``i``'s warnings. The files are
    paired, and a mismatch refused, before the first document is read."""
    key_path, paths = os.fspath(key), [os.fspath(path) for path in responses]
    if not any_file_set(key_path, paths):
        return pair_documents(key_path, paths, options, ignored, token_columns=token_columns)
    refuse_file_sets(options)
    pairs, warnings = pair_files(key_path, paths, options.key_documents_only)
    if ignored is not None:
        for found, extra in zip(ignored, warnings, strict=True):
            found.extend(extra)

    def documents() -> Iterator[tuple[Document, tuple[Document | None, ...]]]:
        seen: set[str] = set()
        for _, key_file, chosen in pairs:
            present = {index: path for index, path in enumerate(chosen) if path is not None}
            found: list[list[str]] = [[] for _ in present]
            # A gzip file of a folder is read as anascore score reads it.
            with local_inputs([key_file, *present.values()]) as (local, inputs):
                for key_document, read in pair_documents(local[0], local[1:], options, found,
                                                         token_columns=token_columns):
                    _once(key_document.name, seen)
                    by_index = dict(zip(present, read, strict=True))
                    yield key_document, tuple(by_index.get(index)
                                              for index in range(len(paths)))
            if ignored is not None:
                for index, extra in zip(present, found, strict=True):
                    ignored[index].extend(inputs.rename(warning) for warning in extra)

    return documents()


def joined(reports: Sequence[Report], warnings: Sequence[str] = ()) -> Report:
    """The reports of several files as one (documents in order; a document name found in two
    files is an error: the corpus would count it twice)."""
    names: list[str] = []
    seen: set[str] = set()
    for report in reports:
        for name in report.document_names:
            _once(name, seen)
            names.append(name)
    table = CountTable.joined([report.table for report in reports])
    alignments = {name: found for report in reports
                  for name, found in report.set_alignments.items()}
    return Report.from_table(reports[0].options, table,
                             (*warnings, *(warning for report in reports
                                           for warning in report.warnings)), alignments)


def _once(name: str, seen: set[str]) -> None:
    """Note a document of the key files; one named twice is an error: the corpus would count
    it twice."""
    if name in seen:
        raise DocumentMismatchError(f"document {name!r} is in two key files; a corpus names "
                                    "each document once")
    seen.add(name)
