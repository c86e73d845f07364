"""docs/error-analysis.md's statements about the Berkeley analyser, run beside it.

The analyser (``jkkummerfeld/berkeley-coreference-analyser``, Kummerfeld & Klein 2013) is run
unmodified with the interpreter running the tests, on small OntoNotes-style documents with
parse trees written here, on its own bundled example and on anascore's examples. Point
ANASCORE_BERKELEY_ANALYSER at a checkout (default /tmp/ref/berkeley-analyser; the figures
below were measured at commit d845001); the tests skip without one.

It reads a gold folder (each document in ``FOLDER/NAME*gold*conll``, found by the name in
its ``#begin document (NAME); part P`` line) and a response file, and writes its counts to
``PREFIX.summary`` and its corrected responses to ``PREFIX.corrected.*``.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import anascore
from anascore.analysis.analyse import analyse_errors
from anascore.analysis.classification import ERROR_TYPES
from tests.support.paths import EXAMPLES

ANALYSER = Path(os.environ.get("ANASCORE_BERKELEY_ANALYSER", "/tmp/ref/berkeley-analyser"))
SCRIPT = ANALYSER / "classify_coreference_errors.py"

pytestmark = pytest.mark.skipif(
    not SCRIPT.is_file(),
    reason="set ANASCORE_BERKELEY_ANALYSER to a checkout of "
           "jkkummerfeld/berkeley-coreference-analyser to run it beside anascore")

NAMES = {"Span Error": "span_error", "Conflated Entities": "conflated_entities",
         "Divided Entity": "divided_entity", "Extra Mention": "extra_mention",
         "Missing Mention": "missing_mention", "Extra Entity": "extra_entity",
         "Missing Entity": "missing_entity"}
"""The analyser's names of the seven error types, and anascore's."""

DOCUMENT = "t/ex/00/t_0001"

Token = tuple[str, str, str]
"""A word, its part-of-speech tag and its parse cell."""


def conll(sentences: list[list[Token]], coreference: dict[tuple[int, int], str]) -> str:
    """One OntoNotes-style document (12 columns) named DOCUMENT; ``coreference`` gives the
    cell of (sentence, token), '-' elsewhere."""
    lines = [f"#begin document ({DOCUMENT}); part 000\n"]
    for s, sentence in enumerate(sentences):
        for t, (word, tag, tree) in enumerate(sentence):
            cells = [DOCUMENT, "0", str(t), word, tag, tree, "-", "-", "-", "-", "*",
                     coreference.get((s, t), "-")]
            lines.append("\t".join(cells) + "\n")
        lines.append("\n")
    return "".join(lines) + "#end document\n"


def gold_folder(key: Path, folder: Path) -> Path:
    """The analyser's gold layout of ``key``: one ``NAME.v2_gold_conll`` per document."""
    name, lines = "", []
    for line in key.read_text(encoding="utf-8").splitlines(keepends=True):
        if line.startswith("#begin"):
            name, lines = line.split(None, 2)[2].split(";")[0].strip("() "), [line]
            continue
        lines.append(line)
        if line.startswith("#end"):
            path = folder / f"{name}.v2_gold_conll"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("".join(lines), encoding="utf-8")
    return folder


def run_analyser(gold: Path, response: Path, prefix: Path,
                 remove_singletons: bool) -> subprocess.CompletedProcess[str]:
    """The analyser run as its README says (its last argument T removes the response's
    singletons, and only the response's)."""
    return subprocess.run(
        [sys.executable, str(SCRIPT), str(prefix.resolve()), f"{gold.resolve()}/",
         str(response.resolve()), "T" if remove_singletons else "F"],
        cwd=ANALYSER, capture_output=True, text=True, timeout=300, check=False)


def summary(prefix: Path) -> dict[str, int]:
    """The error counts of the analyser's ``PREFIX.summary``, by anascore's names."""
    text = prefix.with_name(prefix.name + ".summary").read_text(encoding="utf-8")
    errors = text.split("Errors:", 1)[1]
    counts = {NAMES[name]: int(number)
              for number, name in re.findall(r"^\s*(\d+)\s+(\S.*?)\s*$", errors, re.M)}
    assert set(counts) == set(ERROR_TYPES)
    return counts


