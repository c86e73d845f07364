"""Mention-based CoNLL: its reader and writer, kept at this path for one release.

Reading is :mod:`anascore.formats.readers.mentionconll`, writing
:mod:`anascore.formats.writers.mentionconll`; import them from there.
"""

from __future__ import annotations

from anascore.formats.readers.mentionconll import (  # noqa: F401
    read_mentionconll,
)
from anascore.formats.writers.mentionconll import (  # noqa: F401
    write_mentionconll,
)
