"""Packaging: the version is stated once in effect (package, pyproject, CITATION.cff agree),
and, when asked (``ANASCORE_SDIST_CHECK=1``), the source distribution passes its own tests
in a fresh virtual environment (``tools/check_sdist.py``)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

import anascore
from anascore.core.version import REQUIRED_PYTHON
from tests.support.paths import ROOT


def test_pyproject_and_citation_state_the_package_version() -> None:
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["version"] == anascore.__version__
    assert project["authors"] == [{"name": "The anascore developers"}]
    citation = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    assert re.search(r'^version: "([^"]+)"$', citation, re.MULTILINE)[1] == anascore.__version__
    assert re.search(r'^cff-version: (\S+)$', citation, re.MULTILINE)[1] == "1.2.0"


def test_the_oldest_python_is_stated_once() -> None:
    """pyproject's requires-python is what the Codabench program and its help say
    (``REQUIRED_PYTHON``); they said 3.11 while the package (and the program, which the whole
    suite runs on 3.10) needs only 3.10."""
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["requires-python"] == f">={REQUIRED_PYTHON}"
    assert f"Python ≥ {REQUIRED_PYTHON} with numpy" in (
        ROOT / "docs" / "shared-task.md").read_text(encoding="utf-8")


@pytest.mark.skipif(os.environ.get("ANASCORE_SDIST_CHECK") != "1",
                    reason="set ANASCORE_SDIST_CHECK=1 to build the sdist and run its tests "
                           "in a fresh virtual environment (minutes)")
@pytest.mark.skipif(not (ROOT / "tools" / "check_sdist.py").exists(),
                    reason="tools/check_sdist.py is not here")
def test_the_sdist_passes_its_own_tests_in_a_fresh_environment() -> None:
    result = subprocess.run([sys.executable, str(ROOT / "tools" / "check_sdist.py")],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "the unpacked sdist's own tests:" in result.stdout
