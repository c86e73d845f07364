"""Cattan's cross-document CoNLL: its reader and writer, kept at this path for one release.

Reading is :mod:`anascore.formats.readers.cattan`, writing
:mod:`anascore.formats.writers.cattan`; import them from there.
"""

from __future__ import annotations

from anascore.formats.readers.cattan import (  # noqa: F401
    COLUMNS,
    read_cattan,
)
from anascore.formats.writers.cattan import (  # noqa: F401
    write_cattan,
)
