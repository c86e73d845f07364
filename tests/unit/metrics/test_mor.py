"""MOR's counts against the definition: the best one-to-one pairing of key and response
mentions by shared positions, found here by brute force over every pairing.

count_mor takes shortcuts (identical spans set aside through sets when each span is there once,
or read off exact matching's look-up of each response span; overlaps of contiguous spans found
by their ends; a pairing read off directly when no mention overlaps two others); these tests
hold the shortcuts to the definition, on hand-made cases and on hypothesis inputs with and
without copies of a span, contiguous or not."""

from __future__ import annotations

from itertools import permutations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from anascore.comparison.contingency import Comparison, Contingency
from anascore.config.options import Options
from anascore.core.model import Mention
from anascore.matching.exact import Alignment, align_exact_spans
from anascore.metrics.mor import _shared_positions, _span_overlaps, count_mor
from anascore.selection.sides import Side


def comparison(key: list[tuple[int, ...]], response: list[tuple[int, ...]],
               exact: bool = False) -> Comparison:
    """A comparison whose sides hold these mentions (one entity each; MOR reads only the
    mentions), aligned by exact matching when ``exact`` (which looks each response span up
    among the key's), else not aligned."""
    def side(spans: list[tuple[int, ...]]) -> Side:
        return Side(tuple(str(index) for index in range(len(spans))),
                    tuple(Mention(tokens) for tokens in spans),
                    np.arange(len(spans), dtype=np.int64), np.ones(len(spans), dtype=np.int64))

    empty = np.zeros(0, dtype=np.int64)
    alignment = align_exact_spans(key, response) if exact else Alignment(empty, empty)
    return Comparison(side(key), side(response), alignment,
                      Contingency(empty, empty, empty, empty, empty), Options())


def best_total(key: list[tuple[int, ...]], response: list[tuple[int, ...]]) -> int:
    """max over one-to-one pairings of Σ |K ∩ R|, by trying every pairing."""
    if len(key) > len(response):
        key, response = response, key
    padded = response + [()] * len(key)
    return max(sum(len(set(key_tokens) & set(padded[index]))
                   for key_tokens, index in zip(key, chosen, strict=False))
               for chosen in permutations(range(len(padded)), len(key)))


def test_hand_made_counts() -> None:
    # key [0,2], [3]; response [0,1], [1,2], [3]: [3] is identical (1), and [0,2] shares one
    # position with either of the others (1): R = 2/4, P = 2/5
    counts = count_mor(comparison([(0, 1, 2), (3,)], [(0, 1), (1, 2), (3,)]))
    assert counts.tolist() == [3.0, 4.0, 3.0, 5.0]
    # a chain of overlaps: k1 = [0,1] meets r1 = [1,2] and r2 = [0]; k2 = [2,3] meets r1:
    # best k1-r2 (1) + k2-r1 (1) = 2, not k1-r1 (1) alone
    counts = count_mor(comparison([(0, 1), (2, 3)], [(1, 2), (0,)]))
    assert counts.tolist() == [2.0, 4.0, 2.0, 3.0]


def test_copies_of_a_span_each_take_one() -> None:
    # two key copies of [0,1], one response copy: one pair of 2 positions
    counts = count_mor(comparison([(0, 1), (0, 1)], [(0, 1)]))
    assert counts.tolist() == [2.0, 4.0, 2.0, 2.0]


any_positions = st.lists(st.integers(0, 7), min_size=1, max_size=4).map(
    lambda positions: tuple(sorted(set(positions))))
contiguous = st.tuples(st.integers(0, 9), st.integers(1, 5)).map(
    lambda span: tuple(range(span[0], span[0] + span[1])))
spans = st.one_of(any_positions, contiguous)


@settings(max_examples=500, deadline=None)
@given(st.lists(spans, max_size=5), st.lists(spans, max_size=5), st.booleans(), st.booleans())
def test_counts_are_the_best_pairing(key: list[tuple[int, ...]],
                                     response: list[tuple[int, ...]], unique: bool,
                                     exact: bool) -> None:
    if unique:  # each span once, as selection leaves a side (the shortcut through sets)
        key, response = list(dict.fromkeys(key)), list(dict.fromkeys(response))
    counts = count_mor(comparison(key, response, exact))
    total = float(best_total(key, response))
    assert counts.tolist() == [total, float(sum(map(len, key))),
                               total, float(sum(map(len, response)))]


@settings(max_examples=300, deadline=None)
@given(st.lists(contiguous, max_size=8), st.lists(contiguous, min_size=1, max_size=8))
def test_span_overlaps_are_the_shared_positions(key: list[tuple[int, ...]],
                                                response: list[tuple[int, ...]]) -> None:
    # the overlaps found by the spans' ends: the pairs and counts found position by position
    key_left, response_left = list(range(len(key))), list(range(len(response)))
    found = _span_overlaps(key, response, key_left, response_left)
    assert found is not None
    expected = _shared_positions(key, response, key_left, response_left)
    assert sorted(zip(*found, strict=True)) == sorted(zip(*expected, strict=True))


def test_span_overlaps_leave_other_mentions_to_the_positions() -> None:
    # a discontinuous mention on either side: not spans, counted position by position
    assert _span_overlaps([(0, 2)], [(0, 1)], [0], [0]) is None
    assert _span_overlaps([(0, 1)], [(1, 3)], [0], [0]) is None
    assert _span_overlaps([(0, 1)], [(1, 2)], [0], [0]) == ([0], [0], [1.0])