def both(tmp_path: Path, key_text: str, response_text: str, *,
         remove_singletons: bool = False) -> tuple[subprocess.CompletedProcess[str],
                                                   dict[str, int]]:
    """The analyser's run and anascore's counts on one key and response."""
    key, response = tmp_path / "key.conll", tmp_path / "response.conll"
    key.write_text(key_text, encoding="utf-8")
    response.write_text(response_text, encoding="utf-8")
    run = run_analyser(gold_folder(key, tmp_path / "gold"), response, tmp_path / "run",
                       remove_singletons)
    ours = analyse_errors(key, response, keep_singletons=not remove_singletons).counts()
    return run, ours


def counts(**given: int) -> dict[str, int]:
    return {name: given.get(name, 0) for name in ERROR_TYPES}


# "Anna saw the town . / She smiled ." with its parse tree
TOWN = [[("Anna", "NNP", "(TOP(S(NP*)"), ("saw", "VBD", "(VP*"), ("the", "DT", "(NP*"),
         ("town", "NN", "*))"), (".", ".", "*))")],
        [("She", "PRP", "(TOP(S(NP*)"), ("smiled", "VBD", "(VP*)"), (".", ".", "*))")]]
PAIR = {(0, 0): "(1)", (1, 0): "(1)"}
PAIR_AND_TOWN = {**PAIR, (0, 2): "(2", (0, 3): "2)"}


def test_a_response_entity_of_one_unaligned_mention_is_no_error_for_the_analyser(
        tmp_path: Path) -> None:
    # Singletons kept (F): "the town" is in no key entity. anascore: an extra mention.
    run, ours = both(tmp_path, conll(TOWN, PAIR), conll(TOWN, PAIR_AND_TOWN))
    assert run.returncode == 0, run.stderr
    assert summary(tmp_path / "run") == counts()
    assert ours == counts(extra_mention=1)


@pytest.mark.parametrize("remove_singletons", [False, True])
def test_a_key_entity_of_one_unaligned_mention_stops_the_analyser(
        tmp_path: Path, remove_singletons: bool) -> None:
    # The introduce operation is left in no category, and naming it fails. anascore: a
    # missing mention.
    run, ours = both(tmp_path, conll(TOWN, PAIR_AND_TOWN), conll(TOWN, PAIR),
                     remove_singletons=remove_singletons)
    assert run.returncode == 1
    assert run.stderr.rstrip().splitlines()[-1] == "KeyError: 'introduce'"
    if not remove_singletons:
        assert ours == counts(missing_mention=1)


def strip_case(determiner: str, last: str) -> tuple[str, str]:
    """Key "town" (a leaf), response "DETERMINER town LAST" (no constituent, so the
    analyser heads it by LAST and its head rule pairs nothing): a span error for the
    analyser only if both ends are stripped."""
    sentences = [[("Anna", "NNP", "(TOP(S(NP*)"), ("saw", "VBD", "(VP*"),
                  (determiner, "DT", "(NP*"), ("town", "NN", "*))"), (last, ".", "*))")],
                 [("It", "PRP", "(TOP(S(NP*)"), ("flooded", "VBD", "(VP*)"),
                  (".", ".", "*))")]]
    return (conll(sentences, {(0, 3): "(1)", (1, 0): "(1)"}),
            conll(sentences, {(0, 2): "(1", (0, 4): "1)", (1, 0): "(1)"}))


@pytest.mark.parametrize(("determiner", "last", "stripped"), [
    ("the", ".", True),     # lowercase "the" and one-character punctuation
    ("The", ".", False),    # "The" is not stripped
    ("the", "--", False),   # punctuation of two characters is not stripped
    ("the", "é", True),     # any one character that is not an ASCII letter is
    ("the", "5", True),
])
def test_the_analysers_strip_rule(tmp_path: Path, determiner: str, last: str,
                                  stripped: bool) -> None:
    run, ours = both(tmp_path, *strip_case(determiner, last))
    assert run.returncode == 0, run.stderr
    expected = (counts(span_error=1) if stripped
                else counts(conflated_entities=1, divided_entity=1))
    assert summary(tmp_path / "run") == expected
    # anascore pairs all five by the head its tags give ("town"), whatever the ends
    assert ours == counts(span_error=1)


