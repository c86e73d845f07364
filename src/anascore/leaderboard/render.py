"""The leaderboard in every output format: text, JSON, CSV, Markdown and LaTeX.

Text, Markdown and LaTeX render the same :class:`~anascore.report.tables.Table` values as
``anascore score`` does (:mod:`anascore.report.tables`): the standings (rank, system, combined
score with its interval and a mark when it is significantly above the next system, the
standard deviation over runs, the rank interval, each dataset's score) and the paired tests.
LaTeX bolds the best score of each column (booktabs).
"""

from __future__ import annotations

import json

from anascore.config.metric_names import DERIVED_METRICS, metric_title
from anascore.core.version import __version__
from anascore.formats.io.csv_output import csv_rows
from anascore.leaderboard.ranking import Leaderboard
from anascore.report.tables import (
    SIGNIFICANT,
    Cell,
    Column,
    Percent,
    Probability,
    Signed,
    Table,
)

#: Output formats of ``anascore evaluate``: those of ``anascore score``.
LEADERBOARD_OUTPUTS: tuple[str, ...] = ("text", "json", "csv", "markdown", "latex")


def signature(board: Leaderboard) -> str:
    """Every setting that changes a number of the leaderboard (each dataset's own settings are
    in the JSON output and the notes)."""
    task = board.task
    parts = [f"metric:{task.metric}", f"combine:{task.combine}",
             f"datasets:{len(task.datasets)}"]
    if task.resamples:
        parts += [f"bootstrap:{task.resamples}@{task.confidence_level:g}", f"seed:{task.seed}"]
    parts.append(f"version:{__version__}")
    return "|".join(parts)


def task_metric_title(metric: str) -> str:
    """How the leaderboard titles the task's metric: a derived metric by its title (``CoNLL``),
    any other by its name, in capitals when short (``MUC``, ``BCUB``; the leaderboard's own
    spelling since its first version, kept: it goes into competition files)."""
    if metric in DERIVED_METRICS:
        return metric_title(metric)
    return metric.upper() if len(metric) <= 4 else metric


def _metric(board: Leaderboard) -> str:
    return task_metric_title(board.task.metric)


def standings_table(board: Leaderboard) -> Table:
    """A row per system, in rank order."""
    task = board.task
    runs = any(standing.std is not None for standing in board.standings)
    columns = [Column("Rank", numeric=False), Column("System", numeric=False),
               Column(f"{_metric(board)} ({task.combine})")]
    if runs:
        columns.append(Column("sd"))
    if task.resamples:
        columns.append(Column("Ranks", numeric=False))
    columns += [Column(dataset.name) for dataset in task.datasets]
    rows: list[tuple[Cell, ...]] = []
    for position, standing in enumerate(board.standings):
        mark = ""
        if position + 1 < len(board.standings):
            test = board.test(standing.system, board.standings[position + 1].system)
            if test is not None and test.p_adjusted < board.significance_level:
                mark = SIGNIFICANT
        cells: list[Cell] = [str(standing.rank), standing.system,
                             Percent(standing.score, standing.interval, mark)]
        if runs:
            cells.append("" if standing.std is None else f"{standing.std * 100:.2f}")
        if task.resamples:
            assert standing.ranks is not None
            best, worst = standing.ranks
            cells.append(str(best) if best == worst else f"{best}–{worst}")
        cells += [Percent(standing.datasets[dataset.name]) for dataset in task.datasets]
        rows.append(tuple(cells))
    for system, scores in board.unranked.items():  # a cell failed: listed, not ranked
        dataset_cells: list[Cell] = []
        for dataset in task.datasets:
            value = scores[dataset.name]
            dataset_cells.append("n/a" if value is None else Percent(value))
        rows.append(("–", system, "n/a", *([""] if runs else []),
                     *([""] if task.resamples else []), *dataset_cells))
    notes = [f"{_metric(board)} F1 (%) per dataset; combined by the "
             + ("weighted mean over datasets (macro)." if task.combine == "macro"
                else "metric of the counts summed over datasets (micro).")]
    if runs:
        notes.append("Systems with several runs: the mean over runs; sd: their standard "
                     "deviation (percentage points).")
    if board.failures:
        notes.append("n/a: not scored (anascore evaluate prints why); a system with such a "
                     "cell is not ranked.")
    if task.resamples:
        level = f"{task.confidence_level:.0%}"
        notes.append(f"Intervals and ranks: {level} stratified bootstrap ({task.resamples} "
                     "resamples of each dataset's documents). "
                     f"{SIGNIFICANT}: above the next system by the paired bootstrap, "
                     f"p (Holm) < {board.significance_level:g}.")
    return Table(f"{task.name}: {len(board.standings)} systems on {len(task.datasets)} "
                 "datasets", tuple(columns), tuple(rows), " ".join(notes),
                 best_of_column=True)


