"""Head, partial and CRAFT matching, zeros by dependencies, MOR and the zero score: values
computed by hand from the definitions (CorefUD scorer README; Žabokrtský et al. 2022)."""

from __future__ import annotations

from dataclasses import replace

import pytest

import anascore
from anascore.compat.ua_scorer import whole_matrix_pairs
from anascore.config.options import Options
from anascore.core.model import ConlluNodes, Document, Entity, Mention
from anascore.matching import partial
from anascore.matching.optimal import best_pairs
from anascore.matching.zero_pairing import dependency_score, parse_deps
from anascore.scoring.document import count_document
from tests.support.paths import FIXTURES

FIXTURES = FIXTURES / "corefud"
KEY = FIXTURES / "match_key.conllu"


def mention(*tokens: int, head: int | None = None) -> Mention:
    return Mention(tuple(tokens), head=head)


# Key "the old man" (positions 2 3 4, head man = 4) and "him" (7) are one entity.
@pytest.mark.parametrize(("response", "match", "muc_recall"), [
    # Response: "the … man" (2, 4, discontinuous) with "him"; "old man" (3 4) alone. Both
    # are headed by "man" and cover 2/3 of the key mention: the tie goes to the earlier
    # start, "the … man", so the key link is found.
    ("tie", "head", 1.0), ("tie", "partial", 1.0), ("tie", "craft", 1.0),
    ("tie", "exact", 0.0),
    # Response: "the old" (2 3, head "the") with "him"; "man" (4) alone. Head and partial
    # matching need the key's head "man": the key mention goes to "man", the link is lost.
    # CRAFT needs only a run inside the key: "the old" comes first and takes it.
    ("no_head", "head", 0.0), ("no_head", "partial", 0.0), ("no_head", "craft", 1.0),
])
def test_matching_methods_on_a_key_mention_and_two_candidates(response: str, match: str,
                                                              muc_recall: float) -> None:
    report = anascore.score(KEY, FIXTURES / f"match_response_{response}.conllu", match=match,
                            metrics="muc")
    assert report.metrics["muc"].recall == muc_recall


def test_head_match_needs_the_same_head_even_for_the_same_span() -> None:
    key = [mention(2, 3, 4, head=4)]
    assert partial.align_head(key, [mention(2, 3, 4, head=2)]) == []
    assert partial.align_head(key, [mention(2, 3, 4, head=4)]) == [(0, 0)]
    assert partial.align_partial(key, [mention(2, 3, 4, head=2)]) == [(0, 0)]


def test_head_match_prefers_the_largest_share_of_the_key() -> None:
    key = [mention(1, 2, 3, 4, head=4)]
    response = [mention(4, head=4), mention(2, 3, 4, head=4), mention(3, 4, head=4)]
    # Scores 1/4, 3/4, 2/4: the second.
    assert partial.align_head(key, response) == [(0, 1)]


def test_partial_match_requires_the_response_inside_the_key_with_its_head() -> None:
    key = [mention(1, 2, 3, head=2)]
    assert partial.align_partial(key, [mention(2, 3, 4, head=2)]) == []  # not inside
    assert partial.align_partial(key, [mention(1, head=1)]) == []          # no head
    assert partial.align_partial(key, [mention(2, head=2)]) == [(0, 0)]


def test_craft_greedy_order_and_minimal_span() -> None:
    # Key A = 0..3, key B = 2..5 (B's first run is its whole span). Response r = 2..3 lies
    # inside both; it takes the first key in mention order, A. Response s = 4..5 lies only
    # inside B.
    keys = [mention(2, 3, 4, 5), mention(0, 1, 2, 3)]
    responses = [mention(4, 5), mention(2, 3)]
    assert sorted(partial.align_craft(keys, responses)) == [(0, 0), (1, 1)]
    # A discontinuous key's minimal span is its first run only.
    assert partial.align_craft([mention(0, 1, 5, 6)], [mention(5, 6)]) == []
    assert partial.align_craft([mention(0, 1, 5, 6)], [mention(1)]) == [(0, 0)]


def test_best_pairs_breaks_ties_by_mention_order() -> None:
    scores = {(0, 0): 0.5, (0, 1): 0.5, (1, 1): 0.5}
    # Key 1 can only take response 1, so key 0 takes response 0: both pairs kept.
    assert sorted(best_pairs(scores, {0: 0, 1: 1}, {0: 0, 1: 1})) == [(0, 0), (1, 1)]
    # One key, two equal responses: the one ranked first.
    assert best_pairs({(0, 0): 0.5, (0, 1): 0.5}, {0: 0}, {0: 1, 1: 0}) == [(0, 1)]


