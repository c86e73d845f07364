"""The per-document contingency table every identity metric is computed from.

``n[i, j] = |K_i ∩ R_j|`` counts the aligned mention pairs whose key mention belongs to key
entity ``K_i`` and whose response mention belongs to response entity ``R_j``. It is stored
sparse, as its non-zero cells, together with the full entity sizes (aligned or not). This is
how scikit-learn computes clustering metrics (``sklearn.metrics.cluster``): MUC, B³, CEAF,
BLANC and LEA become sums over non-zero cells instead of enumerations of mention pairs.

:func:`compare_sides` builds a document's :class:`Comparison` from its selected sides, in the
run's conventions (:class:`ComparisonRules`, handed down by the pipeline, which resolves them
once; this stage never looks them up). The comparison carries them on to the metrics.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any, NamedTuple, Protocol

import numpy as np

from anascore.config.options import Options
from anascore.matching import MatchingDefaults, MatchingRules, align
from anascore.matching.exact import Alignment
from anascore.selection.sides import Side


@dataclass(frozen=True)
class Contingency:
    """The non-zero cells ``(rows[c], columns[c]) -> counts[c]`` of the key × response table,
    and the entity sizes of both sides."""

    key_sizes: np.ndarray
    response_sizes: np.ndarray
    rows: np.ndarray
    columns: np.ndarray
    counts: np.ndarray

    @classmethod
    def from_alignment(cls, key: Side, response: Side, alignment: Alignment) -> Contingency:
        # In Python: a document aligns a few dozen mentions, fewer than np.unique's calls.
        key_entity, response_entity = key.entity_of.tolist(), response.entity_of.tolist()
        width = max(len(response.entity_sizes), 1)
        key_indices, response_indices = alignment.lists
        counted = Counter([key_entity[key_index] * width + response_entity[response_index]
                           for key_index, response_index in zip(key_indices, response_indices,
                                                                strict=True)])
        cells = sorted(counted)
        rows = [cell // width for cell in cells]
        columns = [cell % width for cell in cells]
        counts = [counted[cell] for cell in cells]
        table = cls(
            key_sizes=key.entity_sizes,
            response_sizes=response.entity_sizes,
            rows=np.array(rows, dtype=np.int64),
            columns=np.array(columns, dtype=np.int64),
            counts=np.array(counts, dtype=np.int64),
        )
        # the lists the metrics count from, as Contingency.lists would make them
        table.__dict__["lists"] = CellLists(rows, columns, counts, key.entity_sizes.tolist(),
                                            response.entity_sizes.tolist())
        return table

    @classmethod
    def from_cells(cls, key_sizes: list[int], response_sizes: list[int],
                   cells: dict[tuple[int, int], int]) -> Contingency:
        """A table given by hand: entity sizes and the non-zero cells (for tests and the
        lab)."""
        ordered = sorted(cells.items())
        return cls(
            key_sizes=np.asarray(key_sizes, dtype=np.int64),
            response_sizes=np.asarray(response_sizes, dtype=np.int64),
            rows=np.asarray([row for (row, _), _ in ordered], dtype=np.int64),
            columns=np.asarray([column for (_, column), _ in ordered], dtype=np.int64),
            counts=np.asarray([count for _, count in ordered], dtype=np.int64),
        )

    @cached_property
    def lists(self) -> CellLists:
        """The table as Python lists. A document's table has a few dozen cells: a metric
        counts them in Python faster than through numpy's per-call overhead, and with the
        same operations in the same order, to the same digits."""
        return CellLists(self.rows.tolist(), self.columns.tolist(), self.counts.tolist(),
                         self.key_sizes.tolist(), self.response_sizes.tolist())

    @cached_property
    def components(self) -> CellComponents:
        """The connected components of the bipartite overlap graph (computed once, shared
        by CEAFm, CEAFe and every other metric that needs an entity assignment)."""
        cells = self.lists
        return CellComponents.of(cells.rows, cells.columns, len(cells.key_sizes),
                                 len(cells.response_sizes))

    def transposed(self) -> Contingency:
        """The same table with key and response exchanged: precision becomes recall."""
        table = Contingency(self.response_sizes, self.key_sizes, self.columns, self.rows,
                            self.counts)
        cells = self.__dict__.get("lists")
        if cells is not None:  # this table's lists, exchanged too
            table.__dict__["lists"] = CellLists(cells.columns, cells.rows, cells.counts,
                                                cells.response_sizes, cells.key_sizes)
        return table

    @property
    def aligned(self) -> int:
        """How many mentions are aligned (the sum of all cells)."""
        return int(self.counts.sum())

    def row_sums(self) -> np.ndarray:
        """Aligned mentions of each key entity."""
        return np.bincount(self.rows, weights=self.counts,
                           minlength=len(self.key_sizes)).astype(np.int64)

    def column_sums(self) -> np.ndarray:
        """Aligned mentions of each response entity."""
        return np.bincount(self.columns, weights=self.counts,
                           minlength=len(self.response_sizes)).astype(np.int64)


class CellLists(NamedTuple):
    """:class:`Contingency`'s arrays as lists of Python ints."""

    rows: list[int]
    columns: list[int]
    counts: list[int]
    key_sizes: list[int]
    response_sizes: list[int]


