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
