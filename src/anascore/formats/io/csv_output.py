"""CSV that reads back as it was written and opens safely in a spreadsheet.

Every CSV anascore produces (``score``, ``score --group-by``, ``errors``, ``evaluate``,
``lab``, the dominant-mention class table) is written by :func:`csv_rows` or
:func:`csv_records`, with the :mod:`csv` module: a cell holding a quote, a comma or a line
break is quoted, so a document named ``x",1.0,1.0,"y`` stays one cell and forges no number.

Text from the input — document, system, dataset and group names, mention texts, entity
types — reaches these cells, and a spreadsheet runs a cell that starts with ``=``, ``+``,
``-`` or ``@`` as a formula (``=HYPERLINK(…)``, ``-2+3+cmd|…``: CSV injection), as it may
one that starts with a tab or a carriage return. :func:`spreadsheet_safe` writes such a text
cell with a leading ``'``, as spreadsheet-safe exporters do (OWASP's advice), so that it shows
as text. Numbers are not text: a number, or a cell that is exactly a decimal number
(``-0.5``, ``+1.20``, ``-1e-07``, as the code formats some), is written as it is.

This module imports nothing of anascore, so that every layer that writes CSV can use it.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

#: The first characters that make a spreadsheet read a cell as a formula (OWASP, CSV
#: injection): ``=``, ``+``, ``-``, ``@``, tab, carriage return.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: A decimal number as text: a spreadsheet reads it as that number, never as a formula.
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def spreadsheet_safe(value: Any) -> Any:
    """``value`` as a CSV cell a spreadsheet shows and never runs: text that starts with one
    of :data:`FORMULA_STARTS` and is not a plain number gets a leading ``'``; every other
    value (numbers, ``None``, other text) is returned as it is."""
    if (isinstance(value, str) and value.startswith(FORMULA_STARTS)
            and not _NUMBER.fullmatch(value)):
        return "'" + value
    return value


def csv_rows(rows: Iterable[Sequence[Any]]) -> str:
    """``rows`` as CSV text (``\\n`` line ends; ``None`` is an empty cell), every cell
    through :func:`spreadsheet_safe`."""
    stream = io.StringIO()
    writer = csv.writer(stream, lineterminator="\n")
    writer.writerows([spreadsheet_safe(cell) for cell in row] for row in rows)
    return stream.getvalue()


def csv_records(columns: Sequence[str], records: Iterable[Mapping[str, Any]]) -> str:
    """A header of ``columns``, then a row per record (a column a record lacks, or holds
    ``None`` for, is an empty cell), as :func:`csv_rows` writes them."""
    return csv_rows([list(columns), *([record.get(column) for column in columns]
                                      for record in records)])
