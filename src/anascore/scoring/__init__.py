"""From files, folders or clusters in memory to per-document counts and a report: the one
per-document pipeline (:mod:`~anascore.scoring.pipeline`), pairing of documents, file sets,
levels, parallel workers, grouped scores and several systems.

``anascore.scoring`` was one module in 0.1.0; its names are still found here, from
:mod:`anascore.scoring.pipeline`, for one release.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any


def __getattr__(name: str) -> Any:
    if name.startswith("__"):
        raise AttributeError(name)
    module = import_module("anascore.scoring.pipeline")
    try:
        return getattr(module, name)
    except AttributeError:
        raise AttributeError(f"module 'anascore.scoring' has no attribute {name!r}") from None
