"""What a plain ``anascore score`` imports, so that its start-up cannot silently grow.

Every call of the command pays for its imports before it reads a line: a one-document
``anascore score`` is held within 1.3× the time of ``python -c "import numpy"``
(benchmarks/README.md, "Start-up"). That holds only while the command imports what the run
needs, when it needs it: the report package only as far as the text output, not the error
analysis, the HTML report, the parallel machinery (for files smaller than one process's
share), the optimal pairing of head and zero matching, JSON, nor scipy (CEAF's assignments
of a small document are solved without it). These tests run the command in a fresh
process, as a user does, and compare the modules it loaded with the list below: a new
module-level import anywhere on the path fails here, and is either made lazy or added to
the list on purpose.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.paths import ROOT

KEY = str(ROOT / "examples" / "key.conll")
RESPONSE = str(ROOT / "examples" / "response.conll")

#: Runs ``python -m anascore ARGS`` (as ``runpy`` runs it for ``-m``) and then writes the
#: names of the loaded modules, as JSON, to the file named by the first argument.
WRAPPER = """
import runpy, sys
target = sys.argv[1]
sys.argv = ["anascore", *sys.argv[2:]]
try:
    runpy.run_module("anascore", run_name="__main__", alter_sys=True)
except SystemExit as ended:
    status = ended.code
modules = sorted(sys.modules)  # before json, which the wrapper imports only now
import json
with open(target, "w", encoding="utf-8") as out:
    json.dump({"status": status, "modules": modules}, out)