def tests_table(board: Leaderboard) -> Table | None:
    """Every pair of systems: the difference and its paired bootstrap p-values."""
    if not board.tests:
        return None
    alpha = board.significance_level
    rows = tuple((test.higher, test.lower, Signed(test.delta), Probability(test.p_value),
                  Probability(test.p_adjusted, SIGNIFICANT if test.p_adjusted < alpha else ""))
                 for test in board.tests)
    return Table("Paired bootstrap tests of the combined score",
                 (Column("Higher", numeric=False), Column("Lower", numeric=False),
                  Column("Δ"), Column("p"), Column("p (Holm)")), rows,
                 f"Holm's adjustment over all {len(board.tests)} pairs; the smallest "
                 f"attainable p is 1/{board.task.resamples + 1}.", kind="tests")


def render_leaderboard(board: Leaderboard, output: str, *, reports: bool = False) -> str:
    """The leaderboard as ``output`` (one of :data:`LEADERBOARD_OUTPUTS`)."""
    if output == "json":
        return json.dumps(board.to_dict(reports=reports), indent=2) + "\n"
    if output == "csv":
        return _render_csv(board)
    tables = [standings_table(board)]
    tests = tests_table(board)
    if tests is not None:
        tables.append(tests)
    mode = "; ".join(f"{dataset.name}: {board.dataset_signature(dataset)}"
                     for dataset in board.task.datasets)
    if output == "markdown":
        from anascore.report.markdown import render_markdown

        return render_markdown(tables, signature(board), mode=mode)
    if output == "latex":
        from anascore.report.latex import render_latex

        return render_latex(tables, signature(board), mode=mode)
    from anascore.report.tables import render_text_tables

    return render_text_tables(tables, signature(board), mode=mode)


def _render_csv(board: Leaderboard) -> str:
    """A row per system: rank, score and its intervals, then each dataset's score
    (fractions, as ``anascore score --output csv``)."""
    task = board.task
    rows: list[list[object]] = [
        ["rank", "system", "score", "score_low", "score_high", "sd", "runs", "rank_best",
         "rank_worst", *(dataset.name for dataset in task.datasets)]]
    for standing in board.standings:
        interval, ranks = standing.interval, standing.ranks
        rows.append([
            standing.rank, standing.system, repr(standing.score),
            "" if interval is None else repr(interval.low),
            "" if interval is None else repr(interval.high),
            "" if standing.std is None else repr(standing.std), len(standing.run_scores),
            "" if ranks is None else ranks[0], "" if ranks is None else ranks[1],
            *(repr(standing.datasets[dataset.name]) for dataset in task.datasets)])
    for system, scores in board.unranked.items():  # not ranked: a cell failed (empty)
        rows.append(["", system, "", "", "", "", "", "", "",
                     *("" if scores[dataset.name] is None else repr(scores[dataset.name])
                       for dataset in task.datasets)])
    return csv_rows(rows)
