"""jsonlines: its reader and writer, kept at this path for one release.

Reading is :mod:`anascore.formats.readers.jsonlines`, writing
:mod:`anascore.formats.writers.jsonlines`; import them from there.
"""

from __future__ import annotations

from anascore.formats.readers.jsonlines import (  # noqa: F401
    read_jsonlines,
)
from anascore.formats.writers.jsonlines import (  # noqa: F401
    write_jsonlines,
)
