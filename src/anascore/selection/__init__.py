"""The first stage of a document's comparison: what of each side (key or response) is scored,
as flat arrays (:mod:`~anascore.selection.sides`), with the accommodated sets of
split-antecedent plurals and the windows of long documents.

``anascore.selection`` was one module in 0.1.0; its names are still found here, from
:mod:`anascore.selection.sides`, for one release.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any


def __getattr__(name: str) -> Any:
    if name.startswith("__"):
        raise AttributeError(name)
    module = import_module("anascore.selection.sides")
    try:
        return getattr(module, name)
    except AttributeError:
        raise AttributeError(f"module 'anascore.selection' has no attribute {name!r}") from None
