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
from importlib import import_module

import anascore.cli.blas_threads  # noqa: F401  (before numpy is imported)
from anascore.cli.common import OUTPUTS, SHOWN_WARNINGS, Parser, report_warnings, write
from anascore.config.settings import DEFAULT_RESAMPLES
from anascore.core.version import __version__

#: Each command, in the order ``anascore --help`` lists them; the module ``cli/<command>.py``
#: adds its parser (``add_<command>_command``).
COMMANDS = ("score", "plot", "lab", "convert", "evaluate", "codabench", "errors", "report",
            "agree")

__all__ = ["DEFAULT_RESAMPLES", "OUTPUTS", "SHOWN_WARNINGS", "build_parser", "main"]


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or, given the name of one, a parser that knows only that
    command: a run of ``anascore score`` neither imports nor builds the other commands'
    arguments (a tenth of its start-up), and parses its own exactly as the whole parser
    does, since a subcommand's parser does not depend on its siblings."""
    parser = Parser(
        prog="anascore",
        description="Score anaphora and coreference resolution against a gold key.")
    parser.add_argument("--version", action="version", version=f"anascore {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        if command is None or name == command:
            getattr(import_module(f"anascore.cli.{name}"), f"add_{name}_command")(commands)
    if "agree" in commands.choices:
        from anascore.cli.agree import run_agree

        commands.choices["agree"].set_defaults(
            run=lambda parser, arguments: run_agree(arguments, report_warnings, write))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default: the process's); the exit status."""
    if argv is None:
        argv = sys.argv[1:]
    # the command is the first argument when it names one (the whole parser otherwise: for
    # --help, --version, and the nearest command to a mistyped one)
    parser = build_parser(argv[0] if argv and argv[0] in COMMANDS else None)
    arguments, extras = parser.parse_known_args(argv)
    command: Parser = arguments.command_parser
    if extras:
        command.refuse_unknown(extras)
    return int(arguments.run(parser, arguments))


if __name__ == "__main__":
    sys.exit(main())
