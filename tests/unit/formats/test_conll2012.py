"""CoNLL-2012 token lines: one number of columns per document, read at tabs when there are
tabs, so that no other column is ever read as the coreference column."""

from __future__ import annotations

import pytest

import anascore
from anascore.core.errors import FormatError
from anascore.formats.conll2012 import read_conll2012
from tests.support.paths import EXAMPLES, corpus_files


def ontonotes(coreference: list[str]) -> str:
    """A tab-separated OntoNotes-layout document (12 columns) whose third token carries the
    named-entity cell (DATE); ``coreference`` is the last cell of each of four tokens."""
    words = ["Yesterday", "Anna", "saw", "today"]
    named = ["*", "*", "*", "(DATE)"]
    lines = ["#begin document (nw/t); part 000"]
    for index, (word, entity, cell) in enumerate(zip(words, named, coreference, strict=True)):
        lines.append("\t".join(["nw/t", "0", str(index), word, "NN", "*", "-", "-", "-",
                                "-", entity, cell]))
    return "\n".join([*lines, "#end document", ""])


def test_an_empty_coreference_cell_is_no_mention_not_the_named_entity_cell(tmp_path):
    # The last cell is empty where a token has no coreference (LitBank writes it so). Split at
    # white space, the line of "today" lost it and "(DATE)" became a mention of entity DATE.
    path = tmp_path / "key.conll"
    path.write_text(ontonotes(["", "(1)", "", ""]))
    [document] = read_conll2012(path)
    assert [(entity.id, [mention.tokens for mention in entity.mentions])
            for entity in document.entities] == [("1", [(1,)])]
    report = anascore.score(path, path)
    assert report.metrics["mentions"].precision == 1.0


def test_an_extra_trailing_cell_is_an_error_naming_the_line(tmp_path):
    key = tmp_path / "key.conll"
    key.write_text(ontonotes(["-", "(1)", "-", "(1)"]))
    response = tmp_path / "response.conll"
    response.write_text(ontonotes(["-", "(1)", "-", "(1)"]).replace("\t(1)\n", "\t(1)\t-\n", 1))
    with pytest.raises(FormatError, match="13 columns; expected 12") as caught:
        anascore.score(key, response)
    assert caught.value.line == 3 and caught.value.path == str(response)


def test_a_missing_cell_is_an_error_naming_both_lines(tmp_path):
    path = tmp_path / "key.conll"
    path.write_text("#begin document (d); part 000\nd 0 0 A (1)\nd 0 1 B\nd 0 2 C (1)\n"
                    "#end document\n")
    with pytest.raises(FormatError, match="4 columns; expected 5, as on line 2") as caught:
        list(read_conll2012(path))
    assert caught.value.line == 3


def test_a_stray_trailing_tab_is_no_column(tmp_path):
    # The reference scorer's own test file TC-A writes one line with a trailing tab; on the
    # first token line too, it must not turn the document into one of six columns.
    for stray in (1, 2):
        lines = ["#begin document (d); ", "t\t0\t0\ta\t(0", "t\t0\t1\tb\t0)", "t\t0\t2\tc\t-"]
        lines[stray] += "\t"
        path = tmp_path / f"stray{stray}.conll"
        path.write_text("\n".join([*lines, "#end document", ""]))
        [document] = read_conll2012(path)
        assert [mention.tokens for mention in document.entities[0].mentions] == [(0, 1)]


def test_a_narrower_line_after_filled_cells_is_an_error(tmp_path):
    # The first line's sixth cell is empty, but the second fills it: six columns it is.
    path = tmp_path / "key.conll"
    path.write_text("#begin document (d); \nt\t0\t0\ta\t-\t\nt\t0\t1\tb\t-\t(0)\n"
                    "t\t0\t2\tc\t(0)\n#end document\n")
    with pytest.raises(FormatError, match="5 columns; expected 6"):
        list(read_conll2012(path))


def test_litbank_reads_as_before():
    files = corpus_files("litbank", "coref-conll", pattern="*.conll", limit=3)
    for path in files:
        [document] = read_conll2012(path)
        # LitBank: 13 tab-separated cells, the last one empty for "no coreference".
        mentions = sum(len(entity.mentions) for entity in document.entities)
        lines = path.read_text(encoding="utf-8").splitlines()
        opened = sum(line.rsplit("\t", 1)[-1].count("(") for line in lines
                     if "\t" in line)
        assert mentions == opened


