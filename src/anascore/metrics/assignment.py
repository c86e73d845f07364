"""The best one-to-one pairing of key and response entities, for CEAF.

CEAF (Luo 2005) pairs each key entity with at most one response entity so as to maximize the
total similarity Φ(g*) (eq. 6 of Luo 2005). Entities that share no mention have similarity 0,
so the problem splits into the connected components of the bipartite graph of non-zero cells:
a document with thousands of entities costs many tiny assignments, not one cubic one.

Most components are a single cell (the value itself) or a single row or column (its maximum).
The others are solved exactly by Kuhn–Munkres: small ones by :func:`kuhn_munkres` below, large
ones by :func:`scipy.optimize.linear_sum_assignment`, imported only when needed because
importing ``scipy.optimize`` takes about half a second, longer than reading a CoNLL-2012
test set.
"""

from __future__ import annotations

import numpy as np

from anascore.contingency import CellGroup, Contingency
from anascore.metrics.base import exact_sum

#: Components with more cells than this go to scipy.
SMALL_COMPONENT = 400


def best_assignment_total(table: Contingency, similarity: np.ndarray) -> float:
    """max over one-to-one pairings of Σ similarity, the similarity given per non-zero cell."""
    if len(table.counts) == 0:
        return 0.0
    components = table.components
    values = similarity[components.alone].tolist()
    for group in components.groups:
        values.append(_group_optimum(group, similarity[group.cells]))
    return exact_sum(values)


def _group_optimum(group: CellGroup, similarity: np.ndarray) -> float:
    rows, columns = group.shape
    if rows == 1 or columns == 1:
        return float(similarity.max())
    block = np.zeros(group.shape)
    block[group.local_rows, group.local_columns] = similarity
    if block.size <= SMALL_COMPONENT:
        chosen_rows, chosen_columns = kuhn_munkres(block)
    else:
        from scipy.optimize import linear_sum_assignment

        chosen_rows, chosen_columns = linear_sum_assignment(block, maximize=True)
    return exact_sum(block[chosen_rows, chosen_columns])


def kuhn_munkres(weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A maximum-weight one-to-one assignment of the rows and columns of a small matrix.

    The Hungarian method with potentials and shortest augmenting paths (Kuhn 1955; Munkres
    1957), O(n² m) for n ≤ m. Returns the chosen row and column indices, as
    :func:`scipy.optimize.linear_sum_assignment` does.
    """
    transposed = weights.shape[0] > weights.shape[1]
    cost = -(weights.T if transposed else weights)
    n_rows, n_columns = cost.shape
    cost_rows = cost.tolist()
    infinity = float("inf")
    row_potential = [0.0] * (n_rows + 1)
    column_potential = [0.0] * (n_columns + 1)
    row_of_column = [0] * (n_columns + 1)  # 1-based rows; 0 = free
    way = [0] * (n_columns + 1)
    for row in range(1, n_rows + 1):
        row_of_column[0] = row
        column = 0
        slack = [infinity] * (n_columns + 1)
        used = [False] * (n_columns + 1)
        while True:
            used[column] = True
            current_row = row_of_column[column]
            delta, next_column = infinity, 0
            costs = cost_rows[current_row - 1]
            base = row_potential[current_row]
            for candidate in range(1, n_columns + 1):
                if used[candidate]:
                    continue
                reduced = costs[candidate - 1] - base - column_potential[candidate]
                if reduced < slack[candidate]:
                    slack[candidate] = reduced
                    way[candidate] = column
                if slack[candidate] < delta:
                    delta, next_column = slack[candidate], candidate
            for candidate in range(n_columns + 1):
                if used[candidate]:
                    row_potential[row_of_column[candidate]] += delta
                    column_potential[candidate] -= delta
                else:
                    slack[candidate] -= delta
            column = next_column
            if row_of_column[column] == 0:
                break
        while column:
            previous = way[column]
            row_of_column[column] = row_of_column[previous]
            column = previous
    pairs = sorted((row_of_column[column] - 1, column - 1)
                   for column in range(1, n_columns + 1) if row_of_column[column])
    chosen_rows = np.array([row for row, _ in pairs], dtype=np.int64)
    chosen_columns = np.array([column for _, column in pairs], dtype=np.int64)
    if transposed:
        order = np.argsort(chosen_columns)
        return chosen_columns[order], chosen_rows[order]
    return chosen_rows, chosen_columns
