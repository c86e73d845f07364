"""edge_components against a breadth-first search: the same components, in the order of
their first edge, each edge's index in the given order (CEAF's local numbering of a
component's rows and columns, and so its choice among tied assignments, follows it)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from anascore.core.components import edge_components


def by_search(edges: list[tuple[int, int]]) -> list[list[int]]:
    """Components found by searching from each edge not yet reached, in order."""
    component_of: dict[int, int] = {}
    components: list[list[int]] = []
    for start in range(len(edges)):
        if start in component_of:
            continue
        component_of[start] = len(components)
        members, frontier = [start], [start]
        while frontier:
            key, response = edges[frontier.pop()]
            for index, (other_key, other_response) in enumerate(edges):
                if index not in component_of and (other_key == key
                                                  or other_response == response):
                    component_of[index] = len(components)
                    members.append(index)
                    frontier.append(index)
        components.append(sorted(members))
    return components


def test_hand_made_components() -> None:
    # key 0 - response 0 - key 1 - response 2; key 2 - response 1 alone; key 3 - response 2
    edges = [(0, 0), (2, 1), (1, 0), (1, 2), (3, 2)]
    assert edge_components(edges) == [[0, 2, 3, 4], [1]]


@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)), max_size=20))
def test_components_are_those_a_search_finds(edges: list[tuple[int, int]]) -> None:
    assert edge_components(edges) == by_search(edges)
