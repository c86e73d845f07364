"""Dominant-mention evaluation (Žitkus et al. 2023): Appendix C, Tables 2 and 3, §4.2."""

from __future__ import annotations

import json

import numpy as np
import pytest

import anascore
from anascore.cli.main import main
from anascore.comparison.dominance import dominant_mentions, name_ranks
from anascore.config.options import Options
from anascore.core.errors import FormatError, OptionsError
from anascore.core.model import Document, Entity, Mention
from anascore.metrics import metric_for
from anascore.metrics.dominant import DominantScore, class_table_csv, class_table_text
from anascore.report.text_table import render_text
from anascore.selection.sides import select_side
from tests.support.paths import FIXTURES

K = (1, 0.75, 0.5, 0.25)
FIXTURES = FIXTURES / "chen_ng_2013"

# Appendix C: "Barack Obama was elected the 44th president of the United States on Tuesday.
# B. Obama is the first black US president. The newly elected president will be in charge of
# the armed forces. He is scheduled to appear at the press conference tomorrow."
WORDS = tuple(" ".join((
    "Barack Obama was elected the 44th president of the United States on Tuesday .",
    "B. Obama is the first black US president .",
    "The newly elected president will be in charge of the armed forces .",
    "He is scheduled to appear at the press conference tomorrow .")).split(" "))
SPANS = {"Barack Obama": (0, 1), "B. Obama": (14, 15), "president": (26, 26), "He": (36, 36)}
TYPES = {"Barack Obama": "name", "B. Obama": "name", "president": "nominal", "He": "pronoun"}
#: Coreference type codes of Žitkus et al.'s scheme (Table 1): a definitive-nominal
#: abbreviation, a generic-nominal feature, a personal pronoun; all anaphoric, one antecedent.
CODES = {"B. Obama": "dbas", "president": "gfas", "He": "ppas"}


def mention(words: str, dominant: bool | None = None) -> Mention:
    attributes = {"mention_type": TYPES[words]}
    if words in CODES:
        attributes["coreference_type"] = CODES[words]
    if dominant is not None:
        attributes["dominant"] = "yes" if dominant else "no"
    start, end = SPANS[words]
    return Mention(tuple(range(start, end + 1)), attributes=attributes)


def document(*entities: tuple[str, ...], marked: bool = True) -> Document:
    return Document("obama", WORDS, tuple(
        Entity(str(number), tuple(mention(words, dominant=(index == 0) if marked else None)
                                  for index, words in enumerate(chain)))
        for number, chain in enumerate(entities)))


GOLD = ("Barack Obama", "B. Obama", "president", "He")
RESPONSE = (("Barack Obama", "B. Obama"), ("president", "He"))


@pytest.mark.parametrize("marked", [True, False])
def test_appendix_c(marked: bool) -> None:
    """The gold chain's dominant mention is "Barack Obama"; the response splits the chain in
    two, "president" dominant in the second: "B. Obama" is TP, "He" WL (right type, wrong
    dominant mention), "president" → "Barack Obama" is missed (FN). Eqs. (61), (62). With
    ``marked=False`` the dominant mentions come from the heuristic, and agree."""
    report = anascore.score_documents([document(GOLD, marked=marked)],
                                      [document(*RESPONSE, marked=marked)], metrics="dominant")
    score = report.metrics["dominant"]
    assert isinstance(score, DominantScore)
    assert score.precision == (1 * 1 + 0.75 * 0 + 0.5 * 1 + 0.25 * 0) / (1 + 0 + 1 + 0 + 0)
    assert score.recall == (1 * 1 + 0.75 * 0 + 0.5 * 1 + 0.25 * 0) / (1 + 0 + 1 + 0 + 1)
    assert (score.precision, score.recall) == (0.75, 0.5)
    by_class = {item.coreference_class: (item.tp, item.wt, item.wl, item.wtl, item.fn, item.fp)
                for item in score.classes}
    assert by_class == {"d": (1, 0, 0, 0, 0, 0), "g": (0, 0, 0, 0, 1, 0),
                        "p": (0, 0, 1, 0, 0, 0), "a": (0,) * 6, "e": (0,) * 6}


