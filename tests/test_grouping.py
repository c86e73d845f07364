"""Grouped scores (``--group-by``, :mod:`anascore.grouping`)."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import document_pairs, to_document

from anascore.cli import main
from anascore.errors import OptionsError
from anascore.grouping import (
    check_kind,
    genre_of,
    group_documents,
    group_mentions,
)
from anascore.model import Document, Entity, Mention
from anascore.options import Options
from anascore.scoring import score_documents

SHARED = Path(__file__).resolve().parents[2] / "shared"
LITBANK = sorted((SHARED / "corpora" / "litbank" / "coref-conll").glob("*.conll"))[:12]


def typed(start: int, kind: str) -> Mention:
    return Mention((start,), attributes=MappingProxyType({"mention_type": kind}))


def document(name: str, *entities: list[Mention], tokens: int = 10) -> Document:
    return Document(name, tuple(f"w{position}" for position in range(tokens)),
                    tuple(Entity(f"e{index}", tuple(mentions))
                          for index, mentions in enumerate(entities)))


def test_genres_from_ontonotes_names_and_from_a_pattern() -> None:
    assert genre_of("bc/cctv/00/cctv_0000") == "bc"
    assert genre_of("(nw/wsj/00/wsj_0020); part 000") == "nw"
    assert genre_of("GUM_academic_art") == "(other)"
    import re
    assert genre_of("GUM_academic_art", re.compile(r"GUM_([a-z]+)_")) == "academic"
    assert genre_of("other", re.compile(r"GUM_([a-z]+)_")) == "(other)"


def test_document_groups_sum_to_the_corpus_and_macro_is_the_mean() -> None:
    one = [Mention.span(0, 0), Mention.span(2, 2)]
    two = [Mention.span(4, 4), Mention.span(6, 6)]
    keys = [document("bc/a/00/a_0", one, two), document("bc/a/00/a_1", one),
            document("nw/b/00/b_0", one, two)]
    responses = [document("bc/a/00/a_0", one + two), document("bc/a/00/a_1", one),
                 document("nw/b/00/b_0", [one[0]], [one[1]], two)]
    report = score_documents(keys, responses)
    groups = group_documents(report, "genre")
    assert list(groups.reports) == ["bc", "nw"]
    assert groups.reports["bc"].document_names == ("bc/a/00/a_0", "bc/a/00/a_1")
    for name, score in report.metrics.items():
        assert groups.micro()[name].f1 == pytest.approx(score.f1, abs=0, rel=1e-15)
    # MUC, bc: a_0 has 2 key links, all found, and 3 response links of which 2 are right;
    # a_1 one link, right: recall 3/3, precision 3/4. nw: 2 key links, 1 found.
    assert groups.scores()["bc"]["muc"].recall == 1.0
    assert groups.scores()["bc"]["muc"].precision == pytest.approx(3 / 4)
    assert groups.scores()["nw"]["muc"].recall == 0.5
    assert groups.macro()["muc"]["recall"] == pytest.approx(0.75)
    data = groups.to_dict()
    assert set(data) == {"kind", "groups", "micro", "macro", "warnings"}
    assert data["groups"]["nw"]["muc"]["recall"] == 0.5


@settings(max_examples=40, deadline=None)
@given(st.lists(document_pairs(), min_size=1, max_size=5), st.data())
def test_per_document_groups_micro_row_is_the_corpus(pairs, data) -> None:
    keys = [to_document(key, tokens, f"d{index}") for index, (key, _, tokens) in
            enumerate(pairs)]
    responses = [to_document(response, tokens, f"d{index}") for index, (_, response, tokens)
                 in enumerate(pairs)]
    report = score_documents(keys, responses)
    for kind in ("document", "genre"):
        groups = group_documents(report, kind)
        for name, score in report.metrics.items():
            micro = groups.micro()[name]
            assert (math.isnan(micro.f1) and math.isnan(score.f1)) or micro.f1 == score.f1


def test_mention_type_groups_restrict_both_sides_by_the_rule() -> None:
    # Key: Anna (name), she, her (pronouns) one entity. Response: Anna+she, her alone, and
    # an extra nominal "the house" at 8 that no key mention has.
    name, she, her, house = (typed(0, "name"), typed(2, "pronoun"), typed(4, "pronoun"),
                             typed(8, "nominal"))
    key = document("d", [name, she, her])
    response = document("d", [name, she], [her], [house])
    groups = group_mentions([(key, response)], "mention-type", Options.create())
    assert list(groups.reports) == ["name", "nominal", "pronoun"]
    pronoun = groups.scores()["pronoun"]
    # Restricted to pronouns: key {she, her}; response {she}, {her}.
    assert pronoun["muc"].recall == 0.0
    assert pronoun["bcub"].recall == 0.5 and pronoun["bcub"].precision == 1.0
    assert pronoun["bcub"].f1 == pytest.approx(2 / 3)
    assert groups.scores()["name"]["bcub"].f1 == 1.0
    nominal = groups.scores()["nominal"]["mentions"]
    # The key has no nominal: the extra mention is all the group holds.
    assert nominal.precision_den == 1 and nominal.precision == 0.0 and nominal.recall_den == 0


def test_entity_size_and_distance_groups_take_the_key_mentions_group() -> None:
    a = [Mention.span(0, 0), Mention.span(3, 3), Mention.span(6, 6)]
    b = [Mention.span(8, 8)]
    key = document("d", a, b)
    response = document("d", a[:2], [a[2], b[0]])
    sizes = group_mentions([(key, response)], "entity-size", Options.create())
    assert list(sizes.reports) == ["1", "3-5"]
    # a[2] is aligned to a key mention of a 3-mention entity: it stays in 3-5 though its
    # response entity has 2 mentions; b[0] likewise in 1.
    assert sizes.scores()["3-5"]["mentions"].f1 == 1.0
    assert sizes.scores()["3-5"]["muc"].recall == 0.5
    distances = group_mentions([(key, response)], "mention-distance", Options.create())
    assert list(distances.reports) == ["first", "0"]  # one sentence: every distance is 0
    # That is said: GUM's CoNLL-2012 files mark no sentence, and every later mention of all
    # 281 documents fell in group 0 without a word.
    assert distances.warnings == (
        "--group-by mention-distance counts sentences, and 1 of 1 key documents mark none "
        "(one sentence each): every later mention of an entity there is in group 0",)
    split = replace(key, sentence_starts=(0, 5))
    assert not group_mentions([(split, response)], "mention-distance",
                              Options.create()).warnings


def test_the_command_line_says_when_distances_count_no_sentences(tmp_path, capsys) -> None:
    lines = ["#begin document (d); part 000",
             *(f"d 0 {index} w{index} {cell}" for index, cell in
               enumerate(["(1)", "-", "-", "(1)", "-", "-", "(1)"])), "#end document", ""]
    key = tmp_path / "key.conll"
    key.write_text("\n".join(lines))
    assert main(["score", str(key), str(key), "--group-by", "mention-distance"]) == 0
    err = capsys.readouterr().err
    assert ("anascore: warning: --group-by mention-distance counts sentences, and 1 of 1 key "
            "documents mark none") in err
    assert main(["score", str(key), str(key), "--group-by", "mention-distance", "--output",
                 "json"]) == 0
    assert json.loads(capsys.readouterr().out)["groups"]["warnings"][0].startswith(
        "--group-by mention-distance counts sentences")


def test_kinds_and_settings_that_cannot_group_are_refused() -> None:
    with pytest.raises(OptionsError, match="expected one of"):
        check_kind("speaker", Options.create())
    with pytest.raises(OptionsError, match="cannot restrict keep_bridging"):
        check_kind("entity-size", Options.create(keep_bridging=True))
    check_kind("document", Options.create(keep_bridging=True))
    with pytest.raises(OptionsError, match="has no group"):
        check_kind("genre", Options.create(), "GUM_[a-z]+")
    with pytest.raises(OptionsError, match="is for group_by='genre'"):
        check_kind("document", Options.create(), "(x)")


def test_the_command_line(tmp_path, capsys) -> None:
    key = tmp_path / "key.conll"
    key.write_text("#begin document (bc/a/00/a_0); part 000\nw\t(1)\nw\t(1)\n#end document\n"
                   "#begin document (nw/b/00/b_0); part 000\nw\t(2)\nw\t(2)\n#end document\n")
    response = tmp_path / "response.conll"
    response.write_text("#begin document (bc/a/00/a_0); part 000\nw\t(1)\nw\t(1)\n"
                        "#end document\n#begin document (nw/b/00/b_0); part 000\nw\t(2)\n"
                        "w\t(3)\n#end document\n")
    assert main(["score", str(key), str(response), "--group-by", "genre", "--output",
                 "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data["groups"]["groups"]) == ["bc", "nw"]
    assert data["groups"]["micro"]["muc"]["f1"] == data["metrics"]["muc"]["f1"]
    assert data["groups"]["groups"]["nw"]["muc"]["recall"] == 0.0
    assert main(["score", str(key), str(response), "--group-by", "genre"]) == 0
    out = capsys.readouterr().out
    assert "F1 by genre" in out and "macro" in out
    with pytest.raises(SystemExit) as exit_info:
        main(["score", str(key), str(response), "--genre-pattern", "(x)"])
    assert exit_info.value.code == 2
    with pytest.raises(SystemExit) as exit_info:
        main(["score", str(key), str(response), "--group-by", "entity-size",
              "--keep-bridging"])
    assert exit_info.value.code == 2


@pytest.mark.skipif(not LITBANK, reason="../shared/corpora is absent")
def test_litbank_by_document_sums_to_the_corpus(tmp_path) -> None:
    key = tmp_path / "litbank.conll"
    key.write_text("".join(path.read_text(encoding="utf-8") for path in LITBANK),
                   encoding="utf-8")
    from anascore.grouping import group_files
    _report, groups = group_files(str(key), str(key), "document", Options.create())
    assert len(groups.reports) == len(LITBANK)
    assert all(score.f1 == 1.0 for score in groups.micro().values())
    _, sizes = group_files(str(key), str(key), "entity-size", Options.create())
    assert all(report.metrics["mentions"].f1 == 1.0 for report in sizes.reports.values())


def test_ua_semtype_is_no_entity_type() -> None:
    # CODI-CRAC's SemType holds dn / do / expletive, not an entity type: such entities are
    # "(no type)", never a group "dn".
    from types import MappingProxyType

    typed = Mention((0,), attributes=MappingProxyType({"SemType": "dn"}))
    entity_typed = Mention((2,), attributes=MappingProxyType({"EntityType": "person"}))
    key = document("d", [typed, Mention.span(4, 4)], [entity_typed, Mention.span(6, 6)])
    groups = group_mentions([(key, key)], "entity-type", Options.create())
    assert list(groups.reports) == ["person", "(no type)"]
