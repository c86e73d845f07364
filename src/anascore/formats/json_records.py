"""JSON files read record by record, each with the line it starts on, for errors that name it.

The cross-document formats keep their records in one JSON array (the mention records of
Barhom et al. 2019, WEC-Eng and uCDCR) or one per line (SciCo's topics, JSON Lines).
:func:`json_records` reads either and yields each record with its index and line, so that a
reader's error names the file, the line and the record (``record 12``) it is about; a file
that is not JSON is one error naming the line where parsing stopped.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from anascore.core.errors import FormatError
from anascore.formats.io.text_files import open_text

_DECODER = json.JSONDecoder()
_SPACE = re.compile(r"[ \t\n\r]*")
#: A JSON escape of a UTF-16 surrogate: valid only in pairs; a lone one decodes to a string no
#: output can encode.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def json_records(path: str, expected: str) -> Iterator[tuple[int, int, Any]]:
    """``(index, line, record)`` for each record of ``path``: the elements of a top-level
    JSON array, or each non-blank line of a JSON Lines file (``expected``: what a record is,
    for the errors)."""
    with open_text(path) as stream:
        text = stream.read()
    start = _SPACE.match(text).end()  # type: ignore[union-attr]
    if text.startswith("[", start):
        yield from _array(text, start + 1, path, expected)
        return
    index = 0
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        record, end = _decode(line, _SPACE.match(line).end(), path,  # type: ignore[union-attr]
                              number, expected)
        if line[end:].strip():
            raise FormatError(f"text after the JSON value; expected {expected}, one per line",
                              path=path, line=number)
        yield index, number, record
        index += 1


def _array(text: str, position: int, path: str, expected: str) -> Iterator[tuple[int, int, Any]]:
    """The elements of the array whose ``[`` ends at ``position``."""
    index = 0
    lines = _LineCounter(text)
    while True:
        position = _SPACE.match(text, position).end()  # type: ignore[union-attr]
        if position >= len(text):
            raise FormatError(f"the file ends inside the JSON array; expected {expected} or "
                              "']'", path=path, line=lines.line(position))
        if text.startswith("]", position):
            if text[position + 1:].strip():
                raise FormatError("text after the closing ']'; expected one JSON array",
                                  path=path, line=lines.line(position + 1))
            return
        if index:
            if not text.startswith(",", position):
                raise FormatError(f"expected ',' or ']' after record {index - 1}", path=path,
                                  line=lines.line(position))
            position = _SPACE.match(text, position + 1).end()  # type: ignore[union-attr]
        line = lines.line(position)
        record, position = _decode(text, position, path, line, expected)
        yield index, line, record
        index += 1


def _decode(text: str, position: int, path: str, line: int, expected: str) -> tuple[Any, int]:
    """The JSON value at ``position`` and where it ends."""
    if position >= len(text):
        raise FormatError(f"the file ends inside the JSON array; expected {expected} or ']'",
                          path=path, line=line)
    try:
        value, end = _DECODER.raw_decode(text, position)
    except json.JSONDecodeError as error:
        raise FormatError(f"not JSON ({error.msg}); expected {expected}", path=path,
                          line=error.lineno if error.lineno > line else line) from None
    except ValueError:  # Python reads no number of over 4,300 digits
        raise FormatError(f"a number of over 4,300 digits; expected {expected}", path=path,
                          line=line) from None
    except RecursionError:
        raise FormatError(f"JSON nested too deeply to read; expected {expected}", path=path,
                          line=line) from None
    if _SURROGATE_ESCAPE.search(text, position, end):
        _check_text(value, path, line)
    return value, end


class _LineCounter:
    """The 1-based line of a position of ``text``, for positions asked in increasing order."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.position = 0
        self.number = 1

    def line(self, position: int) -> int:
        self.number += self.text.count("\n", self.position, position)
        self.position = position
        return self.number


def _check_text(record: Any, path: str, line: int) -> None:
    """Every string of the record encodes as UTF-8 (a lone surrogate does not)."""
    values: list[Any] = [record]
    while values:
        value = values.pop()
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise FormatError(f"{value!r} holds a lone UTF-16 surrogate (\\ud800-\\udfff "
                                  "without its pair); expected text", path=path,
                                  line=line) from None
        elif isinstance(value, dict):
            values.extend(value.keys())
            values.extend(value.values())
        elif isinstance(value, list):
            values.extend(value)


def is_integer(value: Any) -> bool:
    """Whether a JSON value is an integer (``true`` is not one)."""
    return isinstance(value, int) and not isinstance(value, bool)


def name_of(value: Any) -> str | None:
    """A JSON string or integer as a name (``16`` → ``"16"``); ``None`` for anything else.
    An identifier is a name: its characters are kept as they are, never read as a number."""
    if isinstance(value, str):
        return value
    if is_integer(value):
        return str(value)
    return None
