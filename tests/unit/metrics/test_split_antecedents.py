"""Split-antecedent plurals (Paun et al. 2023): the paper's worked example, hand-computed
metrics, the UA scorer's published plural test cases under ``compat="ua"``, options and errors.

Documents are built in Python: a mention is one token, and an entity lists the identifiers of
the entities its accommodated set holds (``Entity.elements``).
"""

from __future__ import annotations

import re
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from types import MappingProxyType

import pytest

import anascore
from anascore.config.options import Options
from anascore.core.errors import FormatError, OptionsError
from anascore.core.model import Document, Entity, Mention
from anascore.report import Report
from anascore.scoring.document import count_document


def document(*entities: tuple[str, list[int], list[str]], name: str = "doc") -> Document:
    """Entities as (identifier, mention tokens, elements)."""
    return Document(name, tuple(f"w{index}" for index in range(20)), tuple(
        Entity(identifier, tuple(Mention.span(token, token) for token in tokens),
               tuple(elements))
        for identifier, tokens, elements in entities))


def report(key: Document, response: Document, **settings: object) -> Report:
    options = Options(keep_split_antecedents=True, **settings)  # type: ignore[arg-type]
    warnings: list[str] = []
    alignments: list = []
    record = count_document(key, response, options, warnings, alignments)
    return Report.from_records(options, [key.name], [record], warnings, alignments)


def rpf(score) -> tuple[float, float, float]:
    return score.recall, score.precision, score.f1


def f1(recall: float, precision: float) -> float:
    return 2 * recall * precision / (recall + precision) if recall + precision else 0.0


# Paun et al. 2023, example (12), mentions numbered as in the paper (mention k is token k).
# K6 is written with the nested set {K3, K4}, which §4.4 normalizes to {K1, K2, K4}.
EXAMPLE_12_KEY = document(
    ("K1", [1, 5], []), ("K2", [2, 3, 4], []), ("K3", [6, 7, 10], ["K1", "K2"]),
    ("K4", [8, 11, 13], []), ("K5", [9, 14], []), ("K6", [12], ["K3", "K4"]),
    ("K7", [15], ["K1", "K2", "K4", "K5"]))


def example_12_system(elements_of_r6: list[str]) -> Document:
    """System A's response, with R6's set varied as systems B, C and D vary it."""
    return document(
        ("R1", [1, 5], []), ("R2", [2, 4], []), ("R3", [6, 7, 10, 12], ["R1", "R2"]),
        ("R4", [8, 11], []), ("R5", [9, 14], []), ("R6", [15], elements_of_r6))


SYSTEMS = {
    "A": ["R1", "R2", "R5"], "B": ["R1", "R2", "R4", "R5"], "C": ["R1", "R2", "R4"],
    "D": ["R2", "R4", "R5"],
}


def example_12_details(system: str) -> dict[str, dict[tuple[str | None, str | None], dict]]:
    details = report(EXAMPLE_12_KEY, example_12_system(SYSTEMS[system])).to_dict(details=True)
    return {metric: {(pair["key_entity"], pair["response_entity"]): pair for pair in pairs}
            for metric, pairs in details["split_antecedents"]["doc"].items()}


# The paper's δ values (recall side), §5.1.2, §5.2.2 and §5.3.2: system → (key entity, response
# entity) aligned → δ per metric. C's set aligns with K6's, leaving K7's unaligned.
PAPER_DELTAS = {
    "A": {("K3", "R3"): {"bcub": Fraction(2, 3), "muc": Fraction(2, 3), "ceafm": Fraction(4, 5),
                         "ceafe": Fraction(9, 10)},
          ("K7", "R6"): {"bcub": Fraction(8, 15), "muc": Fraction(1, 2), "ceafm": Fraction(3, 5),
                         "ceafe": Fraction(7, 10)}},
    "B": {("K7", "R6"): {"bcub": Fraction(2, 3), "muc": Fraction(2, 3), "ceafm": Fraction(4, 5),
                         "ceafe": Fraction(9, 10)}},
    "C": {("K6", "R6"): {"bcub": Fraction(7, 12), "muc": Fraction(0), "ceafm": Fraction(3, 4),
                         "ceafe": Fraction(13, 15)}},
    "D": {("K7", "R6"): {"bcub": Fraction(7, 15), "muc": Fraction(1, 2), "ceafm": Fraction(3, 5),
                         "ceafe": Fraction(13, 20)}},
}


