"""Markdown output: pipe tables (GitHub-flavoured), each under its title, then the signature."""

from __future__ import annotations

from collections.abc import Sequence

from anascore.report.tables import Table, format_cell


def _escape(text: str) -> str:
    return text.replace("|", "\\|")


def render_markdown_table(table: Table) -> list[str]:
    lines = [f"**{_escape(table.title)}**", ""]
    lines.append("| " + " | ".join(_escape(column.heading) for column in table.columns) + " |")
    lines.append("|" + "|".join("---:" if column.numeric else ":---"
                                for column in table.columns) + "|")
    for row in table.rows:
        lines.append("| " + " | ".join(_escape(format_cell(cell)) for cell in row) + " |")
    if table.note:
        lines += ["", _escape(table.note)]
    return lines


def render_markdown(tables: Sequence[Table], signature: str, *, mode: str | None = None) -> str:
    """Every table, then the mode of the run (what was scored, how; when given) and the
    signature as inline code."""
    lines: list[str] = []
    for table in tables:
        lines += render_markdown_table(table)
        lines.append("")
    if mode:
        lines += [f"Mode: {_escape(mode)}", ""]
    lines.append(f"Signature: `{signature}`")
    return "\n".join(lines) + "\n"
