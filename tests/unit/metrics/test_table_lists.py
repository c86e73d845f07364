"""Mentions, MUC, B³, BLANC, LEA and CEAF count a document's table from its Python lists
(:attr:`anascore.comparison.contingency.Contingency.lists`), not through numpy calls: these
tests hold them to the numpy formulas they replaced, bit for bit, on hypothesis tables
(the float metrics do numpy's operations on each cell in the same order; the others are
whole numbers)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from anascore.comparison.contingency import Comparison, Contingency, links
from anascore.matching.exact import Alignment
from anascore.metrics.base import exact_sum
from anascore.metrics.bcubed import count_bcubed
from anascore.metrics.blanc import count_blanc
from anascore.metrics.ceaf import _ceafe_similarity, _ceafm_similarity, count_ceafe, count_ceafm
from anascore.metrics.entity_pairing import best_assignment_total
from anascore.metrics.lea import _lea_recall, count_lea
from anascore.metrics.mentions import count_mentions
from anascore.metrics.muc import count_muc
from anascore.selection.sides import Side


@st.composite
def tables(draw: st.DrawFn) -> Contingency:
    """A table as alignment makes one: entity sizes, and distinct cells whose counts fit
    both their key and their response entity."""
    key_sizes = draw(st.lists(st.integers(1, 9), max_size=8))
    response_sizes = draw(st.lists(st.integers(1, 9), max_size=8))
    key_left, response_left = list(key_sizes), list(response_sizes)
    cells = {}
    if key_sizes and response_sizes:
        for row, column in draw(st.lists(st.tuples(st.integers(0, len(key_sizes) - 1),
                                                   st.integers(0, len(response_sizes) - 1)),
                                         max_size=12, unique=True)):
            most = min(key_left[row], response_left[column])
            if most:
                count = draw(st.integers(1, most))
                key_left[row] -= count
                response_left[column] -= count
                cells[row, column] = count
    return Contingency.from_cells(key_sizes, response_sizes, cells)


def numpy_muc(table: Contingency) -> list[float]:
    correct = int(table.counts.sum()) - len(table.counts)
    return [correct, int((table.key_sizes - 1).sum()), correct,
            int((table.response_sizes - 1).sum())]


def numpy_bcubed_recall(table: Contingency) -> tuple[float, float]:
    counts = table.counts.astype(np.float64)
    return (exact_sum(counts * counts / table.key_sizes[table.rows]),
            float(table.key_sizes.sum()))


def numpy_blanc(table: Contingency) -> list[float]:
    common_coref = int(links(table.counts).sum())
    key_coref = int(links(table.key_sizes).sum())
    response_coref = int(links(table.response_sizes).sum())
    common_non_coref = (int(links(np.array(table.aligned))) - int(links(table.row_sums()).sum())
                        - int(links(table.column_sums()).sum()) + common_coref)
    key_non_coref = int(links(np.array(table.key_sizes.sum()))) - key_coref
    response_non_coref = int(links(np.array(table.response_sizes.sum()))) - response_coref
    return [common_coref, key_coref, common_coref, response_coref,
            common_non_coref, key_non_coref, common_non_coref, response_non_coref]


@settings(max_examples=300, deadline=None)
@given(tables())
def test_counts_from_lists_equal_the_numpy_formulas(table: Contingency) -> None:
    comparison = Comparison.from_table(table)
    assert count_muc(comparison).tolist() == numpy_muc(table)
    assert count_mentions(comparison).tolist() == [
        table.aligned, table.key_sizes.sum(), table.aligned, table.response_sizes.sum()]
    assert count_blanc(comparison).tolist() == numpy_blanc(table)
    recall = numpy_bcubed_recall(table)
    precision = numpy_bcubed_recall(table.transposed())
    assert count_bcubed(comparison).tolist() == [*recall, *precision]


@settings(max_examples=300, deadline=None)
@given(tables())
def test_lea_from_lists_equals_lea_through_numpy(table: Contingency) -> None:
    # no set links and an importance of 1 take the numpy path, with the same numbers
    for side in (table, table.transposed()):
        entities = len(side.key_sizes)
        assert _lea_recall(side) == _lea_recall(side, np.zeros(entities), np.ones(entities))
    recall = _lea_recall(table, np.zeros(len(table.key_sizes)), np.ones(len(table.key_sizes)))
    assert count_lea(Comparison.from_table(table)).tolist()[:2] == list(recall)


@settings(max_examples=300, deadline=None)
@given(tables())
def test_ceaf_from_lists_equals_ceaf_through_numpy_similarities(table: Contingency) -> None:
    # the similarities in Python floats (count_ceafm, count_ceafe) against the numpy ones
    # the split-antecedent variants still use
    comparison = Comparison.from_table(table)
    total = best_assignment_total(table, _ceafm_similarity(table))
    assert count_ceafm(comparison).tolist() == [total, int(table.key_sizes.sum()), total,
                                                int(table.response_sizes.sum())]
    total = best_assignment_total(table, _ceafe_similarity(table))
    assert count_ceafe(comparison).tolist() == [total, len(table.key_sizes), total,
                                                len(table.response_sizes)]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(1, 4), max_size=6), st.lists(st.integers(1, 4), max_size=6),
       st.data())
def test_table_from_alignment_equals_numpys_unique_cells(key_sizes: list[int],
                                                         response_sizes: list[int],
                                                         data: st.DataObject) -> None:
    # Contingency.from_alignment counts the aligned pairs' cells in Python: the cells,
    # counts and dtypes np.unique gave, and lists equal to the arrays'
    def side(sizes: list[int]) -> Side:
        return Side(tuple(map(str, range(len(sizes)))), (),
                    np.repeat(np.arange(len(sizes), dtype=np.int64), sizes),
                    np.asarray(sizes, dtype=np.int64))

    key, response = side(key_sizes), side(response_sizes)
    pairs = min(sum(key_sizes), sum(response_sizes))
    chosen = data.draw(st.integers(0, pairs))
    key_indices = data.draw(st.permutations(range(sum(key_sizes))))[:chosen]
    response_indices = data.draw(st.permutations(range(sum(response_sizes))))[:chosen]
    alignment = Alignment(np.asarray(key_indices, dtype=np.int64),
                          np.asarray(response_indices, dtype=np.int64))
    table = Contingency.from_alignment(key, response, alignment)
    width = max(len(response_sizes), 1)
    cells, counts = np.unique(key.entity_of[alignment.key] * width
                              + response.entity_of[alignment.response], return_counts=True)
    for made, expected in ((table.rows, cells // width), (table.columns, cells % width),
                           (table.counts, counts.astype(np.int64))):
        assert made.dtype == expected.dtype
        assert made.tolist() == expected.tolist()
    assert table.lists == (table.rows.tolist(), table.columns.tolist(), table.counts.tolist(),
                           key_sizes, response_sizes)
