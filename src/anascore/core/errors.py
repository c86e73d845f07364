"""Errors anascore raises for bad input, and the location they name.

Every error that bad input can cause is an :class:`AnascoreError` carrying the file, the
line (when there is one) and what was expected, so that the command line can print one
line, ``anascore: error: FILE:LINE: message``, and exit with status 1 — never a traceback.
"""

from __future__ import annotations

import os


class AnascoreError(Exception):
    """Bad input: names the file, the line (1-based, optional) and what was wrong."""

    def __init__(self, message: str, *, path: str | os.PathLike[str] | None = None,
                 line: int | None = None) -> None:
        self.message = printable(message)
        self.path = None if path is None else os.fspath(path)
        self.line = line
        super().__init__(self.location_message())

    def location_message(self) -> str:
        """``FILE:LINE: message`` (or the parts of it that are known), the file name escaped
        as the message is (:func:`printable`): it may come from a file too (a manifest)."""
        where = printable(self.path or "")
        if self.line is not None:
            where = f"{where}:{self.line}"
        return f"{where}: {self.message}" if where else self.message


def printable(text: str) -> str:
    """``text`` with every character that is not printable escaped (``\\x1b``, ``\\n``,
    ``\\ud800``): a message quotes input, and a control character or terminal escape code
    from a file must not reach the user's terminal, nor break the message's one line."""
    if text.isprintable():
        return text
    return "".join(character if character.isprintable()
                   else character.encode("unicode_escape", "backslashreplace").decode("ascii")
                   for character in text)


#: How many characters of a value from the input a message quotes (:func:`shorten`).
QUOTED_CHARACTERS = 40


def shorten(value: str, limit: int = QUOTED_CHARACTERS) -> str:
    """``value`` as a message quotes it: its first ``limit`` characters and ``…`` when it is
    longer. A value from the input may be a 5,000-digit number or a megabyte-long cell; the
    message must stay one short line, and its start is enough to find it."""
    return value if len(value) <= limit else value[:limit] + "…"


class FormatError(AnascoreError):
    """A file does not follow the format it is read as."""


class DocumentMismatchError(AnascoreError):
    """Key and response disagree on documents or tokens."""


class OtherTokensError(DocumentMismatchError):
    """Key and response have other words (a different number of tokens, other words in a
    sentence, other sentences): the response may be on another tokenization, which the
    scoring layer, knowing the settings, can say how to score."""


class OptionsError(AnascoreError):
    """An impossible or unknown setting."""


class AnascoreWarning(UserWarning):
    """Something a score was computed in spite of (a repeated mention, a different word),
    raised as a Python warning where an entry point returns no report to hold it
    (:func:`anascore.compute`)."""