@dataclass(frozen=True)
class CellGroup:
    """The cells of one connected component with more than one cell: ``cells`` indexes the
    table's cells; ``local_rows`` / ``local_columns`` number its rows and columns from 0.
    Lists: a document's components have a few cells each, solved in Python
    (:mod:`anascore.metrics.entity_pairing`)."""

    cells: list[int]
    local_rows: list[int]
    local_columns: list[int]
    shape: tuple[int, int]


@dataclass(frozen=True)
class CellComponents:
    """The table's cells split into lone cells (``alone``: the indices of the cells that are
    the only cell of their row and of their column, a component of one cell, in order) and
    the larger components."""

    alone: list[int]
    groups: tuple[CellGroup, ...]

    @classmethod
    def of(cls, rows: list[int], columns: list[int], row_count: int,
           column_count: int) -> CellComponents:
        """The components of the cells ``(rows[c], columns[c])`` of a table with
        ``row_count`` rows and ``column_count`` columns."""
        row_cells = [0] * row_count
        for row in rows:
            row_cells[row] += 1
        column_cells = [0] * column_count
        for column in columns:
            column_cells[column] += 1
        cells = range(len(rows))
        alone = [cell for cell, row, column in zip(cells, rows, columns, strict=True)
                 if row_cells[row] == 1 and column_cells[column] == 1]
        if len(alone) == len(rows):
            return cls(alone, ())
        rest = [cell for cell, row, column in zip(cells, rows, columns, strict=True)
                if row_cells[row] > 1 or column_cells[column] > 1]
        groups = []
        for members in _components(rest, rows, columns):
            local_row: dict[int, int] = {}
            local_column: dict[int, int] = {}
            local_rows = [local_row.setdefault(rows[cell], len(local_row)) for cell in members]
            local_columns = [local_column.setdefault(columns[cell], len(local_column))
                             for cell in members]
            groups.append(CellGroup(members, local_rows, local_columns,
                                    (len(local_row), len(local_column))))
        return cls(alone, tuple(groups))


def _components(rest: list[int], rows: list[int], columns: list[int]) -> list[list[int]]:
    """The cells ``rest`` (in order) grouped by connected component, as
    :func:`anascore.core.components.edge_components` groups their edges: components in the
    order of their first cell, cells in order. Each row and column points to the list of
    its component's cells, and a cell that joins two components merges them: a few cells
    per component cost fewer steps than a union-find's calls."""
    of_row: dict[int, list[int]] = {}
    of_column: dict[int, list[int]] = {}
    merged = False
    for cell in rest:
        row, column = rows[cell], columns[cell]
        component = of_row.get(row)
        other = of_column.get(column)
        if component is None:
            if other is None:
                component = of_column[column] = [cell]
            else:
                other.append(cell)
                component = other
            of_row[row] = component
        elif other is None:
            component.append(cell)
            of_column[column] = component
        elif other is component:
            component.append(cell)
        else:  # the cell joins two components: the column's moves into the row's
            component.extend(other)
            component.append(cell)
            for moved in other:
                of_row[rows[moved]] = component
                of_column[columns[moved]] = component
            merged = True
    # Each component once, in the order its rows were first met: a component's first row
    # is its first cell's (an earlier cell of that row would be in it), so by first cell.
    components = list({id(component): component for component in of_row.values()}.values())
    if merged:  # a merged component's cells came in two runs
        for component in components:
            component.sort()
    return components


