"""How two accommodated sets are compared (Paun et al. 2023 §4.2): the element tables a
document's pairs of sets are cut from, and a metric's way of comparing two sets.

The vocabulary of :mod:`anascore.metrics.split_antecedents`, in a module of its own so that the
metrics' hooks (:mod:`anascore.metrics.rules`), which name these types, sit below the module
that calls them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from anascore.comparison.contingency import Contingency
from anascore.selection.accommodated_sets import AccommodatedSets


@dataclass(frozen=True)
class SetMetric:
    """How one metric compares a key set with a response set (Paun et al. 2023 §4.2–4.3).

    ``count`` gives the metric's counts between the element entities of the two sets, from
    their contingency table; ``weight`` the F1 the alignment maximizes, from those counts;
    ``deltas`` the δ terms, named ``delta_names``. ``linked``: a δ counts only when the two
    entities holding the sets share a mention (MUC's link condition, §5.2.1). ``part`` names
    one of several alignments of a metric (UA BLANC aligns each kind of link on its own);
    ``split_fields`` are the count fields this part gives the ``only_split_antecedents``
    score (``None``: all). ``also_credited`` (``compat="ua"``'s BLANC only, U11): the pairs
    of a key set the alignment leaves alone and a response set that still credits it δ = 1
    (aligned or not), from the element tables and the unaligned key sets.
    """

    count: Callable[[Contingency], np.ndarray]
    weight: Callable[[np.ndarray], float]
    deltas: Callable[[np.ndarray], np.ndarray]
    delta_names: tuple[str, ...] = ("recall", "precision")
    linked: bool = False
    part: str = ""
    split_fields: slice | None = None
    also_credited: Callable[[ElementTables, list[int]], list[tuple[int, int]]] | None = None


@dataclass(frozen=True)
class ElementTables:
    """The contingency table between the key's and the response's element entities (atoms),
    from which the table of any two sets is cut."""

    key_sets: AccommodatedSets | None
    response_sets: AccommodatedSets | None
    key_atom_sizes: np.ndarray
    response_atom_sizes: np.ndarray
    cells: dict[tuple[int, int], int]
    overlapping: list[tuple[int, int]]
    cuts: dict[tuple[int | None, int | None], Contingency] = field(
        default_factory=dict, compare=False, repr=False)

    def table(self, key_set: int | None, response_set: int | None) -> Contingency:
        """The table between the elements of two sets (``None``: the empty set), cut once
        and shared by every metric (kept in ``cuts``)."""
        table = self.cuts.get((key_set, response_set))
        if table is None:
            table = self.cuts[(key_set, response_set)] = self._cut(key_set, response_set)
        return table

    def _cut(self, key_set: int | None, response_set: int | None) -> Contingency:
        rows = self.key_sets.elements[key_set] if key_set is not None and self.key_sets else ()
        columns = (self.response_sets.elements[response_set]
                   if response_set is not None and self.response_sets else ())
        column_of = {atom: number for number, atom in enumerate(columns)}
        cells = {}
        for row_number, row in enumerate(rows):
            for column, column_number in column_of.items():
                count = self.cells.get((row, column))
                if count:
                    cells[(row_number, column_number)] = count
        return Contingency.from_cells(self.key_atom_sizes[list(rows)].tolist(),
                                      self.response_atom_sizes[list(columns)].tolist(), cells)

    def identical(self, key_set: int, response_set: int) -> bool:
        """Whether each element of one set has exactly the mentions of an element of the
        other (the UA scorer's equality of split antecedents)."""
        table = self.table(key_set, response_set)
        return (len(table.key_sizes) == len(table.response_sizes) == len(table.counts)
                and len(set(table.rows.tolist())) == len(table.counts)
                and len(set(table.columns.tolist())) == len(table.counts)
                and bool((table.counts == table.key_sizes[table.rows]).all())
                and bool((table.counts == table.response_sizes[table.columns]).all()))
