"""Markdown output: pipe tables (GitHub-flavoured), each under its title, then the signature."""

from __future__ import annotations

import re
from collections.abc import Sequence

from anascore.report.tables import Table, format_cell

#: What Markdown may read as syntax in a table cell: ``|`` ends the cell, a backslash escapes,
#: backticks, ``*``, ``~`` and ``<`` start code, emphasis, strike-through and HTML, and ``_``
#: emphasis where it is not inside a word (``span_error`` stays as it is, for readers of the
#: raw text). CommonMark lets a backslash make any of them literal.
_SYNTAX = re.compile(r"([\\`*~<>|]|(?<![0-9A-Za-z])_|_(?![0-9A-Za-z]))")


def escape(text: str) -> str:
    """``text`` as Markdown shows it literally, on one line (a table row is one line): a
    name from the input (a document called ``a|b``, ``<b>``, ``x_1*``) stays in its cell."""
    return _SYNTAX.sub(r"\\\1", re.sub(r"[\r\n]+", " ", text))


def render_markdown_table(table: Table) -> list[str]:
    lines = [f"**{escape(table.title)}**", ""]
    lines.append("| " + " | ".join(escape(column.heading) for column in table.columns) + " |")
    lines.append("|" + "|".join("---:" if column.numeric else ":---"
                                for column in table.columns) + "|")
    for row in table.rows:
        lines.append("| " + " | ".join(escape(format_cell(cell)) for cell in row) + " |")
    if table.note:
        lines += ["", escape(table.note)]
    return lines


def render_markdown(tables: Sequence[Table], signature: str, *, mode: str | None = None) -> str:
    """Every table, then the mode of the run (what was scored, how; when given) and the
    signature as inline code."""
    lines: list[str] = []
    for table in tables:
        lines += render_markdown_table(table)
        lines.append("")
    if mode:
        lines += [f"Mode: {escape(mode)}", ""]
    lines.append(f"Signature: `{signature}`")
    return "\n".join(lines) + "\n"
