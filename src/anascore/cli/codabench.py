"""``anascore codabench``: a Codabench scoring program and reference data for a task
(:mod:`anascore.leaderboard.codabench`)."""

from __future__ import annotations

import argparse
import sys

from anascore.cli.common import add_warning_arguments
from anascore.core.errors import AnascoreError
from anascore.core.version import REQUIRED_PYTHON


def add_codabench_command(commands: argparse._SubParsersAction) -> None:
    codabench = commands.add_parser(
        "codabench", help="write a Codabench scoring program and reference data for a task",
        description="Write OUT/scoring_program (metadata.yaml, score.py and anascore's own "
                    f"source: Python >= {REQUIRED_PYTHON} with numpy and scipy runs it), "
                    "OUT/reference_data "
                    "(the datasets' keys) and OUT/leaderboard.yaml (the leaderboard of "
                    "competition.yaml) from TASK, the manifest of anascore evaluate; its "
                    "[[systems]] are not needed. See docs/shared-task.md.")
    codabench.add_argument("task", metavar="TASK", help="the task manifest (.toml)")
    codabench.add_argument("out", metavar="OUT", help="a new folder to write")
    add_warning_arguments(codabench, strict=False, quiet="print no 'wrote' line")
    codabench.set_defaults(run=run_codabench, command_parser=codabench)


def run_codabench(parser: argparse.ArgumentParser, arguments: argparse.Namespace) -> int:
    from anascore.leaderboard.codabench import write_bundle

    try:
        written = write_bundle(arguments.task, arguments.out)
    except AnascoreError as error:
        print(f"anascore: error: {error.location_message()}", file=sys.stderr)
        return 1
    if not arguments.quiet:
        print(f"anascore: wrote {arguments.out}: {', '.join(written)}", file=sys.stderr)
    return 0
