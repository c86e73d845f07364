"""CoNLL-2012: its reader and writer, kept at this path for one release.

Reading is :mod:`anascore.formats.readers.conll2012`, writing
:mod:`anascore.formats.writers.conll2012`; import them from there.
"""

from __future__ import annotations

from anascore.formats.readers.conll2012 import (  # noqa: F401
    Bracket,
    FileColumns,
    begun_document,
    cell_brackets,
    read_conll2012,
    read_lines,
)
from anascore.formats.writers.conll2012 import (  # noqa: F401
    write_conll2012,
)
