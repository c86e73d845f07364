"""The suite tests this checkout's source, ``src/``, whatever copy of anascore is installed.

An environment may hold anascore installed from an older tree (``pip install .`` is not
editable): the tests would then import that copy and fail on what the checkout changed, or
pass on what it broke. ``src/`` goes first on ``sys.path`` here, before any test module
imports anascore, and on ``PYTHONPATH`` for the processes tests start (``python -m
anascore``, benchmark scripts). In a fresh install of this checkout (the README's Quick
start, the sdist check) both copies are the same code.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

SOURCE = str(Path(__file__).resolve().parents[1] / "src")

if sys.path[:1] != [SOURCE]:
    sys.path.insert(0, SOURCE)
_inherited = os.environ.get("PYTHONPATH")
os.environ["PYTHONPATH"] = SOURCE if not _inherited else SOURCE + os.pathsep + _inherited
