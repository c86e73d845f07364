"""Zero mentions (on empty nodes, ``N.M`` IDs) in UA exploded files: the reader gives CoNLL-U
node details, so key and response with different empty nodes are aligned, ``keep_zeros=False``
removes zeros and ``zero_match="dependent"`` pairs them by DEPS, as for CorefUD files.

The fixtures: "Luca arrived . Then ∅ sat by him ." with one entity, Luca … ∅ … him. The key
puts the empty node (DEPS ``5:nsubj``) after "Then" (4.1), the response after "sat" (5.1).
"""

from __future__ import annotations

from pathlib import Path

import pytest

import anascore
from anascore.core.errors import DocumentMismatchError
from anascore.formats.ua import read_ua, write_ua
from tests.support.paths import FIXTURES

FIXTURES = FIXTURES / "ua"
KEY, RESPONSE = FIXTURES / "zero_key.conllua", FIXTURES / "zero_response.conllua"


def test_the_reader_gives_conllu_node_details() -> None:
    (document,) = read_ua(KEY)
    nodes = document.nodes
    assert nodes is not None
    assert nodes.ids == ("1", "2", "3", "4", "4.1", "5", "6", "7", "8")
    assert nodes.sentence_of == (0, 0, 0, 1, 1, 1, 1, 1, 1)
    assert [position for position, empty in enumerate(nodes.empty) if empty] == [4]
    assert nodes.deps[4] == "5:nsubj"
    assert nodes.sentence_ids == ("pro-1", "pro-2")
    assert nodes.sentence_lines == (4, 9)
    assert nodes.lines[4] == 10


def test_keep_zeros_false_removes_the_zero_mention() -> None:
    # Left: Luca and him on both sides, one entity of two mentions: 2 of 2 mentions, MUC 1 of 1.
    report = anascore.score(KEY, RESPONSE, keep_zeros=False, metrics="muc,mentions")
    mentions, muc = report.metrics["mentions"], report.metrics["muc"]
    assert (mentions.recall_num, mentions.recall_den) == (2, 2)
    assert (mentions.precision_num, mentions.precision_den) == (2, 2)
    assert (muc.recall_num, muc.recall_den) == (1, 1)
    kept = anascore.score(KEY, RESPONSE, zero_match="linear", metrics="mentions")
    assert (kept.metrics["mentions"].recall_den, kept.metrics["mentions"].precision_den) == (3, 3)


def test_zeros_at_other_nodes_align_linearly_or_by_their_dependencies() -> None:
    # linear: the zeros sit at different nodes: 2 of 3 mentions each way; MUC, key entity
    # {Luca, ∅, him} split by the response into {Luca, him} and {∅}: (3 - 2) / (3 - 1).
    linear = anascore.score(KEY, RESPONSE, zero_match="linear", metrics="muc,mentions")
    assert linear.metrics["mentions"].recall == 2 / 3
    assert linear.metrics["mentions"].precision == 2 / 3
    assert linear.metrics["muc"].recall == (3 - 2) / (3 - 1)
    # dependent: both zeros are 5:nsubj in sentence 2, so they pair: everything matches.
    dependent = anascore.score(KEY, RESPONSE, zero_match="dependent", metrics="muc,mentions")
    assert dependent.metrics["mentions"].f1 == 1.0
    assert dependent.metrics["muc"].f1 == 1.0
    assert not dependent.warnings


def test_a_response_without_the_empty_node_is_aligned_not_refused(tmp_path: Path) -> None:
    response = tmp_path / "no_zero.conllua"
    response.write_text("".join(line for line in KEY.read_text().splitlines(keepends=True)
                                if not line.startswith("4.1\t")))
    report = anascore.score(KEY, response, metrics="muc,mentions")
    # Key Luca, ∅, him; response Luca, him: 2 of 3 mentions found, 2 of 2 right. MUC recall
    # (3 - 2) / (3 - 1), precision: the response's one link is right.
    assert report.metrics["mentions"].recall == 2 / 3
    assert report.metrics["mentions"].precision == 1.0
    assert report.metrics["muc"].recall == (3 - 2) / (3 - 1)
    assert report.metrics["muc"].precision == 1.0


