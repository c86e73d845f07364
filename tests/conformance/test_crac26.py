"""The ``crac26`` preset: the CRAC 2026 shared task's scores (docs/presets.md).

``--preset crac26`` on GUM (CorefUD files of the corpora, with a perturbed response) names
itself in the signature and gives the numbers the CorefUD scorer at 4fd7b0e prints when run as
the task's scoring script runs it (``corefud-scorer.py KEY SYS -m muc bcub ceafe zero``);
the example manifest ``examples/crac26.toml`` reads as a task of 27 datasets ranked by the
macro-average of head-match CoNLL F1. The comparison is skipped when the scorer checkout
(``$COREFUD_SCORER``, default ``/tmp/ref/corefud-scorer``), udapi or the corpus is absent.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

import anascore
from anascore.cli.main import main
from anascore.config.options import Options
from anascore.formats.corefud import read_corefud, write_corefud
from anascore.leaderboard.manifest import read_task
from tests.support.paths import ROOT, corpus_files

SCORER = Path(os.environ.get("COREFUD_SCORER", "/tmp/ref/corefud-scorer"))
#: The 27 datasets of CorefUD 1.4 in the task (ufal/crac2026-corpipe's README).
DATASETS = [
    "ca_ancora", "cs_pcedt", "cs_pdt", "cs_pdtsc", "cu_proiel", "de_potsdamcc",
    "en_fantasycoref", "en_gum", "en_litbank", "es_ancora", "fr_ancor", "fr_democrat",
    "fr_litbankfr", "grc_proiel", "hbo_ptnk", "hi_hdtb", "hu_korkor", "hu_szegedkoref",
    "ko_ecmt", "la_coreflat", "lt_lcc", "nl_openboek", "no_bokmaalnarc", "no_nynorsknarc",
    "pl_pcc", "ru_rucor", "tr_itcc"
]


def test_the_preset() -> None:
    options = Options.create(preset="crac26")
    assert (options.match, options.keep_singletons, options.keep_zeros, options.zero_match) \
        == ("head", False, True, "dependent")
    assert options.metrics == ("muc", "bcub", "ceafe", "conll", "zero")
    # Named alone: its metrics are not crac24's and crac25's (no MOR, no mentions).
    assert options.signature().startswith("preset:crac26|match:head|singletons:remove|")


def test_the_example_manifest() -> None:
    task = read_task(ROOT / "examples" / "crac26.toml")
    assert [dataset.name for dataset in task.datasets] == DATASETS
    assert (task.metric, task.combine) == ("conll", "macro")
    assert {dataset.weight for dataset in task.datasets} == {1.0}
    assert {dataset.options.signature().split("|")[0] for dataset in task.datasets} == {
        "preset:crac26"}


def _scorer_output(key: Path, response: Path) -> dict[str, tuple[str, ...]]:
    """What the scoring script of the task prints: each metric's recall, precision and F1,
    and the CoNLL score, as printed (two decimals)."""
    done = subprocess.run([sys.executable, str(SCORER / "corefud-scorer.py"), str(key),
                           str(response), "-m", "muc", "bcub", "ceafe", "zero"],
                          capture_output=True, text=True, check=True)
    printed: dict[str, tuple[str, ...]] = {}
    lines = done.stdout.splitlines()
    for index, line in enumerate(lines):
        found = re.fullmatch(r"Recall: (\S+)\s+Precision: (\S+)\s+F1: (\S+)", line.strip())
        if found:
            printed[lines[index - 1].strip()] = found.groups()
        elif line.startswith("CoNLL score:"):
            printed["conll"] = (line.split(":")[1].strip(),)
    return printed


def _compare(key: Path, response: Path, capsys, *extra: str) -> None:
    """``anascore score --preset crac26`` (with ``extra`` options) prints what the scorer
    prints, to its two decimals, and names the preset."""
    printed = _scorer_output(key, response)
    assert set(printed) == {"muc", "bcub", "ceafe", "zero", "conll"}
    assert main(["score", str(key), str(response), "--preset", "crac26", *extra, "--output",
                 "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["signature"].startswith("preset:crac26|")
    scores = data["metrics"]
    for name in ("muc", "bcub", "ceafe"):
        assert tuple(f"{100 * scores[name][part]:.2f}" for part in
                     ("recall", "precision", "f1")) == printed[name], name
    assert f"{100 * scores['conll']['f1']:.2f}" == printed["conll"][0]
    # GUM has no empty nodes: the scorer prints 0.00 for the zero score, which anascore
    # gives as not applicable (0/0), with its reason (README, "n/a").
    assert printed["zero"] == ("0.00", "0.00", "0.00")
    assert scores["zero"]["f1"] is None


@pytest.mark.parametrize("seed", [3, 4])
def test_equal_to_the_corefud_scorer_run_as_the_task_ran_it(tmp_path: Path, seed: int,
                                                            capsys) -> None:
    if not (SCORER / "corefud-scorer.py").is_file():
        pytest.skip(f"no CorefUD scorer checkout at {SCORER}")
    pytest.importorskip("udapi")
    files = corpus_files("gum", "dep", pattern="GUM_*.conllu")
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from perturb_response import perturb
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    original = files[seed * 17 % len(files)]
    documents = list(read_corefud(original))
    rng = random.Random(seed)
    response = tmp_path / "response.conllu"
    write_corefud([perturb(document, 0.15, rng) for document in documents], response)
    # CorefUD 1.4 gives every mention's head in Entity= (eid-etype-head-other); GUM's own
    # export does not, so the key is written as anascore reads it, heads given.
    key = tmp_path / "key.conllu"
    write_corefud(documents, key)
    _compare(key, response, capsys)
    # GUM as it is, heads not given: the scorer heads a mention by its first word, anascore
    # by the dependency tree; --compat ua takes the first word too (docs/differences-ua.md,
    # U17) and is the scorer again.
    _compare(original, response, capsys, "--compat", "ua")
    report = anascore.score(key, response, preset="crac26")
    assert f"{100 * report.metrics['conll'].f1:.2f}" == _scorer_output(key, response)["conll"][0]
