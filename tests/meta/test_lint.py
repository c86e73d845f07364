"""The code stays ruff clean (skipped where ruff is not installed)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.support.paths import ROOT


@pytest.mark.skipif(shutil.which("ruff") is None, reason="ruff is not installed")
def test_ruff_is_clean() -> None:
    folders = [name for name in ("src", "tests", "benchmarks", "tools") if (ROOT / name).is_dir()]
    result = subprocess.run(["ruff", "check", *folders], cwd=ROOT, capture_output=True,
                            text=True)
    assert result.returncode == 0, result.stdout + result.stderr