@pytest.mark.parametrize("system", sorted(PAPER_DELTAS))
def test_the_paper_example_gives_the_papers_deltas(system: str) -> None:
    details = example_12_details(system)
    for pair, deltas in PAPER_DELTAS[system].items():
        for metric, delta in deltas.items():
            assert details[metric][pair]["recall"] == pytest.approx(float(delta), abs=1e-12), (
                system, pair, metric)


def test_system_c_leaves_the_key_set_of_all_four_unaligned() -> None:
    for metric, pairs in example_12_details("C").items():
        assert ("K7", None) in pairs, metric
        unaligned = pairs[("K7", None)]
        assert unaligned["f1"] == 0.0 and unaligned["response_elements"] == []
        assert ("K3", "R3") in pairs and ("K6", "R6") in pairs


def test_system_a_aligns_k3_and_k7_and_leaves_k6_unaligned_with_every_metric() -> None:
    # §4.4: τ(K3) = R3, τ(K6) = ∅, τ(K7) = R6, "optimal irrespective of the similarity metric".
    for metric, pairs in example_12_details("A").items():
        assert set(pairs) == {("K3", "R3"), ("K7", "R6"), ("K6", None)}, metric


def test_nested_sets_are_unfolded_to_atomic_entities() -> None:
    # §4.4: K6 = {K3, K4} ⊕ {they12} = {K1, K2, K4} ⊕ {they12}.
    pairs = example_12_details("C")["bcub"]
    assert pairs[("K6", "R6")]["key_elements"] == ["K1", "K2", "K4"]
    assert pairs[("K6", "R6")]["response_elements"] == ["R1", "R2", "R4"]


def test_lea_deltas_of_the_paper_example() -> None:
    # §5.4.2 gives the formula; δ = Recall_LEA(K3ˢ, R3ˢ): K1 keeps its 1 link, K2 1 of its 3.
    delta_k3 = (2 * (1 / 1) + 3 * (1 / 3)) / (2 + 3)
    # K7ˢ against {R1, R2, R5}: K1 1/1, K2 1/3, K4 none of its 3, K5 1/1.
    delta_k7 = (2 * 1 + 3 * (1 / 3) + 3 * 0 + 2 * 1) / (2 + 3 + 3 + 2)
    pairs = example_12_details("A")["lea"]
    assert pairs[("K3", "R3")]["recall"] == pytest.approx(delta_k3)
    assert pairs[("K7", "R6")]["recall"] == pytest.approx(delta_k7)


def test_details_name_f1_as_the_weight_the_alignment_maximized() -> None:
    pair = example_12_details("A")["bcub"][("K7", "R6")]
    # B³ precision of {R1, R2, R5} against K7ˢ: every response element lies inside a key one.
    assert pair["precision"] == pytest.approx(1.0)
    assert pair["f1"] == pytest.approx(f1(8 / 15, 1.0))


def test_details_are_absent_for_documents_without_sets() -> None:
    plain = document(("a", [1, 2], []), ("b", [3], []))
    assert report(plain, plain).to_dict(details=True)["split_antecedents"] == {}


# Key {ab} {cd} {e} {[ac]fg}: a plural entity of mentions f, g whose set holds the entities of
# mentions a and c (the UA scorer's TC-PA). Letters are tokens: a = 0, b = 1, …
def ua_document(*clusters: str) -> Document:
    """Entities in the UA test cases' notation: ``[ac]fg`` is the entity of mentions f and g
    whose set holds the entities of mentions a and c."""
    parsed = [re.fullmatch(r"(?:\[(\w+)\])?(\w+)", cluster).groups()  # type: ignore[union-attr]
              for cluster in clusters]
    owner = {letter: str(number) for number, (_, letters) in enumerate(parsed)
             for letter in letters}
    return Document("doc", tuple("abcdefghijklmnop"), tuple(
        Entity(str(number), tuple(Mention.span(ord(x) - 97, ord(x) - 97) for x in letters),
               tuple(dict.fromkeys(owner[x] for x in (elements or ""))))
        for number, (elements, letters) in enumerate(parsed)))


