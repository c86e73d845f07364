"""jsonlines: inclusive spans by default, exclusive on request, predicted clusters for
responses, and errors that name the line."""

from __future__ import annotations

from pathlib import Path

import pytest

import anascore
from anascore.core.errors import FormatError
from anascore.formats import detect_format
from anascore.formats.jsonlines import read_jsonlines, write_jsonlines
from tests.support.paths import FIXTURES

FIXTURES = FIXTURES / "jsonlines"
KEY, PREDICTIONS = FIXTURES / "key.jsonlines", FIXTURES / "predictions.jsonlines"


def spans(document) -> list[list[tuple[int, ...]]]:
    return [[mention.tokens for mention in entity.mentions] for entity in document.entities]


def test_reads_inclusive_spans_over_the_flattened_sentences() -> None:
    talk, walk = read_jsonlines(KEY)
    assert talk.name == "talk" and talk.sentence_starts == (0, 5)
    assert talk.tokens[5] == "He"
    assert spans(talk) == [[(0,), (2,)], [(2, 3), (5,)]]
    assert spans(walk) == [[(0,)]]
    assert detect_format(KEY) == "jsonlines"


def test_exclusive_ends_on_request(tmp_path: Path) -> None:
    path = tmp_path / "exclusive.jsonlines"
    path.write_text('{"doc_key": "d", "sentences": [["a", "b", "c"]], '
                    '"clusters": [[[0, 2], [2, 3]]]}\n')
    (document,) = read_jsonlines(path, exclusive_ends=True)
    assert spans(document) == [[(0, 1), (2,)]]
    with pytest.raises(FormatError, match="use --exclusive-ends"):
        list(read_jsonlines(path))


def test_a_response_reads_predicted_clusters_a_key_reads_clusters() -> None:
    talk, walk = read_jsonlines(PREDICTIONS, role="response")
    assert spans(talk) == [[(0,), (2,), (5,)]] and spans(walk) == []
    assert spans(next(read_jsonlines(PREDICTIONS))) == [[(0,), (2,)], [(2, 3), (5,)]]


def test_a_prediction_file_scores_against_itself() -> None:
    report = anascore.score(PREDICTIONS, PREDICTIONS, metrics="muc,mentions")
    # Gold: Maria–her, [her landlord]–He (2 links); predicted: Maria–her–He (2 links), of
    # which Maria–her is right: MUC recall = precision = 1/2. Mentions: 4 gold + Bo, 3 found.
    assert report.metrics["muc"].recall == 1 / 2 and report.metrics["muc"].precision == 1 / 2
    assert report.metrics["mentions"].recall == 3 / 5


@pytest.mark.parametrize(("line", "message"), [
    ("not json", "not a JSON object"),
    ('{"sentences": [], "clusters": []}', "doc_key"),
    ('{"doc_key": "d", "sentences": [["a"]], "clusters": [[[0, 1]]]}', "outside the document"),
    ('{"doc_key": "d", "sentences": [["a"]], "clusters": [[[0]]]}', "expected \\[start, end\\]"),
    ('{"doc_key": "d", "sentences": [["a"]]}', "missing \"clusters\""),
])
def test_malformed_lines_are_errors_with_the_line(tmp_path: Path, line: str,
                                                  message: str) -> None:
    path = tmp_path / "bad.jsonlines"
    path.write_text('{"doc_key": "ok", "sentences": [["a"]], "clusters": []}\n' + line + "\n")
    with pytest.raises(FormatError, match=message) as error:
        list(read_jsonlines(path))
    assert error.value.line == 2


def test_writer_round_trip(tmp_path: Path) -> None:
    documents = list(read_jsonlines(KEY))
    for exclusive in (False, True):
        path = tmp_path / f"out-{exclusive}.jsonlines"
        write_jsonlines(documents, path, exclusive_ends=exclusive)
        again = list(read_jsonlines(path, exclusive_ends=exclusive))
        assert [spans(document) for document in again] == [spans(d) for d in documents]
        assert [document.tokens for document in again] == [d.tokens for d in documents]


@pytest.mark.parametrize(("line", "key"), [
    ('{"doc_key": "d", "sentences": [["a", "b"]], "clusters": [[[0, 0], [1, 1]]], '
     '"clusters": []}', "clusters"),
    ('{"doc_key": "d", "doc_key": "e", "sentences": [["a"]], "clusters": []}', "doc_key"),
    ('{"doc_key": "d", "sentences": [["a"]], "clusters": [], "meta": {"x": 1, "x": 2}}', "x"),
])
def test_a_key_given_twice_in_an_object_is_an_error_naming_the_line(tmp_path: Path, line: str,
                                                                     key: str) -> None:
    # json.loads keeps the last of duplicate keys: the second "clusters" silently replaced
    # the first (MUC 0 instead of 1). Which one the writer meant nobody can tell.
    path = tmp_path / "twice.jsonlines"
    path.write_text('{"doc_key": "ok", "sentences": [["a"]], "clusters": []}\n' + line + "\n")
    with pytest.raises(FormatError) as error:
        list(read_jsonlines(path))
    assert (error.value.path, error.value.line, error.value.message) == (
        str(path), 2, f"key {key!r} given twice in one JSON object; expected each key once")
    long = "k" * 5000
    path.write_text(f'{{"doc_key": "d", "sentences": [], "clusters": [], "{long}": 1, '
                    f'"{long}": 2}}\n')
    with pytest.raises(FormatError) as error:
        list(read_jsonlines(path))
    assert error.value.message == (f"key '{'k' * 40}…' given twice in one JSON object; "
                                   "expected each key once")
