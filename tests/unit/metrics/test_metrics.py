"""Every metric on hand-computed cases, the expected values written as the derivations."""

from __future__ import annotations

import pytest

from anascore.comparison.contingency import Comparison, Contingency
from anascore.config.options import Options
from anascore.core.model import Document, Entity, Mention
from anascore.metrics import REGISTRY
from anascore.report import Report
from anascore.scoring.document import count_document


def document(*clusters: str) -> Document:
    """Entities over one-letter mentions: letter a is token 0, b token 1, …"""
    return Document("example", tuple("abcdefghijklmnop"), tuple(
        Entity(str(number), tuple(Mention.span(ord(letter) - 97, ord(letter) - 97)
                                  for letter in cluster))
        for number, cluster in enumerate(clusters)))


def scores(key: Document, response: Document):
    options = Options()
    return Report.from_records(options, ["example"],
                               [count_document(key, response, options, [])]).metrics


# Moosavi & Strube 2016, §5: key {abc, defg}, response {ab, cd, fghi}.
LEA_PAPER = scores(document("abc", "defg"), document("ab", "cd", "fghi"))


def rpf(score) -> tuple[float, float, float]:
    return score.recall, score.precision, score.f1


def f1(recall: float, precision: float) -> float:
    return 2 * recall * precision / (recall + precision)


def test_lea_on_the_paper_example() -> None:
    # abc keeps 1 of its 3 links, defg 1 of its 6; ab keeps its 1 link, cd none, fghi 1 of 6.
    recall = (3 * (1 / 3) + 4 * (1 / 6)) / (3 + 4)
    precision = (2 * (1 / 1) + 2 * (0 / 1) + 4 * (1 / 6)) / (2 + 2 + 4)
    assert rpf(LEA_PAPER["lea"]) == pytest.approx((recall, precision, f1(recall, precision)),
                                                  abs=1e-12)
    assert recall == pytest.approx(0.24, abs=0.005) and precision == pytest.approx(1 / 3)


def test_muc_on_the_paper_example() -> None:
    # abc splits into {ab}{c}: 3 − 2; defg into {d}{e missing}{fg}: 4 − 3; over 2 + 3 links.
    recall = ((3 - 2) + (4 - 3)) / ((3 - 1) + (4 - 1))
    # ab whole: 2 − 1; cd into {c}{d}: 2 − 2; fghi into {fg}{h}{i}: 4 − 3; over 1 + 1 + 3.
    precision = ((2 - 1) + (2 - 2) + (4 - 3)) / (1 + 1 + 3)
    assert rpf(LEA_PAPER["muc"]) == pytest.approx((recall, precision, f1(recall, precision)))


def test_bcubed_on_the_paper_example() -> None:
    recall = (2**2 / 3 + 1**2 / 3 + 1**2 / 4 + 2**2 / 4) / 7
    precision = (2**2 / 2 + 1**2 / 2 + 1**2 / 2 + 2**2 / 4) / 8
    assert rpf(LEA_PAPER["bcub"]) == pytest.approx((recall, precision, f1(recall, precision)))


def test_ceaf_on_the_paper_example() -> None:
    # Best pairing: abc–ab and defg–fghi.
    assert rpf(LEA_PAPER["ceafm"]) == pytest.approx((4 / 7, 4 / 8, f1(4 / 7, 4 / 8)))
    phi = 2 * 2 / (3 + 2) + 2 * 2 / (4 + 4)
    assert rpf(LEA_PAPER["ceafe"]) == pytest.approx((phi / 2, phi / 3, f1(phi / 2, phi / 3)))


def test_blanc_on_the_paper_example() -> None:
    blanc = LEA_PAPER["blanc"]
    # Coreference links: ab and fg in common; key 3 + 6, response 1 + 1 + 6.
    assert rpf(blanc.coref_links) == pytest.approx((2 / 9, 2 / 8, f1(2 / 9, 2 / 8)))
    # Non-coreference: key C(7,2) − 9, response C(8,2) − 8; in common the 3 × 3 aligned pairs
    # across abc | dfg minus cd, which the response puts together.
    assert rpf(blanc.non_coref_links) == pytest.approx((8 / 12, 8 / 20, f1(8 / 12, 8 / 20)))
    assert blanc.recall == pytest.approx((2 / 9 + 8 / 12) / 2)
    assert blanc.precision == pytest.approx((2 / 8 + 8 / 20) / 2)
    assert blanc.f1 == pytest.approx((f1(2 / 9, 2 / 8) + f1(8 / 12, 8 / 20)) / 2)


def test_mentions_and_conll_on_the_paper_example() -> None:
    assert rpf(LEA_PAPER["mentions"]) == pytest.approx((6 / 7, 6 / 8, f1(6 / 7, 6 / 8)))
    expected = (LEA_PAPER["muc"].f1 + LEA_PAPER["bcub"].f1 + LEA_PAPER["ceafe"].f1) / 3
    assert LEA_PAPER["conll"].f1 == pytest.approx(expected)


def test_lea_singletons_have_one_self_link() -> None:
    # Key {a} {bc}; response {a} {b} {c}: the singleton a is resolved (1 self-link of 1),
    # bc loses its link. Precision: a resolved, b and c are unresolved singletons.
    lea = scores(document("a", "bc"), document("a", "b", "c"))["lea"]
    assert rpf(lea) == pytest.approx((1 / 3, 1 / 3, 1 / 3))


def test_blanc_scores_only_the_half_the_key_has() -> None:
    # All-singleton key: no coreference links, so BLANC is its non-coreference half.
    blanc = scores(document("a", "b", "c"), document("ab", "c"))["blanc"]
    assert rpf(blanc) == pytest.approx(rpf(blanc.non_coref_links))
    assert rpf(blanc.non_coref_links) == pytest.approx((2 / 3, 2 / 2, f1(2 / 3, 1.0)))


def test_counts_from_a_hand_made_table() -> None:
    # Two key entities of 3 and 2 mentions, one response entity holding 2 + 1 of them.
    table = Comparison.from_table(Contingency.from_cells([3, 2], [4], {(0, 0): 2, (1, 0): 1}))
    assert REGISTRY["muc"].count(table).tolist() == [3 - 2, 2 + 1, 3 - 2, 3]
    assert REGISTRY["bcub"].count(table).tolist() == pytest.approx(
        [2**2 / 3 + 1**2 / 2, 5, 2**2 / 4 + 1**2 / 4, 4])
    assert REGISTRY["ceafm"].count(table).tolist() == [2, 5, 2, 4]