KEY_PA = ua_document("ab", "cd", "e", "[ac]fg")


def test_bcubed_of_a_partly_correct_set_by_hand() -> None:
    # TC-PA-6: response {ab} {cd} {e} {[ae]fg}. Plural entities count their set: sizes 2 2 1 3.
    scores = report(KEY_PA, ua_document("ab", "cd", "e", "[ae]fg")).metrics
    delta_recall = (2**2 / 2) / (2 + 2)  # B³ recall of {ab, cd} by {ab, e}
    delta_precision = (2**2 / 2 + 0) / (2 + 1)  # B³ precision
    recall = (2**2 / 2 + 2**2 / 2 + 1**2 / 1 + (2 + delta_recall) ** 2 / 3) / 8
    precision = (2**2 / 2 + 2**2 / 2 + 1**2 / 1 + (2 + delta_precision) ** 2 / 3) / 8
    assert rpf(scores["bcub"]) == pytest.approx((recall, precision, f1(recall, precision)))
    assert recall == pytest.approx(0.88542, abs=1e-5)  # the UA scorer's TC-PA-6 values
    assert precision == pytest.approx(0.92130, abs=1e-5)


def test_ceafm_takes_recall_and_precision_deltas_and_ua_compat_the_f1() -> None:
    # TC-PA-6 again: entities pair as in the key; the plural pair scores |fg| + δ.
    response = ua_document("ab", "cd", "e", "[ae]fg")
    delta_recall, delta_precision = 2 / 4, 2 / 3  # CEAFm of {ab, cd} against {ab, e}
    recall = (2 + 2 + 1 + 2 + delta_recall) / 8
    precision = (2 + 2 + 1 + 2 + delta_precision) / 8
    assert rpf(report(KEY_PA, response).metrics["ceafm"]) == pytest.approx(
        (recall, precision, f1(recall, precision)))
    delta_f1 = f1(delta_recall, delta_precision)
    ua = (2 + 2 + 1 + 2 + delta_f1) / 8
    assert rpf(report(KEY_PA, response, compat="ua").metrics["ceafm"]) == pytest.approx(
        (ua, ua, ua))
    assert ua == pytest.approx(0.94643, abs=1e-5)  # the UA scorer's TC-PA-6 value


def test_muc_penalizes_a_missing_set_by_one_link() -> None:
    # TC-PA-4: the response has no set; the key's plural entity loses its link to the set.
    scores = report(KEY_PA, ua_document("ab", "cd", "e", "fg")).metrics
    recall = (1 + 1 + 0 + (3 - 1 - (1 - 0))) / (1 + 1 + 0 + 2)
    assert rpf(scores["muc"]) == pytest.approx((recall, 1.0, f1(recall, 1.0)))


def test_muc_counts_a_set_link_only_where_the_entities_share_a_mention() -> None:
    # §5.2.2, system C: the set is aligned but the entities holding it share no mention.
    key = document(("a", [1], []), ("b", [2], []), ("p", [3, 4], ["a", "b"]))
    apart = document(("a", [1], []), ("b", [2], []), ("p", [5, 6], ["a", "b"]),
                     ("q", [3, 4], []))
    together = document(("a", [1], []), ("b", [2], []), ("p", [3, 4], ["a", "b"]))
    # p: |p| − partitions − (1 − δ) over |p| − 1 = 2 links; apart, δ = 0 although the sets match.
    assert report(key, apart).metrics["muc"].recall == pytest.approx((3 - 1 - 1) / 2)
    assert report(key, together).metrics["muc"].recall == pytest.approx(1.0)


def test_sets_of_singletons_resolved_perfectly_earn_full_credit() -> None:
    # "John met Mary. They …": both elements are singletons; every metric gives 1.
    key = document(("john", [1], []), ("mary", [2], []), ("they", [3, 4], ["john", "mary"]))
    scores = report(key, key).metrics
    for name in ("muc", "bcub", "ceafm", "ceafe", "lea", "blanc"):
        assert rpf(scores[name]) == pytest.approx((1.0, 1.0, 1.0)), name
    only = report(key, key, only_split_antecedents=True).metrics
    for name in ("muc", "bcub", "ceafm", "ceafe", "lea", "blanc"):
        assert rpf(only[name]) == pytest.approx((1.0, 1.0, 1.0)), name


