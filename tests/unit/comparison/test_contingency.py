"""The table's components (:meth:`anascore.comparison.contingency.CellComponents.of`) are
found by pointing each row and column to its component's cells, merging two components when
a cell joins them, instead of a union-find over the cells' edges; these tests hold them to the
union-find's components and numbering (the way they were made before), on hypothesis tables
of every shape, their cells in the table's order or in any order (which merges)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from anascore.comparison.contingency import CellComponents, CellGroup
from anascore.core.components import edge_components


def union_find_components(rows: list[int], columns: list[int], row_count: int,
                          column_count: int) -> CellComponents:
    """The components as every table's were made before (lone cells, then edge_components
    with each group's rows and columns numbered as they come)."""
    row_cells = [rows.count(row) for row in range(row_count)]
    column_cells = [columns.count(column) for column in range(column_count)]
    alone = [cell for cell in range(len(rows))
             if row_cells[rows[cell]] == 1 and column_cells[columns[cell]] == 1]
    rest = [cell for cell in range(len(rows)) if cell not in alone]
    groups = []
    for component in edge_components([(rows[cell], columns[cell]) for cell in rest]):
        cells = [rest[index] for index in component]
        local_row: dict[int, int] = {}
        local_column: dict[int, int] = {}
        local_rows = [local_row.setdefault(rows[cell], len(local_row)) for cell in cells]
        local_columns = [local_column.setdefault(columns[cell], len(local_column))
                         for cell in cells]
        groups.append(CellGroup(cells, local_rows, local_columns,
                                (len(local_row), len(local_column))))
    return CellComponents(alone, tuple(groups))


@st.composite
def cells(draw: st.DrawFn) -> tuple[list[int], list[int], int, int]:
    """Distinct cells of a table, in the table's order (by row, then column) or any order
    (MOR's overlapping mentions come as they are found)."""
    row_count, column_count = draw(st.integers(1, 7)), draw(st.integers(1, 7))
    chosen = draw(st.lists(st.tuples(st.integers(0, row_count - 1),
                                     st.integers(0, column_count - 1)),
                           unique=True, max_size=14))
    if draw(st.booleans()):
        chosen.sort()
    return ([row for row, _ in chosen], [column for _, column in chosen], row_count,
            column_count)


@settings(max_examples=500, deadline=None)
@given(cells())
def test_components_are_the_union_finds(table: tuple[list[int], list[int], int, int]) -> None:
    assert CellComponents.of(*table) == union_find_components(*table)


def test_stars_and_other_components() -> None:
    # row 0 with columns 0 and 1 (a star of one row), column 2 with rows 1 and 2 (a star of
    # one column), a lone cell (3, 3)
    stars = CellComponents.of([0, 0, 1, 2, 3], [0, 1, 2, 2, 3], 4, 4)
    assert stars == CellComponents([4], (CellGroup([0, 1], [0, 0], [0, 1], (1, 2)),
                                         CellGroup([2, 3], [0, 1], [0, 0], (2, 1))))
    # a 2 x 2 block: cell (0, 1) shares both its row and its column
    block = CellComponents.of([0, 0, 1], [0, 1, 1], 2, 2)
    assert block == CellComponents([], (CellGroup([0, 1, 2], [0, 0, 1], [0, 1, 1], (2, 2)),))
    # cells out of order: (1, 1) then (0, 0) start two components, (0, 1) joins them
    merged = CellComponents.of([1, 0, 0], [1, 0, 1], 2, 2)
    assert merged == CellComponents([], (CellGroup([0, 1, 2], [0, 1, 1], [0, 1, 0], (2, 2)),))
