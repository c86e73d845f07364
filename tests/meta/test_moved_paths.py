"""The import paths of anascore 0.1.0 that moved when the modules were laid out as stages
(:mod:`anascore._moved`) still import, for one release, as the very module at its new place,
with a DeprecationWarning naming both."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

from anascore._moved import MOVED


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_path_is_the_new_module_with_a_warning(old: str) -> None:
    if MOVED[old] == "anascore.training.torchmetrics":
        pytest.importorskip("torch")  # the optional torch extra: the module imports torch
    # a fresh interpreter: in this one the old name may already be bound by another test
    code = (
        "import importlib, warnings\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        f"    old = importlib.import_module({old!r})\n"
        f"new = importlib.import_module({MOVED[old]!r})\n"
        "assert old is new, (old, new)\n"
        "print([str(w.message) for w in caught if w.category is DeprecationWarning])\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert f"{old} moved to {MOVED[old]}" in result.stdout


@pytest.mark.parametrize("package,name", [("anascore.scoring", "score_documents"),
                                          ("anascore.selection", "select_side"),
                                          ("anascore.lab", "score_response")])
def test_a_module_that_became_a_package_still_has_its_names(package: str, name: str) -> None:
    module = importlib.import_module(package)
    assert callable(getattr(module, name))
