"""Floats are added left to right on every Python version (anascore.core.float_sums)."""

from __future__ import annotations

import operator
from functools import reduce

from hypothesis import given
from hypothesis import strategies as st

from anascore.core.float_sums import sum_in_order


def test_terms_are_added_left_to_right_each_addition_rounded() -> None:
    # 0.1 + 0.2 rounds to 0.30000000000000004, and that + 0.3 to 0.6000000000000001; Python
    # 3.12's sum compensates the first rounding and gives 0.6
    assert sum_in_order([0.1, 0.2, 0.3]) == 0.6000000000000001
    assert sum_in_order([0.3, 0.2, 0.1]) == 0.6  # another order, other roundings
    assert sum_in_order([0.1] * 10) == 0.9999999999999999


def test_no_terms_and_whole_numbers() -> None:
    assert sum_in_order([]) == 0
    assert sum_in_order([2, 3]) == 5 and isinstance(sum_in_order([2, 3]), int)


@given(st.lists(st.floats(allow_nan=False, allow_infinity=False, width=64), max_size=12))
def test_the_sum_is_the_left_fold_of_additions(values: list[float]) -> None:
    expected = 0
    for value in values:
        expected = expected + value
    assert sum_in_order(values) == reduce(operator.add, values, 0) == expected
