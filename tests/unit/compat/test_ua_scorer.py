"""``compat="ua"`` in one place (:mod:`anascore.compat.ua_scorer`): the list of departures there is
the one in ``docs/differences-ua.md``, the default path never asks which scorer it imitates,
and the departure found last (U12, split-only BLANC) on a hand-computed case."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import anascore
from anascore.comparison.contingency import ComparisonRules
from anascore.compat import Conventions, conventions, conventions_named, metric_in_conventions
from anascore.compat.ua_scorer import split_only_blanc_ua, split_only_blanc_ua_batch
from anascore.config.options import COMPAT_MODES, Options
from anascore.core.model import Document, Entity, Mention
from anascore.matching import MatchingRules, align_exact
from anascore.matching.exact import Matcher
from anascore.metrics import metric_for
from anascore.metrics.rules import MetricRules
from anascore.selection.sides import SelectionRules
from tests.support.paths import FIXTURES, ROOT

SOURCE = ROOT / "src" / "anascore"
FIXTURES = FIXTURES / "ua"


# ------------------------------------------------------------------ one place, one list

def _documented_departures() -> list[tuple[int, str]]:
    text = (ROOT / "docs" / "differences-ua.md").read_text(encoding="utf-8")
    return [(int(number), name) for number, name in
            re.findall(r"^\| U(\d+) \| ([^|]+?) \|", text, re.MULTILINE)]


@pytest.mark.skipif(not (ROOT / "docs").is_dir(), reason="docs/ not beside tests/")
def test_the_compat_module_lists_the_documented_departures_in_order() -> None:
    documented = _documented_departures()
    assert [number for number, _ in documented] == list(range(1, 18))
    module = (SOURCE / "compat" / "ua_scorer.py").read_text(encoding="utf-8")
    docstring = ast.get_docstring(ast.parse(module)) or ""
    listed = [(int(number), name.strip()) for number, name in
              re.findall(r"^U(\d+)\.\s+(.+?) —", docstring, re.MULTILINE)]
    assert listed == documented
    # and a section of the module per departure, in the same order, under the same name
    sections = re.findall(r"^# U(\d+)\. (.+)$", module, re.MULTILINE)
    assert [int(number) for number, _ in sections] == list(range(1, 18))
    for (number, header), (_, name) in zip(sections, documented, strict=True):
        assert header.startswith(name), (number, header, name)


def _reads_compat(path: Path) -> list[int]:
    """Lines where a module reads an ``Options.compat`` attribute."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr == "compat"]


def test_the_default_path_has_no_compat_branch() -> None:
    # only the option itself (options.py, its row in settings.py, presets.py, cli.py) and the
    # choice of conventions (anascore.compat) read options.compat; everything else calls a
    # Conventions hook
    allowed = {SOURCE / "config" / "options.py", SOURCE / "config" / "presets.py",
               SOURCE / "config" / "settings.py",
               SOURCE / "cli" / "main.py",
               SOURCE / "compat" / "__init__.py"}
    readers = {str(path.relative_to(SOURCE)): lines for path in sorted(SOURCE.rglob("*.py"))
               if path not in allowed and (lines := _reads_compat(path))}
    assert readers == {}


def test_every_compat_mode_has_its_conventions() -> None:
    assert {conventions_named(mode).name for mode in COMPAT_MODES} == set(COMPAT_MODES)
    assert type(conventions(Options())) is Conventions
    assert conventions(Options(compat="ua")).name == "ua"


def _hooks(protocol: type) -> set[str]:
    return {name for klass in protocol.__mro__ if klass is not object
            for name in vars(klass) if not name.startswith("_")} | set(
                getattr(protocol, "__annotations__", {}))


@pytest.mark.parametrize("mode", COMPAT_MODES)
def test_the_conventions_answer_every_stages_hooks(mode: str) -> None:
    # each stage names the hooks it calls in its own layer; a mode's conventions answer all
    rules = conventions_named(mode)
    for protocol in (SelectionRules, MatchingRules, ComparisonRules, MetricRules):
        hooks = _hooks(protocol)
        assert hooks, protocol
        assert {hook for hook in hooks if not hasattr(rules, hook)} == set(), protocol


def _calls_the_lookup(path: Path) -> bool:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any(isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
               and node.func.id in ("conventions", "conventions_named", "metric_in_conventions")
               for node in ast.walk(tree))


