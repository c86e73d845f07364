"""``anascore evaluate``: systems ranked over the datasets of a task manifest
(:mod:`anascore.leaderboard`)."""

from __future__ import annotations

import argparse
import sys

from anascore.cli.common import (
    OUTPUTS,
    add_warning_arguments,
    print_error,
    report_warnings,
    write,
)
from anascore.config.settings import whole_number
from anascore.core.errors import AnascoreError, printable


def add_evaluate_command(commands: argparse._SubParsersAction) -> None:
    evaluate = commands.add_parser(
        "evaluate", help="rank systems over several datasets from a task manifest",
        description="Score every system of TASK (a TOML manifest: datasets, their settings, "
                    "the systems' responses) on every dataset, combine the datasets' scores "
                    "(macro or micro), and rank the systems with bootstrap intervals of the "
                    "score and the rank, and paired tests between systems. See "
                    "docs/shared-task.md.")
    evaluate.add_argument("task", metavar="TASK", help="the task manifest (.toml)")
    evaluate.add_argument("--output", choices=OUTPUTS, default="text",
                          help="how to print the leaderboard (default: text)")
    evaluate.add_argument("--reports", metavar="DIR", default=None,
                          help="also write every per-dataset report as JSON to "
                               "DIR/SYSTEM/DATASET.json (DIR/SYSTEM/run-N/… for several runs)")
    evaluate.add_argument("--jobs", metavar="N", type=whole_number, default=0,
                          help="processes per dataset, as for score (default 0: as the "
                               "files' size gains from)")
    evaluate.add_argument("--no-progress", dest="progress", action="store_false",
                          help="no progress bar (it shows only when stderr is a terminal)")
    add_warning_arguments(evaluate)
    evaluate.set_defaults(run=run_evaluate, command_parser=evaluate)


def run_evaluate(parser: argparse.ArgumentParser, arguments: argparse.Namespace) -> int:
    from anascore.leaderboard import evaluate, read_task
    from anascore.leaderboard.render import render_leaderboard
    from anascore.leaderboard.reports import check_reports, write_reports

    try:
        task = read_task(arguments.task, jobs=arguments.jobs)
        if arguments.reports is not None:
            check_reports(task, arguments.reports)
        board = evaluate(task, progress=arguments.progress)
        if arguments.reports is not None:
            write_reports(board, arguments.reports)
    except AnascoreError as error:
        print_error(error.location_message())
        return 1
    if not report_warnings(board.warnings, arguments):
        return 1
    status = write(render_leaderboard(board, arguments.output))
    for failure in board.failures:  # the others are ranked; exit status 1 says a cell failed
        run = f" (run {failure.run + 1})" if failure.run else ""
        print(printable(f"anascore: system {failure.system!r}{run} on dataset "
                        f"{failure.dataset!r}: n/a: {failure.reason}"), file=sys.stderr)
    return status or (1 if board.failures else 0)
