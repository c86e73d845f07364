"""Mention records (JSON): its reader and writer, kept at this path for one release.

Reading is :mod:`anascore.formats.readers.mentionjson`, writing
:mod:`anascore.formats.writers.mentionjson`; import them from there.
"""

from __future__ import annotations

from anascore.formats.readers.mentionjson import (  # noqa: F401
    NO_TEXT,
    read_mentionjson,
)
from anascore.formats.writers.mentionjson import (  # noqa: F401
    mention_coordinates,
    write_mentionjson,
)
