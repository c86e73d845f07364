"""Results of a metric (anascore.metrics.scores): equality where a value is not applicable."""

from __future__ import annotations


def test_results_not_applicable_alike_are_equal_on_every_python() -> None:
    """0/0 gives NaN, which equals nothing; two results of the same counts are equal all the
    same, whatever NaN object they hold (Python 3.13's dataclasses compare field by field)."""
    import math

    from anascore.metrics.scores import AverageScore, BlancScore, Score

    first = Score.from_counts(0, 0, 0, 0, empty="n/a")
    second = Score(float("nan"), float("nan"), float("nan"), 0.0, 0.0, 0.0, 0.0, first.reason)
    assert math.isnan(first.f1) and first.f1 is not second.f1
    assert first == second and hash(first) == hash(second)
    assert first != Score.from_counts(0, 0, 0, 1, empty="n/a")  # another reason, counts
    assert first != Score.from_counts(0, 0, 0, 0)  # 0.0, not NaN
    assert AverageScore(float("nan"), ("muc",)) == AverageScore(math.nan, ("muc",))
    assert AverageScore(float("nan"), ("muc",)) != AverageScore(math.nan, ("bcub",))
    assert BlancScore(math.nan, 0.5, float("nan"), first, second) == BlancScore(
        float("nan"), 0.5, math.nan, second, first)
    assert first != (first.recall, first.precision)  # a result equals only a result
