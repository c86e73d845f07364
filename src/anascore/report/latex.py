"""LaTeX output: booktabs tables ready for a paper, the signature as a footnote.

Each table is a ``table`` float with a ``tabular`` (``booktabs`` rules: the preamble needs
``\\usepackage{booktabs}``), its title and note as the caption, the best score of each column
in bold in the scores table, and metric groups (recall, precision, F1) under a shared
heading. The first table carries the signature as a footnote: the mark sits in a last row of
the table and ``\\footnotetext`` follows the float — a footnote mark in a caption is typeset
twice when the caption runs over one line, and a footnote inside a float is lost.
"""

from __future__ import annotations

from collections.abc import Sequence

from anascore.report.tables import Cell, Percent, Probability, Range, Signed, Table
from anascore.version import __version__

_SPECIAL = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
    "|": r"\textbar{}", "<": r"\textless{}", ">": r"\textgreater{}",
}
#: Metric titles as papers typeset them.
_TITLES = {"B3": r"B$^3$", "CEAFm": r"CEAF$_m$", "CEAFe": r"CEAF$_e$", "ΔF1": r"$\Delta$F1"}


def escape(text: str) -> str:
    """``text`` with LaTeX's special characters made literal.

    >>> escape("50% of A_1 & B")
    '50\\\\% of A\\\\_1 \\\\& B'
    """
    return "".join(_SPECIAL.get(character, character) for character in text)


def _title(text: str) -> str:
    return _TITLES.get(text) or escape(text).replace("Δ", r"$\Delta$")


def _number(value: float) -> str:
    return f"{value * 100:.2f}"


def format_latex_cell(cell: Cell, bold: bool = False) -> str:
    if cell is None:
        return ""
    if isinstance(cell, str):
        return escape(cell)
    if isinstance(cell, Percent):
        text = _number(cell.value)
        if bold:
            text = rf"\textbf{{{text}}}"
        if cell.mark:
            text += rf"$^{{{escape(cell.mark)}}}$"
        if cell.interval is not None:
            text += (rf" {{\scriptsize[{_number(cell.interval.low)}, "
                     rf"{_number(cell.interval.high)}]}}")
        return text
    if isinstance(cell, Signed):
        if cell.interval is not None:
            return (f"[${cell.interval.low * 100:+.2f}$, "
                    f"${cell.interval.high * 100:+.2f}$]")
        return f"${cell.value * 100:+.2f}$"
    if isinstance(cell, Range):
        return f"{_number(cell.interval.low)}--{_number(cell.interval.high)}"
    assert isinstance(cell, Probability)
    text = f"{cell.value:.4f}"
    return text + (rf"$^{{{escape(cell.mark)}}}$" if cell.mark else "")


def _best_rows(table: Table) -> dict[int, float]:
    """For each numeric column, the highest score in it (to bold it)."""
    best: dict[int, float] = {}
    if not table.best_of_column or len(table.rows) < 2:
        return best
    for index, column in enumerate(table.columns):
        values = [row[index].value for row in table.rows if isinstance(row[index], Percent)]
        if column.numeric and values:
            best[index] = max(values)  # type: ignore[union-attr]
    return best


def render_latex_table(table: Table, *, label: str, footnote: str = "") -> list[str]:
    """One table float (and, when ``footnote`` is given, its footnote text after it)."""
    width = len(table.columns)
    alignment = "".join("r" if column.numeric else "l" for column in table.columns)
    lines = [r"\begin{table}[t]", r"\centering", r"\small",
             rf"\begin{{tabular}}{{{alignment}}}", r"\toprule"]
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
    lines.append(r"\bottomrule")
    if footnote:
        lines.append(rf"\multicolumn{{{width}}}{{r}}{{\scriptsize anascore "
                     rf"{escape(__version__)}\footnotemark}} \\")
    lines.append(r"\end{tabular}")
    caption = escape(table.title) + "." + (f" {escape(table.note)}" if table.note else "")
    lines += [rf"\caption{{{caption}}}", rf"\label{{{label}}}", r"\end{table}"]
    if footnote:
        lines.append(rf"\footnotetext{{{footnote}}}")
    return lines


def render_latex(tables: Sequence[Table], signature: str) -> str:
    """Every table as a float; the first with the signature as its footnote."""
    lines = [f"% anascore {__version__}: needs \\usepackage{{booktabs}} in the preamble."]
    for number, table in enumerate(tables):
        breakable = escape(signature).replace(r"\textbar{}", r"\textbar{}\allowbreak{}")
        footnote = rf"anascore signature: \texttt{{{breakable}}}" if number == 0 else ""
        label = f"tab:anascore-{table.kind}" + (f"-{number}" if number else "")
        lines += render_latex_table(table, label=label, footnote=footnote)
        lines.append("")
    return "\n".join(lines)
