"""``ConlluNodes.has_empty_nodes`` is remembered by identity for the last few tuples
(:func:`anascore.core.model.holds_true`): these tests hold it to ``True in empty`` for many
tuples in turn, equal and not, so that a remembered answer is never another tuple's."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from anascore.core.model import ConlluNodes, holds_true


def nodes(empty: tuple[bool, ...]) -> ConlluNodes:
    count = len(empty)
    return ConlluNodes(tuple(map(str, range(count))), (0,) * count, empty, ("_",) * count,
                       tuple(range(count)), ("s",), (1,))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.booleans(), max_size=6).map(tuple), min_size=1, max_size=30))
def test_remembered_answers_are_each_tuples_own(flags: list[tuple[bool, ...]]) -> None:
    made = [nodes(empty) for empty in flags]
    for _ in range(2):  # the second time round, answers come from memory where they can
        for empty, node in zip(flags, made, strict=True):
            assert holds_true(empty) == (True in empty)
            assert node.has_empty_nodes == (True in empty)


def test_a_new_tuple_of_the_same_flags_and_one_of_others() -> None:
    words, zero = (False, False), (False, True)
    assert holds_true(words) is False
    assert holds_true(zero) is True
    assert holds_true(tuple([False, True])) is True
    assert holds_true(tuple([False, False])) is False


def test_tuples_made_and_dropped_in_turn() -> None:
    # a dropped tuple's memory (and id) is soon another tuple's: the answer remembered for
    # the first must not be given for the second
    for number in range(200):
        flags = tuple(bool((number >> bit) & 1) for bit in range(3))
        assert holds_true(flags) == (True in flags)
        del flags
