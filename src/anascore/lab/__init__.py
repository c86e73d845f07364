"""The metric sensitivity lab (``anascore lab``): how each metric reacts to each kind of error.

``anascore.lab`` was one module in 0.1.0; its names are still found here, from
:mod:`anascore.lab.sensitivity`, for one release.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any


def __getattr__(name: str) -> Any:
    if name.startswith("__"):
        raise AttributeError(name)
    module = import_module("anascore.lab.sensitivity")
    try:
        return getattr(module, name)
    except AttributeError:
        raise AttributeError(f"module 'anascore.lab' has no attribute {name!r}") from None
