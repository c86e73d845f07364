"""The ``anascore`` command line: its entry point and one module per command, a thin layer over
the Python API.

``anascore.cli`` was one module in 0.1.0; its names are still found here, from
:mod:`anascore.cli.main`, for one release.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any


def __getattr__(name: str) -> Any:
    if name.startswith("__"):
        raise AttributeError(name)
    module = import_module("anascore.cli.main")
    try:
        return getattr(module, name)
    except AttributeError:
        raise AttributeError(f"module 'anascore.cli' has no attribute {name!r}") from None
