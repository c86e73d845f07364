"""``anascore plot``: a JSON report drawn (:mod:`anascore.report.plot`)."""

from __future__ import annotations

import argparse

from anascore.cli.common import input_error
from anascore.core.errors import AnascoreError


def add_plot_command(commands: argparse._SubParsersAction) -> None:
    plot = commands.add_parser(
        "plot", help="draw a JSON report (needs matplotlib: pip install matplotlib)",
        description="Draw, from the JSON output of 'anascore score', each metric's F1 per "
                    "system with its confidence interval, and (with --per-document in the "
                    "report) the distribution of per-document F1.")
    plot.add_argument("report", metavar="REPORT", help="a JSON report ('-': stdin)")
    plot.add_argument("-o", "--output", required=True, metavar="FILE",
                      help="the image to write: .png, .svg or .pdf")
    plot.add_argument("--metric", default=None,
                      help="the metric of the per-document distribution, for a report "
                           "made with --per-document; any name or title the tables print "
                           "(default: conll if reported, else the last metric)")
    plot.set_defaults(run=run_plot, command_parser=plot)


def run_plot(parser: argparse.ArgumentParser, arguments: argparse.Namespace) -> int:
    try:
        from anascore.report.plot import plot_report_file

        plot_report_file(arguments.report, arguments.output, metric=arguments.metric)
    except AnascoreError as error:
        return input_error(arguments, error)
    return 0
