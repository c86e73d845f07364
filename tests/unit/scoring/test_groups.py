"""Grouped scores (``--group-by``, :mod:`anascore.scoring.groups`)."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from types import MappingProxyType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anascore.cli.main import main
from anascore.config.options import Options
from anascore.core.errors import OptionsError
from anascore.core.model import Document, Entity, Mention
from anascore.scoring.groups import (
    check_kind,
    genre_of,
    group_documents,
    group_mentions,
)
from anascore.scoring.pipeline import score_documents
from tests.support.paths import CORPORA
from tests.support.strategies import document_pairs, to_document

LITBANK = sorted((CORPORA / "litbank" / "coref-conll").glob("*.conll"))[:12]


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
    assert set(data) == {"kind", "groups", "counts", "micro", "macro", "warnings"}
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
    from anascore.scoring.groups import group_files
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


# Not applicable in a group, and every group's counts ------------------------------------

def _worked_example():
    """docs/grouped-scores.md: key {Anna (name), she, her (pronouns)}; response {Anna, she},
    {her}, and a spurious {the house} (nominal)."""
    name, she, her, house = (typed(0, "name"), typed(2, "pronoun"), typed(4, "pronoun"),
                             typed(8, "nominal"))
    return group_mentions([(document("d", [name, she, her]),
                            document("d", [name, she], [her], [house]))], "mention-type",
                          Options.create())


def test_a_metric_with_nothing_to_find_in_a_group_is_not_applicable_and_out_of_the_macro():
    from anascore.metrics.scores import (
        BOTH_NOT_APPLICABLE,
        PRECISION_NOT_APPLICABLE,
        RECALL_NOT_APPLICABLE,
    )

    groups = _worked_example()
    scores = groups.scores()
    # nominal: the key has none; the response's one mention is wrong (precision 0/1), and
    # the group says nothing about the key: recall and F1 n/a, out of every macro mean.
    mentions = scores["nominal"]["mentions"]
    assert math.isnan(mentions.recall) and math.isnan(mentions.f1)
    assert mentions.precision == 0.0 and mentions.precision_den == 1
    assert mentions.reason == RECALL_NOT_APPLICABLE
    # name: one key mention, MUC has no link to find nor to judge (0/0 both sides).
    muc = scores["name"]["muc"]
    assert math.isnan(muc.recall) and math.isnan(muc.precision) and math.isnan(muc.f1)
    assert muc.reason == BOTH_NOT_APPLICABLE
    assert math.isnan(scores["name"]["conll"].f1)  # its MUC part is n/a
    assert math.isnan(scores["name"]["blanc"].recall)  # one mention: no link of either kind
    # pronoun: key {she, her}, response {she}, {her}: MUC finds 0 of 1 link and proposes
    # none: precision n/a, recall 0, F1 0 (a key group the response missed counts).
    muc = scores["pronoun"]["muc"]
    assert muc.recall == 0.0 and math.isnan(muc.precision) and muc.f1 == 0.0
    assert muc.reason == PRECISION_NOT_APPLICABLE
    macro = groups.macro()
    # Mentions: name 1/1 and pronoun 2/2 (nominal out); it was (1 + 0 + 1) / 3.
    assert macro["mentions"] == {"recall": 1.0, "precision": 1.0, "f1": 1.0}
    # B3: name 1, pronoun recall 1/2, precision 1: F1 2/3; the mean (1 + 2/3) / 2.
    assert macro["bcub"]["f1"] == pytest.approx((1 + 2 / 3) / 2)
    # MUC: only pronoun has a link to find.
    assert macro["muc"]["recall"] == 0.0 and macro["muc"]["f1"] == 0.0
    assert math.isnan(macro["muc"]["precision"])
    # CoNLL, pronoun alone: MUC 0, B3 2/3, CEAFe (φ4 = 2/3; R 2/3 of 1, P 2/3 of 2) 4/9.
    assert macro["conll"]["f1"] == pytest.approx((0 + 2 / 3 + 4 / 9) / 3)
    assert groups.macro_groups()["mentions"] == ("name", "pronoun")
    assert groups.macro_groups()["muc"] == ("pronoun",)


def test_every_group_has_its_counts():
    groups = _worked_example()
    assert groups.counts() == {
        "name": {"documents": 1, "key_mentions": 1, "response_mentions": 1},
        "nominal": {"documents": 1, "key_mentions": 0, "response_mentions": 1},
        "pronoun": {"documents": 1, "key_mentions": 2, "response_mentions": 2},
        "micro": {"documents": 1, "key_mentions": 3, "response_mentions": 4}}
    data = groups.to_dict()
    assert data["counts"] == groups.counts()
    nominal = data["groups"]["nominal"]
    assert nominal["mentions"] == {"recall": None, "precision": 0.0, "f1": None,
                                   "recall_num": 0.0, "recall_den": 0.0, "precision_num": 0.0,
                                   "precision_den": 1.0,
                                   "not_applicable": "the key has nothing to find "
                                                     "(recall 0/0)"}
    # B3 pronoun: each key mention's share 1/2 (sum 1 of 2), each response mention's 1.
    assert data["groups"]["pronoun"]["bcub"]["recall_num"] == 1.0
    assert data["groups"]["pronoun"]["bcub"]["recall_den"] == 2.0
    assert data["macro"]["muc"]["groups"] == 1
    assert data["micro"]["mentions"]["precision_den"] == 4.0
    json.dumps(data, allow_nan=False)


def test_counts_and_reasons_in_text_markdown_csv_and_html():
    import csv
    import io

    groups = _worked_example()
    text = groups.to_text()
    header, *lines = text.splitlines()
    assert header.split()[:4] == ["mention-type", "documents", "key", "response"]
    nominal = next(line for line in lines if line.startswith("nominal"))
    assert nominal.split()[:5] == ["nominal", "1", "0", "1", "n/a"]
    assert ("nominal: mentions, bcub, ceafm, ceafe, lea: n/a, the key has nothing to find "
            "(recall 0/0), not in the macro") in text
    assert ("name: muc, blanc: n/a, neither the key nor the response has anything to score "
            "(0/0), not in the macro") in text
    assert "name: conll: n/a, muc not applicable, not in the macro" in text
    assert "pronoun: muc: precision n/a, the response proposes nothing (precision 0/0)" \
        in text
    counts = [line for line in lines if line.startswith("pronoun ")][-1]
    assert counts.split()[1:5] == ["2/2", "2/2", "0/1", "0/0"]  # mentions R, P; MUC R, P
    markdown = groups.to_markdown()
    assert "| nominal | 1 | 0 | 1 | n/a |" in markdown
    rows = list(csv.DictReader(io.StringIO(groups.to_csv())))
    nominal = next(row for row in rows if row["group"] == "nominal")
    assert (nominal["documents"], nominal["key_mentions"], nominal["response_mentions"]) == (
        "1", "0", "1")
    assert nominal["mentions_recall"] == "" and nominal["mentions_precision"] == "0.000000"
    assert nominal["mentions_precision_den"] == "1.0"
    assert "the key has nothing to find" in nominal["note"]
    html = groups._repr_html_()
    assert "key mentions" in html and "the key has nothing to find" in html


def test_singletons_leave_muc_of_entity_size_1_out_of_the_macro():
    # Key {a, b} and singletons {c}, {d}; the response merges c and d. In group 1 MUC has
    # no key link to find (0/0) and one wrong link proposed (0/1): n/a, out of the mean.
    a, b, c, d = (Mention.span(i, i) for i in (0, 2, 4, 6))
    groups = group_mentions([(document("d", [a, b], [c], [d]), document("d", [a, b], [c, d]))],
                            "entity-size", Options.create())
    muc = groups.scores()["1"]["muc"]
    assert math.isnan(muc.recall) and muc.precision == 0.0 and math.isnan(muc.f1)
    assert groups.scores()["2"]["muc"].f1 == 1.0
    assert groups.macro()["muc"] == {"recall": 1.0, "precision": 1.0, "f1": 1.0}  # was 0.5


# Two GUM documents, the second with empty nodes (where the response puts its zeros).
GUM = [path for path in (CORPORA / "gum" / "dep" / f"GUM_academic_{name}.conllu"
                         for name in ("art", "eegimaa")) if path.exists()]


@pytest.mark.skipif(not GUM, reason="../shared/corpora is absent")
def test_gum_two_stray_zeros_do_not_pull_the_macro_down(tmp_path, capsys):
    # The case: a response equal to the key but for two zero mentions (on empty
    # nodes, where the key has none) added to an entity. They made a group "zero" of 0.00
    # that pulled every macro F1 to 75 (3 groups at 100, one at 0).
    from anascore.formats import read_documents, writer

    key = tmp_path / "key.conllu"
    key.write_text("".join(path.read_text(encoding="utf-8") for path in GUM), encoding="utf-8")
    documents = list(read_documents(str(key), "corefud"))
    target = 1
    empty = [p for p, flag in enumerate(documents[target].nodes.empty) if flag]
    assert len(empty) == 2
    first = documents[target].entities[0]
    extended = replace(first, mentions=tuple(sorted(
        (*first.mentions, *(Mention((p,), head=p) for p in empty)),
        key=lambda mention: mention.tokens)))
    documents[target] = replace(documents[target],
                                entities=(extended, *documents[target].entities[1:]))
    response = tmp_path / "response.conllu"
    writer("corefud")(documents, str(response))
    command = ["score", str(key), str(response), "--match", "head", "--remove-singletons",
               "--group-by", "mention-type", "--output", "json"]
    assert main(command) == 0
    groups = json.loads(capsys.readouterr().out)["groups"]
    assert groups["counts"]["zero"] == {"documents": 1, "key_mentions": 0,
                                        "response_mentions": 2}
    for metric, values in groups["groups"]["zero"].items():
        assert values["f1"] is None, metric
        assert groups["macro"][metric]["f1"] == 1.0, metric
        assert groups["macro"][metric]["groups"] == 3, metric
    assert groups["groups"]["zero"]["mentions"]["precision"] == 0.0
    assert groups["micro"]["mentions"]["precision_den"] == (
        groups["micro"]["mentions"]["recall_den"] + 2)


def test_the_html_report_shows_each_groups_counts_and_what_is_not_applicable(tmp_path):
    # Entity sizes: key {Anna, her} and the singleton {Bob}; the response finds all three
    # and links Bob to nothing. Group 1 holds one key mention: MUC has nothing to score.
    lines = ["#begin document (d); part 000", "d 0 0 Anna (1)", "d 0 1 met -",
             "d 0 2 Bob (2)", "d 0 3 and -", "d 0 4 her (1)", "#end document", ""]
    key = tmp_path / "key.conll"
    key.write_text("\n".join(lines))
    out = tmp_path / "report.html"
    assert main(["report", str(key), str(key), "-o", str(out), "--group-by", "entity-size",
                 "--quiet"]) == 0
    page = out.read_text(encoding="utf-8")
    assert "<th>key mentions</th><th>response mentions</th>" in page
    assert ("<th style='text-align:left'>1</th><td style='text-align:right'>1</td>"
            "<td style='text-align:right'>1</td><td style='text-align:right'>1</td>") in page
    assert ("1: muc, blanc: n/a, neither the key nor the response has anything to score "
            "(0/0), not in the macro") in page
    assert "muc R" in page