def test_different_empty_nodes_need_the_same_number_of_words(tmp_path: Path) -> None:
    response = tmp_path / "short.conllua"
    response.write_text("".join(line for line in KEY.read_text().splitlines(keepends=True)
                                if not line.startswith(("4.1\t", "6\t"))))
    with pytest.raises(DocumentMismatchError, match="sentence 2, word 3 is 'by' in the key"):
        anascore.score(KEY, response)


def test_a_different_word_is_a_warning_as_for_other_ua_files(tmp_path: Path) -> None:
    response = tmp_path / "other_word.conllua"
    response.write_text(RESPONSE.read_text().replace("\tby\t", "\tbeside\t"))
    report = anascore.score(KEY, response, zero_match="dependent", metrics="muc")
    assert report.metrics["muc"].f1 == 1.0
    assert any("'by' in the key" in warning for warning in report.warnings)


_COLUMNS = ("# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY "
            "BRIDGING DISCOURSE_DEIXIS\n")


def _ua(sentences: list[list[tuple[str, str, str]]]) -> str:
    """A UA document of (ID, FORM, IDENTITY) rows, sentence by sentence."""
    lines = [_COLUMNS, "# newdoc id = d\n"]
    for number, rows in enumerate(sentences, start=1):
        lines.append(f"# sent_id = s{number}\n")
        lines += [f"{node}\t{form}" + "\t_" * 8 + f"\t{markable}\t_\t_\n"
                  for node, form, markable in rows]
        lines.append("\n")
    return "".join(lines)


def test_empty_nodes_match_whether_ids_count_per_sentence_or_through_the_document(
        tmp_path: Path) -> None:
    # "John slept . ∅ Then ∅ left ." with one entity, John … ∅ … ∅: the key numbers each
    # sentence from 1 (a sentence-initial empty node 0.1, another 1.1 after "Then"); the
    # response is the same annotation numbered through the document, as anascore's UA writer
    # numbers it (3.1 for the node before "Then", 4.1 after it). Same words, same empty nodes
    # in the same places: everything matches. The empty nodes were paired by their IDs, so
    # none matched (MUC 0, B3 1/3 and 1/3, zeros 0).
    key = tmp_path / "key.conllua"
    key.write_text(_ua([[("1", "John", "(EntityID=e1|MarkableID=m1)"), ("2", "slept", "_"),
                         ("3", ".", "_")],
                        [("0.1", "_", "(EntityID=e1|MarkableID=m2)"), ("1", "Then", "_"),
                         ("1.1", "_", "(EntityID=e1|MarkableID=m3)"), ("2", "left", "_"),
                         ("3", ".", "_")]]))
    response = tmp_path / "response.conllua"
    response.write_text(_ua([[("1", "John", "(EntityID=e1|MarkableID=m1)"), ("2", "slept", "_"),
                              ("3", ".", "_")],
                             [("3.1", "_", "(EntityID=e1|MarkableID=m2)"), ("4", "Then", "_"),
                              ("4.1", "_", "(EntityID=e1|MarkableID=m3)"), ("5", "left", "_"),
                              ("6", ".", "_")]]))
    report = anascore.score(key, response, metrics="mentions,muc,bcub,zeros")
    for name in ("mentions", "muc", "bcub", "zero"):
        assert report.metrics[name].f1 == 1.0, name
    assert not report.warnings
    # The key read and written back by anascore numbers through the document too.
    written = tmp_path / "written.conllua"
    write_ua(read_ua(key), written)
    assert "3.1\t_" in written.read_text()
    assert anascore.score(key, written, metrics="muc,zeros").metrics["zero"].f1 == 1.0
