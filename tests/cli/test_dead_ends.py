"""Messages that leave no dead end (issue 23, must-have 7): an error says what to do
instead, an output never silently drops what was asked for, and warnings about the key are
said once however many responses a run scores."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from anascore.cli.main import main
from tests.support.files import write

ALIGN_HINT = "; for a response on other tokens, use --align-tokens"


def run(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, str, str]:
    """Exit status, standard output and standard error of one command (a usage error: 2)."""
    try:
        status = main(list(arguments))
    except SystemExit as exit_:
        status = exit_.code if isinstance(exit_.code, int) else 1
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def jsonlines(folder: Path, name: str, words: list[str], clusters: list) -> str:
    return write(folder, name, json.dumps({"doc_key": "d1", "sentences": [words],
                                           "clusters": clusters}) + "\n")


def conll(folder: Path, name: str, words: list[str], tags: list[str]) -> str:
    rows = "".join(f"d1 0 {index} {word} {tag}\n"
                   for index, (word, tag) in enumerate(zip(words, tags, strict=True)))
    return write(folder, name, f"#begin document (d1); part 000\n{rows}#end document\n")


# -- a response on other tokens ------------------------------------------------------------

def test_jsonlines_response_on_other_tokens_suggests_align_tokens(capsys, tmp_path):
    key = jsonlines(tmp_path, "key.jsonlines", ["John", "didn't", "see", "him", "."],
                    [[[0, 0], [3, 3]]])
    response = jsonlines(tmp_path, "response.jsonlines",
                         ["John", "did", "n't", "see", "him", "."], [[[0, 0], [4, 4]]])
    status, out, err = run(capsys, "score", key, response)
    assert (status, out) == (1, "")
    assert err == (f"anascore: error: {response}:1: document 'd1' has 5 tokens in the key "
                   f"({key}:1) but 6 in the response ({response}:1); expected the same "
                   f"tokens{ALIGN_HINT}\n")
    # ... and the suggestion works: the response is the key's mentions on other tokens.
    status, out, err = run(capsys, "score", key, response, "--align-tokens",
                           "--metrics", "muc", "--output", "json")
    assert status == 0, err
    assert json.loads(out)["metrics"]["muc"]["f1"] == 1.0


def test_conll2012_response_on_other_tokens_suggests_align_tokens(capsys, tmp_path):
    key = conll(tmp_path, "key.conll", ["John", "didn't", "see", "him", "."],
                ["(1)", "-", "-", "(1)", "-"])
    response = conll(tmp_path, "response.conll", ["John", "did", "n't", "see", "him", "."],
                     ["(1)", "-", "-", "-", "(1)", "-"])
    status, out, err = run(capsys, "score", key, response)
    assert (status, out) == (1, "")
    assert err == (f"anascore: error: {response}:1: document '(d1); part 000' has 5 tokens in the "
                   f"key ({key}:1) but 6 in the response ({response}:1); expected the same "
                   f"tokens{ALIGN_HINT}\n")


CONLLU = """# newdoc id = d1
# global.Entity = eid-etype-head-other
# sent_id = d1-1
{rows}
"""


def conllu(folder: Path, name: str, words: list[str], entities: list[str]) -> str:
    rows = "\n".join(f"{index}\t{word}\t_\t_\t_\t_\t0\t_\t_\t{entity}"
                     for index, (word, entity) in enumerate(zip(words, entities, strict=True),
                                                            start=1))
    return write(folder, name, CONLLU.format(rows=rows) + "\n")


def test_conllu_response_on_other_words_suggests_align_tokens(capsys, tmp_path):
    key = conllu(tmp_path, "key.conllu", ["John", "didn't", "see", "him", "."],
                 ["Entity=(e1-person-1-)", "_", "_", "Entity=(e1-person-1-)", "_"])
    response = conllu(tmp_path, "response.conllu", ["John", "did", "n't", "see", "him", "."],
                      ["Entity=(e1-person-1-)", "_", "_", "_", "Entity=(e1-person-1-)", "_"])
    status, out, err = run(capsys, "score", key, response)
    assert (status, out) == (1, "")
    [line] = err.splitlines()
    assert line.startswith(f"anascore: error: {response}:5: document 'd1': sentence 1, word 2 "
                           f"is \"didn't\" in the key ({key}:5) but 'did' in the response"), line
    assert line.endswith(f"expected the same words (empty nodes may differ){ALIGN_HINT}"), line
    status, out, err = run(capsys, "score", key, response, "--align-tokens",
                           "--metrics", "muc", "--output", "json")
    assert status == 0, err
    assert json.loads(out)["metrics"]["muc"]["f1"] == 1.0


def test_no_align_tokens_hint_where_it_cannot_help(capsys, tmp_path):
    # At --level corpus the documents are joined on the key's tokens, where --align-tokens is
    # refused: the error says what differs and suggests nothing.
    key = jsonlines(tmp_path, "key.jsonlines", ["John", "didn't", "see", "him", "."],
                    [[[0, 0], [3, 3]]])
    response = jsonlines(tmp_path, "response.jsonlines",
                         ["John", "did", "n't", "see", "him", "."], [[[0, 0], [4, 4]]])
    status, out, err = run(capsys, "score", key, response, "--level", "corpus")
    assert (status, out) == (1, "")
    assert err.endswith("expected the same tokens\n"), err


# -- --reference-layout --confidence -------------------------------------------------------

@pytest.mark.parametrize("confidence", [["--confidence"], ["--confidence", "200"]])
def test_reference_layout_with_confidence_is_refused_with_what_to_do(capsys, example_pair,
                                                                     confidence):
    # The Perl scorer's layout has no place for intervals: printing it would drop them.
    status, out, err = run(capsys, "score", *map(str, example_pair), "--reference-layout",
                           *confidence)
    assert (status, out) == (2, "")
    assert err == ("anascore: error: --reference-layout prints the Perl scorer's totals, "
                   "which have no place for confidence intervals; leave it out to see them "
                   "(the text table, or --output json)\n")
    # Each alone is accepted: the intervals are in the default text table.
    status, out, err = run(capsys, "score", *map(str, example_pair), "--metrics", "muc",
                           *confidence, "--seed", "1")
    assert status == 0, err
    assert "\nIntervals: 95% bootstrap percentile intervals (" in out, out


# -- warnings about the key: once per run --------------------------------------------------

#: A key whose first mention is annotated in two entities (a warning about the key), and two
#: responses: ``a`` has every document, ``b`` lacks d2 (a warning about ``b`` alone).
KEY = """#begin document (d1); part 000
d1 0 0 Anna (1)|(2)
d1 0 1 saw -
d1 0 2 her (1)
#end document
#begin document (d2); part 000
d2 0 0 Bo (3)
d2 0 1 ran -
d2 0 2 he (3)
#end document
"""
RESPONSE_A = KEY.replace("(1)|(2)", "(1)").replace("d2 0 2 he (3)", "d2 0 2 he -")
RESPONSE_B = KEY.split("#begin document (d2)")[0].replace("(1)|(2)", "(1)").replace(
    "d1 0 2 her (1)", "d1 0 2 her (2)")
REPEATED = ("key.conll: document '(d1); part 000': repeated key mention [0, 0], annotated "
            "twice in entities 2 and 1; scored once, in entity 2")
MISSING = ("b.conll: document '(d2); part 000' of the key is missing from the response; "
           "scored as an empty response")


@pytest.fixture
def three_files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name, text in (("key.conll", KEY), ("a.conll", RESPONSE_A), ("b.conll", RESPONSE_B)):
        write(tmp_path, name, text)
    return tmp_path


def warnings_of(err: str) -> list[str]:
    return [line.removeprefix("anascore: warning: ") for line in err.splitlines()
            if line.startswith("anascore: warning: ")]


def test_score_of_several_responses_says_the_keys_warnings_once(capsys, three_files):
    status, _, err = run(capsys, "score", "key.conll", "a.conll", "b.conll", "a.conll")
    assert status == 0, err
    assert warnings_of(err) == [REPEATED, MISSING]


def test_evaluate_says_the_keys_warnings_once_per_dataset(capsys, three_files):
    # c's response is b's file: its warning is c's too, as the file is, and stays per system.
    write(three_files, "task.toml", 'resamples = 0\n[[datasets]]\nname = "s"\n'
          'key = "key.conll"\n'
          + "".join(f'[[systems]]\nname = "{name}"\nresponses = "{file}.conll"\n'
                    for name, file in (("a", "a"), ("b", "b"), ("c", "b"))))
    status, out, err = run(capsys, "evaluate", "task.toml")
    assert status == 0, err
    assert warnings_of(err) == [f"dataset 's': {REPEATED}",
                                f"dataset 's', system 'b': {MISSING}",
                                f"dataset 's', system 'c': {MISSING}"]
    # The scores are unchanged: CoNLL 48.89 for b's file, 39.28 for a's.
    rows = {line.split()[1]: line.split()[2] for line in out.splitlines()[2:5]}
    assert rows == {"a": "39.28", "b": "48.89", "c": "48.89"}


def test_evaluate_of_one_system_names_it_as_before(capsys, three_files):
    write(three_files, "task.toml", 'resamples = 0\n[[datasets]]\nname = "s"\n'
          'key = "key.conll"\n[[systems]]\nname = "b"\nresponses = "b.conll"\n')
    status, _, err = run(capsys, "evaluate", "task.toml")
    assert status == 0, err
    assert warnings_of(err) == [f"dataset 's', system 'b': {REPEATED}",
                                f"dataset 's', system 'b': {MISSING}"]