def test_wrong_types_and_false_positives() -> None:
    """A response that links "He" to "Barack Obama" as a reflexive (``pras``): WT; that
    links "president" to "He" in a chain of its own, dominant "president"... and a spurious
    annotation: FP, in the class of the response's code."""
    response = document(("Barack Obama", "B. Obama", "He"), ("president",))
    he = response.entities[0].mentions[2]
    he_reflexive = Mention(he.tokens, attributes={**he.attributes, "coreference_type": "pras"})
    response = Document("obama", WORDS, (
        Entity("0", (*response.entities[0].mentions[:2], he_reflexive)),
        Entity("1", response.entities[1].mentions)))
    score = anascore.score_documents([document(GOLD)], [response],
                                     metrics="dominant").metrics["dominant"]
    counts = {item.coreference_class: (item.tp, item.wt, item.fn, item.fp)
              for item in score.classes if item.attempted}
    assert counts == {"p": (0, 1, 0, 0), "g": (0, 0, 1, 0), "d": (1, 0, 0, 0)}
    assert score.recall == (1 + 0.75) / 3 and score.precision == (1 + 0.75) / 2

    extra = document(("Barack Obama", "B. Obama"), ("president", "He"))
    key = document(("Barack Obama", "B. Obama"), ("president",), ("He",))
    score = anascore.score_documents([key], [extra], metrics="dominant").metrics["dominant"]
    assert [(item.coreference_class, item.fp) for item in score.classes if item.fp] == [("p", 1)]
    assert score.precision == 1 / 2 and score.recall == 1 / 1


#: Žitkus et al. 2023, Table 3 (TP, WT, WL, WTL, FN, FP per class) and their printed P, R, F.
TABLE_3 = {"p": ((289, 30, 27, 25, 182, 29), (82.8, 59.9, 69.5)),
           "g": ((123, 4, 21, 9, 380, 23), (77.1, 25.8, 38.7)),
           "d": ((973, 0, 14, 0, 84, 17), (97.6, 91.5, 94.5))}


def table_3_score(**settings) -> DominantScore:
    options = Options(metrics=("dominant",), **settings)
    counts = np.zeros((5, 6))
    for row, label in enumerate(options.coreference_classes):
        if label in TABLE_3:
            counts[row] = TABLE_3[label][0]
    score = metric_for("dominant", options).score(counts.reshape(-1))
    assert isinstance(score, DominantScore)
    return score


def test_table_3_per_class() -> None:
    """Eqs. (49)–(51) for the pronominal class, and Table 3's other rows."""
    score = table_3_score()
    pronominal = score.classes[0]
    credit = 289 + 0.75 * 30 + 0.5 * 27 + 0.25 * 25
    assert pronominal.precision == credit / (289 + 30 + 27 + 25 + 29)
    assert pronominal.recall == credit / (289 + 30 + 27 + 25 + 182)
    # S* is 553 (Table D1, "All"), not Table 3's 533.
    assert pronominal.key_annotations == 553
    for item in score.classes[:3]:
        printed = TABLE_3[item.coreference_class][1]
        assert (round(item.precision * 100, 1), round(item.recall * 100, 1),
                round(item.f1 * 100, 1)) == printed
    assert [item.title for item in score.classes] == [
        "Pronominal", "Generic nominal", "Definitive nominal", "Adverbial", "Ellipsis"]
    assert score.attempted == ("p", "g", "d")


