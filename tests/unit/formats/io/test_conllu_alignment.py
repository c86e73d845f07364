"""Whether both sides give every position the same CoNLL-U ID
(:func:`anascore.formats.io.conllu_alignment.same_ids`) is remembered for the last pair by
identity: these tests hold it to comparing the IDs, pair after pair, the same pair asked
twice and pairs of equal tuples that are other objects."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from anascore.core.model import ConlluNodes
from anascore.formats.io.conllu_alignment import same_ids


def nodes(ids: tuple[str, ...]) -> ConlluNodes:
    count = len(ids)
    return ConlluNodes(ids, (0,) * count, (False,) * count, ("_",) * count,
                       tuple(range(count)), ("s",), (1,))


ids = st.lists(st.sampled_from(["1", "2", "2.1", "3"]), max_size=4).map(tuple)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(ids, ids), min_size=1, max_size=20))
def test_same_ids_is_the_comparison(pairs: list[tuple[tuple[str, ...], tuple[str, ...]]]) -> None:
    for key_ids, response_ids in pairs:
        key, response = nodes(key_ids), nodes(response_ids)
        for _ in range(2):  # asked twice of one pair, as the pipeline does
            assert same_ids(key, response) == (key_ids == response_ids)
        # equal IDs in new tuples, and the pair the other way round
        assert same_ids(nodes(tuple(list(key_ids))), response) == (key_ids == response_ids)
        assert same_ids(response, key) == (key_ids == response_ids)
