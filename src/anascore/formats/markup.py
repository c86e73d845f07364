"""Marked-up text: its reader and writer, kept at this path for one release.

Reading is :mod:`anascore.formats.readers.markup`, writing
:mod:`anascore.formats.writers.markup`; import them from there.
"""

from __future__ import annotations

from anascore.formats.readers.markup import (  # noqa: F401
    UNNAMED,
    read_markup,
)
from anascore.formats.writers.markup import (  # noqa: F401
    write_markup,
)
