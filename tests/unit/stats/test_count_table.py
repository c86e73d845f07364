"""The one count table (anascore.stats.count_table) and the metric suite it is laid out by
(anascore.stats.metric_suite): appending, joining, selecting and summing documents' counts,
and scoring summed counts with derived metrics as members."""

from __future__ import annotations

import math

import numpy as np
import pytest

from anascore.config.options import Options
from anascore.stats.count_table import CountTable
from anascore.stats.metric_suite import MetricSuite

SUITE = MetricSuite.of(Options(metrics=("muc", "bcub", "ceafe", "conll")))


def counts(muc: list[float], bcub: list[float], ceafe: list[float],
           mentions: list[float] | None = None) -> dict[str, np.ndarray]:
    return {"mentions": np.array(mentions or [0.0, 0, 0, 0]), "muc": np.array(muc),
            "bcub": np.array(bcub), "ceafe": np.array(ceafe)}


def test_the_suite_lays_out_the_counted_metrics_and_reports_the_derived_one() -> None:
    assert SUITE.counted == ("mentions", "muc", "bcub", "ceafe")
    assert SUITE.reported == ("muc", "bcub", "ceafe", "conll")  # mentions: counted, not asked
    assert SUITE.widths == (("mentions", 4), ("muc", 4), ("bcub", 4), ("ceafe", 4))
    assert SUITE.counted_for(["conll", "muc"]) == ["muc", "bcub", "ceafe"]
    assert SUITE.is_derived("conll") and not SUITE.is_derived("muc")
    assert MetricSuite.of(Options(metrics=("muc", "bcub", "ceafe", "conll"))) is SUITE


def test_the_conll_member_is_the_mean_of_its_parts_f1() -> None:
    # MUC: recall 1/2, precision 1/1 -> F1 2/3; B3 and CEAFe perfect -> F1 1.
    scores = SUITE.scores(counts([1, 2, 1, 1], [2, 2, 2, 2], [1, 1, 1, 1]))
    assert scores["muc"].f1 == pytest.approx(2 / 3)
    assert scores["conll"].f1 == pytest.approx((2 / 3 + 1 + 1) / 3)
    batch = SUITE.batch_scores({name: np.vstack([value, value]) for name, value in
                                counts([1, 2, 1, 1], [2, 2, 2, 2], [1, 1, 1, 1]).items()})
    assert batch["conll"].f1.tolist() == [scores["conll"].f1] * 2


def test_append_join_select_and_sum() -> None:
    first, second = CountTable(SUITE), CountTable(SUITE)
    first.append("a", counts([1, 2, 1, 1], [2, 2, 2, 2], [1, 1, 1, 1], [2, 2, 2, 2]))
    first.append("b", counts([0, 1, 0, 0], [0.5, 1, 0.5, 1], [0, 1, 0, 0], [1, 1, 0, 0]))
    second.append("c", counts([3, 3, 3, 3], [1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]))
    table = CountTable.joined([first, second])
    assert table.names == ["a", "b", "c"] and len(table) == 3
    assert table.sums()["muc"].tolist() == [4, 6, 4, 4]
    assert table.sums()["bcub"].tolist() == [3.5, 4, 3.5, 4]
    assert table.matrices()["ceafe"].tolist() == [[1, 1, 1, 1], [0, 1, 0, 0], [2, 2, 2, 2]]
    chosen = table.select([2, 0])
    assert chosen.names == ["c", "a"]
    assert chosen.sums()["muc"].tolist() == [4, 5, 4, 4]
    assert [row["mentions"].tolist() for row in table.rows()] == [[2, 2, 2, 2], [1, 1, 0, 0],
                                                                 [3, 3, 3, 3]]


def test_sums_are_correctly_rounded_whatever_the_order() -> None:
    values = [0.1] * 10 + [1e16, -1e16]
    table = CountTable(SUITE)
    for index, value in enumerate(values):
        table.append(str(index), counts([value, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]))
    assert table.sums()["muc"][0] == math.fsum(values)
    reversed_table = table.select(range(len(values) - 1, -1, -1))
    assert reversed_table.sums()["muc"][0] == math.fsum(values)


def test_rows_are_copies_so_the_table_can_grow() -> None:
    table = CountTable(SUITE)
    table.append("a", counts([1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1]))
    kept = table.rows()
    table.append("b", counts([2, 2, 2, 2], [2, 2, 2, 2], [2, 2, 2, 2]))
    assert kept[0]["muc"].tolist() == [1, 1, 1, 1]
    assert len(table) == 2


def test_a_table_round_trips_through_its_matrices_and_refuses_other_metrics() -> None:
    table = CountTable(SUITE)
    table.append("a", counts([1, 2, 1, 1], [2, 2, 2, 2], [1, 1, 1, 1]))
    again = CountTable.from_matrices(SUITE, table.names, table.matrices())
    assert again.matrix().tolist() == table.matrix().tolist()
    empty = CountTable(SUITE)
    assert empty.matrices()["muc"].shape == (0, 4)
    other = CountTable(MetricSuite.of(Options(metrics=("muc",))))
    with pytest.raises(ValueError, match="different metrics"):
        table.extend(other)
