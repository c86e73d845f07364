"""The UA exploded format (CoNLL-U Plus): its reader and writer, kept here for one release.

Reading is :mod:`anascore.formats.readers.ua`, writing
:mod:`anascore.formats.writers.ua`; import them from there.
"""

from __future__ import annotations

from anascore.formats.readers.ua import (  # noqa: F401
    DEFAULT_COLUMNS,
    newdoc_name,
    read_ua,
    read_ua_lines,
    sniff_ua,
)
from anascore.formats.readers.ua_markables import (  # noqa: F401
    PSEUDO_SUFFIXES,
    canonical_name,
    is_pseudo,
    parse_attributes,
)
from anascore.formats.writers.ua import (  # noqa: F401
    WRITTEN_COLUMNS,
    heads_read_back,
    write_ua,
)
