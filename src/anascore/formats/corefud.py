"""CorefUD 1.0: its reader and writer, kept at this path for one release.

Reading is :mod:`anascore.formats.readers.corefud`, writing
:mod:`anascore.formats.writers.corefud`; import them from there.
"""

from __future__ import annotations

from anascore.formats.readers.corefud import (  # noqa: F401
    DEFAULT_ENTITY_FIELDS,
    KEPT_COLUMNS,
    newdoc_name,
    read_corefud,
    read_corefud_lines,
)
from anascore.formats.writers.corefud import (  # noqa: F401
    conllu_line,
    entity_fields,
    write_corefud,
    written_head,
)
