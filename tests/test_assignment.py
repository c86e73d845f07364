"""The in-house Kuhn–Munkres and the per-component CEAF optimum agree with scipy and with
brute force."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy.optimize import linear_sum_assignment

from anascore.assignment import kuhn_munkres
from anascore.contingency import Contingency
from anascore.metrics.assignment import best_assignment_total

matrices = st.tuples(st.integers(1, 6), st.integers(1, 6)).flatmap(
    lambda shape: arrays(np.float64, shape, elements=st.floats(0, 10, allow_nan=False)))


def brute_force(weights: np.ndarray) -> float:
    rows, columns = weights.shape
    if rows > columns:
        return brute_force(weights.T)
    return max(sum(weights[row, column] for row, column in enumerate(chosen))
               for chosen in itertools.permutations(range(columns), rows))


@given(matrices)
def test_kuhn_munkres_finds_the_optimum(weights: np.ndarray) -> None:
    rows, columns = kuhn_munkres(weights)
    assert len(set(rows.tolist())) == len(rows) == min(weights.shape)
    assert len(set(columns.tolist())) == len(columns)
    assert weights[rows, columns].sum() == pytest.approx(brute_force(weights), abs=1e-9)


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
