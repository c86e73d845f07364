"""Every document's counts in one table: a row per document, the counted metrics side by side.

Each metric turns a document into an additive count vector (numerators and denominators), so
a corpus is its documents' count rows and a corpus score a function of their column sums.
:class:`CountTable` is the one place anascore keeps them — file runs, documents in memory, the
folder sets joined into one corpus, :class:`anascore.CorefEvaluator`, the torchmetrics metric
— appending a document's counts, joining tables, summing (correctly rounded:
:func:`anascore.stats.sums.column_sums`) and selecting documents; the statistics (bootstrap,
significance) resample its rows.

A row is kept as plain numbers in one flat array (8 bytes a count: a PreCo-sized corpus of
36,120 documents holds 17 MB, a fifth of what a dictionary of small arrays per document would
take), in the order of the suite's counted metrics (:attr:`MetricSuite.widths`); :meth:`row`
gives a document's counts in that form, small to keep and to send from another process.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from anascore.stats.metric_suite import MetricSuite
from anascore.stats.sums import column_sums


class CountTable:
    """Documents × counts of the counted metrics of ``suite``, in the order appended."""

    def __init__(self, suite: MetricSuite) -> None:
        self.suite = suite
        self.widths = suite.widths
        self.width = sum(width for _, width in self.widths)
        self.names: list[str] = []
        self._numbers = array("d")

    @classmethod
    def from_matrices(cls, suite: MetricSuite, names: Sequence[str],
                      matrices: Mapping[str, np.ndarray]) -> CountTable:
        """A table of documents ``names`` from a documents × fields matrix per metric."""
        table = cls(suite)
        if names:
            rows = np.hstack([np.asarray(matrices[name], dtype=np.float64).reshape(
                len(names), width) for name, width in table.widths]) if table.widths \
                else np.zeros((len(names), 0))
            table._numbers.frombytes(np.ascontiguousarray(rows).tobytes())
        table.names.extend(names)
        return table

    @classmethod
    def joined(cls, tables: Sequence[CountTable]) -> CountTable:
        """The documents of ``tables`` (of one suite), in order, as one table."""
        table = cls(tables[0].suite)
        for part in tables:
            table.extend(part)
        return table

    def __len__(self) -> int:
        return len(self.names)

    def row(self, counts: Mapping[str, np.ndarray]) -> np.ndarray:
        """One document's counts by metric as one row of this table (float64)."""
        if not self.widths:
            return np.zeros(0)
        return np.concatenate([counts[name] for name, _ in self.widths]).astype(
            np.float64, copy=False)

    def append(self, name: str, counts: Mapping[str, np.ndarray]) -> None:
        """Add one document's counts, by metric."""
        self.append_row(name, self.row(counts))

    def append_row(self, name: str, row: np.ndarray) -> None:
        """Add one document's counts as a row (:meth:`row`)."""
        self.names.append(name)
        self._numbers.frombytes(np.asarray(row, dtype=np.float64).tobytes())

    def extend(self, other: CountTable) -> None:
        """Add the documents of ``other`` (a table of the same metrics)."""
        if other.widths != self.widths:
            raise ValueError("cannot join count tables of different metrics")
        self.names.extend(other.names)
        self._numbers.extend(other._numbers)

    def matrix(self) -> np.ndarray:
        """The table as one documents × counts matrix (a view of its numbers)."""
        return np.frombuffer(self._numbers, dtype=np.float64).reshape(len(self.names),
                                                                      self.width)

    def matrices(self) -> dict[str, np.ndarray]:
        """A documents × fields matrix per counted metric: views of the table, which cannot
        grow while they are kept (a report keeps them; its table is complete)."""
        matrix = self.matrix()
        counts: dict[str, np.ndarray] = {}
        start = 0
        for name, width in self.widths:
            counts[name] = matrix[:, start:start + width]
            start += width
        return counts

    def rows(self) -> list[dict[str, np.ndarray]]:
        """Every document's counts by metric, in order."""
        matrices = self.matrices()
        return [{name: matrix[index].copy() for name, matrix in matrices.items()}
                for index in range(len(self.names))]

    def sums(self) -> dict[str, np.ndarray]:
        """The corpus counts: each metric's column sums, correctly rounded."""
        return {name: column_sums(matrix) for name, matrix in self.matrices().items()}

    def select(self, documents: Iterable[int]) -> CountTable:
        """A table of the documents at the positions given, in that order."""
        chosen = list(documents)
        table = CountTable(self.suite)
        table.names.extend(self.names[index] for index in chosen)
        table._numbers.frombytes(np.ascontiguousarray(self.matrix()[chosen]).tobytes())
        return table
