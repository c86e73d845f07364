"""``tools/behaviour_snapshot.py``: a quick record on a tiny corpus of the project's own
example files is the same twice (``compare`` exits 0), and ``compare`` finds a case whose
output changed, one that is missing, and shows the changed line (exit 1)."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.paths import ROOT

SCRIPT = ROOT / "tools" / "behaviour_snapshot.py"

pytestmark = pytest.mark.skipif(not SCRIPT.exists(), reason="tools/ not beside tests/")


def _tiny_corpora(folder: Path) -> Path:
    """The layout of /work/shared/corpora, each corpus one small file of the repository."""
    files = {"gum/coref-conll/doc.conll": "examples/key.conll",
             "gum/dep/doc.conllu": "tests/fixtures/corefud/two_documents.conllu",
             "litbank/coref-conll/book.conll": "examples/linguistic/key.conll",
             "codi-crac22/dialogue.CONLLUA": "tests/fixtures/ua/features.conllua"}
    for target, source in files.items():
        (folder / target).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / source, folder / target)
    return folder


def _snapshot(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True,
                          timeout=600, check=False)


def test_a_quick_record_is_the_same_twice_and_a_change_is_found(tmp_path: Path) -> None:
    corpora = _tiny_corpora(tmp_path / "corpora")
    # every entry point on three of the six corpus forms (one of each format family), and
    # the malformed files: the whole quick matrix twice would take the suite half a minute
    common = ["--quick", "--corpora", str(corpora), "--cache", str(tmp_path / "cache"),
              "--only", "^(litbank|gum-ua|codi|evaluate|lab|malformed)/"]
    for name in ("one", "two"):
        result = _snapshot("record", str(tmp_path / name), *common)
        assert result.returncode == 0, result.stderr
    index = json.loads((tmp_path / "one" / "index.json").read_text(encoding="utf-8"))
    # every entry point and every corpus form is there, and the malformed files
    for case in ("litbank/score/all-jobs2", "gum-ua/score/preset-crac24",
                 "gum-ua/score/match-min-compat-ua-r2", "codi/errors/layers",
                 "litbank/api/evaluator", "litbank/report/default", "codi/api/compute",
                 "codi/convert/to-corefud-drop", "gum-ua/api/score_documents",
                 "evaluate/json", "lab/json", "malformed/ua/m000-key"):
        assert case in index, case
    assert not any(case.startswith(("gum-conll/", "litbank-jsonlines/")) for case in index)
    assert len([case for case in index if case.startswith("malformed/")]) == 4 * 12 * 2
    record = (tmp_path / "one" / "litbank__score__all.txt").read_text(encoding="utf-8")
    assert record.startswith("command: anascore score inputs/litbank.key.conll "
                             "inputs/litbank.r1.conll --output json --per-document")
    assert '"version": "<version>"' in record and "exit: 0" in record

    same = _snapshot("compare", str(tmp_path / "one"), str(tmp_path / "two"))
    assert same.returncode == 0, same.stdout
    inputs = sum(case.startswith("input/") for case in index)
    assert same.stdout == f"identical: {len(index) - inputs} cases, {inputs} inputs\n"

    # one number changed, one case gone: both named, the changed line shown
    changed = tmp_path / "two" / "litbank__score__all.txt"
    text = changed.read_text(encoding="utf-8").replace('"documents": 1', '"documents": 2', 1)
    assert text != record
    changed.write_text(text, encoding="utf-8")
    index["litbank/score/all"] = hashlib.sha256(text.encode()).hexdigest()
    del index["lab/json"]
    (tmp_path / "two" / "index.json").write_text(json.dumps(index), encoding="utf-8")
    different = _snapshot("compare", str(tmp_path / "one"), str(tmp_path / "two"))
    assert different.returncode == 1
    assert "1 case(s) only in OLD:\n  lab/json\n" in different.stdout
    assert "1 case(s) differ:\n  litbank/score/all\n" in different.stdout
    assert '\n-  "documents": 1,\n+  "documents": 2,\n' in different.stdout