def test_the_stages_never_look_the_conventions_up() -> None:
    # the pipeline (and the layers above compat) resolve them; selection, matching, the
    # comparison and the metrics are handed them (tests/meta/test_import_cycles.py: nor import them)
    stages = ("selection", "matching", "comparison", "metrics")
    lookups = [str(path.relative_to(SOURCE)) for stage in stages
               for path in sorted((SOURCE / stage).rglob("*.py")) if _calls_the_lookup(path)]
    assert lookups == []
    assert _calls_the_lookup(SOURCE / "scoring" / "document.py")  # document_conventions


class _Recording(Conventions):
    """anascore's own conventions, noting which stage asked for which hook."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def keeps_every_copy(self, document: Document, options: Options) -> bool:
        self.asked.append("selection")
        return False

    def matcher(self, match: str) -> Matcher | None:
        self.asked.append("matching")
        return align_exact

    def non_referring_match(self, options: Options) -> str:
        self.asked.append("metrics")
        return options.match


def test_the_conventions_handed_down_are_the_ones_the_stages_call() -> None:
    from anascore.scoring.document import compare_layer

    document = Document("d", ("a", "b", "c"), (Entity("e", (Mention((0,)), Mention((2,)))),))
    rules = _Recording()
    options = Options(keep_non_referring=True, metrics=("muc", "non_referring"))
    comparison = compare_layer(document, document, options, [], rules=rules)
    assert rules.asked == ["selection", "selection", "matching"]
    # the comparison carries them to the metrics, which read their hooks from it
    assert comparison.rules is rules
    assert metric_for("non_referring", options).count(comparison).tolist() == [0, 0, 0, 0]
    assert rules.asked[3:] == ["metrics"]


def test_a_default_run_never_loads_the_ua_conventions() -> None:
    code = ("import sys, anascore; anascore.score(sys.argv[1], sys.argv[2]); "
            "print('anascore.compat.ua_scorer' in sys.modules)")
    examples = ROOT / "examples"
    if not examples.is_dir():
        pytest.skip("examples/ not beside tests/")
    result = subprocess.run([sys.executable, "-c", code, str(examples / "key.conll"),
                             str(examples / "response.conll")],
                            capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"


# ------------------------------------------------------------------ U12, split-only BLANC

SPLIT = {"keep_split_antecedents": True, "only_split_antecedents": True}


def test_split_only_blanc_of_single_mention_elements() -> None:
    # John {1}, Mary {2}, They {3} ⊕ {1, 2}, scored against itself. Between the set's
    # elements: one non-coreference link (John–Mary), no coreference link.
    path = FIXTURES / "split_singletons.conllua"
    default = anascore.score(path, path, metrics="blanc,muc", **SPLIT)
    ua = anascore.score(path, path, metrics="blanc,muc", compat="ua", **SPLIT)
    # anascore: the key's sets have no coreference link, so the non-coreference half alone
    blanc = default.metrics["blanc"]
    assert (blanc.recall, blanc.precision, blanc.f1) == (1 / 1, 1 / 1, 1.0)
    # the UA scorer 2.0 (run on this file: 0.5, 0.5, 0.5): the main evaluation has both
    # kinds of link, so both halves are averaged, the coreference one 0
    blanc = ua.metrics["blanc"]
    assert (blanc.recall, blanc.precision, blanc.f1) == ((0 + 1) / 2, (0 + 1) / 2, (0 + 1) / 2)
    # the counts: the split-only ones, then the main evaluation's links of each kind, key
    # and response together: coreference They–set in each (1 + 1); non-coreference, of four
    # nodes (John, Mary, They, the set) 4·3/2 − 1 = 5 in each
    assert ua.counts["blanc"].tolist() == [[0, 0, 0, 0, 1, 1, 1, 1, 1 + 1, 5 + 5]]
    assert default.metrics["muc"].f1 == ua.metrics["muc"].f1 == 1.0
    # the main evaluation is 1 both ways
    for compat in ("none", "ua"):
        main = anascore.score(path, path, metrics="blanc", keep_split_antecedents=True,
                              compat=compat).metrics["blanc"]
        assert main.f1 == 1.0


def test_split_only_blanc_counts_a_kind_the_main_evaluation_has() -> None:
    # coreference: no split link and no main link → not averaged in; non-coreference:
    # recall 1/2, precision 1/1
    counts = np.array([0, 0, 0, 0, 1, 2, 1, 1, 0, 5], dtype=np.float64)
    score = split_only_blanc_ua(counts)
    assert (score.recall, score.precision, score.f1) == (1 / 2, 1 / 1, 2 * (1 / 2) / (3 / 2))
    # with main coreference links, the empty coreference half counts 0
    counts[8] = 3
    score = split_only_blanc_ua(counts)
    assert (score.recall, score.precision) == ((0 + 1 / 2) / 2, (0 + 1) / 2)
    counts[8:] = 0
    assert split_only_blanc_ua(counts).f1 == 0.0


def test_split_only_blanc_resampling_gives_the_same_digits() -> None:
    rng = np.random.default_rng(7)
    rows = rng.integers(0, 4, size=(200, 10)).astype(np.float64)
    rows[:, 1] += rows[:, 0]
    rows[:, 3] += rows[:, 2]
    rows[:, 5] += rows[:, 4]
    rows[:, 7] += rows[:, 6]
    batch = split_only_blanc_ua_batch(rows)
    for index, row in enumerate(rows):
        score = split_only_blanc_ua(row)
        assert (batch.recall[index], batch.precision[index], batch.f1[index]) == (
            score.recall, score.precision, score.f1)


def test_split_only_blanc_fields_follow_the_conventions() -> None:
    # the metrics are given the conventions (metric_for's rules), the layers above resolve
    # them from the options (metric_in_conventions)
    options = Options(compat="ua", **SPLIT)
    assert metric_for("blanc", options, conventions(options)).fields[-2:] == (
        "main_coref_links", "main_non_coref_links")
    assert metric_in_conventions("blanc", options).fields[-2:] == ("main_coref_links",
                                                                   "main_non_coref_links")
    assert len(metric_in_conventions("discourse_deixis.blanc", options).fields) == 10
    assert len(metric_in_conventions("blanc", Options(**SPLIT)).fields) == 8
    assert len(metric_in_conventions(
        "blanc", Options(compat="ua", keep_split_antecedents=True)).fields) == 8
    # without the conventions, a metric is anascore's own, whatever the options say
    assert len(metric_for("blanc", options).fields) == 8


# The document step of compat="ua" (U17: first-word heads where the file gives none) comes
# before the response is put on the key's tokens, in memory as for files. A CorefUD response
# that splits "man" into "ma" + "n" and gives no heads: its tree heads the mention on "n", its
# first word is "The", which is the key mention's first word. Under compat="ua" the CorefUD
# scorer heads both mentions on "The", so head matching pairs them (Mentions and MUC 100).
# score_documents put the response on the key's tokens first, which left the first-word rule
# nothing to apply to (the mention's positions had changed) and kept the tree head: 50 / 0.
_KEY_TOKENS = """\
# newdoc id = d
# global.Entity = eid-etype-head-other
# sent_id = d-1
# text = The old man slept . He woke .
1	The	the	DET	_	_	3	det	_	Entity=(e1-person-
2	old	old	ADJ	_	_	3	amod	_	_
3	man	man	NOUN	_	_	4	nsubj	_	Entity=e1)
4	slept	sleep	VERB	_	_	0	root	_	_
5	.	.	PUNCT	_	_	4	punct	_	_
6	He	he	PRON	_	_	7	nsubj	_	Entity=(e1-person-)
7	woke	wake	VERB	_	_	4	conj	_	_
8	.	.	PUNCT	_	_	4	punct	_	_
"""
_RESPONSE_OTHER_TOKENS = """\
# newdoc id = d
# global.Entity = eid-etype-head-other
# sent_id = d-1
# text = The old ma n slept . He woke .
1	The	the	DET	_	_	4	det	_	Entity=(e1-person-
2	old	old	ADJ	_	_	4	amod	_	_
3	ma	man	NOUN	_	_	4	nsubj	_	_
4	n	man	NOUN	_	_	5	nsubj	_	Entity=e1)
5	slept	sleep	VERB	_	_	0	root	_	_
6	.	.	PUNCT	_	_	5	punct	_	_
7	He	he	PRON	_	_	8	nsubj	_	Entity=(e1-person-)
8	woke	wake	VERB	_	_	5	conj	_	_
9	.	.	PUNCT	_	_	5	punct	_	_
"""


def test_the_document_step_comes_before_token_projection_in_memory_as_for_files(
        tmp_path: Path) -> None:
    from anascore.formats import read_documents

    key, response = tmp_path / "key.conllu", tmp_path / "response.conllu"
    key.write_text(_KEY_TOKENS, encoding="utf-8")
    response.write_text(_RESPONSE_OTHER_TOKENS, encoding="utf-8")
    settings = {"compat": "ua", "match": "head", "align_tokens": True,
                "metrics": "mentions,muc"}
    from_files = anascore.score(key, response, **settings)
    in_memory = anascore.score_documents(read_documents(key), read_documents(response),
                                         **settings)
    for report in (from_files, in_memory):
        assert report.metrics["mentions"].f1 == 1.0
        assert report.metrics["muc"].f1 == 1.0