def test_an_entity_whose_only_key_mention_is_a_pronoun_is_an_extra_entity_for_the_analyser(
        tmp_path: Path) -> None:
    # Key {the river, It}; response {Anna, the town, It}: of the key's mentions it holds
    # only the pronoun. The analyser: an extra entity (Anna, the town), It split off it and
    # merged into the river's entity. anascore: the entity has an aligned mention, so two
    # extra mentions, and the river a missing mention. This is why the two count extra and
    # missing entities alike only where responses rarely link pronouns alone.
    sentences = [[("Anna", "NNP", "(TOP(S(NP*)"), ("saw", "VBD", "(VP*"),
                  ("the", "DT", "(NP(NP*"), ("town", "NN", "*)"), ("and", "CC", "*"),
                  ("the", "DT", "(NP*"), ("river", "NN", "*)))"), (".", ".", "*))")],
                 [("It", "PRP", "(TOP(S(NP*)"), ("flooded", "VBD", "(VP*)"),
                  (".", ".", "*))")]]
    run, ours = both(tmp_path, conll(sentences, {(0, 5): "(1", (0, 6): "1)", (1, 0): "(1)"}),
                     conll(sentences, {(0, 0): "(1)", (0, 2): "(1", (0, 3): "1)",
                                       (1, 0): "(1)"}))
    assert run.returncode == 0, run.stderr
    assert summary(tmp_path / "run") == counts(extra_entity=1, conflated_entities=1,
                                               divided_entity=1)
    assert ours == counts(extra_mention=2, missing_mention=1)


def test_anascores_examples(tmp_path: Path) -> None:
    # examples/key.conll and response.conll have parse trees; singletons removed on the
    # response (the analyser's T) and on both sides (anascore).
    prefix = tmp_path / "run"
    run = run_analyser(gold_folder(EXAMPLES / "key.conll", tmp_path / "gold"),
                       EXAMPLES / "response.conll", prefix, remove_singletons=True)
    assert run.returncode == 0, run.stderr
    assert summary(prefix) == counts(span_error=1, conflated_entities=4, divided_entity=3,
                                     extra_mention=1, missing_mention=2, missing_entity=1)
    ours = analyse_errors(EXAMPLES / "key.conll", EXAMPLES / "response.conll",
                          keep_singletons=False).counts()
    assert ours == counts(span_error=1, conflated_entities=2, divided_entity=2,
                          extra_mention=3, missing_mention=3, missing_entity=1)


def test_the_bundled_example_and_what_fixing_everything_gives(tmp_path: Path) -> None:
    # The analyser's own run (its README): four WSJ documents against Stanford's output.
    prefix = tmp_path / "stanford"
    run = run_analyser(ANALYSER / "data" / "gold", ANALYSER / "data" / "homogenised" /
                       "stanford.homogenised.out", prefix, remove_singletons=True)
    assert run.returncode == 0, run.stderr
    assert summary(prefix) == counts(span_error=16, conflated_entities=101,
                                     divided_entity=90, extra_mention=94, missing_mention=35,
                                     extra_entity=93, missing_entity=34)
    gold = prefix.with_name("stanford.gold")
    # Its last progressive file (every type corrected) is not the key: it keeps 25 extra
    # mentions, each the earliest mention of its response cluster, which it never splits
    # off or removes. Every metric but MUC (which ignores singletons) counts them.
    fixed = anascore.score(gold, prefix.with_name("stanford.corrected.missing_entity_prog"),
                           metrics="muc,bcub,ceafe").to_dict()["metrics"]
    assert fixed["muc"]["f1"] == 1.0
    assert (fixed["bcub"]["precision_num"], fixed["bcub"]["precision_den"]) == (598, 623)
    assert round(100 * fixed["bcub"]["f1"], 2) == 97.95
    assert round(100 * fixed["ceafe"]["f1"], 2) == 93.77
    # anascore on the same files (the gold documents concatenated): its "all" is the key.
    key = tmp_path / "gold.conll"
    key.write_text("".join(path.read_text(encoding="utf-8") for path in sorted(
        (ANALYSER / "data" / "gold").rglob("*gold_conll"))), encoding="utf-8")
    ours = analyse_errors(key, ANALYSER / "data" / "homogenised" / "stanford.homogenised.out",
                          keep_singletons=False, metrics="muc,bcub,ceafe")
    assert ours.counts() == counts(span_error=31, conflated_entities=32, divided_entity=36,
                                   extra_mention=161, missing_mention=80, extra_entity=87,
                                   missing_entity=33)
    assert {metric: values["f1"] for metric, values in ours.impact_table()["all"].items()} == {
        "muc": 100.0, "bcub": 100.0, "ceafe": 100.0}
    # Span errors pair by pair: 13 of the analyser's 16 (system, gold) pairs are anascore's.
    theirs = analyser_span_pairs(prefix.with_name("stanford.classified.detailed"), key)
    mine = {(error.document, error.key_mentions[0][0], error.key_mentions[0][-1],
             error.response_mentions[0][0], error.response_mentions[0][-1])
            for error in ours.errors if error.type == "span_error"}
    assert (len(theirs & mine), len(theirs - mine), len(mine - theirs)) == (13, 3, 18)


