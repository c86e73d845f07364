"""The package type-checks: ``mypy src`` is clean (skipped where mypy is not installed).

The README's development steps ask for it; run here, a change that breaks a type hint fails
the suite instead of waiting for someone to remember the command (settings: the
``[[tool.mypy.overrides]]`` of pyproject.toml).
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys

import pytest

from tests.support import paths

ROOT = paths.ROOT


def mypy_command() -> list[str] | None:
    """mypy of the interpreter running the tests (it sees the same numpy), else one on PATH."""
    if importlib.util.find_spec("mypy") is not None:
        return [sys.executable, "-m", "mypy"]
    program = shutil.which("mypy")
    return [program] if program else None


@pytest.mark.skipif(mypy_command() is None, reason="mypy is not installed")
def test_mypy_is_clean() -> None:
    command = mypy_command()
    assert command is not None
    result = subprocess.run([*command, "src"], cwd=ROOT, capture_output=True, text=True,
                            timeout=900)
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
