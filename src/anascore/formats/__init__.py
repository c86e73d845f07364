"""Reading and writing the formats people exchange coreference annotations in.

:func:`read_documents` is the one entry point for reading: it picks the reader for a format
name, or detects the format from the start of the file (``format="auto"``); :func:`writer`
gives a format's writer. The readers are in :mod:`anascore.formats.readers`, the writers in
:mod:`anascore.formats.writers`, one module per format each; what each format holds is a row
of :data:`anascore.config.format_catalogue.CATALOGUE`. ``formats/io/`` holds what reading and
writing files needs besides the formats (sources, atomic output, conversion, token alignment).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from importlib import import_module
from typing import Any

from anascore.config.format_catalogue import BY_NAME, FORMAT_NAMES, names_where
from anascore.core.errors import FormatError
from anascore.core.model import Document
from anascore.formats.io.text_files import check_readable

Reader = Callable[..., Iterator[Document]]
Writer = Callable[..., None]

#: The module that reads each format (``read_FORMAT``), and the one that writes it
#: (``write_FORMAT``); a module is imported when its format is first used, so a CoNLL-2012 run
#: never loads the other readers (the UA reader's import alone costs about as much as scoring
#: a hundred documents). The formats are the rows of
#: :data:`anascore.config.format_catalogue.CATALOGUE`.
READER_MODULES: dict[str, str] = {name: f"anascore.formats.readers.{name}"
                                  for name in FORMAT_NAMES}
WRITER_MODULES: dict[str, str] = {name: f"anascore.formats.writers.{name}"
                                  for name in FORMAT_NAMES}
#: The module of each format at its path before readers and writers were apart (each
#: re-exports both; kept for one release).
FORMAT_MODULES: dict[str, str] = {name: f"anascore.formats.{name}" for name in FORMAT_NAMES}
#: Formats read as responses only (written by no writer: ``anascore convert`` cannot target
#: them).
READ_ONLY_FORMATS: frozenset[str] = names_where(lambda facts: not facts.writable)
#: Readers that can also keep per-token annotation columns (``Document.token_columns``) when
#: asked with ``token_columns=True``; they skip them otherwise, to read at full speed.
TOKEN_COLUMN_READERS: frozenset[str] = names_where(lambda facts: facts.token_columns)


def reader(format: str, *, path: str | None = None) -> Reader:
    """``read_FORMAT`` of the format's reader module (``path``: the file, named by the error
    for an unknown format)."""
    return _function(format, "read", READER_MODULES, path)


def writer(format: str) -> Writer:
    """``write_FORMAT`` of the format's writer module (every reader has a writer, ``anascore
    convert``; marked-up text's refuses)."""
    return _function(format, "write", WRITER_MODULES, None)


def _function(format: str, verb: str, modules: dict[str, str], path: str | None) -> Any:
    try:
        module = modules[format]
    except KeyError:
        raise FormatError(
            f"unknown format {format!r}; expected one of auto, {', '.join(FORMAT_NAMES)}",
            path=path) from None
    return getattr(import_module(module), f"{verb}_{format}")


def detect_format(path: str | os.PathLike[str]) -> str:
    """The format of a file, judged from its first lines."""
    path = os.fspath(path)
    head = check_readable(path).decode("utf-8-sig", errors="replace")
    lines = head.splitlines()
    for number, line in enumerate(lines):
        line = line.strip()
        if not line:
            continue
        if line.startswith("#") and "begin document" in line:
            return _bracketed_format(lines[number + 1:])
        if re.match(_JSON_ARRAY, head.lstrip()):  # not marked-up text: '[Anna|1] met …'
            return "mentionjson"
        if line.startswith("{"):
            return _json_lines_format(head)
        break
    corefud = _looks_like_corefud(head)
    if corefud:
        return corefud
    from anascore.formats.readers.ua import sniff_ua

    marked_up = bool(re.search(_MARKED_UP, head))
    if marked_up and not _first_text_line_tabbed(head):
        # Before UA: '# newdoc id' and a line of more than ten words looks like the UA
        # exploded format, whose token lines are columns separated by tabs.
        return "markup"
    if sniff_ua(head):
        return "ua"
    if marked_up:
        return "markup"
    raise FormatError(
        "cannot tell the format from the first line; expected '#begin document' "
        "(CoNLL-2012, Cattan's cross-document CoNLL), '[' (mention records in JSON), '{' "
        "(jsonlines, SciCo), CoNLL-U with '# global.Entity' or 10 tab-separated "
        "columns (CorefUD), '# global.columns = … IDENTITY …' or '# newdoc id =' and more "
        "than ten columns (UA exploded), marked-up text '[Anna|1] met [her|1]', or name the "
        "format with --format",
        path=path, line=1)