def test_sentences_of_a_document_may_differ_in_width(tmp_path):
    # OntoNotes has a predicate-argument column per predicate of the sentence: 13 columns in
    # a sentence with one predicate, 14 in one with two, in the same document.
    one = "d\t0\t{i}\tw\tNN\t*\t-\t-\t-\t-\t*\t*\t{c}"
    two = "d\t0\t{i}\tw\tVB\t*\t-\t-\t-\t-\t*\t*\t*\t{c}"
    path = tmp_path / "key.conll"
    path.write_text("\n".join(["#begin document (d); part 000",
                               one.format(i=0, c="(1"), one.format(i=1, c="1)"), "",
                               two.format(i=0, c="-"), two.format(i=1, c="(1)"), "",
                               "#end document", ""]))
    [document] = read_conll2012(path, token_columns=True)
    assert [mention.tokens for mention in document.entities[0].mentions] == [(0, 1), (3,)]
    assert document.token_columns["pos"] == ("NN", "NN", "VB", "VB")
    # Within a sentence, a cell more is still an error naming the line.
    path.write_text(path.read_text().replace(two.format(i=1, c="(1)"),
                                             two.format(i=1, c="(1)\t-")))
    with pytest.raises(FormatError, match="15 columns; expected 14, as on line 5") as caught:
        list(read_conll2012(path))
    assert caught.value.line == 6


@pytest.mark.parametrize("cell", ["(-)", "(_)", "(-", "_)"])
def test_a_bracket_around_no_entity_id_is_an_error(tmp_path, cell):
    # '(-)' was read as a one-token mention of an entity named '-': a bracket around the
    # no-coreference mark is a damaged cell, not an entity.
    path = tmp_path / "dash.conll"
    path.write_text("#begin document (d); part 000\nd 0 0 Anna -\nd 0 1 saw " + cell
                    + "\n#end document\n")
    with pytest.raises(FormatError) as caught:
        list(read_conll2012(path))
    assert caught.value.line == 3
    assert caught.value.message == (
        f"unknown coreference annotation {cell!r}; expected '-' or brackets such as '(3', "
        "'3)', '(3)' joined by '|'")


