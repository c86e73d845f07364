"""From files (or clusters) to per-document counts: the read → select → match → count flow.

:func:`count_document` is the whole per-document pipeline; :func:`score` runs it over the
paired documents of a key and a response file and returns a
:class:`~anascore.report.Report` holding every document's counts.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np

from anascore.contingency import Comparison
from anascore.errors import DocumentMismatchError
from anascore.formats import read_documents
from anascore.formats.alignment import align_conllu
from anascore.matching import align
from anascore.metrics import REGISTRY
from anascore.model import Document
from anascore.options import Options
from anascore.report import Report
from anascore.selection import select_side

PathLike = str | os.PathLike[str]


def count_document(key: Document | None, response: Document | None, options: Options,
                   warnings: list[str]) -> dict[str, np.ndarray]:
    """Every computed metric's counts for one document (``None``: an empty side)."""
    key_side = select_side(key, options, "key", warnings)
    response_side = select_side(response, options, "response", warnings)
    alignment = align(key_side, response_side, options)
    comparison = Comparison.from_sides(key_side, response_side, alignment, options)
    return {name: REGISTRY[name].count(comparison) for name in options.computed_metrics}


def score(key: PathLike, response: PathLike, *, format: str = "auto",
          metrics: str | Iterable[str] | None = None, keep_singletons: bool | None = None,
          match: str | None = None, **settings: Any) -> Report:
    """Score a response file against a key file.

    Parameters
    ----------
    key, response
        Paths of the gold annotation and of the system output.
    format
        ``"auto"`` (detect), ``"conll2012"``, ``"corefud"`` or ``"jsonlines"``.
    metrics
        ``None`` for the default metrics (or the preset's), ``"all"`` for every metric, else
        names from :data:`anascore.options.METRIC_NAMES` (a list or a comma-separated string).
    keep_singletons
        ``False`` removes single-mention entities from both sides before scoring (default
        ``True``, or the preset's).
    match
        How mentions are aligned: ``"exact"`` (default), ``"head"``, ``"partial"``,
        ``"craft"``.
    settings
        Every other field of :class:`~anascore.options.Options` by name: ``keep_zeros``,
        ``zero_match``, ``exclusive_ends``, ``compat``, ``preset`` (``"crac22"`` …).

    Returns
    -------
    Report
        Corpus scores in ``report.metrics``, every document's counts, and warnings.

    Raises
    ------
    anascore.errors.AnascoreError
        For bad input, naming the file and line.
    """
    if keep_singletons is not None:
        settings["keep_singletons"] = keep_singletons
    if match is not None:
        settings["match"] = match
    options = Options.create(format=format, metrics=metrics, **settings)
    return score_files(key, response, options)


def score_files(key: PathLike, response: PathLike, options: Options) -> Report:
    """:func:`score` with the settings already in one :class:`Options`."""
    warnings: list[str] = []
    names: list[str] = []
    records: list[dict[str, np.ndarray]] = []
    for key_document, response_document in pair_documents(key, response, options, warnings):
        names.append(key_document.name)
        records.append(count_document(key_document, response_document, options, warnings))
    return Report.from_records(options, names, records, warnings)


def pair_documents(key: PathLike, response: PathLike, options: Options,
                   warnings: list[str]) -> Iterator[tuple[Document, Document | None]]:
    """Pair each key document with the response document of the same name.

    Documents are read in step when both files list them in the same order (memory: one
    document); otherwise response documents are held until their key document comes. A key
    document the response lacks is scored against an empty response, with a warning, as the
    reference scorer does; a response document the key lacks, a document named twice, and a
    token mismatch are errors.
    """
    key_path, response_path = os.fspath(key), os.fspath(response)
    responses = read_documents(response_path, options.format,
                               exclusive_ends=options.exclusive_ends, role="response")
    waiting: dict[str, Document] = {}
    seen: set[str] = set()
    for key_document in read_documents(key_path, options.format,
                                       exclusive_ends=options.exclusive_ends):
        name = key_document.name
        if name in seen:
            raise DocumentMismatchError(f"document {name!r} appears twice in the key",
                                        path=key_path, line=key_document.line)
        seen.add(name)
        response_document = waiting.pop(name, None)
        while response_document is None:
            candidate = next(responses, None)
            if candidate is None:
                break
            if candidate.name == name:
                response_document = candidate
            elif candidate.name in waiting or candidate.name in seen:
                raise DocumentMismatchError(
                    f"document {candidate.name!r} appears twice in the response",
                    path=response_path, line=candidate.line)
            else:
                waiting[candidate.name] = candidate
        if response_document is None:
            warnings.append(f"{response_path}: document {name!r} of the key is missing from "
                            "the response; scored as an empty response")
        else:
            aligned = align_conllu(key_document, response_document)
            if aligned is None:
                check_same_tokens(key_document, response_document, warnings)
            else:
                key_document, response_document = aligned
        yield key_document, response_document
    extra = list(waiting.values()) + list(responses)
    if extra:
        names = ", ".join(repr(document.name) for document in extra[:3])
        more = f" and {len(extra) - 3} more" if len(extra) > 3 else ""
        raise DocumentMismatchError(
            f"response document {names}{more} not in the key {key_path}",
            path=response_path, line=extra[0].line)


def check_same_tokens(key: Document, response: Document, warnings: list[str]) -> None:
    """A different number of tokens is an error; different word forms are a warning."""
    if len(key.tokens) != len(response.tokens):
        raise DocumentMismatchError(
            f"document {key.name!r} has {len(key.tokens)} tokens in the key "
            f"({key.path}:{key.line}) but {len(response.tokens)} in the response "
            f"({response.path}:{response.line}); expected the same tokens",
            path=response.path, line=response.line)
    if key.tokens != response.tokens:
        position = next(index for index, (gold, system) in
                        enumerate(zip(key.tokens, response.tokens, strict=True))
                        if gold != system)
        warnings.append(
            f"{response.path}: document {key.name!r}: token {position} is "
            f"{response.tokens[position]!r} in the response but {key.tokens[position]!r} "
            f"in the key {key.path}")
