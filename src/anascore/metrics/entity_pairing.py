"""The best one-to-one pairing of key and response entities, for CEAF.

CEAF (Luo 2005) pairs each key entity with at most one response entity so as to maximize the
total similarity Φ(g*) (eq. 6 of Luo 2005). Entities that share no mention have similarity 0,
so the problem splits into the connected components of the bipartite graph of non-zero cells:
a document with thousands of entities costs many tiny assignments, not one cubic one.

Most components are a single cell (the value itself) or a single row or column (its maximum).
The others are solved exactly by Kuhn–Munkres (:func:`anascore.core.assignment.maximum_assignment`,
the solver matching uses too: in-house for small components, scipy for large ones).
"""

from __future__ import annotations

import math
from itertools import permutations

import numpy as np

from anascore.comparison.contingency import CellComponents, CellGroup, Contingency
from anascore.core.assignment import SMALL_COMPONENT, assigned_cells, maximum_assignment
from anascore.metrics.base import exact_sum


def best_assignment_total(table: Contingency, similarity: np.ndarray | list[float],
                          whole_numbers: bool = False) -> float:
    """max over one-to-one pairings of Σ similarity, the similarity given per non-zero cell
    (an array, or a list of floats).

    ``whole_numbers``: every similarity is a whole number (CEAFm's mention counts, MOR's
    shared positions), so every best pairing has the same total, exactly, and a small
    component may be solved by trying each pairing of its few rows."""
    if len(table.counts) == 0:
        return 0.0
    values = similarity.tolist() if isinstance(similarity, np.ndarray) else similarity
    return components_total(table.components, values, whole_numbers)


def components_total(components: CellComponents, values: list[float],
                     whole_numbers: bool = False) -> float:
    """:func:`best_assignment_total` of the cells split into ``components``
    (:meth:`CellComponents.of`), ``values[c]`` the similarity of cell ``c``: for a caller
    that holds its cells as lists (MOR's overlapping mentions), without a table."""
    chosen = [values[cell] for cell in components.alone]
    for group in components.groups:
        chosen.append(_group_optimum(group, [values[cell] for cell in group.cells],
                                     whole_numbers))
    return math.fsum(chosen)


def _group_optimum(group: CellGroup, similarity: list[float], whole_numbers: bool) -> float:
    rows, columns = group.shape
    if whole_numbers and 1 < rows <= 3 and 1 < columns <= 3:
        # at most 3 × 2 × 1 = 6 pairings: each total is exact, so the best is the optimum
        cells = [[0.0] * columns for _ in range(rows)]
        for row, column, value in zip(group.local_rows, group.local_columns, similarity,
                                      strict=True):
            cells[row][column] = value
        if rows > columns:
            cells = [list(column) for column in zip(*cells, strict=True)]
            rows, columns = columns, rows
        return max(sum([cells[row][column] for row, column in enumerate(chosen)])
                   for chosen in permutations(range(columns), rows))
    if rows == 1 or columns == 1:
        top, total = max(similarity), sum(similarity)
        if top != top or total != total:
            return float(np.max(similarity))  # a NaN: numpy's maximum has its own rule
        return top
    if rows * columns <= SMALL_COMPONENT:  # solved in lists: the same cells, the same sum
        cells = [[0.0] * columns for _ in range(rows)]
        for row, column, value in zip(group.local_rows, group.local_columns, similarity,
                                      strict=True):
            cells[row][column] = value
        return math.fsum([cells[row][column] for row, column in assigned_cells(cells, columns)])
    block = np.zeros(group.shape)
    block[group.local_rows, group.local_columns] = similarity
    chosen_rows, chosen_columns = maximum_assignment(block)
    return exact_sum(block[chosen_rows, chosen_columns])
