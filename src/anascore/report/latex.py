"""LaTeX output: booktabs tables ready for a paper, the signature as a footnote.

Each table is a ``table`` float with a ``tabular`` (``booktabs`` rules: the preamble needs
``\\usepackage{booktabs}``), its title and note as the caption, the best score of each column
in bold in the scores table, metric groups (recall, precision, F1) under a shared heading,
and intervals in small type on a line under their scores; tables of more than :data:`WIDE`
columns are ``table*`` (both columns of a two-column paper).

The first table carries the signature as a table footnote: a mark (ᵃ) after the caption's
title, and the note in small type under the table, inside the float — so it always stays on
the table's page. LaTeX's own ``\\footnote`` is not used: inside a float it is lost, a
``\\footnotemark`` in a caption is stepped twice when the caption runs over one line, and a
``\\footnotetext`` after a ``table*`` lands on another page than the table.
"""

from __future__ import annotations

from collections.abc import Sequence

from anascore.config.metric_names import CATALOGUE
from anascore.core.version import __version__
from anascore.metrics.scores import is_applicable
from anascore.report.tables import Cell, Percent, Probability, Range, Signed, Table
from anascore.stats.bootstrap import Interval

_SPECIAL = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
    "|": r"\textbar{}", "<": r"\textless{}", ">": r"\textgreater{}",
    "Δ": r"$\Delta$", "–": "--", "×": r"$\times$", "…": r"\ldots{}", "³": r"$^3$",
    "²": r"$^2$", "≥": r"$\geq$", "≤": r"$\leq$",
}
#: Metric titles as papers typeset them (the catalogue's ``latex`` column).
_TITLES = {metric.title: metric.latex for metric in CATALOGUE if metric.latex is not None}
#: Tables wider than this many columns span both columns of a two-column paper.
WIDE = 6


def escape(text: str) -> str:
    """``text`` with LaTeX's special characters made literal.

    >>> escape("50% of A_1 & B")
    '50\\\\% of A\\\\_1 \\\\& B'
    """
    return "".join(_SPECIAL.get(character, character) for character in text)


def _title(text: str) -> str:
    return _TITLES.get(text) or escape(text)


def _number(value: float) -> str:
    return "n/a" if not is_applicable(value) else f"{value * 100:.2f}"


def format_latex_cell(cell: Cell, bold: bool = False) -> str:
    if cell is None:
        return ""
    if isinstance(cell, str):
        return _title(cell)
    if isinstance(cell, (Percent, Signed, Probability)) and not is_applicable(cell.value):
        return "n/a"
    if isinstance(cell, Percent):
        text = _number(cell.value)
        if bold:
            text = rf"\textbf{{{text}}}"
        if cell.mark:
            text += rf"$^{{{escape(cell.mark)}}}$"
        return text
    if isinstance(cell, Signed):
        if cell.interval is not None and not is_applicable(cell.interval.low):
            return "n/a"
        if cell.interval is not None:
            return (f"[${cell.interval.low * 100:+.2f}$, "
                    f"${cell.interval.high * 100:+.2f}$]")
        return f"${cell.value * 100:+.2f}$"
    if isinstance(cell, Range):
        return _range(cell.interval)
    assert isinstance(cell, Probability)
    text = f"{cell.value:.4f}"
    return text + (rf"$^{{{escape(cell.mark)}}}$" if cell.mark else "")


def _range(interval: Interval) -> str:
    if not is_applicable(interval.low):
        return r"{\scriptsize n/a}"
    return rf"{{\scriptsize {_number(interval.low)}--{_number(interval.high)}}}"


def _best_rows(table: Table) -> dict[int, float]:
    """For each numeric column, the highest score in it (to bold it)."""
    best: dict[int, float] = {}
    if not table.best_of_column or len(table.rows) < 2:
        return best
    for index, column in enumerate(table.columns):
        values = [cell.value for row in table.rows
                  if isinstance(cell := row[index], Percent) and is_applicable(cell.value)]
        if column.numeric and values:
            best[index] = max(values)
    return best


def render_latex_table(table: Table, *, label: str, footnote: str = "") -> list[str]:
    """One table float (with ``footnote`` as its table footnote, when given)."""
    width = len(table.columns)
    alignment = "".join("r" if column.numeric else "l" for column in table.columns)
    environment = "table*" if width > WIDE else "table"
    lines = [rf"\begin{{{environment}}}[t]", r"\centering", r"\small"]
    if any(isinstance(cell, Percent) and cell.interval is not None
           for row in table.rows for cell in row):
        lines.append(r"\setlength{\tabcolsep}{4pt}")
    lines += [rf"\begin{{tabular}}{{{alignment}}}", r"\toprule"]
    if any(column.group for column in table.columns):
        groups: list[tuple[str, int, int]] = []
        for index, column in enumerate(table.columns):
            if groups and column.group and groups[-1][0] == column.group:
                name, start, _ = groups[-1]
                groups[-1] = (name, start, index)
            else:
                groups.append((column.group, index, index))
        cells, rules = [], []
        for name, start, end in groups:
            span = end - start + 1
            cells.append(rf"\multicolumn{{{span}}}{{c}}{{{_title(name)}}}" if span > 1
                         else _title(name))
            if name:
                rules.append(rf"\cmidrule(lr){{{start + 1}-{end + 1}}}")
        lines.append(" & ".join(cells) + r" \\")
        lines.append(" ".join(rules))
        lines.append(" & ".join(_title(column.title) for column in table.columns) + r" \\")
    else:
        lines.append(" & ".join(_title(column.title) for column in table.columns) + r" \\")
    lines.append(r"\midrule")
    best = _best_rows(table)
    for row in table.rows:
        cells = [format_latex_cell(cell, isinstance(cell, Percent) and best.get(index)
                                   == cell.value)
                 for index, cell in enumerate(row)]
        lines.append(" & ".join(cells) + r" \\")
        intervals = [_range(cell.interval) if isinstance(cell, Percent)
                     and cell.interval is not None else "" for cell in row]
        if any(intervals):
            lines.append(" & ".join(intervals) + r" \\")
    lines.append(r"\bottomrule")
    lines.append(r"\end{tabular}")
    mark = r"\textsuperscript{a}" if footnote else ""
    if footnote:
        lines.append(rf"\par\smallskip{{\footnotesize {mark}\,{footnote}\par}}")
    caption = escape(table.title) + "." + mark + (f" {escape(table.note)}" if table.note
                                                   else "")
    lines += [rf"\caption{{{caption}}}", rf"\label{{{label}}}", rf"\end{{{environment}}}"]
    return lines


def render_latex(tables: Sequence[Table], signature: str, *, mode: str | None = None) -> str:
    """Every table as a float; the first with the mode of the run (when given) and the
    signature as its footnote."""
    lines = [f"% anascore {__version__}: needs \\usepackage{{booktabs}} in the preamble."]
    for number, table in enumerate(tables):
        breakable = "|\\allowbreak{}".join(escape(part) for part in signature.split("|"))
        scored = f"Mode: {escape(mode)}. " if mode else ""
        footnote = (rf"{scored}anascore {escape(__version__)} signature: \texttt{{{breakable}}}"
                    if number == 0 else "")
        label = f"tab:anascore-{table.kind}" + (f"-{number}" if number else "")
        lines += render_latex_table(table, label=label, footnote=footnote)
        lines.append("")
    return "\n".join(lines)
