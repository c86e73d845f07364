"""Non-referring, bridging, discourse deixis, MIN-span matching and the UA scorer's BLANC
convention, on hand-computed cases (expected values written as their derivations)."""

from __future__ import annotations

import pytest

from anascore.compat import conventions_named
from anascore.compat.ua_scorer import align_min_ua
from anascore.config.options import Options
from anascore.core.model import BridgingLink, Document, Entity, Mention
from anascore.matching import matcher_for
from anascore.matching.min_span import align_min, min_match_worth
from anascore.report import Report
from anascore.scoring.document import count_document

WORDS = tuple(f"w{index}" for index in range(20))


def mention(*tokens: int, min_tokens: tuple[int, ...] | None = None) -> Mention:
    return Mention(tuple(tokens), min_tokens=min_tokens)


def entity(name: str, *mentions: Mention) -> Entity:
    return Entity(name, mentions)


def doc(*entities: Entity, **layers) -> Document:
    """A document as the UA reader gives it (``compat="ua"`` treats UA input its own way)."""
    return Document("d", WORDS, entities, source_format="ua", **layers)


def scores(key: Document, response: Document, **settings):
    options = Options.create(**settings)
    return Report.from_records(options, ["d"], [count_document(key, response, options, [])]
                               ).metrics


def rpf(score) -> tuple[float, float, float]:
    return score.recall, score.precision, score.f1


def f1(recall: float, precision: float) -> float:
    return 2 * recall * precision / (recall + precision) if recall + precision else 0.0


# ---------------------------------------------------------------- non-referring

def test_non_referring_identification() -> None:
    # key marks 1, 4, 7-9 non-referring; the response 1 and 12
    key = doc(non_referring=(mention(1), mention(4), mention(7, 8, 9, min_tokens=(8,))))
    response = doc(non_referring=(mention(1), mention(12)))
    result = scores(key, response, keep_non_referring=True)["non_referring"]
    assert rpf(result) == pytest.approx((1 / 3, 1 / 2, f1(1 / 3, 1 / 2)))


def test_non_referring_with_min_spans() -> None:
    # 8-9 lies within the key's 7-9 and covers its MIN (8): found under match="min" only;
    # compat="ua" matches non-referring markables exactly, as the UA scorer does
    key = doc(non_referring=(mention(1), mention(7, 8, 9, min_tokens=(8,))))
    response = doc(non_referring=(mention(1), mention(8, 9)))
    assert rpf(scores(key, response, keep_non_referring=True, match="min")["non_referring"]
               ) == pytest.approx((2 / 2, 2 / 2, 1.0))
    assert rpf(scores(key, response, keep_non_referring=True, match="exact")["non_referring"]
               ) == pytest.approx((1 / 2, 1 / 2, 1 / 2))
    assert rpf(scores(key, response, keep_non_referring=True, match="min",
                      compat="ua")["non_referring"]) == pytest.approx((1 / 2, 1 / 2, 1 / 2))


def test_non_referring_markables_never_join_identity_entities() -> None:
    key = doc(entity("1", mention(0), mention(3)), non_referring=(mention(5),))
    response = doc(entity("1", mention(0), mention(3), mention(5)))
    result = scores(key, response, keep_non_referring=True)
    # the response calls 5 referring (coreferent with 0 and 3): a wrong mention for identity,
    # a missed one for non-referring identification
    assert rpf(result["mentions"]) == pytest.approx((2 / 2, 2 / 3, f1(1.0, 2 / 3)))
    assert rpf(result["non_referring"]) == pytest.approx((0.0, 0.0, 0.0))


# ---------------------------------------------------------------- bridging

HOUSE, IT = mention(0), mention(5)
DOOR, ROOF, WINDOW, CHIMNEY = mention(2, 3, min_tokens=(3,)), mention(7), mention(9), mention(8)
KEY_ENTITIES = (entity("house", HOUSE, IT), entity("door", DOOR), entity("roof", ROOF),
                entity("window", WINDOW))