def test_table_2_micro_macro_and_scheme() -> None:
    """Table 2's first row. Micro sums the class counts (eqs. 43–45; the printed terms of
    (55) and (56) have slips, their results are right); macro averages P_i and R_i over the 3
    attempted classes; scheme coverage divides the same sums by the scheme's 5 classes."""
    score = table_3_score()
    credit = (289 + 0.75 * 30 + 0.5 * 27 + 0.25 * 25) + (123 + 0.75 * 4 + 0.5 * 21
                                                         + 0.25 * 9) + (973 + 0.5 * 14)
    assert credit == 1450
    assert score.micro.precision == pytest.approx(1450 / (400 + 180 + 1004))
    assert score.micro.recall == pytest.approx(1450 / (553 + 537 + 1071))
    precisions = [item.precision for item in score.classes[:3]]
    recalls = [item.recall for item in score.classes[:3]]
    assert score.macro.precision == pytest.approx(sum(precisions) / 3)
    assert score.scheme.recall == pytest.approx(sum(recalls) / 5)
    printed = {"micro": (91.5, 67.1, 77.4), "macro": (85.8, 59.1, 70.0),
               "scheme": (51.5, 35.4, 42.0)}
    for name, (precision, recall, f1) in printed.items():
        averages = getattr(score, name)
        assert (round(averages.precision * 100, 1), round(averages.recall * 100, 1),
                round(averages.f1 * 100, 1)) == (precision, recall, f1)
    # Table 2 prints R_scheme = 34.44 and F_scheme = 41.99; eq. (59) 35.44, from the rounded
    # class recalls ((59.9 + 25.8 + 91.5) / 5); from the exact ones it is 35.45, and F 41.99.
    assert round(score.scheme.recall * 100, 2) == 35.45
    assert round((59.9 + 25.8 + 91.5) / 5, 2) == 35.44
    assert round(score.scheme.f1 * 100, 2) == 41.99
    assert (score.scheme_classes, score.coefficients) == (5, K)


def test_attempted_classes_and_scheme_size_come_from_the_user() -> None:
    score = table_3_score(attempted_classes="p,d", scheme_classes=7)
    assert score.attempted == ("p", "d")
    assert score.micro.recall == pytest.approx((331.25 + 980) / (553 + 1071))
    assert score.scheme.precision == pytest.approx((331.25 / 400 + 980 / 1004) / 7)
    with pytest.raises(OptionsError, match="not among"):
        Options(attempted_classes="p,x")
    with pytest.raises(OptionsError, match="fewer than"):
        Options(scheme_classes=3)
    with pytest.raises(OptionsError, match=r"\[0, 1\]"):
        Options(dominant_coefficients=(1, 0.75, 0.5, 2))


def test_the_coefficients_are_configurable() -> None:
    """k = (1, 1, 1, 1) credits every paired annotation: WL counts as TP."""
    report = anascore.score_documents([document(GOLD)], [document(*RESPONSE)],
                                      metrics="dominant", dominant_coefficients=(1, 1, 1, 1))
    assert report.metrics["dominant"].recall == 2 / 3
    assert "dominant_coefficients:1,1,1,1" in report.signature


def test_full_codes_as_classes_and_untyped_evaluation() -> None:
    """Classes are prefixes of the codes: full codes give Appendix D's rows; 'none' drops
    types (one class, no WT or WTL)."""
    key, response = [document(GOLD)], [document(*RESPONSE)]
    score = anascore.score_documents(key, response, metrics="dominant",
                                     coreference_classes="ppas,gfas,dbas,d").metrics["dominant"]
    assert [(item.coreference_class, item.tp, item.wl, item.fn) for item in score.classes] == [
        ("ppas", 0, 1, 0), ("gfas", 0, 0, 1), ("dbas", 1, 0, 0), ("d", 0, 0, 0)]
    score = anascore.score_documents(key, response, metrics="dominant",
                                     coreference_classes="none").metrics["dominant"]
    assert [(item.coreference_class, item.tp, item.wl, item.fn) for item in score.classes] == [
        ("all", 1, 1, 1)]
    with pytest.raises(FormatError, match="in none of the coreference classes"):
        anascore.score_documents(key, response, metrics="dominant", coreference_classes="p,d")


def test_a_missing_type_code_is_an_error() -> None:
    untyped = Document("obama", WORDS, (Entity("0", (
        Mention((0, 1), attributes={"mention_type": "name"}),
        Mention((36,), attributes={"mention_type": "pronoun"}))),))
    with pytest.raises(FormatError, match="no coreference_type attribute"):
        anascore.score_documents([untyped], [untyped], metrics="dominant")
    assert anascore.score_documents([untyped], [untyped], metrics="dominant",
                                    coreference_classes="none").metrics["dominant"].f1 == 1.0


