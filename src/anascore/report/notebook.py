"""What results show in a notebook: short reprs, small HTML tables (``_repr_html_``) and
pandas DataFrames (``to_dataframe``, with the ``pandas`` extra). Shared by
:class:`~anascore.report.Report`, :class:`~anascore.report.systems.SystemsReport`,
:class:`~anascore.scoring.groups.GroupedScores`, the error analysis, the leaderboard and
:class:`~anascore.training.evaluator.CorefEvaluator`: a score is shown in percent with its
interval where it has one (``87.67 [85.10, 89.20]``, as the text tables print it), and a
DataFrame holds fractions, an interval's ends in ``PART_low`` and ``PART_high`` columns."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from anascore.core.errors import OptionsError


def percent(value: float) -> str:
    """A score in percent with two decimals, ``n/a`` when not applicable."""
    return "n/a" if value is None or math.isnan(value) else f"{100 * value:.2f}"


#: The parts of a metric's score, in the order the tables show them.
PARTS: tuple[str, ...] = ("recall", "precision", "f1")


def with_interval(value: float, interval: Any = None) -> str:
    """A score in percent, with its interval (an object with ``low`` and ``high``, or
    ``None``) in brackets when it has ends."""
    shown = percent(value)
    if interval is None or math.isnan(interval.low) or math.isnan(interval.high):
        return shown
    return f"{shown} [{100 * interval.low:.2f}, {100 * interval.high:.2f}]"


def _part_interval(intervals: Any, part: str) -> Any:
    """``part``'s interval of a metric's intervals (``None``: none)."""
    return None if intervals is None else getattr(intervals, part, None)


def score_cells(score: Any, intervals: Any = None) -> list[str]:
    """Recall, precision and F1 of a metric's score (``n/a`` where it has none: an average
    has only F1), each with its interval from ``intervals`` (a metric's
    :class:`~anascore.stats.bootstrap.MetricInterval`, or ``None``)."""
    return [with_interval(getattr(score, part, math.nan), _part_interval(intervals, part))
            for part in PARTS]


def score_record(score: Any, intervals: Any = None) -> dict[str, float]:
    """A metric's score as a DataFrame row: recall, precision, F1 (NaN where it has none),
    and, with ``intervals``, each part's ``_low`` and ``_high`` ends."""
    record = {part: getattr(score, part, math.nan) for part in PARTS}
    if intervals is not None:
        for part in PARTS:
            interval = _part_interval(intervals, part)
            record[f"{part}_low"] = math.nan if interval is None else interval.low
            record[f"{part}_high"] = math.nan if interval is None else interval.high
    return record


def f1_summary(metrics: Mapping[str, Any], intervals: Mapping[str, Any] | None = None,
               shown: int = 8) -> str:
    """``muc 87.85 [80.00, 91.00], bcub 85.55, …``: the first ``shown`` metrics' F1, for a
    one-line repr."""
    items = list(metrics.items())
    text = ", ".join(f"{name} " + with_interval(score.f1, None if intervals is None else
                                                  getattr(intervals.get(name), "f1", None))
                     for name, score in items[:shown])
    return text + (", …" if len(items) > shown else "")


def html_table(caption: str, header: Sequence[str],
               rows: Sequence[tuple[str, Sequence[str]]]) -> str:
    """A plain HTML table: a caption, a header row, then a row heading and cells per row."""
    head = "".join(f"<th>{escape(cell)}</th>" for cell in header)
    body = "".join(f"<tr><th style='text-align:left'>{escape(name)}</th>"
                   + "".join(f"<td style='text-align:right'>{escape(cell)}</td>"
                             for cell in cells) + "</tr>" for name, cells in rows)
    return (f"<table><caption style='text-align:left'>{escape(caption)}</caption>"
            f"<tr><th></th>{head}</tr>{body}</table>")


def dataframe(rows: Mapping[Any, Mapping[Any, Any]], index_names: Sequence[str] | None = None
              ) -> Any:
    """A pandas DataFrame with a row per key of ``rows`` (``pandas`` is an optional extra)."""
    try:
        import pandas  # type: ignore[import-untyped,unused-ignore]
    except ImportError:
        raise OptionsError("to_dataframe needs pandas: pip install pandas (the pandas "
                           "extra: pip install '.[pandas]' in anascore's checkout)") from None
    frame = pandas.DataFrame.from_dict(dict(rows), orient="index")
    if index_names is not None:
        frame.index.names = list(index_names)
    return frame
