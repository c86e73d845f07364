"""Counting in several processes (anascore.scoring.parallel) never changes a number, a warning or an
error: every run here is compared with the one-process run of the same files."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from anascore.cli.main import main
from anascore.config.options import Options
from anascore.core.errors import AnascoreError
from anascore.formats.conll2012 import read_conll2012, write_conll2012
from anascore.scoring import parallel
from anascore.scoring.pipeline import score_files, score_files_many
from tests.support.files import write
from tests.support.paths import EXAMPLES
from tests.support.serial_and_parallel import both_ways
from tests.support.strategies import document_pairs, to_document, without_crossing

pytestmark = pytest.mark.skipif(not parallel._can_fork(), reason="forks on Linux only")


def story(name: str, cells: list[str], words: list[str] | None = None) -> str:
    words = words or [f"w{index}" for index in range(len(cells))]
    lines = [f"#begin document {name}"]
    for index, (word, cell) in enumerate(zip(words, cells, strict=True)):
        lines.append(f"{name} 0 {index} {word} {cell}")
        if index % 3 == 2:
            lines.append("")
    lines.append("#end document")
    return "\n".join(lines) + "\n"


KEY_CELLS = ["(1", "1)", "-", "(2)", "(1)", "-", "(2", "-", "2)"]
RESPONSE_CELLS = ["(1", "1)", "(2)", "-", "(1)", "(3)", "(2", "2)", "-"]


def corpus(cells: list[str], names: list[str]) -> str:
    return "".join(story(name, cells) for name in names)


def error_of(key: str, response: str, jobs: int) -> str:
    with pytest.raises(AnascoreError) as raised:
        score_files(key, response, Options(jobs=jobs, format="conll2012"))
    return raised.value.location_message()


NAMES = [f"doc{index}" for index in range(6)]


def test_the_files_are_counted_in_processes_and_give_the_serial_numbers(tmp_path) -> None:
    key = write(tmp_path, "key.conll", corpus(KEY_CELLS, NAMES))
    response = write(tmp_path, "response.conll", corpus(RESPONSE_CELLS, NAMES))
    calls: list[str] = []

    def count(key_document, response_documents):
        calls.append(key_document.name)
        return len(key_document.tokens), response_documents[0].line

    mapped = parallel.map_documents(key, [response], count, 3)
    lines = [document.line for document in read_conll2012(response)]
    assert lines == [1 + 14 * index for index in range(6)]
    assert mapped == [(name, (9, line)) for name, line in zip(NAMES, lines, strict=True)]
    assert calls == NAMES[:2]  # this process counted its own share only
    report = both_ways(key, response)
    assert report["documents"] == 6
    # Per document: key mentions 4, response 5, exact matches 2 (R = 2/4, P = 2/5).
    assert report["metrics"]["mentions"]["recall"] == pytest.approx(2 / 4)
    assert report["metrics"]["mentions"]["precision"] == pytest.approx(2 / 5)


def test_missing_and_reordered_documents_keep_the_serial_warnings(tmp_path) -> None:
    key = write(tmp_path, "key.conll", corpus(KEY_CELLS, NAMES))
    shuffled = NAMES[:]
    random.Random(3).shuffle(shuffled)
    response_text = "".join(story(name, RESPONSE_CELLS) for name in shuffled if name != "doc1")
    response_text = response_text.replace("doc4 0 2 w2", "doc4 0 2 other")
    response = write(tmp_path, "response.conll", response_text)
    assert parallel.map_documents(key, [response], lambda k, r: r == (None,), 2) == [
        (name, name == "doc1") for name in NAMES]
    report = both_ways(key, response)
    assert len(report["warnings"]) == 2
    assert "document 'doc1' of the key is missing" in report["warnings"][0]
    assert "token 3 is 'other' in the response but 'w2'" in report["warnings"][1]


def test_comments_crlf_bom_and_blank_lines_between_documents(tmp_path) -> None:
    text = corpus(KEY_CELLS, NAMES).replace("#end document\n", "#end document\n\n# note\n\n")
    key = write(tmp_path, "key.conll", ("\ufeff" + text).replace("\n", "\r\n"))
    response = write(tmp_path, "response.conll", "\n" + corpus(RESPONSE_CELLS, NAMES))
    lines = [document.line for document in read_conll2012(key)]
    assert lines == [1 + 17 * index for index in range(6)]
    assert parallel.map_documents(key, [response], lambda k, r: k.line, 2) == [
        (name, line) for name, line in zip(NAMES, lines, strict=True)]
    both_ways(key, response)


@pytest.mark.parametrize(("change", "expected"), [
    (lambda text: text.replace("doc4 0 4 w4 (1)", "doc4 0 4 w4 (7"),
     "response.conll:63: mention of entity 7 opened here is never closed"),
    (lambda text: text.replace("doc5 0 8 w8 -\n", ""),
     "response.conll:71: document 'doc5' has 9 tokens in the key"),
    (lambda text: text + story("doc9", RESPONSE_CELLS),
     "response.conll:85: response document 'doc9' not in the key"),
    (lambda text: text + story("doc3", RESPONSE_CELLS),
     "response.conll:85: document 'doc3' appears twice in the response"),
    (lambda text: text.replace("#end document\n#begin document doc5",
                               "#end document\nstray 0 0 w -\n#begin document doc5"),
     "response.conll:71: token line outside a document"),
    (lambda text: "preface\n" + text, "response.conll:1: token line outside a document"),
    (lambda text: text.replace("#end document\n#begin document doc5", "#begin document doc5"),
     "response.conll:70: '#begin document' inside document 'doc4'"),
])
def test_bad_input_gives_the_serial_error(tmp_path, change, expected) -> None:
    key = write(tmp_path, "key.conll", corpus(KEY_CELLS, NAMES))
    response = write(tmp_path, "response.conll", change(corpus(RESPONSE_CELLS, NAMES)))
    serial = error_of(key, response, 1)
    assert expected in serial, serial
    assert error_of(key, response, 2) == serial


def test_a_document_named_twice_in_the_key_gives_the_serial_error(tmp_path) -> None:
    key = write(tmp_path, "key.conll", corpus(KEY_CELLS, [*NAMES, "doc2"]))
    response = write(tmp_path, "response.conll", corpus(RESPONSE_CELLS, NAMES))
    serial = error_of(key, response, 1)
    assert "key.conll:85: document 'doc2' appears twice in the key" in serial
    assert error_of(key, response, 2) == serial


def test_lone_carriage_returns_are_left_to_the_serial_reader(tmp_path) -> None:
    key = write(tmp_path, "key.conll", corpus(KEY_CELLS, NAMES))
    response = write(tmp_path, "response.conll",
                     corpus(RESPONSE_CELLS, NAMES).replace("doc2 0 3 w3 -\n", "doc2 0 3 w3 -\r"))
    assert parallel.map_documents(key, [response], lambda k, r: 0, 2) is None
    both_ways(key, response)


def test_undecodable_bytes_in_a_later_document_give_the_serial_error(tmp_path) -> None:
    key = write(tmp_path, "key.conll", corpus(KEY_CELLS, NAMES))
    text = corpus(RESPONSE_CELLS, NAMES).encode().replace(b"doc5 0 1 w1", b"doc5 0 1 w\xff")
    response = write(tmp_path, "response.conll", text)
    serial = error_of(key, response, 1)
    assert "response.conll:73: bytes that are not UTF-8 text" in serial
    assert error_of(key, response, 2) == serial


def test_a_failing_worker_falls_back_to_the_serial_run(tmp_path) -> None:
    key = write(tmp_path, "key.conll", corpus(KEY_CELLS, NAMES))
    response = write(tmp_path, "response.conll", corpus(RESPONSE_CELLS, NAMES))

    def count(key_document, response_documents):
        if key_document.name == "doc5":
            raise RuntimeError("a bug")
        return 0

    assert parallel.map_documents(key, [response], count, 2) is None


def test_several_responses_give_the_serial_reports(tmp_path) -> None:
    key = write(tmp_path, "key.conll", corpus(KEY_CELLS, NAMES))
    first = write(tmp_path, "first.conll", corpus(RESPONSE_CELLS, NAMES))
    second = write(tmp_path, "second.conll", corpus(KEY_CELLS, NAMES[:4]))
    assert parallel.map_documents(key, [first, second], lambda k, r: [d is None for d in r],
                                  2) == [(name, [False, name in ("doc4", "doc5")])
                                         for name in NAMES]
    reports = {}
    for jobs in (1, 2, 3):
        found = score_files_many(key, [first, second], Options(jobs=jobs))
        reports[jobs] = [(report.to_dict(per_document=True), report.warnings)
                         for report in found]
    assert reports[1] == reports[2] == reports[3]
    (first_report, _), (second_report, second_warnings) = reports[1]
    assert first_report["metrics"]["mentions"]["recall"] == pytest.approx(2 / 4)
    # The second response is the key itself, without doc4 and doc5: 4 of 6 documents perfect.
    assert second_report["metrics"]["muc"]["recall"] == pytest.approx(4 / 6)
    assert second_report["metrics"]["muc"]["precision"] == 1.0
    assert [warning.split(": ", 1)[1] for warning in second_warnings] == [
        f"document {name!r} of the key is missing from the response; scored as an empty "
        "response" for name in ("doc4", "doc5")]


def test_how_many_processes(tmp_path, monkeypatch) -> None:
    small = write(tmp_path, "key.conll", corpus(KEY_CELLS, NAMES))
    assert parallel.processes_for(1, [small, small]) == 1
    assert parallel.processes_for(3, [small, small]) == 3
    assert parallel.processes_for(0, [small, small]) == 1  # too small to gain
    size = 2 * Path(small).stat().st_size
    cpus = len(parallel.os.sched_getaffinity(0))
    monkeypatch.setattr(parallel, "idle_cpus", lambda: cpus)  # an idle machine
    monkeypatch.setattr(parallel, "AUTO_BYTES_PER_PROCESS", size // 2)
    assert parallel.processes_for(0, [small, small]) == min(2, cpus)
    monkeypatch.setattr(parallel, "AUTO_BYTES_PER_PROCESS", 1)
    assert parallel.processes_for(0, [small, small]) == min(cpus, parallel.AUTO_MAX_PROCESSES)


@pytest.mark.parametrize(("runnable", "machine", "usable", "idle"), [
    ("1/90", 2, 2, 2),    # only this process runs: both CPUs are free
    ("2/90", 2, 2, 1),    # a CPU-bound neighbour holds one of two CPUs: one process
    ("3/90", 2, 2, 1),    # never fewer than one
    ("30/900", 64, 2, 2),  # a large shared host: 35 CPUs idle, two usable here
    ("64/900", 64, 4, 1),
])
def test_the_default_counts_only_idle_cpus(tmp_path, monkeypatch, runnable, machine, usable,
                                          idle) -> None:
    status = tmp_path / "loadavg"
    status.write_text(f"0.50 0.40 0.30 {runnable} 12345\n")
    monkeypatch.setattr(parallel, "LOAD_STATUS", str(status))
    monkeypatch.setattr(parallel.os, "cpu_count", lambda: machine)
    monkeypatch.setattr(parallel.os, "sched_getaffinity", lambda _: set(range(usable)))
    assert parallel.idle_cpus() == idle


def test_the_jobs_setting_is_checked_and_left_out_of_the_signature(capsys, tmp_path) -> None:
    assert Options(jobs=4).signature() == Options().signature()
    with pytest.raises(AnascoreError, match="jobs must be a whole number"):
        Options(jobs=-1)
    key = write(tmp_path, "key.conll", corpus(KEY_CELLS, NAMES))
    with pytest.raises(SystemExit) as exited:
        main(["score", "--jobs", "-2", key, key])
    assert exited.value.code == 2
    assert "--jobs: '-2': expected a whole number" in capsys.readouterr().err


def test_the_command_line_gives_the_same_output_in_processes(capsys, tmp_path) -> None:
    key = write(tmp_path, "key.conll", corpus(KEY_CELLS, NAMES))
    response = write(tmp_path, "response.conll", corpus(RESPONSE_CELLS, NAMES))
    outputs = []
    for jobs in ("1", "2"):
        assert main(["score", "--jobs", jobs, "--output", "json", "--per-document", key,
                     response]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(document_pairs(), min_size=1, max_size=7), st.booleans())
def test_random_corpora_give_the_serial_numbers(tmp_path, pairs, remove_singletons) -> None:
    keys, responses = [], []
    for index, (key_clusters, response_clusters, tokens) in enumerate(pairs):
        keys.append(to_document(without_crossing(key_clusters), tokens, f"d{index}"))
        responses.append(to_document(without_crossing(response_clusters), tokens, f"d{index}"))
    key, response = tmp_path / "key.conll", tmp_path / "response.conll"
    write_conll2012(keys, key)
    write_conll2012(responses[::-1], response)
    assert [document.name for document in read_conll2012(key)] == [d.name for d in keys]
    both_ways(str(key), str(response), keep_singletons=not remove_singletons)


def test_metrics_that_read_token_columns_give_the_serial_numbers(tmp_path) -> None:
    examples = EXAMPLES / "linguistic"
    copies = {}
    for role, source in (("key", "key.conll"), ("response", "response_names.conll")):
        text = (examples / source).read_text(encoding="utf-8")
        copies[role] = write(tmp_path, f"{role}.conll", "".join(
            text.replace("part 000", f"part {part:03d}") for part in range(4)))
    report = both_ways(copies["key"], copies["response"],
                       metrics="lmuc,lbcub,lceafm,lceafe,muc")
    assert report["documents"] == 4
    assert 0 < report["metrics"]["lmuc"]["f1"] < 1


def _child_writing(payload: bytes, status: int) -> tuple[int, int]:
    """A forked process that writes ``payload`` into a pipe and exits with ``status``."""
    import os

    read_end, write_end = os.pipe()
    process = os.fork()
    if process == 0:
        os.close(read_end)
        os.write(write_end, payload)
        os._exit(status)
    os.close(write_end)
    return process, read_end


def test_a_forked_result_is_unpickled_from_the_pipe() -> None:
    result = [("doc", list(range(50_000)))]  # beyond one pipe buffer
    assert parallel._collect(*parallel._fork(lambda: result)) == result


@pytest.mark.parametrize("status", [0, 1])
def test_a_truncated_or_failed_result_is_none(status: int) -> None:
    import pickle

    whole = pickle.dumps([("doc", list(range(1000)))], protocol=pickle.HIGHEST_PROTOCOL)
    assert parallel._collect(*_child_writing(whole[: len(whole) // 2], status)) is None
    assert parallel._collect(*_child_writing(b"", status)) is None
    # a whole result from a process that then failed is not taken either
    assert parallel._collect(*_child_writing(whole, 1)) is None


def test_a_process_that_raises_gives_none() -> None:
    def fails() -> object:
        raise ValueError("counted wrong")

    assert parallel._collect(*parallel._fork(fails)) is None


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(st.text(alphabet="ab\t", max_size=12), min_size=1, max_size=40),
       bom=st.booleans(), crlf=st.booleans(), seed=st.integers(0, 1000))
def test_line_numbers_are_counted_from_any_known_offset(tmp_path, lines, bom, crlf,
                                                         seed) -> None:
    """Each process counts the lines of its own stretches (``_LineNumbers``), asked in any
    order: the line of every line's first byte is its number, as the serial reader counts."""
    ending = "\r\n" if crlf else "\n"
    data = (("\ufeff" if bom else "") + ending.join(lines) + ending).encode()
    path = tmp_path / "lines.txt"
    path.write_bytes(data)
    start = 3 if bom else 0
    firsts = [start]
    for line in lines[:-1]:
        firsts.append(firsts[-1] + len(line.encode()) + len(ending))
    order = list(enumerate(firsts, start=1))
    random.Random(seed).shuffle(order)
    with open(path, "rb") as stream:
        numbers = parallel._LineNumbers(stream)
        for number, offset in order:
            assert numbers.at(offset) == number


def test_corefud_and_ua_stretches_carry_the_serial_line_numbers(tmp_path) -> None:
    """Documents read apart in CoNLL-U and UA (a header line in force, a BOM, CRLF line ends)
    carry the line numbers of the serial reading: each document's, and every mention's."""
    from anascore.formats import read_documents
    from anascore.formats.writers.corefud import write_corefud
    from anascore.formats.writers.ua import write_ua

    key = write(tmp_path, "key.conll", corpus(KEY_CELLS, NAMES))
    documents = list(read_conll2012(key))
    for name, writer, layout in (("key.conllu", write_corefud, "corefud"),
                                 ("key.ua", write_ua, "ua")):
        path = tmp_path / name
        writer(documents, path)
        path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes().replace(b"\n", b"\r\n"))
        serial = {document.name: (document.line, [mention.line for entity in document.entities
                                                  for mention in entity.mentions])
                  for document in read_documents(str(path), layout)}

        def lines(document, responses):
            return (document.line, [mention.line for entity in document.entities
                                    for mention in entity.mentions])

        found = parallel.map_documents(str(path), [str(path)], lines, 2,
                                       formats=[layout, layout])
        assert found is not None and len(found) == len(serial) > 2
        assert dict(found) == serial
