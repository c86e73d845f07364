"""Mention types from OntoNotes columns, UPOS, attributes and user functions; the CoNLL-2012
reader keeps the columns only when asked."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

import anascore
from anascore.comparison import dominance, mention_types
from anascore.comparison.contingency import Comparison
from anascore.comparison.mention_types import (
    comparison_types,
    ptb_head,
    type_from_ptb,
    type_from_upos,
)
from anascore.config.options import Options
from anascore.core.errors import FormatError, OptionsError
from anascore.core.model import Document, Entity, Mention
from anascore.formats import read_documents
from anascore.matching import align_exact
from anascore.selection.sides import select_side

ONTONOTES = """#begin document (nw/test); part 000
nw/test 0 0 The DT (TOP* - - - - (ORG* (1
nw/test 0 1 Supreme NNP * - - - - * -
nw/test 0 2 Court NNP * - - - - *) 1)
nw/test 0 3 said VBD * say 01 - - * -
nw/test 0 4 its PRP$ * - - - - * (1)|(2
nw/test 0 5 ruling NN * - - - - * -
nw/test 0 6 on IN * - - - - * -
nw/test 0 7 Monday NNP * - - - - (DATE) (3)|2)
nw/test 0 8 was VBD * - - - - * -
nw/test 0 9 final JJ * - - - - * -
nw/test 0 10 . . *) - - - - * -
#end document
"""


def test_doctests_of_the_heuristics() -> None:
    for module in (mention_types, dominance):
        assert doctest.testmod(module).failed == 0


def test_ptb_heads_and_types() -> None:
    assert ptb_head(["DT", "NN", "IN", "DT", "NN"]) == 1          # the city of the king
    assert ptb_head(["NNP", "POS", "NN"]) == 2                     # Obama 's mother
    assert ptb_head(["DT", "NN", "WP", "VBD"]) == 1                # the man who came
    assert type_from_ptb(["DT", "NNP", "NNP"], [None, None, None]) == "name"
    assert type_from_ptb(["DT", "NN"], ["ORG", "ORG"]) == "name"  # the court, tagged ORG
    assert type_from_ptb(["NNP"], ["DATE"]) == "name"              # proper noun wins
    assert type_from_ptb(["CD"], ["CARDINAL"]) == "nominal"        # numbers are no names
    assert type_from_ptb(["DT"], [None]) == "pronoun"              # this
    assert type_from_ptb(["DT", "NN"], [None, None]) == "nominal"  # this book
    assert type_from_ptb(["PRP", "DT"], [None, None]) == "pronoun"  # they all
    assert type_from_ptb(["-NONE-"], [None]) == "zero"             # *pro*
    assert type_from_upos("DET") == type_from_upos("ADV") == "pronoun"
    assert type_from_upos("NUM") == type_from_upos("VERB") == "nominal"


def test_the_reader_keeps_tags_only_when_asked(tmp_path: Path) -> None:
    path = tmp_path / "ontonotes.conll"
    path.write_text(ONTONOTES)
    plain = next(read_documents(path))
    assert plain.token_columns == {}
    tagged = next(read_documents(path, token_columns=True))
    assert tagged.token_columns["pos"][:3] == ("DT", "NNP", "NNP")
    assert tagged.token_columns["ner"][7] == "(DATE)"
    assert plain == tagged  # the columns are not part of the document's identity
    # A document mixing layouts is refused: its lines would not agree on the columns.
    mixed = tmp_path / "mixed.conll"
    mixed.write_text(ONTONOTES.replace("nw/test 0 3 said VBD * say 01 - - * -",
                                       "nw/test 0 3 said -"))
    with pytest.raises(FormatError, match="5 columns; expected 12"):
        next(read_documents(mixed, token_columns=True))


def test_types_of_an_ontonotes_document(tmp_path: Path) -> None:
    path = tmp_path / "ontonotes.conll"
    path.write_text(ONTONOTES)
    document = next(read_documents(path, token_columns=True))
    side = select_side(document, Options(), "key", [])
    comparison = Comparison.from_sides(side, side, align_exact(side.mentions, side.mentions),
                                       Options(metrics=("lmuc",)))
    types = comparison_types(comparison, "lmuc")
    by_words = {" ".join(document.tokens[t] for t in mention.tokens): kind
                for mention, kind in zip(side.mentions, types.key.tolist(), strict=True)}
    assert by_words == {"The Supreme Court": 0, "its": 2, "its ruling on Monday": 1,
                        "Monday": 0}


def test_a_twinless_response_mention_is_typed_from_the_key_columns(tmp_path: Path) -> None:
    """A system output without the OntoNotes columns: its mentions the key lacks take their
    type from the key document's columns over the same tokens."""
    key = tmp_path / "key.conll"
    key.write_text(ONTONOTES)
    response = tmp_path / "response.conll"
    lines = []
    for line in ONTONOTES.splitlines():
        columns = line.split()
        if len(columns) > 5:
            cell = {"0": "(1", "2": "1)", "4": "(1)", "5": "(1)"}.get(columns[2], "-")
            line = " ".join([*columns[:4], cell])
        lines.append(line)
    response.write_text("\n".join(lines) + "\n")
    report = anascore.score(key, response, metrics="lmuc")
    # Key: {The Supreme Court, its} (a name link, 1), {its ruling on Monday}, {Monday}:
    # singletons (1 each). Response: {The Supreme Court, its, ruling}: the parts {Court,
    # its} (1) and "ruling" (a nominal the key lacks), joined by a name link.
    assert report.corpus_counts["lmuc"].tolist() == [1.0, 3.0, 1.0, 2.0]