def _bracketed_format(lines: list[str]) -> str:
    """``"cattan"`` when the first token line after ``#begin document`` has the eight columns
    of Cattan's cross-document CoNLL (its seventh a ``True``/``False`` flag), else
    ``"conll2012"``."""
    for line in lines:
        if line.strip() and not line.lstrip().startswith("#"):
            return "cattan" if looks_like_cattan(line) else "conll2012"
    return "conll2012"


def looks_like_cattan(line: str) -> bool:
    """Whether a token line has the eight tab-separated columns of Cattan's cross-document
    CoNLL (:mod:`anascore.formats.readers.cattan`), the seventh a ``True``/``False`` flag."""
    cells = line.rstrip("\r\n").split("\t")
    return len(cells) == 8 and cells[6] in ("True", "False")


# The detection's patterns are kept as text and compiled when first used (``re`` caches
# them): a file that says what it is on its first line (``#begin document``) needs none.
#: The start of a JSON array of objects (mention records), or of an empty one.
_JSON_ARRAY = r"\[\s*[{\]]"
#: A key of a JSON object (a token string is followed by ``,`` or ``]``, never ``:``).
_JSON_KEY = r'"(doc_key|coref_chain|flatten_tokens|flatten_mentions|mentions)"\s*:'


def _json_lines_format(head: str) -> str:
    """The format of a file of JSON objects, one per line, by the keys its first object
    has: ``doc_key`` jsonlines, ``coref_chain`` mention records, ``flatten_tokens``,
    ``flatten_mentions`` or ``mentions`` SciCo topics; jsonlines when none is seen."""
    first = head.lstrip().split("\n", 1)[0]
    keys = {match.group(1) for match in re.finditer(_JSON_KEY, first)}
    if "doc_key" in keys:
        return "jsonlines"
    if "coref_chain" in keys:
        return "mentionjson"
    if keys:
        return "scico"
    return "jsonlines"


#: A marked-up mention, ``[text|ID]`` (:mod:`anascore.formats.readers.markup`).
_MARKED_UP = r"\[[^\]\t]*\|[A-Za-z0-9_.\-]+\]"


def _first_text_line_tabbed(head: str) -> bool:
    """Whether the first line that is neither blank nor a comment holds a tab."""
    return next((("\t" in line) for line in head.splitlines()
                 if line.strip() and not line.startswith("#")), False)


def _looks_like_corefud(head: str) -> str | None:
    """``"corefud"`` for CoNLL-U without a ``# global.columns`` header (CoNLL-U Plus files,
    such as the UA exploded format, declare their columns there)."""
    for line in head.splitlines():
        if line.startswith("# global.columns"):
            return None
        if line.startswith("# global.Entity"):
            return "corefud"
        if line and not line.startswith("#"):
            return "corefud" if len(line.rstrip("\r\n").split("\t")) == 10 else None
    return None


def read_documents(path: str | os.PathLike[str], format: str = "auto", *,
                   token_columns: bool = False, exclusive_ends: bool = False,
                   role: str = "key", all_columns: bool = False) -> Iterator[Document]:
    """Yield the documents of ``path`` read as ``format`` (or the detected format);
    ``token_columns=True`` asks the reader to keep per-token annotation columns too (the
    part-of-speech and named-entity columns metrics derive mention types from).
    ``exclusive_ends`` and ``role`` (``"key"`` or ``"response"``) concern jsonlines only
    (:mod:`anascore.formats.readers.jsonlines`); ``all_columns`` CorefUD only (every column, for
    conversion)."""
    path = os.fspath(path)
    if format == "auto":
        format = detect_format(path)
    read = reader(format, path=path)
    if BY_NAME[format].exclusive_ends:
        return read(path, exclusive_ends=exclusive_ends, role=role)
    if all_columns and format in TOKEN_COLUMN_READERS:  # conversion: lose nothing
        return read(path, token_columns=token_columns, all_columns=True)
    if token_columns and format in TOKEN_COLUMN_READERS:
        return read(path, token_columns=True)
    return read(path)