def test_bridging_anaphors_mention_and_entity_anchors() -> None:
    key = doc(*KEY_ENTITIES, bridging=(
        BridgingLink(DOOR, HOUSE, "house", "part-of"),
        BridgingLink(ROOF, IT, "house", "part-of"),
        BridgingLink(WINDOW, HOUSE, "house", "part-of")))
    response = doc(*KEY_ENTITIES, entity("chimney", CHIMNEY), bridging=(
        BridgingLink(DOOR, HOUSE, "house", "part-of"),      # right anchor mention
        BridgingLink(ROOF, HOUSE, "house", "part-of"),      # another mention of the anchor
        BridgingLink(CHIMNEY, HOUSE, "house", "part-of")))  # not a bridging anaphor
    result = scores(key, response, keep_bridging=True)["bridging"]
    # anaphors: door and roof of the key's three, of the response's three
    assert rpf(result.anaphor_recognition) == pytest.approx((2 / 3, 2 / 3, 2 / 3))
    # mention anchors: only the door's
    assert rpf(result.mention) == pytest.approx((1 / 3, 1 / 3, 1 / 3))
    # entity anchors: the door's and the roof's (house is a mention of the house entity)
    assert rpf(result.entity) == pytest.approx((2 / 3, 2 / 3, 2 / 3))
    assert rpf(result) == rpf(result.entity)


def test_bridging_with_min_spans_and_two_anchors() -> None:
    key = doc(*KEY_ENTITIES, bridging=(
        BridgingLink(DOOR, HOUSE, "house", "part-of"),
        BridgingLink(DOOR, ROOF, "roof", "next-to")))
    short_door = mention(3)
    response = doc(entity("house", HOUSE, IT), entity("door", short_door),
                   entity("roof", ROOF), bridging=(
                       BridgingLink(short_door, IT, "house", "part-of"),))
    exact = scores(key, response, keep_bridging=True)["bridging"]
    assert rpf(exact.anaphor_recognition) == pytest.approx((0.0, 0.0, 0.0))
    result = scores(key, response, keep_bridging=True, match="min")["bridging"]
    # "door" (3) lies within "the door" (2-3) and covers its MIN: the anaphor is found
    assert rpf(result.anaphor_recognition) == pytest.approx((1 / 1, 1 / 1, 1.0))
    # two key links (house, roof), one response link to "it": not the annotated mention …
    assert rpf(result.mention) == pytest.approx((0 / 2, 0 / 1, 0.0))
    # … but a mention of the house entity: one of the two key links, the one response link
    assert rpf(result.entity) == pytest.approx((1 / 2, 1 / 1, f1(1 / 2, 1.0)))


def test_bridging_anchor_given_as_an_entity() -> None:
    key = doc(*KEY_ENTITIES, bridging=(BridgingLink(DOOR, HOUSE, "house"),))
    response = doc(entity("h", HOUSE, IT), entity("door", DOOR),
                   bridging=(BridgingLink(DOOR, None, "h"),))
    result = scores(key, response, keep_bridging=True)["bridging"]
    # the response names no anchor mention: nothing to count on its side at the mention level
    # (the key's link is missed); its anchor entity holds the key's anchor mention
    assert (result.mention.recall_num, result.mention.recall_den,
            result.mention.precision_den) == (0, 1, 0)
    assert rpf(result.entity) == pytest.approx((1.0, 1.0, 1.0))
    # a link that names only an entity, on both sides, is not counted at the mention level
    both = doc(*KEY_ENTITIES, bridging=(BridgingLink(DOOR, None, "house"),))
    result = scores(both, both, keep_bridging=True)["bridging"]
    assert (result.mention.recall_den, result.mention.precision_den) == (0, 0)
    assert rpf(result.entity) == (1.0, 1.0, 1.0)


def test_compat_ua_keeps_the_last_link_of_an_anaphor() -> None:
    key = doc(*KEY_ENTITIES, bridging=(
        BridgingLink(DOOR, ROOF, "roof"), BridgingLink(DOOR, HOUSE, "house")))
    response = doc(*KEY_ENTITIES, bridging=(BridgingLink(DOOR, HOUSE, "house"),))
    default = scores(key, response, keep_bridging=True)["bridging"]
    assert rpf(default.mention) == pytest.approx((1 / 2, 1 / 1, f1(1 / 2, 1.0)))
    ua = scores(key, response, keep_bridging=True, compat="ua")["bridging"]
    assert rpf(ua.mention) == pytest.approx((1.0, 1.0, 1.0))