def test_explicit_attributes_come_first_and_are_checked() -> None:
    tokens = ("Mary", "sang")
    document = Document("d", tokens, (Entity("1", (
        Mention((0,), attributes={"mention_type": "NOMINAL"}),
        Mention((1,), attributes={"mention_type": "pronoun"}))),),
        token_columns={"pos": ("NNP", "VBD"), "ner": ("(PERSON)", "*")})
    report = anascore.score_documents([document], [document], metrics="lmuc")
    assert report.corpus_counts["lmuc"].tolist() == [0.75, 0.75, 0.75, 0.75]
    wrong = Document("d", tokens, (Entity("1", (
        Mention((0,), line=7, attributes={"mention_type": "proper"}),)),))
    with pytest.raises(FormatError, match="expected one of name, nominal, pronoun, zero"):
        anascore.score_documents([wrong], [wrong], metrics="lbcub")


def test_upos_of_the_head() -> None:
    document = Document("d", ("Anna", "saw", "her", ""), (Entity("1", (
        Mention((0,), head=0), Mention((2,), head=2), Mention((3,), head=3))),),
        token_columns={"upos": ("PROPN", "VERB", "PRON", "PRON"),
                       "empty_node": ("", "", "", "1")})
    side = select_side(document, Options(), "key", [])
    comparison = Comparison.from_sides(side, side, align_exact(side.mentions, side.mentions),
                                       Options())
    assert comparison_types(comparison, "test").key.tolist() == [0, 2, 3]


def test_a_bad_user_function_answer_is_an_error() -> None:
    document = Document("d", ("x",), (Entity("1", (Mention((0,)),)),))
    with pytest.raises(OptionsError, match="returned 'proper'"):
        anascore.score_documents([document], [document], metrics="lmuc",
                                 mention_type_function=lambda mention, doc: "proper")
    with pytest.raises(OptionsError, match="must be callable"):
        Options(mention_type_function="name")


def test_linguistic_metrics_are_not_in_all() -> None:
    assert "lmuc" not in Options().metrics and "dominant" not in Options.create().metrics
    assert Options.create(metrics="all,lmuc").metrics[-1] == "lmuc"
    assert Options.create(metrics="all").signature() == Options().signature()
    assert "link_weights" not in Options().signature()


def test_placeholder_columns_tell_nothing(tmp_path: Path) -> None:
    """LitBank-style files have twelve columns, all '_' but the word and the coreference:
    no types there, so an error, not 'nominal' for every mention."""
    path = tmp_path / "placeholders.conll"
    path.write_text("#begin document d\n"
                    "d\t0\t0\tMary\t_\t_\t_\t_\t_\t_\t_\t(1)\n"
                    "d\t0\t1\tsang\t_\t_\t_\t_\t_\t_\t_\t(1)\n#end document\n")
    with pytest.raises(OptionsError, match="nothing tells the type of mention"):
        anascore.score(path, path, metrics="lmuc")