def test_dependency_score() -> None:
    # 10·F(parent+relation) + F(parent).
    nsubj, obj = parse_deps("4:nsubj"), parse_deps("4:obj")
    assert dependency_score(nsubj, nsubj) == 10 + 1
    assert dependency_score(nsubj, obj) == 1           # same parent, other relation
    both = parse_deps("4:nsubj|6:nsubj")
    # Pairs: 1 common of 2 and 1 → F = 2·(1/2)·1/(1/2 + 1) = 2/3; parents likewise.
    assert dependency_score(both, nsubj) == pytest.approx(10 * 2 / 3 + 2 / 3)
    assert dependency_score(parse_deps("_"), nsubj) == 0
    assert parse_deps("5:obl:in") == frozenset({("5", "obl:in")})


def _document(entities: list[list[Mention]], empty: set[int], tokens: int) -> Document:
    nodes = ConlluNodes(tuple(f"{p}.1" if p in empty else str(p + 1) for p in range(tokens)),
                        (0,) * tokens, tuple(p in empty for p in range(tokens)),
                        ("_",) * tokens, (0,) * tokens, ("s",), (1,))
    return Document("d", ("w",) * tokens, tuple(Entity(f"e{number}", tuple(mentions))
                                                for number, mentions in enumerate(entities)),
                    nodes=nodes)


def test_mention_overlap_ratio() -> None:
    # Key mentions 0..3 (4 tokens) and 6 (1); response 1..2 (2) and 3..6 (4). Best pairing
    # by shared tokens: 0..3 with 1..2 (2) and 6 with 3..6 (1) = 3, or 0..3 with 3..6 (1)
    # and nothing for 6 = 1: so 3. R = 3/5, P = 3/6.
    key = _document([[mention(0, 1, 2, 3)], [mention(6)]], set(), 8)
    response = _document([[mention(1, 2), mention(3, 4, 5, 6)]], set(), 8)
    counts = count_document(key, response, Options.create(metrics="mor"), [])["mor"]
    assert counts.tolist() == [3, 5, 3, 6]


def test_mention_overlap_ratio_pairs_copies_of_a_span_one_to_one() -> None:
    # compat="ua" keeps every copy of a repeated key span (UA documents): key 0..1 twice
    # (entities e0, e1) and 2, response 0..1 and 2. One to one, the second copy of 0..1 is
    # left unpaired: 2 + 1 = 3 shared tokens, R = 3/5, P = 3/3. Both copies were paired with
    # the one response 0..1: 5 shared tokens, P = 5/3 (166.67).
    key = replace(_document([[mention(0, 1), mention(2)], [mention(0, 1)]], set(), 3),
                  source_format="ua")
    response = replace(_document([[mention(0, 1), mention(2)]], set(), 3), source_format="ua")
    options = Options.create(metrics="mor", compat="ua")
    counts = count_document(key, response, options, [])["mor"]
    assert counts.tolist() == [3, 5, 3, 3]


def test_zero_anaphor_score() -> None:
    # Positions 2, 5, 8 are empty nodes. Key: A = {0, 2(zero), 5(zero)}; B = {6, 8(zero)}.
    # Response: {0, 2, 8}; {5}; {6}. Anaphors (key zeros after their entity's first mention):
    # 2 → in {0, 2, 8}, as the key's 0: TP; 5 → {5} is a first mention: FN;
    # 8 → {0, 2, 8} holds no counterpart of B's earlier 6: WL. Response zeros not first of
    # their entity and nobody's counterpart: none. R = 1/3, P = 1/(1 + 0 + 1).
    key = _document([[mention(0), mention(2), mention(5)], [mention(6), mention(8)]],
                    {2, 5, 8}, 9)
    response = _document([[mention(0), mention(2), mention(8)], [mention(5)], [mention(6)]],
                         {2, 5, 8}, 9)
    counts = count_document(key, response, Options.create(metrics="zero"), [])["zero"]
    assert counts.tolist() == [1, 3, 1, 2]


def test_whole_matrix_ties_differ_from_the_documented_rule() -> None:
    # Key 0 has no candidate; key 1 scores the same with responses 0 and 1. The documented
    # rule gives key 1 the earlier response, 0. The CorefUD scorer's assignment over the whole
    # matrix [[0, 0], [s, s]] returns the identity pairing (row 0 takes column 0, a zero,
    # dropped), so key 1 gets response 1: what compat="ua" reproduces.
    scores = {(1, 0): 1.0, (1, 1): 1.0}
    ranks = {0: 0, 1: 1}
    assert best_pairs(scores, ranks, ranks) == [(1, 0)]
    assert whole_matrix_pairs(scores, ranks, ranks) == [(1, 1)]