def test_blanc_credits_links_to_the_set_by_hand() -> None:
    # Key: singletons a, b, c; p = {4, 5} ⊕ {a, b, c}. The response's set holds a and b only.
    key = document(("a", [1], []), ("b", [2], []), ("c", [3], []),
                   ("p", [4, 5], ["a", "b", "c"]))
    response = document(("a", [1], []), ("b", [2], []), ("c", [3], []),
                        ("p", [4, 5], ["a", "b"]))
    counts = report(key, response).counts["blanc"][0]
    # The sets as documents: no coreference link on either side; non-coreference links
    # ab ac bc in the key, ab in the response, ab in common.
    non_recall, non_precision = 1 / 3, 1 / 1
    coref_recall, coref_precision = non_recall, non_precision  # the kind that exists decides
    # Nodes 1 2 3 4 5 and the set s. Coreference links 4–5, 4–s, 5–s on both sides; the
    # links to s count δ for each of the 2 mentions p shares with the response's p.
    assert counts[:4].tolist() == pytest.approx([1 + coref_recall * 2, 3,
                                                 1 + coref_precision * 2, 3])
    # Non-coreference links: C(6, 2) − 3 = 12 on each side; among mentions the responses'
    # are the key's: C(5, 2) − 1 = 9; s–1, s–2, s–3 count δ each.
    assert counts[4:].tolist() == pytest.approx([9 + non_recall * 3, 12,
                                                 9 + non_precision * 3, 12])


def test_lea_importance_weighs_entities_with_a_set() -> None:
    # TC-PA-4: the plural entity (size 3) resolves 1 of its 3 links; β = 10 weighs it by 30.
    response = ua_document("ab", "cd", "e", "fg")
    for beta in (1.0, 10.0):
        scores = report(KEY_PA, response, lea_split_importance=beta).metrics
        recall = (2 * 1 + 2 * 1 + 1 * 1 + beta * 3 * (1 / 3)) / (2 + 2 + 1 + beta * 3)
        assert scores["lea"].recall == pytest.approx(recall)
        assert scores["lea"].precision == pytest.approx(1.0)


def test_entities_with_equal_sets_are_one_entity() -> None:
    # TC-PA-8: {[ac]f} {[bc]g} accommodate the same set {ab, cd}: one entity {[ac]fg}.
    result = report(KEY_PA, ua_document("ab", "cd", "e", "[ac]f", "[bc]g"))
    for name in ("muc", "bcub", "ceafm", "ceafe", "lea", "blanc"):
        assert rpf(result.metrics[name]) == pytest.approx((1.0, 1.0, 1.0)), name
    assert any("accommodate the same set" in warning and "3+4" in warning
               for warning in result.warnings)


def test_a_plural_entity_with_one_mention_is_not_a_singleton() -> None:
    key = document(("a", [1, 2], []), ("b", [3, 4], []), ("p", [5], ["a", "b"]))
    kept = report(key, key, keep_singletons=False)
    assert kept.counts["mentions"][0][1] == 5
    assert kept.metrics["muc"].recall_den == (1 + 1 + 1)


def test_singleton_elements_stay_elements_when_singletons_are_removed() -> None:
    key = document(("john", [1], []), ("mary", [2], []), ("they", [3, 4], ["john", "mary"]))
    wrong = document(("john", [1], []), ("mary", [2], []), ("they", [3, 4], ["john"]))
    perfect = report(key, key, keep_singletons=False)
    assert perfect.counts["mentions"][0][1] == 2  # john and mary are not scored as entities
    assert rpf(perfect.metrics["bcub"]) == pytest.approx((1.0, 1.0, 1.0))
    partial = report(key, wrong, keep_singletons=False)
    # B³: they = {3, 4} ⊕ set, δ = B³ recall of {john, mary} by {john} = 1/2.
    assert partial.metrics["bcub"].recall == pytest.approx((2 + 1 / 2) ** 2 / 3 / 3)


