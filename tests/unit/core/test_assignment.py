"""The in-house assignment solver and the per-component CEAF optimum agree with scipy and with
brute force; the solver returns scipy's very assignment, ties included."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy.optimize import linear_sum_assignment

from anascore.comparison.contingency import Contingency
from anascore.core.assignment import assigned_cells, shortest_augmenting_path
from anascore.metrics.entity_pairing import best_assignment_total

matrices = st.tuples(st.integers(1, 6), st.integers(1, 6)).flatmap(
    lambda shape: arrays(np.float64, shape, elements=st.floats(0, 10, allow_nan=False)))


def brute_force(weights: np.ndarray) -> float:
    rows, columns = weights.shape
    if rows > columns:
        return brute_force(weights.T)
    return max(sum(weights[row, column] for row, column in enumerate(chosen))
               for chosen in itertools.permutations(range(columns), rows))


@given(matrices)
def test_the_solver_finds_the_optimum(weights: np.ndarray) -> None:
    rows, columns = shortest_augmenting_path(weights)
    assert len(set(rows.tolist())) == len(rows) == min(weights.shape)
    assert len(set(columns.tolist())) == len(columns)
    assert weights[rows, columns].sum() == pytest.approx(brute_force(weights), abs=1e-9)


#: Weights with many ties: a few distinct values, whole, halves and thirds (sums of thirds
#: tie or not by floating-point rounding, which the solver must round as scipy does).
tied = st.tuples(st.integers(1, 7), st.integers(1, 7)).flatmap(
    lambda shape: arrays(np.float64, shape,
                         elements=st.sampled_from([0.0, 0.1, 0.2, 0.3, 1 / 3, 0.5, 2 / 3, 1.0])))


@given(tied)
def test_the_solver_returns_scipys_assignment_among_ties(weights: np.ndarray) -> None:
    # matching's choice among equally good pairings is scipy's, whichever solver runs
    rows, columns = shortest_augmenting_path(weights)
    expected_rows, expected_columns = linear_sum_assignment(weights, maximize=True)
    assert rows.tolist() == expected_rows.tolist()
    assert columns.tolist() == expected_columns.tolist()


@given(st.one_of(tied, matrices))
def test_the_solver_on_lists_assigns_the_same_cells(weights: np.ndarray) -> None:
    # the per-component CEAF optimum solves small components in lists (assigned_cells): the
    # very cells the numpy solver picks, ties and wide or tall matrices included
    rows, columns = shortest_augmenting_path(weights)
    cells = assigned_cells(weights.tolist(), weights.shape[1])
    assert sorted(cells) == list(zip(rows.tolist(), columns.tolist(), strict=True))


@given(arrays(np.float64, st.tuples(st.integers(2, 6), st.integers(2, 6)),
              elements=st.sampled_from([0.0, 0.0, 0.1, 0.2, 1 / 3, 0.5, 2 / 3, 0.7, 1.0])))
def test_components_solved_in_lists_sum_as_in_numpy(table: np.ndarray) -> None:
    # CEAFe's similarities are fractions: the total of the components solved in lists is
    # the fsum of the cells the numpy solver picks in the dense matrix of each component,
    # to the last digit
    rows, columns = np.nonzero(table)
    contingency = Contingency(np.ones(table.shape[0], dtype=np.int64),
                              np.ones(table.shape[1], dtype=np.int64), rows, columns,
                              np.ones(len(rows), dtype=np.int64))
    similarity = table[rows, columns]
    expected = []
    components = contingency.components
    expected.extend(similarity[components.alone].tolist())
    for group in components.groups:
        block = np.zeros(group.shape)
        block[group.local_rows, group.local_columns] = similarity[group.cells]
        if 1 in group.shape:
            expected.append(float(block.max()))
        else:
            chosen_rows, chosen_columns = shortest_augmenting_path(block)
            expected.append(math.fsum(block[chosen_rows, chosen_columns].tolist()))
    assert best_assignment_total(contingency, similarity) == math.fsum(expected)


def test_the_solver_returns_scipys_assignment_on_random_matrices() -> None:
    rng = np.random.default_rng(2016)
    for trial in range(3000):
        shape = rng.integers(1, 8, size=2)
        weights = (rng.integers(0, 3, size=shape).astype(float) if trial % 2
                   else rng.random(shape).round(1))
        rows, columns = shortest_augmenting_path(weights)
        expected_rows, expected_columns = linear_sum_assignment(weights, maximize=True)
        assert (rows.tolist(), columns.tolist()) == (expected_rows.tolist(),
                                                     expected_columns.tolist()), weights


@given(arrays(np.int64, st.tuples(st.integers(1, 25), st.integers(1, 25)),
              elements=st.sampled_from([0, 0, 0, 0, 1, 2, 3])))
def test_components_give_the_dense_optimum(table: np.ndarray) -> None:
    rows, columns = np.nonzero(table)
    contingency = Contingency(table.sum(axis=1) + 1, table.sum(axis=0) + 1, rows, columns,
                              table[rows, columns])
    chosen_rows, chosen_columns = linear_sum_assignment(table, maximize=True)
    expected = table[chosen_rows, chosen_columns].sum()
    assert best_assignment_total(contingency, table[rows, columns].astype(float)) == expected


def test_large_components_go_to_scipy() -> None:
    rng = np.random.default_rng(7)
    table = rng.integers(1, 9, size=(30, 40))
    rows, columns = np.nonzero(table)
    contingency = Contingency(table.sum(axis=1), table.sum(axis=0), rows, columns,
                              table[rows, columns])
    chosen_rows, chosen_columns = linear_sum_assignment(table, maximize=True)
    assert best_assignment_total(contingency, table[rows, columns].astype(float)) == \
        table[chosen_rows, chosen_columns].sum()


@given(arrays(np.int64, st.tuples(st.integers(1, 8), st.integers(1, 8)),
              elements=st.sampled_from([0, 0, 0, 1, 2, 3, 5])))
def test_whole_number_components_tried_pairing_by_pairing_give_the_solvers_total(
        table: np.ndarray) -> None:
    # CEAFm and MOR solve components of up to 3 × 3 whole-number cells by trying each
    # pairing: the same total as the solver, and the dense optimum
    rows, columns = np.nonzero(table)
    contingency = Contingency(np.ones(table.shape[0], dtype=np.int64),
                              np.ones(table.shape[1], dtype=np.int64), rows, columns,
                              np.ones(len(rows), dtype=np.int64))
    similarity = table[rows, columns].astype(float)
    solved = best_assignment_total(contingency, similarity)
    assert best_assignment_total(contingency, similarity.tolist(), whole_numbers=True) == solved
    chosen_rows, chosen_columns = linear_sum_assignment(table, maximize=True)
    assert solved == table[chosen_rows, chosen_columns].sum()