# ---------------------------------------------------------------- discourse deixis

def test_discourse_deixis_is_scored_with_the_identity_metrics() -> None:
    segment, that, this = mention(0, 1, 2, 3), mention(5), mention(9)
    key = doc(entity("1", mention(5), mention(12)),
              discourse_deixis=(entity("1-DD", segment, that, this),))
    response = doc(entity("1", mention(5), mention(12)),
                   discourse_deixis=(entity("7-DD", segment, that), entity("8-DD", this)))
    result = scores(key, response, discourse_deixis=True)
    # the identity layer is untouched
    assert rpf(result["muc"]) == (1.0, 1.0, 1.0)
    # MUC on the layer: the key chain of 3 is split in 2: (3 − 2) / 2; response links 1 + 0
    assert rpf(result["discourse_deixis.muc"]) == pytest.approx((1 / 2, 1 / 1, f1(1 / 2, 1)))
    # B3: recall (2² / 3 + 1² / 3) / 3, precision (2² / 2 + 1² / 1) / 3
    recall, precision = (4 / 3 + 1 / 3) / 3, (4 / 2 + 1 / 1) / 3
    assert rpf(result["discourse_deixis.bcub"]) == pytest.approx(
        (recall, precision, f1(recall, precision)))
    expected = scores(doc(*key.discourse_deixis), doc(*response.discourse_deixis))
    for name in ("mentions", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea"):
        assert result[f"discourse_deixis.{name}"] == expected[name]
    assert result["discourse_deixis.conll"].f1 == expected["conll"].f1


def test_discourse_deixis_with_min_spans() -> None:
    segment = mention(0, 1, 2, 3, min_tokens=(1, 2))
    key = doc(discourse_deixis=(entity("1-DD", segment, mention(5)),))
    response = doc(discourse_deixis=(entity("1-DD", mention(1, 2, 3), mention(5)),))
    result = scores(key, response, discourse_deixis=True, match="min",
                    metrics="muc,conll")
    assert rpf(result["discourse_deixis.muc"]) == (1.0, 1.0, 1.0)
    assert set(result) == {"muc", "conll", "discourse_deixis.muc", "discourse_deixis.conll"}


def test_discourse_deixis_plurals_are_scored_and_detailed_like_identity_ones() -> None:
    # a plural segment whose set is two other segments: the response gives it one of them
    first, second, both = mention(0, 1), mention(3, 4), mention(0, 1, 2, 3, 4)
    key_layer = (entity("1-DD", first, mention(6)), entity("2-DD", second, mention(8)),
                 Entity("3-DD", (both, mention(10)), ("1-DD", "2-DD")))
    response_layer = (entity("1-DD", first, mention(6)), entity("2-DD", second, mention(8)),
                      Entity("3-DD", (both, mention(10)), ("1-DD",)))
    options = Options(discourse_deixis=True, keep_split_antecedents=True)
    details: list = []
    counts = count_document(doc(discourse_deixis=key_layer),
                            doc(discourse_deixis=response_layer), options, [], details)
    layered = Report.from_records(options, ["d"], [counts]).metrics
    identity_details: list = []
    identity = Report.from_records(options, ["d"], [count_document(
        doc(*key_layer), doc(*response_layer), options, [], identity_details)]).metrics
    for name in ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea"):
        assert layered[f"discourse_deixis.{name}"] == identity[name], name
    # MUC recall (Paun et al. 2023 §5.2): key links 1 + 1 + 2 (the set is one more element
    # of 3-DD), 3 found among mentions, and the link to the set found up to δ, the MUC recall
    # of {1, 2} against {1}: one of the two elements' links (each of 2 mentions), 1 / 2
    assert layered["discourse_deixis.muc"].recall == pytest.approx((3 + 1 / 2) / (1 + 1 + 2))
    # --details: the layer's set alignments under the layer's metric names
    (found,) = details
    assert set(found) == {f"discourse_deixis.{name}" for name in identity_details[0]}
    (pair,) = found["discourse_deixis.muc"].to_list()
    assert (pair["key_entity"], pair["response_entity"]) == ("3-DD", "3-DD")
    assert (pair["key_elements"], pair["response_elements"]) == (["1-DD", "2-DD"], ["1-DD"])


# ---------------------------------------------------------------- MIN spans

def test_min_match_worth() -> None:
    key = mention(2, 3, 4, 5, min_tokens=(4,))
    assert min_match_worth(key, mention(3, 4)) == 2 / 4
    assert min_match_worth(key, mention(2, 3)) == 0.0        # misses the MIN
    assert min_match_worth(key, mention(4, 5, 6)) == 0.0     # goes beyond the key
    assert min_match_worth(mention(2, 3), mention(2)) == 0.0  # a key without MIN


def test_min_alignment_is_exact_first_then_an_optimal_assignment() -> None:
    # k1 = 0-3 (MIN 1), k2 = 1-5 (MIN 3), k3 = 7 (exact); r1 = 1-2, r2 = 1-3, r3 = 7.
    # worths: k1–r1 2/4, k1–r2 3/4, k2–r2 3/5; k2–r1 misses k2's MIN. Taking the largest first
    # (k1–r2) leaves k2 alone (3/4); the best pairing is k1–r1 and k2–r2 (2/4 + 3/5).
    key = [mention(0, 1, 2, 3, min_tokens=(1,)), mention(1, 2, 3, 4, 5, min_tokens=(3,)),
           mention(7)]
    response = [mention(7), mention(1, 2), mention(1, 2, 3)]
    alignment = align_min(key, response)
    assert sorted(zip(alignment.key.tolist(), alignment.response.tolist(), strict=True)) == [
        (0, 1), (1, 2), (2, 0)]
    assert align_min_ua(key, response).key.size == 3


def test_min_matching_in_the_metrics() -> None:
    key = doc(entity("1", mention(0, 1, 2, min_tokens=(2,)), mention(6)),
              entity("2", mention(8, 9, min_tokens=(9,))))
    response = doc(entity("1", mention(1, 2), mention(6)), entity("2", mention(8)))
    exact = scores(key, response, match="exact")
    assert rpf(exact["mentions"]) == pytest.approx((1 / 3, 1 / 3, 1 / 3))
    result = scores(key, response, match="min")
    # 1-2 matches 0-2; 8 misses the MIN of 8-9
    assert rpf(result["mentions"]) == pytest.approx((2 / 3, 2 / 3, 2 / 3))
    assert rpf(result["muc"]) == pytest.approx((1 / 1, 1 / 1, 1.0))


def test_compat_ua_also_tries_the_response_min() -> None:
    # the response mention 1-4 contains the key mention 2-3 (no MIN), which covers the
    # response's own MIN (2): the UA scorer 2.0 matches them, anascore does not
    key = [mention(2, 3)]
    response = [mention(1, 2, 3, 4, min_tokens=(2,))]
    assert len(align_min(key, response)) == 0
    assert len(align_min_ua(key, response)) == 1
    # the matcher of the conventions handed down (the pipeline resolves them from compat)
    assert matcher_for(Options(match="min"), conventions_named("ua")) is align_min_ua
    assert matcher_for(Options(match="min")) is align_min
    assert matcher_for(Options(match="min"), conventions_named("none")) is align_min


# ---------------------------------------------------------------- BLANC convention

def test_blanc_when_the_key_has_no_non_coreference_links() -> None:
    # key {abcd}: 6 coreference links, no non-coreference link; response {ab} {cd}: 2 and 4
    key = doc(entity("1", mention(0), mention(1), mention(2), mention(3)))
    response = doc(entity("1", mention(0), mention(1)), entity("2", mention(2), mention(3)))
    coref = (2 / 6, 2 / 2, f1(2 / 6, 1.0))
    # the reference scorer v8.01: the coreference half alone
    assert rpf(scores(key, response)["blanc"]) == pytest.approx(coref)
    # the UA scorer: the response has non-coreference links (4, none right): that half is
    # scored too, as zeros, and averaged in — half the v8.01 values
    ua = scores(key, response, compat="ua")["blanc"]
    assert rpf(ua) == pytest.approx(tuple(value / 2 for value in coref))
    assert rpf(ua.non_coref_links) == (0.0, 0.0, 0.0)


def test_blanc_with_no_link_of_either_kind() -> None:
    key = doc(entity("1", mention(0)))
    assert rpf(scores(key, key)["blanc"]) == (0.0, 0.0, 0.0)
    assert rpf(scores(key, key, compat="ua")["blanc"]) == (0.0, 0.0, 0.0)


# ---------------------------------------------------------------- repeated mentions

def test_compat_ua_counts_repeated_mentions_as_the_ua_scorer() -> None:
    # key {a b} {c}; the response puts b in two entities: {a b} {b c}
    a, b, c = mention(0), mention(1), mention(2)
    key = doc(entity("K0", a, b), entity("K1", c))
    response = doc(entity("R0", a, b), entity("R1", b, c))
    # anascore keeps one copy of b, in the entity first in text order: the key itself
    default = scores(key, response)
    assert rpf(default["bcub"]) == (1.0, 1.0, 1.0)
    # the UA scorer keeps both copies; a span belongs to the last entity holding it (b to R1)
    ua = scores(key, response, compat="ua")
    # B3 recall: K0's a goes to R0, its b to R1; K1's c to R1: (1²/2 + 1²/2 + 1²/1) / 3
    # B3 precision: R0's a and b both go to K0; R1's b to K0, c to K1: (2²/2 + 2 · 1²/2) / 4
    assert rpf(ua["bcub"]) == pytest.approx((2 / 3, 3 / 4, f1(2 / 3, 3 / 4)))
    # MUC: K0 split in two: 0 of 1 link; R0 whole (1 link), R1 split: 1 of 2 links
    assert rpf(ua["muc"]) == pytest.approx((0.0, 1 / 2, 0.0))
    # CEAFm: a key copy counts for every response entity holding its span: K0–R0 2, K1–R1 1,
    # over 3 key and 4 response copies
    assert rpf(ua["ceafm"]) == pytest.approx((3 / 3, 3 / 4, f1(1.0, 3 / 4)))


def test_the_copy_kept_of_a_repeated_span_never_depends_on_file_order() -> None:
    # One key entity annotates the span 0–2 twice, once with the MIN span 0. The copy with the
    # MIN span is kept whatever the order, so the response mention 0–1 (inside 0–2, covering
    # its MIN span) matches it under MIN matching.
    with_min, without_min = mention(0, 1, 2, min_tokens=(0,)), mention(0, 1, 2)
    response = doc(entity("R", mention(0, 1)))
    for copies in ((with_min, without_min), (without_min, with_min)):
        key = doc(entity("K", mention(3), *copies))
        assert rpf(scores(key, response, match="min")["mentions"]) == (0.5, 1.0, f1(0.5, 1.0))


def test_an_anaphor_written_twice_is_scored_alike_in_either_order() -> None:
    # Found by test_ua_properties.test_order_never_changes_a_score: a key anaphor with two
    # links, its span written once without and once with a MIN span (tokens 1-3, MIN 1); the
    # response's anaphor is token 1 alone. Under MIN matching it matches the copy with the
    # MIN span; which copy counted used to be the first link's, so the order of the links
    # decided whether the anaphor was found (recognition recall 0/2 or 1/2).
    from anascore.core.model import BridgingLink, Document, Entity, Mention
    from anascore.scoring.document import count_document

    anchor = Entity("a", (Mention((0,)),))
    plain, with_min = Mention((1, 2, 3)), Mention((1, 2, 3), min_tokens=(1,))
    links = (BridgingLink(plain, None, "a"), BridgingLink(with_min, None, "a"))
    response = Document("d", ("w0", "w1", "w2", "w3"), (anchor,),
                        bridging=(BridgingLink(Mention((1,)), None, "a"),))
    options = Options(match="min", keep_bridging=True, metrics=("bridging",))
    counts = [count_document(Document("d", ("w0", "w1", "w2", "w3"), (anchor,),
                                      bridging=order), response, options, [])["bridging"]
              for order in (links, links[::-1])]
    assert counts[0].tolist() == counts[1].tolist()
    # the anaphor (one span) is found: recognition recall 1 of 1, precision 1 of 1
    assert counts[0][:4].tolist() == [1.0, 1.0, 1.0, 1.0]
