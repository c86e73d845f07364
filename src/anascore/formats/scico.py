"""SciCo: its reader and writer, kept at this path for one release.

Reading is :mod:`anascore.formats.readers.scico`, writing
:mod:`anascore.formats.writers.scico`; import them from there.
"""

from __future__ import annotations

from anascore.formats.readers.scico import (  # noqa: F401
    read_scico,
)
from anascore.formats.writers.scico import (  # noqa: F401
    write_scico,
)
