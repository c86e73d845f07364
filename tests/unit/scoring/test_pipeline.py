"""Key and response are checked to cover the same words whatever their two formats are: a
different number of words is an error, different words a warning (issue: a CorefUD key against
a CoNLL-2012 or jsonlines response whose words were all shifted by one scored 100, silently)."""

from __future__ import annotations

from dataclasses import replace

import pytest

import anascore
from anascore.core.errors import DocumentMismatchError, FormatError
from anascore.formats import read_documents, writer
from tests.support.paths import FIXTURES

KEY = FIXTURES / "corefud" / "match_key.conllu"


def plain(documents):
    """The documents as a plain format can hold them: contiguous mentions without heads, no
    CoNLL-U nodes."""
    return [replace(document, nodes=None, source_format="", entities=tuple(
        replace(entity, mentions=tuple(replace(mention, head=None)
                                       for mention in entity.mentions
                                       if mention.tokens == tuple(range(mention.tokens[0],
                                                                        mention.tokens[-1] + 1))))
        for entity in document.entities)) for document in documents]


def shifted(documents, by: int = 1):
    """The documents with every word replaced by the next one (the last by the first)."""
    return [replace(document, tokens=document.tokens[by:] + document.tokens[:by])
            for document in plain(documents)]


@pytest.mark.parametrize("target", ["conll2012", "jsonlines"])
def test_a_plain_response_with_other_words_warns_against_a_conllu_key(tmp_path, target):
    documents = list(read_documents(KEY))
    assert not any(any(document.nodes.empty) for document in documents)
    response = tmp_path / f"response.{target}"
    writer(target)(shifted(documents), response)
    report = anascore.score(KEY, response)
    # The same pair in one format warns, naming the first different word; so does this one.
    different = [warning for warning in report.warnings if "in the response but" in warning]
    assert len(different) == len(documents)
    first = documents[0]
    assert (f"word 1 is {first.tokens[1]!r} in the response but {first.tokens[0]!r} in the key"
            in different[0])
    # ... and the other way round: the plain file as the key, the CoNLL-U file as response.
    reverse = anascore.score(response, KEY)
    assert len([warning for warning in reverse.warnings if "in the response but" in warning]
               ) == len(documents)


def test_same_words_in_another_format_give_no_warning(tmp_path):
    response = tmp_path / "response.conll"
    writer("conll2012")(plain(read_documents(KEY)), response)
    report = anascore.score(KEY, response)
    assert not [warning for warning in report.warnings if "in the response but" in warning]
    assert report.metrics["muc"].precision == 1.0


def test_a_different_number_of_words_is_an_error_in_every_pair(tmp_path):
    documents = plain(read_documents(KEY))
    shorter = [replace(document, tokens=document.tokens[:-1],
                       entities=tuple(replace(entity, mentions=tuple(
                           mention for mention in entity.mentions
                           if mention.tokens[-1] < len(document.tokens) - 1))
                           for entity in document.entities))
               for document in documents]
    response = tmp_path / "response.conll"
    writer("conll2012")(shorter, response)
    with pytest.raises(DocumentMismatchError, match=r"words in the key .* but \d+ in the "
                                                    "response"):
        anascore.score(KEY, response)


def test_a_file_read_as_the_wrong_format_is_refused_or_warns(tmp_path):
    # CorefUD files read as UA: ten columns, no IDENTITY column; refused, naming the line.
    with pytest.raises(FormatError, match="10 columns; expected at least 11, up to IDENTITY"):
        anascore.score(KEY, KEY, format="ua")
    # A file whose coreference column holds nothing gives a table of zeros: said, not silent.
    empty = tmp_path / "empty.conll"
    empty.write_text("#begin document (d); part 000\nd 0 0 A -\nd 0 1 B -\n#end document\n")
    report = anascore.score(empty, empty)
    warnings = [warning for warning in report.warnings if "no mention to score" in warning]
    assert [warning.split(": ")[1] for warning in warnings] == [
        "the key has no mention to score in its 1 document (read as conll2012); if the file "
        "is in another format, name it with --format",
        "the response has no mention to score in its 1 document (read as conll2012); if the "
        "file is in another format, name it with --format"]
    assert not [warning for warning in anascore.score(KEY, KEY).warnings
                if "no mention to score" in warning]


def test_settings_that_remove_every_mention_say_so(tmp_path):
    key = tmp_path / "key.conll"
    key.write_text("#begin document (d); part 000\nd 0 0 A (1)\nd 0 1 B -\n#end document\n")
    report = anascore.score(key, key, keep_singletons=False)
    assert any("no mention to score in its 1 document (read as conll2012 after removing "
               "singletons)" in warning for warning in report.warnings)


def test_errors_and_report_say_there_is_no_mention_to_score_as_score_does(tmp_path, capsys):
    # Only 'anascore score' said so; 'errors' and 'report' showed a table of zeros silently.
    from anascore.cli.main import main

    key = tmp_path / "key.conll"
    key.write_text("#begin document (d); part 000\nd 0 0 A (1)\nd 0 1 B (1)\n#end document\n")
    empty = tmp_path / "empty.conll"
    empty.write_text("#begin document (d); part 000\nd 0 0 A -\nd 0 1 B -\n#end document\n")
    said = (f"anascore: warning: {empty}: the response has no mention to score in its 1 "
            "document (read as conll2012); if the file is in another format, name it with "
            "--format\n")
    assert main(["score", str(key), str(empty)]) == 0
    assert capsys.readouterr().err == said
    assert main(["errors", str(key), str(empty)]) == 0
    assert capsys.readouterr().err == said
    assert main(["report", str(key), str(empty), "-o", str(tmp_path / "r.html"),
                 "--quiet"]) == 0
    assert "the response has no mention to score" in (tmp_path / "r.html").read_text()
    assert main(["report", str(key), str(empty), "-o", str(tmp_path / "r.html")]) == 0
    assert capsys.readouterr().err.startswith(said)
    analysis = anascore.analyse_errors(key, empty)
    assert [warning for warning in analysis.report.warnings
            if "no mention" in warning] == [said.removeprefix("anascore: warning: ").strip()]
