"""Connected components of a bipartite graph given by its edges.

CEAF's entity assignment (:mod:`anascore.comparison.contingency`), MIN-span matching and the CorefUD
matching methods all find the best one-to-one pairing per connected component of the graph
whose edges join a key item to a response item; this is the one place that groups the edges.
"""

from __future__ import annotations

from collections.abc import Iterable


def edge_components(edges: Iterable[tuple[int, int]]) -> list[list[int]]:
    """The indices of ``edges`` (pairs ``(key item, response item)``) grouped by connected
    component: components in the order of their first edge, edges in their given order."""
    edge_list = list(edges)
    parent: dict[tuple[int, int], tuple[int, int]] = {}

    def find(node: tuple[int, int]) -> tuple[int, int]:
        root = node
        while parent.setdefault(root, root) != root:
            root = parent[root]
        while parent[node] != root:
            parent[node], node = root, parent[node]
        return root

    for key, response in edge_list:
        parent[find((0, key))] = find((1, response))
    groups: dict[tuple[int, int], list[int]] = {}
    for index, (key, _) in enumerate(edge_list):
        groups.setdefault(find((0, key)), []).append(index)
    return list(groups.values())