def test_a_sentence_with_an_extra_trailing_column_is_an_error_not_lost_mentions(tmp_path,
                                                                                 capsys):
    # The case: the second sentence's extra '-' column was read as its coreference
    # column, so its mention was lost: Mentions 66.67, MUC 0, exit 0.
    key = tmp_path / "key.conll"
    key.write_text("#begin document (d); part 000\nd 0 0 Anna (1)\nd 0 1 sang -\n\n"
                   "d 0 2 She (1)\nd 0 3 smiled -\n#end document\n")
    response = tmp_path / "response.conll"
    response.write_text("#begin document (d); part 000\nd 0 0 Anna (1)\nd 0 1 sang -\n\n"
                        "d 0 2 She (1) -\nd 0 3 smiled - -\n#end document\n")
    with pytest.raises(FormatError) as caught:
        list(read_conll2012(response))
    assert caught.value.line == 5 and caught.value.path == str(response)
    assert caught.value.message.startswith("6 columns; expected 5, as on line 2 (every token "
                                           "line of a file has the same columns")
    from anascore.cli.main import main

    assert main(["score", str(key), str(response)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"anascore: error: {response}:5: 6 columns; expected 5")
    assert err.count("\n") == 1


def test_the_first_sentence_may_be_the_one_with_the_extra_column(tmp_path):
    path = tmp_path / "response.conll"
    path.write_text("#begin document (d); part 000\nd 0 0 Anna (1) -\nd 0 1 sang - -\n\n"
                    "d 0 2 She (1)\nd 0 3 smiled -\n#end document\n")
    with pytest.raises(FormatError, match="5 columns; expected 6, as on line 2") as caught:
        list(read_conll2012(path))
    assert caught.value.line == 5


def test_an_extra_column_on_one_sentence_of_the_example_is_an_error(tmp_path):
    # examples/response.conll (OntoNotes layout, 12 columns): the extra column on one sentence
    # moved CoNLL from 85.93 to 86.69. Its 12th column holds coreference cells, not the
    # predicate arguments ('*') by which OntoNotes sentences may differ.
    example = EXAMPLES
    assert round(anascore.score(example / "key.conll",
                                example / "response.conll").metrics["conll"].f1 * 100,
                 2) == 85.93
    lines = (example / "response.conll").read_text().split("\n")
    second = lines.index("") + 1  # the first line of the second sentence
    end = lines.index("", second)
    for number in range(second, end):
        lines[number] += "\t-"
    response = tmp_path / "response.conll"
    response.write_text("\n".join(lines))
    with pytest.raises(FormatError) as caught:
        anascore.score(example / "key.conll", response)
    assert caught.value.line == second + 1 and caught.value.path == str(response)
    assert caught.value.message.startswith("13 columns; expected 12, as on line 2")


def test_ontonotes_sentences_differ_only_by_predicate_argument_columns(tmp_path):
    # OntoNotes: 12 columns without a predicate, 13 with one, 14 with two; a sentence whose
    # column before the coreference column holds coreference cells ('(1', '-') has an extra
    # column, not a predicate, whichever sentence it is.
    none = "d\t0\t{i}\tw\tNN\t*\t-\t-\t-\t-\t*\t{c}"
    one = none.replace("\t{c}", "\t*\t{c}")
    path = tmp_path / "key.conll"
    for first, later, line, message in [
            (one, one + "\t-", 5, "14 columns; expected 13, as on line 2"),
            (none + "\t-", none, 2, "13 columns; expected 12, as on line 5")]:
        path.write_text("\n".join(["#begin document (d); part 000",
                                   first.format(i=0, c="(1"), first.format(i=1, c="1)"), "",
                                   later.format(i=0, c="-"), later.format(i=1, c="(1)"), "",
                                   "#end document", ""]))
        with pytest.raises(FormatError) as caught:
            list(read_conll2012(path))
        assert caught.value.line == line
        assert caught.value.message == (
            f"{message}: OntoNotes sentences differ only by predicate-argument columns (from "
            "column 12 to the one before the coreference column), each cell of which holds a "
            f"'*', and {'-' if line == 5 else '(1'!r} does not (a missing or extra cell would "
            "move the coreference column)")
    # Sentences of none, one and two predicates, in any order, are one document.
    two = one.replace("\t{c}", "\t(V*)\t{c}")
    path.write_text("\n".join(["#begin document (d); part 000", two.format(i=0, c="(1)"), "",
                               none.format(i=0, c="(1)"), "", one.format(i=0, c="(1)"),
                               "#end document", ""]))
    [document] = read_conll2012(path)
    assert [mention.tokens for mention in document.entities[0].mentions] == [(0,), (1,), (2,)]


def test_a_sentence_of_stray_trailing_tabs_is_no_column(tmp_path):
    # Every line of the second sentence ends in a stray tab: an empty cell, no column.
    path = tmp_path / "key.conll"
    path.write_text("#begin document (d); \nt\t0\t0\ta\t(0)\n\nt\t0\t1\tb\t(0)\t\n"
                    "t\t0\t2\tc\t-\t\n#end document\n")
    [document] = read_conll2012(path)
    assert [mention.tokens for mention in document.entities[0].mentions] == [(0,), (1,)]


def test_a_document_with_an_extra_column_is_an_error_with_one_process_or_two(tmp_path):
    # The whole of the second document has a trailing '-' column: its every mention was lost.
    # Every document of a file has the file's columns; two processes, which read the second
    # document apart from the first, decide as one does.
    from anascore.config.options import Options
    from anascore.scoring import parallel
    from anascore.scoring.pipeline import score_files

    def document(name: str, extra: str) -> str:
        return (f"#begin document {name}\n{name} 0 0 Anna (1){extra}\n{name} 0 1 sang -{extra}"
                f"\n\n{name} 0 2 She (1){extra}\n#end document\n")

    key = tmp_path / "key.conll"
    key.write_text("".join(document(f"d{index}", "") for index in range(4)))
    response = tmp_path / "response.conll"
    response.write_text("".join(document(f"d{index}", " -" if index == 1 else "")
                                for index in range(4)))
    messages = []
    for jobs in (1, 2) if parallel._can_fork() else (1,):
        with pytest.raises(FormatError) as caught:
            score_files(str(key), str(response), Options(jobs=jobs, format="conll2012"))
        messages.append(caught.value.location_message())
    assert set(messages) == {
        f"{response}:8: 6 columns; expected 5, as on line 2 (every token line of a file has "
        "the same columns; a missing or extra cell would move the coreference column)"}


def test_ontonotes_documents_of_a_file_differ_only_by_predicate_argument_columns(tmp_path):
    none = "d{n}\t0\t0\tw\tNN\t*\t-\t-\t-\t-\t*\t{c}"
    one = none.replace("\t{c}", "\t*\t{c}")
    path = tmp_path / "key.conll"
    path.write_text("".join(f"#begin document d{n}\n{line.format(n=n, c='(1)')}\n"
                            "#end document\n" for n, line in enumerate([one, none, one])))
    assert [len(document.entities) for document in read_conll2012(path)] == [1, 1, 1]
    path.write_text("".join(f"#begin document d{n}\n{line.format(n=n, c='(1)')}\n"
                            "#end document\n" for n, line in enumerate([one, one + "\t-"])))
    with pytest.raises(FormatError, match="14 columns; expected 13, as on line 2: OntoNotes "
                       "sentences differ only by predicate-argument columns") as caught:
        list(read_conll2012(path))
    assert caught.value.line == 5
