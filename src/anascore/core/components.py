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
    # Nodes are integers (key item k is 2k, response item r is 2r + 1): hashing them is
    # cheaper than hashing pairs. A node absent from ``parent`` is its own root.
    parent: dict[int, int] = {}
    get = parent.get

    def find(node: int) -> int:
        root = node
        while (above := get(root, root)) != root:
            root = above
        while node != root:  # path compression
            parent[node], node = root, parent[node]
        return root

    for key, response in edge_list:
        key_root, response_root = find(2 * key), find(2 * response + 1)
        if key_root != response_root:
            parent[key_root] = response_root
    groups: dict[int, list[int]] = {}
    for index, (key, _) in enumerate(edge_list):
        groups.setdefault(find(2 * key), []).append(index)
    return list(groups.values())
