"""``anascore lab``: how each metric reacts to each kind of error
(:mod:`anascore.lab.sensitivity`)."""

from __future__ import annotations

import argparse

from anascore.cli.common import OUTPUTS, input_error, write
from anascore.core.errors import AnascoreError


def add_lab_command(commands: argparse._SubParsersAction) -> None:
    lab = commands.add_parser(
        "lab", help="how each metric reacts to each kind of error (Moosavi & Strube 2016 §6)",
        description="Score controlled responses against a key of entities 1x20, 2x10, 3x5, "
                    "1x4 and 10x2 with every metric: resolved links, resolved entities, "
                    "splits, extra mentions, mention identification.")
    lab.add_argument("--output", choices=OUTPUTS, default="text",
                     help="how to print the tables (default: text)")
    lab.add_argument("--plot", metavar="FILE",
                     help="also draw the curves to FILE (.png, .svg or .pdf; needs the plot extra)")
    lab.set_defaults(run=run_lab, command_parser=lab)


def run_lab(parser: argparse.ArgumentParser, arguments: argparse.Namespace) -> int:
    from anascore.lab.sensitivity import render_lab, run_lab

    try:
        experiments = run_lab()
        output = render_lab(experiments, arguments.output)
        if arguments.plot:
            from anascore.report.plot import plot_lab

            plot_lab(experiments, arguments.plot)
    except AnascoreError as error:
        return input_error(arguments, error)
    return write(output)
