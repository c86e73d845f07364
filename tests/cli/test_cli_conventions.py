"""Command-line conventions: ``-`` and gzip inputs, --quiet and --strict, response documents
the key lacks, and the names of the key documents they most likely meant."""

from __future__ import annotations

import gzip
import io
import json
import sys
from pathlib import Path

import pytest

import anascore
from anascore.cli.main import main
from anascore.core.errors import DocumentMismatchError, FormatError
from anascore.scoring.document_names import nearest, normalized
from tests.support.paths import EXAMPLES, corpus_files

KEY, RESPONSE = EXAMPLES / "key.conll", EXAMPLES / "response.conll"


def json_scores(capsys, arguments: list[str]) -> dict:
    assert main([*arguments, "--output", "json"]) == 0
    return json.loads(capsys.readouterr().out)["metrics"]


def test_a_gzip_response_is_read_as_its_text(tmp_path, capsys):
    packed = tmp_path / "response.conll.whatever"  # recognised by its bytes, not its name
    packed.write_bytes(gzip.compress(RESPONSE.read_bytes()))
    assert json_scores(capsys, ["score", str(KEY), str(packed)]) == json_scores(
        capsys, ["score", str(KEY), str(RESPONSE)])


def test_a_broken_gzip_file_is_one_error_naming_it(tmp_path):
    packed = tmp_path / "response.conll.gz"
    packed.write_bytes(gzip.compress(RESPONSE.read_bytes())[:300])
    with pytest.raises(FormatError, match="not a whole gzip file") as caught:
        anascore.score(KEY, packed)
    assert caught.value.path == str(packed)


def test_litbank_gzip_gives_the_same_json(tmp_path, capsys):
    files = corpus_files("litbank", "coref-conll", pattern="*.conll", limit=2)
    key = tmp_path / "key.conll"
    key.write_bytes(b"".join(path.read_bytes() for path in files))
    packed = tmp_path / "key.conll.gz"
    packed.write_bytes(gzip.compress(key.read_bytes()))
    assert json_scores(capsys, ["score", str(packed), str(packed)]) == json_scores(
        capsys, ["score", str(key), str(key)])


def test_the_response_from_standard_input_is_named_stdin(monkeypatch, capsys):
    text = RESPONSE.read_text().replace(" town ", " TOWN ").replace("\ttown\t", "\tTOWN\t")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    assert main(["score", str(KEY), "-", "--metrics", "muc"]) == 0
    err = capsys.readouterr().err
    assert err.startswith("anascore: warning: <stdin>: document") and "'TOWN'" in err


@pytest.mark.parametrize("command", ["score", "errors"])
def test_a_key_from_standard_input_is_read_once_for_every_response(monkeypatch, capsys,
                                                                   command):
    """``anascore errors - R1 R2`` read standard input once per response: the second
    analysis found it empty ('<stdin>: empty file'); both commands copy it once now."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(KEY.read_bytes())))
    assert main([command, "-", str(RESPONSE), str(RESPONSE), "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(KEY.read_bytes())))
    assert main([command, "-", str(RESPONSE), "--output", "json"]) == 0
    alone = json.loads(capsys.readouterr().out)
    # a system per response, each as the response alone gives it
    assert list(out["systems"]) == [str(RESPONSE), f"{RESPONSE} (2)"]
    first, second = out["systems"].values()
    part = "errors" if command == "errors" else "metrics"
    assert first[part] == second[part] == alone[part]
    assert sum(alone["errors"].values()) == 12 if command == "errors" else (
        alone["metrics"]["muc"]["recall"] > 0)


def test_quiet_silences_warnings_and_strict_makes_them_errors(tmp_path, capsys):
    response = tmp_path / "response.conll"
    response.write_text(RESPONSE.read_text().replace("\ttown\t", "\tTOWN\t"))
    assert main(["score", str(KEY), str(response), "--quiet"]) == 0
    captured = capsys.readouterr()
    assert captured.err == "" and "CoNLL" in captured.out
    assert main(["score", str(KEY), str(response), "--strict"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"anascore: error: {response}: document")
    assert captured.err.endswith("; --strict makes warnings errors\n")


@pytest.fixture
def extra_document(tmp_path) -> Path:
    response = tmp_path / "response.conll"
    # (in the file's twelve columns: every document of a file has the same columns)
    extra = ("#begin document (news/ex/00/ex_0001); part 0\n"
             "x\t0\t0\tw\tNN\t*\t-\t-\t-\t-\t*\t-\n#end document\n")
    response.write_text(RESPONSE.read_text() + extra)
    return response


def test_a_response_document_the_key_lacks_names_what_it_likely_meant(extra_document):
    with pytest.raises(DocumentMismatchError) as caught:
        anascore.score(KEY, extra_document)
    message = caught.value.message
    assert "response document '(news/ex/00/ex_0001); part 0' not in the key" in message
    assert "did you mean '(news/ex/00/ex_0001); part 000'?" in message
    assert "--key-documents-only" in message


def test_key_documents_only_ignores_them_with_a_warning(extra_document, capsys):
    report = anascore.score(KEY, extra_document, key_documents_only=True)
    assert report.warnings[0].endswith(
        "1 response document not in the key ignored ('(news/ex/00/ex_0001); part 0')")
    assert report.signature == anascore.score(KEY, RESPONSE).signature
    assert main(["score", str(KEY), str(extra_document), "--key-documents-only"]) == 0


def test_names_in_other_conventions_are_the_same_document():
    assert normalized("(bc/cctv/00/cctv_0000); part 000") == ("bc/cctv/00/cctv_0000", 0)
    assert normalized("bc/cctv/00/cctv_0000_0") == ("bc/cctv/00/cctv_0000", 0)
    assert normalized("(bc/cctv/00/cctv_0000); part 1") == ("bc/cctv/00/cctv_0000", 1)
    key = ["(bc/cctv/00/cctv_0000); part 000", "(bc/cctv/00/cctv_0000); part 001"]
    assert nearest("bc/cctv/00/cctv_0000_1", key) == ["(bc/cctv/00/cctv_0000); part 001"]
    assert nearest("GUM_bio_byro", ["GUM_bio_byron", "GUM_news_chao"])[0] == "GUM_bio_byron"