def test_the_dominance_order_of_section_4_2() -> None:
    """§4.2: President₁ He₂ B. Obama₃ Obama₄ His₅ Barack Obama₆ Himself₇ Barack Obama₈ —
    pronouns out, then 'Barack Obama₆, Barack Obama₈, B. Obama₃, Obama₄, President₁': the
    sixth mention is dominant."""
    text = " ".join((
        "Early in the morning president declared that . He hopes . This was unusual for",
        "B. Obama . Earlier in the year , Obama was criticized . But his position . It",
        "looks like Barack Obama is not doubting himself . But critics said that Barack",
        "Obama is")).split(" ")
    chain = [("president", "nominal"), ("He", "pronoun"), ("B. Obama", "name"),
             ("Obama", "name"), ("his", "pronoun"), ("Barack Obama", "name"),
             ("himself", "pronoun"), ("Barack Obama", "name")]
    mentions, position = [], 0
    for words, kind in chain:
        size = len(words.split())
        while text[position:position + size] != words.split():
            position += 1
        mentions.append(Mention(tuple(range(position, position + size)),
                                attributes={"mention_type": kind}))
        position += size
    entity = Entity("obama", tuple(reversed(mentions)))  # file order must not matter
    side = select_side(Document("d", tuple(text), (entity,)), Options(), "key", [])
    codes = np.array([["name", "nominal", "pronoun", "zero"].index(m.attributes["mention_type"])
                      for m in side.mentions])
    dominant = side.mentions[dominant_mentions(side, lambda: codes)[0]]
    assert dominant == mentions[5]
    assert name_ranks([["B.", "Obama"], ["Obama"], ["Barack", "Obama"]]) == [1, 2, 0]


def test_pronoun_only_chains_take_their_first_mention() -> None:
    words = ("We", "said", "we", "came")
    side = select_side(Document("d", words, (Entity("we", (
        Mention((2,), attributes={"mention_type": "pronoun"}),
        Mention((0,), attributes={"mention_type": "pronoun"}))),)), Options(), "key", [])
    assert side.mentions[dominant_mentions(side, lambda: np.array([2, 2]))[0]].tokens == (0,)


def test_two_marked_dominant_mentions_are_an_error() -> None:
    twice = Document("obama", WORDS, (Entity("0", (mention("Barack Obama", True),
                                                   mention("B. Obama", True))),))
    with pytest.raises(FormatError, match="two mentions marked dominant"):
        anascore.score_documents([twice], [twice], metrics="dominant")


def test_outputs_text_json_csv() -> None:
    report = anascore.score_documents([document(GOLD)], [document(*RESPONSE)],
                                      metrics="muc,dominant")
    text = render_text(report)
    assert "Definitive nominal" in text and "micro (3 attempted)" in text
    assert "scheme (5 classes)" in text
    score = report.metrics["dominant"]
    lines = class_table_text(score)
    assert lines[2].split()[:9] == ["Pronominal", "0", "0", "1", "0", "0", "0", "1", "50.00"]
    data = json.loads(report.to_json())["metrics"]["dominant"]
    assert data["precision"] == 0.75 and data["recall"] == 0.5
    assert data["macro"]["classes"] == 3 and data["scheme"]["classes"] == 5
    assert data["classes"][2] == {
        "class": "d", "title": "Definitive nominal", "tp": 1.0, "wt": 0.0, "wl": 0.0,
        "wtl": 0.0, "fn": 0.0, "fp": 0.0, "key_annotations": 1.0, "response_annotations": 1.0,
        "recall": 1.0, "precision": 1.0, "f1": 1.0, "attempted": True}
    rows = class_table_csv(score).splitlines()
    assert rows[0] == "class,tp,wt,wl,wtl,fn,fp,key_annotations,precision,recall,f1"
    assert rows[1] == "Pronominal,0,0,1,0,0,0,1,0.5,0.5,0.5"
    assert rows[-3].startswith("micro,,,,,,,,0.75,0.5,")