# Issue 22, inconsistency 2: the elements of the sets are aligned by the document's own
# alignment path, in the run's conventions. John and Mary are singletons, removed as entities
# but kept as elements, so their mentions are aligned apart from the document's. The response
# marks John as "John ," (tokens 1-2) with its MIN "John" (1): anascore's MIN matching leaves
# the key's "John" (no MIN) unmatched, while the UA scorer's, with compat="ua", also matches a
# response mention that contains the key mention when the key covers the response's MIN (U3),
# as it matches the document's mentions. The elements were re-matched with the plain matcher
# (bcub recall 25/36 under compat="ua" too): now the same matcher aligns both.
MIN_KEY = document(("john", [1], []), ("mary", [3], []), ("they", [5, 7], ["john", "mary"]))
MIN_RESPONSE = Document("doc", MIN_KEY.tokens, (
    Entity("john", (Mention((1, 2), min_tokens=(1,)),)), Entity("mary", (Mention((3,)),)),
    Entity("they", (Mention((5,)), Mention((7,))), ("john", "mary"))))


def test_set_elements_are_aligned_as_the_documents_mentions_are() -> None:
    plain = report(MIN_KEY, MIN_RESPONSE, keep_singletons=False, match="min")
    # B³: they = {5, 7} ⊕ set; the sets share Mary only: δ = B³ recall 1/2
    assert plain.metrics["bcub"].recall == pytest.approx((2 + 1 / 2) ** 2 / 3 / 3)
    ua = report(MIN_KEY, MIN_RESPONSE, keep_singletons=False, match="min", compat="ua")
    # the UA scorer's MIN matching pairs John with "John ,": the sets are equal, δ = 1
    for name in ("muc", "bcub", "ceafm", "ceafe", "lea", "blanc"):
        assert rpf(ua.metrics[name]) == pytest.approx((1.0, 1.0, 1.0)), name


# The same in anascore's own conventions, through the zero pairing: the key's zero e1 (6.1,
# subject of "greeted", DEPS 7:nsubj) is the response's 5.1, an empty node placed one word
# earlier with the same DEPS, which the dependent zero step pairs (zero_match="dependent").
# With singletons kept, e1 is scored and its zero aligned by that step: the set {e1, e2} is
# found whole. With singletons removed, e1 is an element only; its zero was re-matched by
# exact positions (6.1 ≠ 5.1): δ 1/2, MUC 0.75, B³ 25/36 where the same response scored 1.
SPLIT_ZERO = Path(__file__).resolve().parents[2] / "fixtures" / "corefud"


@pytest.mark.parametrize("singletons", [True, False])
def test_set_elements_go_through_the_zero_pairing(singletons: bool) -> None:
    result = anascore.score(SPLIT_ZERO / "split_zero_key.conllu",
                            SPLIT_ZERO / "split_zero_response.conllu",
                            keep_split_antecedents=True, keep_singletons=singletons,
                            metrics="muc,bcub,ceafe,lea,blanc")
    for name, score in result.metrics.items():
        assert rpf(score) == pytest.approx((1.0, 1.0, 1.0)), name
    [pair] = result.to_dict(details=True)["split_antecedents"]["d1"]["bcub"]
    assert (pair["key_elements"], pair["response_elements"], pair["f1"]) == (
        ["e2", "e1"], ["e2", "e1"], 1.0)


def test_only_split_antecedents_micro_averages_aligned_sets_with_empty_partners() -> None:
    # TC-PB-4 (§7): key sets {ab, cd} and {ab, e}; the response has only {ab, cd}.
    key = ua_document("ab", "cd", "e", "[ac]fg", "[ae]h")
    scores = report(key, ua_document("ab", "cd", "e", "[ac]fgh"),
                    only_split_antecedents=True).metrics
    # B³ between sets: {ab, cd} perfectly (4/4), {ab, e} paired with ∅ (0/3).
    assert rpf(scores["bcub"]) == pytest.approx((4 / 7, 4 / 4, f1(4 / 7, 1.0)))
    # MUC with singleton elements counted as one link: 2/2 and 0/2.
    assert rpf(scores["muc"]) == pytest.approx((2 / 4, 2 / 2, f1(2 / 4, 1.0)))


