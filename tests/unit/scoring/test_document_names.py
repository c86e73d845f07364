"""Issue 23 (3): documents named in another convention are paired on request, and a response
of which no document is paired is an error whatever the flags.

LitBank's files name their documents ``(ID); part 0`` and systems write ``part 000``;
e2e-coref's ``doc_key`` is ``ID_0``. ``--pair-documents normalized`` pairs a response
document with the key document of the same normalised name
(:func:`anascore.scoring.document_names.normalized`), naming each pairing once in a warning.
Before, the error said "did you mean", and the ``--key-documents-only`` it suggested scored
nothing (CoNLL 0.00) with exit status 0.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import anascore
from anascore.cli.main import main
from anascore.core.errors import AnascoreError, OptionsError

KEY = ("#begin document (105_persuasion_brat); part 0\n"
       "105_persuasion_brat\t0\t0\tAnne\t(1)\n105_persuasion_brat\t0\t1\tsaw\t-\n"
       "105_persuasion_brat\t0\t2\therself\t(1)\n\n#end document\n"
       "#begin document (2775_the_good_soldier_brat); part 0\n"
       "2775_the_good_soldier_brat\t0\t0\tHe\t(2)\n2775_the_good_soldier_brat\t0\t1\tleft\t-\n"
       "2775_the_good_soldier_brat\t0\t2\thim\t(2)\n\n#end document\n")
RESPONSE = KEY.replace("part 0\n", "part 000\n").replace("herself\t(1)", "herself\t-")


def _files(tmp_path: Path) -> tuple[Path, Path]:
    key, response = tmp_path / "key.conll", tmp_path / "response.conll"
    key.write_text(KEY, encoding="utf-8")
    response.write_text(RESPONSE, encoding="utf-8")
    return key, response


def test_normalized_pairing_scores_litbank_part_names(tmp_path: Path) -> None:
    key, response = _files(tmp_path)
    report = anascore.score(key, response, pair_documents="normalized")
    # document 1: key {Anne, herself}, response {Anne} as a singleton → MUC 0/1, 0/0;
    # document 2 identical → MUC recall 1/2, precision 1/1
    assert (report.metrics["muc"].recall, report.metrics["muc"].precision) == (0.5, 1.0)
    assert report.document_names == ("(105_persuasion_brat); part 0",
                                     "(2775_the_good_soldier_brat); part 0")
    assert [warning for warning in report.warnings if "paired" in warning] == [
        f"{response}: response document '(105_persuasion_brat); part 000' paired with key "
        "document '(105_persuasion_brat); part 0' (--pair-documents normalized)",
        f"{response}: response document '(2775_the_good_soldier_brat); part 000' paired with "
        "key document '(2775_the_good_soldier_brat); part 0' (--pair-documents normalized)"]
    # the same numbers as with the names written alike
    same = tmp_path / "same.conll"
    same.write_text(RESPONSE.replace("part 000\n", "part 0\n"), encoding="utf-8")
    assert anascore.score(key, same).metrics == report.metrics


def test_normalized_pairing_takes_e2e_doc_keys(tmp_path: Path) -> None:
    key = tmp_path / "key.jsonlines"
    key.write_text(json.dumps({"doc_key": "bc/cctv/00/cctv_0000_0",
                               "sentences": [["He", "left", "him"]],
                               "clusters": [[[0, 0], [2, 2]]]}) + "\n", encoding="utf-8")
    conll = tmp_path / "response.conll"
    conll.write_text("#begin document (bc/cctv/00/cctv_0000); part 000\n"
                     "x\t0\t0\tHe\t(2)\nx\t0\t1\tleft\t-\nx\t0\t2\thim\t(2)\n\n#end document\n",
                     encoding="utf-8")
    report = anascore.score(key, conll, pair_documents="normalized")
    assert report.metrics["muc"].f1 == 1.0
    with pytest.raises(AnascoreError, match="did you mean 'bc/cctv/00/cctv_0000_0'"):
        anascore.score(key, conll)


def test_no_document_paired_is_an_error_whatever_the_flags(tmp_path: Path, capsys) -> None:
    key, response = _files(tmp_path)
    with pytest.raises(AnascoreError) as error:
        anascore.score(key, response, key_documents_only=True)
    assert (error.value.path, error.value.line) == (str(response), 1)
    assert error.value.message.startswith(
        f"no document of the response is in the key {key}: its 2 documents "
        "('(105_persuasion_brat); part 000' and 1 more) are not in the key; did you mean "
        "'(105_persuasion_brat); part 0'?")
    assert "--pair-documents normalized" in error.value.message
    assert main(["score", str(key), str(response), "--key-documents-only"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.splitlines()) == 1
    # the message without the flag suggests the option too
    assert main(["score", str(key), str(response)]) == 1
    assert "--pair-documents normalized" in capsys.readouterr().err


def test_the_cli_flag_and_its_validation(tmp_path: Path, capsys) -> None:
    key, response = _files(tmp_path)
    assert main(["score", str(key), str(response), "--pair-documents", "normalized"]) == 0
    captured = capsys.readouterr()
    assert "MUC" in captured.out and captured.err.count("paired with key document") == 2
    with pytest.raises(OptionsError, match="unknown document pairing 'fuzzy'; expected one of "
                                           "exact, normalized"):
        anascore.score(key, response, pair_documents="fuzzy")


def test_two_response_documents_of_one_normalised_name_are_refused(tmp_path: Path) -> None:
    key, response = _files(tmp_path)
    response.write_text(RESPONSE + RESPONSE.replace("part 000", "part 00"), encoding="utf-8")
    with pytest.raises(AnascoreError, match="appears twice in the response"):
        anascore.score(key, response, pair_documents="normalized")


def test_documents_in_memory_pair_alike(tmp_path: Path) -> None:
    from anascore.formats import read_documents

    key, response = _files(tmp_path)
    report = anascore.score_documents(read_documents(key), read_documents(response),
                                      pair_documents="normalized")
    assert (report.metrics["muc"].recall, report.metrics["muc"].precision) == (0.5, 1.0)
    assert sum("paired with key document" in warning for warning in report.warnings) == 2
    with pytest.raises(AnascoreError, match="no document of the response is in the key"):
        anascore.score_documents(read_documents(key), read_documents(response),
                                 key_documents_only=True)
