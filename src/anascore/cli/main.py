"""The ``anascore`` command's parser and dispatch: each command is a module of ``cli/``
(:mod:`~anascore.cli.score`, :mod:`~anascore.cli.errors`, :mod:`~anascore.cli.report`,
:mod:`~anascore.cli.convert`, :mod:`~anascore.cli.evaluate`, :mod:`~anascore.cli.codabench`,
:mod:`~anascore.cli.plot`, :mod:`~anascore.cli.lab`, :mod:`~anascore.cli.agree`) that adds its
parser and names the function that runs it.

Exit status: 0 on success, 1 for bad input (one line, ``anascore: error: FILE:LINE: what was
wrong``), 2 for bad command-line usage (one line, with the nearest command, flag or choice
when one was mistyped). Warnings go to stderr, results to stdout.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import anascore.cli.blas_threads  # noqa: F401  (before numpy is imported)
from anascore.cli.codabench import add_codabench_command
from anascore.cli.common import OUTPUTS, SHOWN_WARNINGS, Parser, report_warnings, write
from anascore.cli.convert import add_convert_command
from anascore.cli.errors import add_errors_command
from anascore.cli.evaluate import add_evaluate_command
from anascore.cli.lab import add_lab_command
from anascore.cli.plot import add_plot_command
from anascore.cli.report import add_report_command
from anascore.cli.score import add_score_command
from anascore.config.settings import DEFAULT_RESAMPLES
from anascore.core.version import __version__

__all__ = ["DEFAULT_RESAMPLES", "OUTPUTS", "SHOWN_WARNINGS", "build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    """The parser of every command."""
    parser = Parser(
        prog="anascore",
        description="Score anaphora and coreference resolution against a gold key.")
    parser.add_argument("--version", action="version", version=f"anascore {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    add_score_command(commands)
    add_plot_command(commands)
    add_lab_command(commands)
    add_convert_command(commands)
    add_evaluate_command(commands)
    add_codabench_command(commands)
    add_errors_command(commands)
    add_report_command(commands)
    from anascore.cli.agree import add_agree_command, run_agree

    add_agree_command(commands)
    commands.choices["agree"].set_defaults(
        run=lambda parser, arguments: run_agree(arguments, report_warnings, write))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default: the process's); the exit status."""
    parser = build_parser()
    arguments, extras = parser.parse_known_args(argv)
    command: Parser = arguments.command_parser
    if extras:
        command.refuse_unknown(extras)
    return int(arguments.run(parser, arguments))


if __name__ == "__main__":
    sys.exit(main())
