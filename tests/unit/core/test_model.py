"""``ConlluNodes.has_empty_nodes`` is worked out once, as the nodes are made: it must be
``True in empty`` for every tuple of flags, through ``replace`` and pickling too."""

from __future__ import annotations

import pickle
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from anascore.core.model import ConlluNodes


def nodes(empty: tuple[bool, ...]) -> ConlluNodes:
    count = len(empty)
    return ConlluNodes(tuple(map(str, range(count))), (0,) * count, empty, ("_",) * count,
                       tuple(range(count)), ("s",), (1,))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.booleans(), max_size=6).map(tuple), min_size=1, max_size=30))
def test_each_nodes_answer_is_its_own(flags: list[tuple[bool, ...]]) -> None:
    made = [nodes(empty) for empty in flags]
    for _ in range(2):
        for empty, node in zip(flags, made, strict=True):
            assert node.has_empty_nodes == (True in empty)


def test_replaced_and_pickled_nodes_say_it_of_their_own_flags() -> None:
    words, zero = nodes((False, False)), nodes((False, True))
    assert words.has_empty_nodes is False and zero.has_empty_nodes is True
    assert replace(words, empty=(False, True)).has_empty_nodes is True
    assert pickle.loads(pickle.dumps(zero)).has_empty_nodes is True
    assert words == nodes((False, False)) and "has_empty_nodes" not in repr(words)
