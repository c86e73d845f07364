"""Folders and unexpanded globs as KEY and RESPONSE: files paired by relative path, and the
corpus scored as the same documents in one file would be."""

from __future__ import annotations

from pathlib import Path

import pytest

import anascore
from anascore.errors import DocumentMismatchError
from anascore.formats import read_documents
from anascore.formats.conll2012 import write_conll2012

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


@pytest.fixture
def folders(tmp_path):
    """The bundled example's documents, one file each (two in a subfolder), key and
    response."""
    for side, source in (("keys", EXAMPLES / "key.conll"), ("responses",
                                                            EXAMPLES / "response.conll")):
        for index, document in enumerate(read_documents(source)):
            folder = tmp_path / side / ("sub" if index >= 3 else "")
            folder.mkdir(parents=True, exist_ok=True)
            write_conll2012([document], folder / f"doc{index}.conll")
    return tmp_path / "keys", tmp_path / "responses"


def metrics(report) -> dict:
    return {name: score.to_dict() for name, score in report.metrics.items()}


def test_folders_score_as_one_file(folders):
    keys, responses = folders
    whole = anascore.score(EXAMPLES / "key.conll", EXAMPLES / "response.conll")
    assert metrics(anascore.score(keys, responses)) == metrics(whole)
    assert len(anascore.score(keys, responses).document_names) == 5


def test_an_unexpanded_glob_is_a_set_of_files(folders):
    keys, responses = folders
    report = anascore.score(f"{keys}/sub/*.conll", f"{responses}/sub/*.conll")
    assert len(report.document_names) == 2 and report.metrics["muc"].f1 > 0


def test_a_missing_response_file_is_an_empty_response_with_a_warning(folders):
    keys, responses = folders
    (responses / "doc0.conll").unlink()
    report = anascore.score(keys, responses)
    assert any("no response file 'doc0.conll'" in warning for warning in report.warnings)
    assert report.metrics["mentions"].recall < 1


def test_a_response_file_without_a_key_file_is_an_error_or_ignored(folders):
    keys, responses = folders
    (responses / "doc0.conll").rename(responses / "doc0-copy.conll")
    with pytest.raises(DocumentMismatchError, match=r"'doc0-copy\.conll' has no key file.*did "
                                                    r"you mean 'doc0\.conll'"):
        anascore.score(keys, responses)
    report = anascore.score(keys, responses, key_documents_only=True)
    assert any("1 response file without a key file ignored" in warning
               for warning in report.warnings)


def test_a_folder_against_a_file_is_refused(folders):
    keys, _ = folders
    with pytest.raises(anascore.AnascoreError, match=r"is a directory .* give a folder or "
                                                     r"pattern of responses"):
        anascore.score(keys, EXAMPLES / "response.conll")