def test_only_split_antecedents_without_sets_scores_zero() -> None:
    plain = document(("a", [1, 2], []))
    scores = report(plain, plain, only_split_antecedents=True).metrics
    assert rpf(scores["muc"]) == (0.0, 0.0, 0.0)
    assert scores["mentions"].recall == 1.0  # mention identification is reported as usual


def test_without_keep_split_antecedents_plural_entities_are_ordinary() -> None:
    options = Options()
    record = count_document(KEY_PA, ua_document("ab", "cd", "e", "fg"), options, [])
    scores = Report.from_records(options, ["doc"], [record]).metrics
    assert rpf(scores["muc"]) == pytest.approx((1.0, 1.0, 1.0))


# The UA scorer's split-antecedent suite (plural-tests, also the CorefUD scorer's
# tests-ua/plural), re-encoded: the values its unit tests assert, to their tolerance 1e-4.
UA_CASES = {
    "PA1": (KEY_PA, ("ab", "cd", "e", "[ac]fg"), {"all": (1, 1, 1)}),
    "PA2": (KEY_PA, ("ab", "cd", "e", "[ad]fg"), {"all": (1, 1, 1)}),
    "PA3": (KEY_PA, ("ab", "cd", "e", "[bd]fg"), {"all": (1, 1, 1)}),
    "PA4": (KEY_PA, ("ab", "cd", "e", "fg"), {
        "muc": (3 / 4, 1, 6 / 7), "bcub": (19 / 24, 1, 38 / 43), "ceafe": (3.8 / 4,) * 3,
        "ceafm": (7 / 8, 1, 0.93333), "lea": (6 / 8, 1, 6 / 7)}),
    "PA5": (KEY_PA, ("ab", "cd", "e", "[ace]fg"), {
        "muc": (1, 11 / 12, 22 / 23), "bcub": (1, 0.95167, 0.97523),
        "ceafe": (0.98333,) * 3, "ceafm": (0.98611,) * 3, "lea": (1, 7.6 / 8, 38 / 39)}),
    "PA6": (KEY_PA, ("ab", "cd", "e", "[ae]fg"), {
        "muc": (7 / 8,) * 3, "bcub": (0.88542, 0.92130, 0.903), "ceafe": (0.95833,) * 3,
        "ceafm": (0.94643,) * 3, "lea": (7 / 8, 11 / 12, 0.89535)}),
    "PA7": (KEY_PA, ("ab", "c", "e", "[ac]fg"), {
        "muc": (5 / 8, 5 / 6, 5 / 7), "bcub": (0.72461, 1, 0.84032), "ceafe": (0.90278,) * 3,
        "ceafm": (0.85714, 0.97959, 0.91429), "lea": (5 / 8, 16 / 21, 0.68670)}),
    "PA8": (KEY_PA, ("ab", "cd", "e", "[ac]f", "[bc]g"), {"all": (1, 1, 1)}),
    "PA9": (KEY_PA, ("ab", "cde", "[ac]fg"), {
        "muc": (1, 11 / 15, 11 / 13), "bcub": (1, 0.75463, 0.86016),
        "ceafe": (0.69167, 0.92222, 0.79048), "ceafm": (0.86111,) * 3,
        "lea": (7 / 8, 5.2 / 8, 0.74590)}),
    "PA10": (KEY_PA, ("ab", "cd", "e", "[ac]f", "[bce]g"), {
        "muc": (3 / 4,) * 3, "bcub": (0.83333,) * 3, "ceafe": (3.8 / 4, 3.8 / 5, 0.84444),
        "ceafm": (7 / 8, 7 / 9, 0.82353), "lea": (6 / 8, 7 / 9, 0.76364)}),
    "PA11": (KEY_PA, ("ab", "cd", "e", "[ab]fg"), {
        "muc": (7 / 8, 1, 14 / 15), "bcub": (0.88542, 1, 0.93923), "ceafe": (0.97222,) * 3,
        "ceafm": (0.95833,) * 3, "lea": (7 / 8, 1, 14 / 15)}),
    "PB1": ("B", ("ab", "cd", "e", "[ac]fg", "[ae]h"), {"all": (1, 1, 1)}),
    "PB2": ("B", ("ab", "cd", "e", "[ad]fg", "[be]h"), {"all": (1, 1, 1)}),
    "PB3": ("B", ("ab", "cd", "e", "[ac]fg", "[ace]h"), {
        "muc": (1, 14 / 15, 28 / 29), "bcub": (1, 9.28 / 10, 0.96266), "ceafe": (4.9 / 5,) * 3,
        "ceafm": (0.975,) * 3, "lea": (1, 9.2 / 10, 0.95833)}),
    "PB4": ("B", ("ab", "cd", "e", "[ac]fgh"), {
        "muc": (4 / 5,) * 3, "bcub": (8.5 / 10, 7.5 / 9, 0.84158),
        "ceafe": (0.77143, 0.96429, 0.85714), "ceafm": (8 / 10, 8 / 9, 0.84211),
        "lea": (8 / 10, 7 / 9, 0.78873)}),
}
KEY_PB = ua_document("ab", "cd", "e", "[ac]fg", "[ae]h")