def test_the_cli_on_an_ontonotes_file(capsys) -> None:
    """On an OntoNotes-layout file the dominant mentions come from POS and NER columns; it has
    no coreference type codes, so only the untyped evaluation can run, and must be asked for.

    Chen & Ng's key: Jesus ← he, I; Jerusalem ← the city, it, you ×5, your ×2; your enemies ←
    They: 12 annotations. Their response (e) links he, I (TP) and the seven S_you mentions to
    Jesus (WL: the key links them to Jerusalem), the city and it to Jerusalem (TP), They to
    your enemies (TP)."""
    key = FIXTURES / "key.conll"
    response = FIXTURES / "response_e.conll"
    assert main(["score", str(key), str(response), "--metrics", "dominant"]) == 1
    assert "has no coreference_type attribute" in capsys.readouterr().err
    assert main(["score", str(key), str(response), "--metrics", "dominant",
                 "--coreference-classes", "none", "--output", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["metrics"]["dominant"]["classes"][0]["tp"] == 5
    assert data["metrics"]["dominant"]["classes"][0]["wl"] == 7
    assert data["metrics"]["dominant"]["recall"] == (5 + 0.5 * 7) / 12
    assert data["metrics"]["dominant"]["precision"] == (5 + 0.5 * 7) / 12
    assert "classes:none" in data["signature"]
    assert main(["score", str(key), str(response), "--metrics", "dominant",
                 "--coreference-classes", "none"]) == 0
    assert "micro (1 attempted)" in capsys.readouterr().out


def test_the_cli_scheme_and_attempted_flags(capsys) -> None:
    key, response = FIXTURES / "key.conll", FIXTURES / "response_e.conll"
    assert main(["score", str(key), str(response), "--metrics", "dominant",
                 "--coreference-classes", "none", "--scheme-classes", "4",
                 "--dominant-coefficients", "1,1,0,0", "--output", "json"]) == 0
    data = json.loads(capsys.readouterr().out)["metrics"]["dominant"]
    assert data["recall"] == 5 / 12 and data["scheme"]["recall"] == (5 / 12) / 4
    assert data["scheme"]["classes"] == 4 and data["coefficients"] == [1, 1, 0, 0]
    with pytest.raises(SystemExit) as caught:  # a usage error, named by its flag
        main(["score", str(key), str(response), "--metrics", "dominant",
              "--attempted-classes", "x"])
    assert caught.value.code == 2
    assert "--attempted-classes x not among the --coreference-classes" in (
        capsys.readouterr().err)


def test_report_outputs_and_resampling_use_the_configured_metric(capsys) -> None:
    """CSV rows ``dominant:CLASS`` and the averages; the Markdown/LaTeX/text tables; bootstrap
    intervals computed with the run's coefficients and classes (here k = 1, 1, 1, 1: the 5 TP
    and 7 WL of response (e) are full credit, 12 / 12)."""
    key, response = FIXTURES / "key.conll", FIXTURES / "response_e.conll"
    common = ["score", str(key), str(response), "--metrics", "dominant",
              "--coreference-classes", "none", "--dominant-coefficients", "1,1,1,1"]
    assert main([*common, "--output", "csv"]) == 0
    rows = [line.split(",") for line in capsys.readouterr().out.splitlines()]
    by_metric = {row[3]: row[4:7] for row in rows[1:]}
    assert set(by_metric) == {"dominant", "dominant:all", "dominant:micro", "dominant:macro",
                              "dominant:scheme"}
    assert float(by_metric["dominant:all"][0]) == 12 / 12
    assert main([*common, "--output", "markdown"]) == 0
    out = capsys.readouterr().out
    assert "| all | 5 | 0 | 7 | 0 | 0 | 0 | 12 | 100.00 | 100.00 | 100.00 |" in out
    assert main([*common, "--confidence", "50", "--output", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    # one document: no interval means anything (not a zero-width one)
    assert data["intervals"]["dominant"]["f1"] == {"low": None, "high": None}
    assert "one document" in data["intervals"]["dominant"]["not_applicable"]
    # the document twice: every resample is 12 / 12 with the run's coefficients
    from anascore.stats.bootstrap import confidence_intervals

    report = anascore.score(key, response, metrics="dominant", coreference_classes="none",
                            dominant_coefficients=(1, 1, 1, 1))
    twice = {name: np.vstack([matrix, matrix]) for name, matrix in report.counts.items()}
    [intervals] = confidence_intervals([twice], ["dominant"], resamples=50,
                                       suite=report.suite)
    assert intervals["dominant"].f1.low == intervals["dominant"].f1.high == 12 / 12
