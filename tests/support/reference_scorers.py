"""Importing the reference scorers the differential tests run beside anascore.

The UA scorer 2.0 and the CorefUD scorer (a fork of it) both name their top package
``scorer``; once one is imported, Python would hand its modules to the other's imports, and
each differential test would compare anascore with the wrong scorer when both run in one
session. :func:`import_checkout` loads one checkout's modules on their own.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

PACKAGE = "scorer"


def _loaded() -> dict[str, ModuleType]:
    return {name: module for name, module in sys.modules.items()
            if name == PACKAGE or name.startswith(PACKAGE + ".")}


def import_checkout(root: str | Path, *names: str) -> list[ModuleType]:
    """The modules ``names`` of the checkout at ``root``, imported from it alone; the
    ``scorer`` modules of any other checkout loaded before are put back afterwards (the
    scorers import nothing inside their functions, so each keeps its own modules)."""
    others = _loaded()
    for name in others:
        del sys.modules[name]
    sys.path.insert(0, str(root))
    try:
        return [importlib.import_module(name) for name in names]
    finally:
        sys.path.remove(str(root))
        for name in _loaded():
            del sys.modules[name]
        sys.modules.update(others)
