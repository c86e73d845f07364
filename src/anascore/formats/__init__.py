"""Readers for the formats people exchange coreference annotations in.

:func:`read_documents` is the one entry point: it picks the reader for a format name, or
detects the format from the start of the file (``format="auto"``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator

from anascore.errors import FormatError
from anascore.formats.conll2012 import read_conll2012
from anascore.formats.text import check_readable
from anascore.model import Document

Reader = Callable[[str], Iterator[Document]]


def read_ua(path: str | os.PathLike[str], *, token_columns: bool = False) -> Iterator[Document]:
    """:func:`anascore.formats.ua.read_ua`, imported on first use: a CoNLL-2012 run never
    loads the UA reader (its import costs about as much as scoring a hundred documents)."""
    from anascore.formats import ua

    return ua.read_ua(path, token_columns=token_columns)


READERS: dict[str, Reader] = {"conll2012": read_conll2012, "ua": read_ua}
#: Readers that can also keep per-token annotation columns (``Document.token_columns``) when
#: asked with ``token_columns=True``; they skip them otherwise, to read at full speed.
TOKEN_COLUMN_READERS: frozenset[str] = frozenset({"conll2012", "ua"})


def detect_format(path: str | os.PathLike[str]) -> str:
    """The format of a file, judged from its first lines."""
    path = os.fspath(path)
    head = check_readable(path).decode("utf-8", errors="replace")
    for line in head.splitlines():
        line = line.strip()
        if not line:
            continue
        if line.startswith("#") and "begin document" in line:
            return "conll2012"
        break
    from anascore.formats.ua import sniff_ua

    if sniff_ua(head):
        return "ua"
    raise FormatError(
        "cannot tell the format from the first line; expected '#begin document' "
        "(CoNLL-2012), '# global.columns = … IDENTITY …' or '# newdoc id =' and more than ten "
        "columns (UA exploded), or name the format with --format",
        path=path, line=1)


def read_documents(path: str | os.PathLike[str], format: str = "auto", *,
                   token_columns: bool = False) -> Iterator[Document]:
    """Yield the documents of ``path`` read as ``format`` (or the detected format);
    ``token_columns=True`` asks the reader to keep per-token annotation columns too (the
    part-of-speech and named-entity columns metrics derive mention types from)."""
    path = os.fspath(path)
    if format == "auto":
        format = detect_format(path)
    try:
        reader = READERS[format]
    except KeyError:
        raise FormatError(
            f"unknown format {format!r}; expected one of auto, {', '.join(READERS)}",
            path=path) from None
    if token_columns and format in TOKEN_COLUMN_READERS:
        return reader(path, token_columns=True)  # type: ignore[call-arg]
    return reader(path)
