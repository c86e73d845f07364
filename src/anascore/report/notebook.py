"""What results show in a notebook: small HTML tables (``_repr_html_``) and pandas DataFrames
(``to_dataframe``, with the ``pandas`` extra). Shared by :class:`~anascore.report.Report`,
:class:`~anascore.scoring.groups.GroupedScores` and the error analysis."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from anascore.core.errors import OptionsError


def percent(value: float) -> str:
    """A score in percent with two decimals, ``n/a`` when not applicable."""
    return "n/a" if value is None or math.isnan(value) else f"{100 * value:.2f}"


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
