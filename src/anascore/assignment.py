"""Maximum-weight one-to-one assignments of the rows and columns of a small dense matrix.

The solver under both matching (MIN spans, :mod:`anascore.matching.min_span`) and the metrics
(CEAF's entity alignment, :mod:`anascore.metrics.assignment`; split-antecedent sets,
:mod:`anascore.metrics.split_antecedents`), so it imports neither: small matrices are solved
by :func:`kuhn_munkres` below, large ones by :func:`scipy.optimize.linear_sum_assignment`,
imported only when needed because importing ``scipy.optimize`` takes about half a second,
longer than reading a CoNLL-2012 test set.
"""

from __future__ import annotations

import numpy as np

#: Matrices with more cells than this go to scipy.
SMALL_COMPONENT = 400


def maximum_assignment(weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The row and column indices of a maximum-weight one-to-one assignment (as
    :func:`scipy.optimize.linear_sum_assignment` with ``maximize=True`` returns them):
    :func:`kuhn_munkres` up to :data:`SMALL_COMPONENT` cells, scipy above."""
    if weights.size <= SMALL_COMPONENT:
        return kuhn_munkres(weights)
    from scipy.optimize import linear_sum_assignment

    return linear_sum_assignment(weights, maximize=True)


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
