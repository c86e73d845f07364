"""Maximum-weight one-to-one assignments of the rows and columns of a small dense matrix.

The solver under both matching (MIN spans, :mod:`anascore.matching.min_span`) and the metrics
(CEAF's entity alignment, :mod:`anascore.metrics.entity_pairing`; split-antecedent sets,
:mod:`anascore.metrics.split_antecedents`), so it imports neither: small matrices are solved
by :func:`shortest_augmenting_path` below, large ones by
:func:`scipy.optimize.linear_sum_assignment`, imported only when needed because importing
``scipy.optimize`` takes about half a second and 45 MB, longer than reading a CoNLL-2012 test
set. Both give the same assignment, ties included.
"""

from __future__ import annotations

import numpy as np

#: Matrices with more cells than this go to scipy.
SMALL_COMPONENT = 400


def maximum_assignment(weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The row and column indices of a maximum-weight one-to-one assignment (as
    :func:`scipy.optimize.linear_sum_assignment` with ``maximize=True`` returns them):
    :func:`shortest_augmenting_path` up to :data:`SMALL_COMPONENT` cells, scipy above (the
    same assignment either way)."""
    if weights.size <= SMALL_COMPONENT:
        return shortest_augmenting_path(weights)
    from scipy.optimize import linear_sum_assignment

    return linear_sum_assignment(weights, maximize=True)


def shortest_augmenting_path(weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A maximum-weight one-to-one assignment of the rows and columns of a small matrix:
    the very one :func:`scipy.optimize.linear_sum_assignment` (``maximize=True``) returns,
    among equally good assignments too.

    The shortest augmenting path method on the negated weights, as Crouse describes it (*On
    implementing 2D rectangular assignment algorithms*, IEEE TAES 52(4), 2016, Algorithm 4,
    the method scipy implements): each row in turn is joined by a Dijkstra search over
    reduced costs, dual variables keep the costs non-negative; a wider-than-tall matrix is
    solved transposed. Ties are broken as scipy breaks them — the columns are scanned in
    scipy's order, a tie goes to a free column, and reduced costs are summed in scipy's order
    (floating-point ties depend on it) — so that matching's choice among equally good
    pairings (:mod:`anascore.matching.optimal`) does not depend on the solver; checked on
    200,000 random matrices of up to 7 × 7, most with ties (``tests/unit/core/test_assignment.py``).
    O(n² m) for n ≤ m.
    """
    transposed = weights.shape[0] > weights.shape[1]
    cost = -(weights.T if transposed else weights)
    n_rows, n_columns = cost.shape
    column_of_row = _augmenting_paths(cost.tolist(), n_rows, n_columns)
    rows = np.arange(n_rows, dtype=np.int64)
    columns = np.array(column_of_row, dtype=np.int64)
    if transposed:
        order = np.argsort(columns, kind="stable")
        return columns[order], rows[order]
    return rows, columns


def assigned_cells(weights: list[list[float]], n_columns: int) -> list[tuple[int, int]]:
    """The ``(row, column)`` cells of the assignment :func:`shortest_augmenting_path` makes of
    the matrix whose rows are ``weights`` (``n_columns`` wide), for a caller that holds
    the matrix as lists: the same cells, without a numpy call (a document's small entity
    components cost more in numpy's per-call overhead than in the search)."""
    n_rows = len(weights)
    if n_rows > n_columns:
        cost = [[-value for value in column] for column in zip(*weights, strict=True)]
        return [(row, column) for column, row
                in enumerate(_augmenting_paths(cost, n_columns, n_rows))]
    cost = [[-value for value in row] for row in weights]
    return list(enumerate(_augmenting_paths(cost, n_rows, n_columns)))


def _augmenting_paths(cost_rows: list[list[float]], n_rows: int, n_columns: int) -> list[int]:
    """The column of each row in the minimum-cost assignment of a matrix no taller than wide
    (:func:`shortest_augmenting_path`'s search)."""
    infinity = float("inf")
    row_dual = [0.0] * n_rows
    column_dual = [0.0] * n_columns
    column_of_row = [-1] * n_rows
    row_of_column = [-1] * n_columns
    path = [-1] * n_columns
    for current in range(n_rows):
        shortest = [infinity] * n_columns
        remaining = list(range(n_columns - 1, -1, -1))  # scipy's scanning order
        left = n_columns
        rows_seen = [False] * n_rows
        columns_seen = [False] * n_columns
        reached = 0.0
        sink = -1
        row = current
        while sink == -1:
            rows_seen[row] = True
            lowest, index = infinity, -1
            costs, dual = cost_rows[row], row_dual[row]
            for place in range(left):
                column = remaining[place]
                reduced = reached + costs[column] - dual - column_dual[column]
                if reduced < shortest[column]:
                    path[column] = row
                    shortest[column] = reduced
                if shortest[column] < lowest or (shortest[column] == lowest
                                                 and row_of_column[column] == -1):
                    lowest, index = shortest[column], place
            if lowest == infinity:
                raise ValueError("no complete assignment")
            reached = lowest
            column = remaining[index]
            if row_of_column[column] == -1:
                sink = column
            else:
                row = row_of_column[column]
            columns_seen[column] = True
            left -= 1
            remaining[index] = remaining[left]
        row_dual[current] += reached
        for row in range(n_rows):
            if rows_seen[row] and row != current:
                row_dual[row] += reached - shortest[column_of_row[row]]
        for column in range(n_columns):
            if columns_seen[column]:
                column_dual[column] -= reached - shortest[column]
        column = sink
        while True:  # augment along the path back to the current row
            row = path[column]
            row_of_column[column] = row
            column_of_row[row], column = column, column_of_row[row]
            if row == current:
                break
    return column_of_row