def links(sizes: np.ndarray) -> np.ndarray:
    """Coreference links among ``n`` mentions: ``n (n − 1) / 2`` (int64)."""
    sizes = np.asarray(sizes, dtype=np.int64)
    return sizes * (sizes - 1) // 2


@dataclass(frozen=True)
class Comparison:
    """One document's key and response, selected, aligned and tabulated: what every metric
    counts from.

    Most metrics read only ``table``; metrics that need the mentions themselves (their types,
    heads) or the entities' accommodated sets read ``key`` and ``response``. ``layers`` holds
    the comparisons of the other layers of entities that are scored (``discourse_deixis``),
    built the same way from that layer's entities. ``derived`` caches what several metrics
    compute from the same document (the alignments of accommodated sets,
    :mod:`anascore.metrics.split_antecedents`; mention types and the link weights of
    :mod:`anascore.metrics.linguistic`), by name.
    """

    key: Side
    response: Side
    alignment: Alignment
    table: Contingency
    options: Options
    layers: Mapping[str, Comparison] = field(default_factory=lambda: MappingProxyType({}))
    #: The conventions the run scores in, as the pipeline resolved them, carried to the
    #: metrics, which read their own hooks from here (:func:`anascore.metrics.rules.metric_rules`;
    #: ``None``: anascore's own, for a comparison made without them).
    rules: ComparisonRules | None = field(default=None, compare=False, repr=False)
    # Only when repeated mentions are counted as the UA scorer does (U2, anascore.compat.ua_scorer):
    # the table precision is counted from, and the one CEAF assigns over.
    response_table: Contingency | None = None
    assignment_table: Contingency | None = None
    derived: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @cached_property
    def precision_table(self) -> Contingency:
        """The table precision is counted from, response entities as rows (made once: B³
        and LEA both count from it)."""
        return (self.response_table or self.table).transposed()

    @classmethod
    def from_sides(cls, key: Side, response: Side, alignment: Alignment,
                   options: Options, rules: ComparisonRules | None = None) -> Comparison:
        return cls(key, response, alignment, Contingency.from_alignment(key, response, alignment),
                   options, rules=rules)

    @classmethod
    def from_table(cls, table: Contingency, options: Options | None = None) -> Comparison:
        """A comparison known only by its table (hand-made tables in tests, the lab)."""
        empty = np.zeros(0, dtype=np.int64)
        return cls(Side((), (), empty, table.key_sizes), Side((), (), empty, table.response_sizes),
                   Alignment(empty, empty), table, options or _DEFAULT_OPTIONS)


#: The options of a comparison known only by its table (made once: an ``Options`` takes as
#: long to make as some tables take to count, and split antecedents count many small ones).
_DEFAULT_OPTIONS = Options()


class ComparisonRules(MatchingRules, Protocol):
    """What comparing a document's sides asks of the run's conventions: the matching hooks,
    and a comparison built another way than by alignment.
    :class:`anascore.compat.Conventions` answers it; :class:`ComparisonDefaults` is anascore's
    own answer."""

    def comparison(self, key: Side, response: Side, options: Options) -> Comparison | None:
        """A comparison built another way than by alignment (``None``: align)."""
        ...


class ComparisonDefaults(MatchingDefaults):
    """anascore's own comparison: the sides aligned (:func:`anascore.matching.align`) and
    tabulated."""

    def comparison(self, key: Side, response: Side, options: Options) -> Comparison | None:
        return None


def compare_sides(key: Side, response: Side, options: Options,
                  rules: ComparisonRules | None = None) -> Comparison:
    """The comparison of one document's selected sides: as ``rules`` (the run's conventions;
    ``None``: anascore's own) build it, else aligned and tabulated; it carries ``rules`` on
    to the metrics."""
    if rules is None:
        return Comparison.from_sides(key, response, align(key, response, options), options)
    comparison = rules.comparison(key, response, options)
    if comparison is not None:
        return comparison
    return Comparison.from_sides(key, response, align(key, response, options, rules), options,
                                 rules)