"""

#: The anascore modules a plain ``anascore score KEY RESPONSE`` (CoNLL-2012, default
#: metrics, text output, one small document) loads, and no others.
PLAIN_SCORE_MODULES = {
    "anascore",
    "anascore.cli.blas_threads",
    "anascore.core.assignment",
    "anascore.config.capabilities",
    "anascore.config.format_catalogue",  # the facts of each format, one row each
    "anascore.formats.io.chain_ids",
    "anascore.cli.main",
    "anascore.cli.common",
    "anascore.cli.score",  # the one command run: the others' parsers are not built
    "anascore.cli.settings_flags",  # the settings' flags, from the one table of settings
    "anascore.config.choices",
    "anascore.config.settings",
    "anascore.compat",
    "anascore.core.components",
    "anascore.comparison.contingency",
    "anascore.scoring.document_names",
    "anascore.cli.entry",
    "anascore.core.errors",
    "anascore.scoring.file_sets",
    "anascore.formats",
    "anascore.formats.io.conllu_alignment",
    "anascore.formats.readers",  # the package only (its __init__ holds a docstring)
    "anascore.formats.readers.conll2012",
    "anascore.formats.readers.conll2012_bulk",  # its fast path: regular documents in bulk
    "anascore.formats.io.sources",
    "anascore.formats.io.text_files",
    "anascore.scoring.key_hash",
    "anascore.scoring.levels",  # scoring units: a plain run passes its documents through
    "anascore.config.linguistic_settings",
    "anascore.matching",
    "anascore.matching.exact",
    "anascore.matching.min_span",  # MATCHERS["min"] is its align_min itself
    "anascore.metrics",
    "anascore.metrics.entity_pairing",
    "anascore.metrics.base",
    "anascore.metrics.bcubed",
    "anascore.metrics.blanc",
    "anascore.metrics.ceaf",
    "anascore.metrics.lea",
    "anascore.metrics.mentions",
    "anascore.metrics.muc",
    "anascore.metrics.split_counts",  # each metric's hook of split antecedents (the hook only)
    "anascore.metrics.rules",  # the metrics' hooks of the conventions (MetricRules)
    "anascore.core.model",
    "anascore.config.options", "anascore.config.metric_names",  # the catalogue: options' names
    "anascore.formats.io.output",
    "anascore.config.preset_settings",
    "anascore.config.presets",
    "anascore.core.progress",
    "anascore.report",
    "anascore.report.text_table",
    "anascore.metrics.scores",
    "anascore.scoring.pipeline",
    "anascore.scoring.document",  # the per-document pipeline: prepare, compare, count
    "anascore.selection.sides",
    "anascore.selection.accommodated_sets",
    "anascore.stats",
    "anascore.stats.sums",
    "anascore.stats.count_table",  # every report keeps its documents' counts in one
    "anascore.stats.metric_suite",  # the metrics of the run, as the statistics score them
    "anascore.core.version",
    "anascore.core.float_sums",  # the CoNLL average adds its parts left to right
    # the stage packages (their __init__ holds a docstring only) and the table of moved paths
    "anascore._moved", "anascore.core", "anascore.config", "anascore.formats.io",
    "anascore.selection", "anascore.comparison", "anascore.scoring", "anascore.cli",
    "anascore.selection.windows",
}

#: Modules a plain score must not load (each was loaded before start-up was measured).
NEVER_FOR_PLAIN_SCORE = (
    "anascore.analysis.render", "anascore.analysis.analyse", "anascore.agree.alpha",
    "anascore.scoring.parallel", "anascore.report.html", "anascore.report.tables",
    "anascore.report.systems", "anascore.matching.optimal",
    "anascore.formats.io.csv_output", "scipy", "json", "difflib", "gzip", "tempfile",
    "anascore.cli.errors", "anascore.cli.convert", "anascore.cli.agree", "anascore.agree",
    # the marked-up text reader (pairing takes its unnamed document's name from the format
    # catalogue), the Perl scorer's layout (--reference-layout only), glob (a glob of inputs)
    "anascore.formats.readers.markup", "anascore.report.reference_layout", "glob",
    # the alignment of split-antecedent sets (only for documents that have them)
    "anascore.metrics.split_antecedents", "anascore.metrics.set_comparison",
)


def _loaded(tmp_path: Path, *arguments: str) -> tuple[int, set[str]]:
    target = tmp_path / "modules.json"
    subprocess.run([sys.executable, "-c", WRAPPER, str(target), *arguments], check=True,
                   cwd=tmp_path, capture_output=True)
    found = json.loads(target.read_text(encoding="utf-8"))
    return found["status"], set(found["modules"])


def test_plain_score_loads_exactly_the_listed_modules(tmp_path: Path) -> None:
    status, modules = _loaded(tmp_path, "score", KEY, RESPONSE)
    assert status == 0
    loaded = {name for name in modules if name.split(".")[0] == "anascore"}
    assert sorted(loaded - PLAIN_SCORE_MODULES) == []  # new imports: make them lazy
    assert sorted(PLAIN_SCORE_MODULES - loaded) == []  # fewer: shorten the list
    assert [name for name in NEVER_FOR_PLAIN_SCORE if name in modules] == []


def test_the_wrapper_runs_the_command_as_python_m_does(tmp_path: Path) -> None:
    """The module list above is of the very run a user makes: same output, same status."""
    plain = subprocess.run([sys.executable, "-m", "anascore", "score", KEY, RESPONSE],
                           capture_output=True, text=True, check=True)
    wrapped = subprocess.run([sys.executable, "-c", WRAPPER, str(tmp_path / "m.json"),
                              "score", KEY, RESPONSE], capture_output=True, text=True,
                             check=True)
    assert "CoNLL" in plain.stdout
    assert wrapped.stdout == plain.stdout
    assert wrapped.stderr == plain.stderr


def test_what_a_run_asks_for_is_still_loaded(tmp_path: Path) -> None:
    """The lazy imports are taken when a run needs them: JSON output loads json, the error
    analysis its renderer."""
    status, modules = _loaded(tmp_path, "score", KEY, RESPONSE, "--output", "json")
    assert status == 0 and "json" in modules and "anascore.report.html" not in modules
    # scipy.stats (for the bootstrap's adequacy, asked only with intervals) costs more to
    # import than numpy does, and 75 MB: JSON output without intervals never loads it
    assert "scipy.stats" not in modules
    # one response's JSON names it (report.names) without the comparison of systems and
    # its paired tests and bootstrap
    assert "anascore.report.systems" not in modules
    assert "anascore.stats.bootstrap" not in modules
    status, modules = _loaded(tmp_path, "errors", KEY, RESPONSE)
    assert status == 0 and "anascore.analysis.render" in modules


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forks on Linux only")
def test_several_processes_load_the_parallel_machinery(tmp_path: Path) -> None:
    """``--jobs 2`` asks for two processes whatever the size: the parallel module is
    imported (it then declines a one-document file, and the serial run scores it)."""
    status, modules = _loaded(tmp_path, "score", KEY, RESPONSE, "--jobs", "2")
    assert status == 0 and "anascore.scoring.parallel" in modules
