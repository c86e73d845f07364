"""The documentation site builds in strict mode: every page in the nav, every link and anchor
resolves, every API reference names a real object (skipped when mkdocs is not installed:
``pip install '.[docs]'``)."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_every_page_is_in_the_nav() -> None:
    if not (ROOT / "mkdocs.yml").is_file():
        pytest.skip("mkdocs.yml not beside tests/")
    nav = set(re.findall(r":\s*([\w-]+\.md)\s*$", (ROOT / "mkdocs.yml").read_text(), re.M))
    assert nav == {page.name for page in (ROOT / "docs").glob("*.md")}


@pytest.mark.skipif(importlib.util.find_spec("mkdocs") is None
                    or importlib.util.find_spec("mkdocstrings") is None,
                    reason="mkdocs and mkdocstrings are not installed (pip install '.[docs]')")
def test_the_site_builds_in_strict_mode(tmp_path: Path) -> None:
    if not (ROOT / "mkdocs.yml").is_file():
        pytest.skip("mkdocs.yml not beside tests/")
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict",
                             "--site-dir", str(tmp_path / "site")],
                            cwd=ROOT, capture_output=True, text=True, timeout=600,
                            env=dict(os.environ, NO_MKDOCS_2_WARNING="1"))
    assert result.returncode == 0, result.stderr[-3000:]
    assert (tmp_path / "site" / "api" / "index.html").is_file()
    assert "CorefEvaluator" in (tmp_path / "site" / "api" / "index.html").read_text()