def analyser_span_pairs(detailed: Path, key: Path) -> set[tuple[str, int, int, int, int]]:
    """The analyser's span errors (``span mismatch`` lines of its detailed listing) as
    (document, key first, key last, response first, response last) token positions in the
    document, the document named as anascore names it."""
    starts: dict[str, list[int]] = {}
    names: dict[str, str] = {}
    document, tokens = "", 0
    for line in key.read_text(encoding="utf-8").splitlines():
        if line.startswith("#begin"):
            document, tokens = line.split(None, 2)[2].strip(), 0
            names[document.split(";")[0].strip("() ")] = document
            starts[document] = [0]
        elif not line.strip():
            starts[document].append(tokens)
        elif not line.startswith("#"):
            tokens += 1
    pairs = set()
    for line in detailed.read_text(encoding="utf-8").splitlines():
        if re.match(r"nw/", line):
            document = names[line.split()[0]]
        elif line.startswith("span mismatch ("):
            system, gold = ast.literal_eval(line[len("span mismatch "):])[1][:2]
            first = starts[document]
            pairs.add((document, first[gold[0]] + gold[1], first[gold[0]] + gold[2] - 1,
                       first[system[0]] + system[1], first[system[0]] + system[2] - 1))
    return pairs


def test_every_corrected_file_starts_from_the_span_fixes(tmp_path: Path) -> None:
    # Response: "the town ." (a span error) and Anna in the town's entity (a conflated
    # entity). The file that corrects conflated entities only also has the span fixed.
    sentences = [[("Anna", "NNP", "(TOP(S(NP*)"), ("saw", "VBD", "(VP*"),
                  ("the", "DT", "(NP*"), ("town", "NN", "*))"), (".", ".", "*))")],
                 [("It", "PRP", "(TOP(S(NP*)"), ("flooded", "VBD", "(VP*)"),
                  (".", ".", "*))")],
                 [("She", "PRP", "(TOP(S(NP*)"), ("left", "VBD", "(VP*)"),
                  (".", ".", "*))")]]
    key = conll(sentences, {(0, 0): "(2)", (0, 3): "(1)", (1, 0): "(1)", (2, 0): "(2)"})
    response = conll(sentences, {(0, 0): "(1)", (0, 2): "(1", (0, 4): "1)", (1, 0): "(1)",
                                 (2, 0): "(2)"})
    run, ours = both(tmp_path, key, response)
    assert run.returncode == 0, run.stderr
    assert summary(tmp_path / "run") == counts(span_error=1, conflated_entities=1,
                                               divided_entity=1)
    conflated = tmp_path / "run.corrected.confused_entities"
    town = [line.split()[-1] for line in conflated.read_text(encoding="utf-8").splitlines()
            if line.split()[3:4] == ["town"]]
    assert town[0].startswith("(") and town[0].endswith(")")   # "town" alone, not "the town ."
    assert ours == counts(span_error=1, conflated_entities=1, divided_entity=1)