@pytest.mark.parametrize("case", sorted(UA_CASES))
def test_the_ua_scorers_plural_cases_under_ua_compat(case: str) -> None:
    key, response, expected = UA_CASES[case]
    key_document = KEY_PB if key == "B" else key
    scores = report(key_document, ua_document(*response), compat="ua").metrics
    if "all" in expected:
        expected = {name: expected["all"]
                    for name in ("muc", "bcub", "ceafe", "ceafm", "blanc", "lea")}
    for name, values in expected.items():
        assert rpf(scores[name]) == pytest.approx(values, abs=1e-4), name


def test_options_need_keep_for_only_and_a_positive_importance() -> None:
    with pytest.raises(OptionsError, match="keep_split_antecedents"):
        Options(only_split_antecedents=True)
    with pytest.raises(OptionsError, match="lea_split_importance"):
        Options(keep_split_antecedents=True, lea_split_importance=-1)
    with pytest.raises(OptionsError, match="compat"):
        Options(compat="ua1")


def test_the_signature_states_the_mode() -> None:
    assert "split_antecedents:" not in Options().signature()
    assert "split_antecedents:keep" in Options(keep_split_antecedents=True).signature()
    only = Options(keep_split_antecedents=True, only_split_antecedents=True)
    assert "split_antecedents:only" in only.signature()
    beta = Options(keep_split_antecedents=True, lea_split_importance=10).signature()
    assert "lea_split_importance:10" in beta
    assert "compat:ua" in Options(compat="ua").signature()


def test_a_non_referring_markable_can_be_an_element() -> None:
    # CODI-CRAC files have plurals whose ElementOf is on a non-referring markable: the
    # pseudo-entity is an element, not an entity.
    expletive = Mention((3,), attributes=MappingProxyType({"EntityID": "9-Pseudo"}))
    key = replace(document(("a", [1, 2], []), ("p", [5, 6], ["a", "9-Pseudo"])),
                  non_referring=(expletive,))
    response = document(("a", [1, 2], []), ("p", [5, 6], ["a"]))
    perfect = report(key, key)
    assert perfect.counts["mentions"][0][1] == 4
    assert rpf(perfect.metrics["bcub"]) == pytest.approx((1.0, 1.0, 1.0))
    pair = perfect.split_antecedent_details()["doc"]["bcub"][0]
    assert pair["key_elements"] == ["a", "9-Pseudo"]
    # B³ recall of {a, 9-Pseudo} by {a}: 2²/2 of 2 + 1 mentions.
    delta = (2**2 / 2) / 3
    recall = (2**2 / 2 + (2 + delta) ** 2 / 3) / 5
    assert report(key, response).metrics["bcub"].recall == pytest.approx(recall)


def test_an_element_naming_no_entity_is_an_error() -> None:
    key = document(("a", [1], []), ("p", [2], ["a", "nobody"]))
    with pytest.raises(FormatError, match="'nobody', which is not an entity"):
        report(key, key)


def test_a_plural_that_is_its_own_element_is_an_error() -> None:
    key = document(("a", [1], []), ("p", [2], ["a", "q"]), ("q", [3], ["p"]))
    with pytest.raises(FormatError, match="element of itself"):
        report(key, key)
