"""Folders and unexpanded globs as KEY and RESPONSE: files paired by relative path, and the
corpus scored as the same documents in one file would be."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

import anascore
from anascore.core.errors import DocumentMismatchError
from anascore.formats import read_documents
from anascore.formats.conll2012 import write_conll2012
from tests.support.paths import EXAMPLES


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


# errors, report and score --group-by (mention kinds) take folders and patterns as score does:
# the same pairing, warnings and refusals, and the result of the concatenated files.

MENTION_KINDS = ("mention-type", "entity-type", "entity-size", "mention-distance")
ORDER = ("doc0.conll", "doc1.conll", "doc2.conll", "sub/doc3.conll", "sub/doc4.conll")


def concatenated(folder: Path, target: Path, order=ORDER) -> Path:
    """The files of ``folder`` one after the other, in the order the pairing visits them."""
    target.write_text("".join((folder / name).read_text(encoding="utf-8") for name in order
                              if (folder / name).exists()), encoding="utf-8")
    return target


@pytest.fixture
def typed_folders(tmp_path):
    """Three documents with parts of speech and named entities (mention and entity types),
    one file each (one in a subfolder), key and response; and each side concatenated."""
    linguistic = EXAMPLES / "linguistic"
    key = (linguistic / "key.conll").read_text(encoding="utf-8")
    sources = [(linguistic / name).read_text(encoding="utf-8")
               for name in ("response_names.conll", "response_pronouns.conll", "key.conll")]
    for side in ("keys", "responses"):
        (tmp_path / "typed" / side / "sub").mkdir(parents=True)
    for name, response in zip(TYPED, sources, strict=True):
        document = "example/" + Path(name).stem
        for side, text in (("keys", key), ("responses", response)):
            (tmp_path / "typed" / side / name).write_text(
                text.replace("example/curie", document), encoding="utf-8")
    keys, responses = tmp_path / "typed" / "keys", tmp_path / "typed" / "responses"
    return (keys, responses, concatenated(keys, tmp_path / "typed" / "key.conll", TYPED),
            concatenated(responses, tmp_path / "typed" / "response.conll", TYPED))


TYPED = ("a.conll", "b.conll", "sub/c.conll")


@pytest.fixture
def whole(folders, tmp_path):
    keys, responses = folders
    return (concatenated(keys, tmp_path / "key.conll"),
            concatenated(responses, tmp_path / "response.conll"))


def test_pairing_order_is_the_order_of_the_concatenation(folders):
    from anascore.scoring.file_sets import members

    assert list(members(str(folders[0]))) == list(ORDER)


def test_errors_of_folders_are_those_of_the_concatenated_files(folders, whole):
    keys, responses = folders
    found = anascore.analyse_errors(keys, responses).to_dict(per_document=True, listed=True)
    expected = anascore.analyse_errors(*whole).to_dict(per_document=True, listed=True)
    assert found == expected
    assert sum(found["errors"].values()) > 0 and len(found["per_document"]) == 5


def test_errors_command_on_folders_and_patterns(folders, whole, capsys):
    from anascore.cli.main import main

    keys, responses = folders
    assert main(["errors", *map(str, whole), "--output", "json", "--per-document"]) == 0
    expected = capsys.readouterr().out
    assert main(["errors", str(keys), str(responses), "--output", "json",
                 "--per-document"]) == 0
    assert capsys.readouterr().out == expected
    assert main(["errors", f"{keys}/sub/*.conll", f"{responses}/sub/*.conll", "--output",
                 "json", "--per-document"]) == 0
    assert list(json.loads(capsys.readouterr().out)["per_document"]) == [
        "(story/ex/00/ex_0004); part 000", "(email/ex/00/ex_0005); part 000"]
    assert len(json.loads(expected)["per_document"]) == 5


def test_errors_of_folders_with_a_missing_response_file(folders, whole, tmp_path):
    keys, responses = folders
    (responses / "doc1.conll").unlink()
    lacking = concatenated(responses, tmp_path / "lacking.conll")
    analysis = anascore.analyse_errors(keys, responses)
    assert analysis.to_dict(per_document=True, listed=True) == anascore.analyse_errors(
        whole[0], lacking).to_dict(per_document=True, listed=True)
    assert analysis.report.warnings[0] == (f"{responses}: no response file 'doc1.conll'; its "
                                           "documents are scored as empty responses")


def test_errors_refuse_what_score_refuses(folders, whole, capsys):
    from anascore.cli.main import main

    keys, responses = folders
    assert main(["errors", str(keys), str(whole[1])]) == 1
    assert capsys.readouterr().err == (
        f"anascore: error: {keys}: is a directory (a set of keys), but the response "
        f"{whole[1]} is a file; give a folder or pattern of responses too, or a key file\n")
    assert main(["errors", str(whole[0]), str(responses)]) == 1
    assert capsys.readouterr().err == (
        f"anascore: error: {whole[0]}: is a file, but a response is a folder or pattern; "
        "give a folder or pattern of keys too\n")
    (responses / "doc0.conll").rename(responses / "doc0-copy.conll")
    assert main(["errors", str(keys), str(responses)]) == 1
    assert capsys.readouterr().err == (
        f"anascore: error: {responses / 'doc0-copy.conll'}: response file 'doc0-copy.conll' "
        f"has no key file in {keys}; did you mean 'doc0.conll' or 'doc2.conll' or "
        "'doc1.conll'?; --key-documents-only ignores such files\n")
    assert main(["errors", str(keys), str(responses), "--key-documents-only", "--output",
                 "json"]) == 0
    captured = capsys.readouterr()
    assert captured.err.splitlines()[:2] == [
        f"anascore: warning: {responses}: 1 response file without a key file ignored "
        "('doc0-copy.conll')",
        f"anascore: warning: {responses}: no response file 'doc0.conll'; its documents are "
        "scored as empty responses"]
    assert json.loads(captured.out) == anascore.analyse_errors(
        whole[0], concatenated(responses, whole[1].with_name("lacking.conll"))).to_dict()


def test_a_document_in_two_key_files_is_refused_by_errors(folders):
    keys, responses = folders
    for side in (keys, responses):
        (side / "again.conll").write_text((side / "doc0.conll").read_text(encoding="utf-8"),
                                          encoding="utf-8")
    with pytest.raises(DocumentMismatchError, match="is in two key files; a corpus names each "
                                                    "document once"):
        anascore.analyse_errors(keys, responses)


@pytest.mark.parametrize("kind", MENTION_KINDS)
def test_mention_groups_of_folders_are_those_of_the_concatenated_files(typed_folders, kind):
    keys, responses, key, response = typed_folders
    found = anascore.score_groups(keys, responses, kind).to_dict()
    assert found == anascore.score_groups(key, response, kind).to_dict()
    assert found["groups"]


def test_group_by_mention_type_command_on_folders(typed_folders, tmp_path, capsys):
    from anascore.cli.main import main

    keys, responses, *whole = typed_folders
    assert main(["score", *map(str, whole), "--group-by", "mention-type", "--output",
                 "csv"]) == 0
    expected = capsys.readouterr().out
    assert main(["score", str(keys), str(responses), "--group-by", "mention-type",
                 "--output", "csv"]) == 0
    assert capsys.readouterr().out == expected
    (responses / "sub" / "c.conll").unlink()
    lacking = concatenated(responses, tmp_path / "lacking.conll", TYPED)
    assert main(["score", str(whole[0]), str(lacking), "--group-by", "entity-size",
                 "--output", "csv"]) == 0
    expected = capsys.readouterr().out
    assert main(["score", str(keys), str(responses), "--group-by", "entity-size",
                 "--output", "csv"]) == 0
    captured = capsys.readouterr()
    assert captured.out == expected
    assert (f"anascore: warning: {responses}: no response file 'sub/c.conll'; its "
            "documents are scored as empty responses") in captured.err.splitlines()
    assert main(["score", str(keys), str(whole[1]), "--group-by", "mention-type"]) == 1
    assert capsys.readouterr().err == (
        f"anascore: error: {keys}: is a directory (a set of keys), but the response "
        f"{whole[1]} is a file; give a folder or pattern of responses too, or a key file\n")


def _data(page: str) -> dict:
    """The data of an HTML report (every document, key and response, errors marked)."""
    start = page.index('<script id="data" type="application/json">')
    return json.loads(page[page.index(">", start) + 1:page.index("</script>", start)])


def test_html_report_of_folders_is_that_of_the_concatenated_files(typed_folders, tmp_path,
                                                                  capsys):
    from anascore.cli.main import main

    keys, responses, *whole = typed_folders
    for name, inputs in (("whole", whole), ("folders", (keys, responses))):
        assert main(["report", *map(str, inputs), "-o", str(tmp_path / f"{name}.html"),
                     "--group-by", "mention-type", "--names", "system", "--quiet"]) == 0
    # The plot's SVG (matplotlib) says when it was drawn, and draws its own random ids; the
    # key's hash names a folder's listing, not the concatenated file (anascore.scoring.key_hash).
    pages = [re.sub(r"<dc:date>[^<]*</dc:date>|\b[mp][0-9a-f]{10}\b|key sha256 [0-9a-f]{8}", "",
                    (tmp_path / f"{name}.html").read_text(encoding="utf-8"))
             for name in ("whole", "folders")]
    assert pages[1].replace(f"against {keys}", f"against {whole[0]}") == pages[0]
    assert [document["n"] for document in _data(pages[1])["documents"]] == [
        "(example/a); part 000", "(example/b); part 000", "(example/c); part 000"]
    (responses / "b.conll").unlink()
    lacking = concatenated(responses, tmp_path / "lacking.conll", TYPED)
    for name, inputs in (("whole", (whole[0], lacking)), ("folders", (keys, responses))):
        assert main(["report", *map(str, inputs), "-o", str(tmp_path / f"{name}.html"),
                     "--names", "system", "--quiet"]) == 0
    assert _data((tmp_path / "folders.html").read_text(encoding="utf-8")) == _data(
        (tmp_path / "whole.html").read_text(encoding="utf-8"))
    assert (f"<li>{responses}: no response file &#x27;b.conll&#x27;; its documents are scored "
            "as empty responses</li>") in (tmp_path / "folders.html").read_text(encoding="utf-8")
    assert main(["report", str(whole[0]), str(responses), "-o",
                 str(tmp_path / "mixed.html")]) == 1
    assert capsys.readouterr().err == (
        f"anascore: error: {whole[0]}: is a file, but a response is a folder or pattern; "
        "give a folder or pattern of keys too\n")


def test_folders_are_named_as_score_names_them(folders, capsys):
    """A folder typed with its final slash (as the shell completes it) is named by its last
    part, as score names systems, not by the whole path."""
    from anascore.cli.main import main

    keys, responses = folders
    shutil.copytree(responses, responses.with_name("other"))
    assert main(["errors", f"{keys}/", f"{responses}/", f"{responses.with_name('other')}/",
                 "--output", "csv"]) == 0
    # one long table (issue 23): the systems are the first column's values
    rows = capsys.readouterr().out.splitlines()
    assert {row.split(",")[0] for row in rows[1:]} == {"responses", "other"}
