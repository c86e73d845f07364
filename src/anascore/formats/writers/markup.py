"""Marked-up text is a response form, read but never written: its writer refuses.

(The format: :mod:`anascore.formats.readers.markup`.)
"""

from __future__ import annotations

import os

from anascore.core.errors import FormatError


def write_markup(documents: object, path: str | os.PathLike[str]) -> None:
    """Marked-up text is a response form, read but never written."""
    raise FormatError("marked-up text is read as a response, not written; convert to "
                      "another format", path=os.fspath(path))
