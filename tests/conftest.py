"""The suite tests this checkout's source, ``src/``, whatever copy of anascore is installed.

An environment may hold anascore installed from an older tree (``pip install .`` is not
editable): the tests would then import that copy and fail on what the checkout changed, or
pass on what it broke. ``src/`` goes first on ``sys.path`` here, before any test module
imports anascore, and on ``PYTHONPATH`` for the processes tests start (``python -m
anascore``, benchmark scripts). In a fresh install of this checkout (the README's Quick
start, the sdist check) both copies are the same code.

Below: the fixtures several test modules share (the modules of ``tests/support/`` hold the
helpers that are plain functions, and the paths of the suite's inputs).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.files import write
from tests.support.paths import EXAMPLES

SOURCE = str(Path(__file__).resolve().parents[1] / "src")

if sys.path[:1] != [SOURCE]:
    sys.path.insert(0, SOURCE)
_inherited = os.environ.get("PYTHONPATH")
os.environ["PYTHONPATH"] = SOURCE if not _inherited else SOURCE + os.pathsep + _inherited


@pytest.fixture
def pair_files(tmp_path: Path) -> Callable[..., tuple[str, str]]:
    """Writes a key and a response (``key<suffix>``, ``response<suffix>`` in the test's
    temporary folder) from their texts; returns their paths."""

    def write_pair(key: str, response: str, suffix: str = ".conll") -> tuple[str, str]:
        return write(tmp_path, "key" + suffix, key), write(tmp_path, "response" + suffix, response)

    return write_pair


@pytest.fixture(scope="session")
def example_pair() -> tuple[str, str]:
    """The README's example key and response (examples/key.conll, examples/response.conll)."""
    return str(EXAMPLES / "key.conll"), str(EXAMPLES / "response.conll")
