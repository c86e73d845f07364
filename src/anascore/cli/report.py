"""``anascore report``: one self-contained HTML page of the scores, the error analysis and
every document (:mod:`anascore.report.html`)."""

from __future__ import annotations

import argparse
import sys

from anascore.cli.common import add_warning_arguments, print_error, report_warnings
from anascore.cli.errors import add_analysis_inputs, refuse_unclassified
from anascore.cli.settings_flags import (
    given_settings,
    name_preset,
    refuse_given,
    settings_error,
)
from anascore.config.options import Options
from anascore.core.errors import AnascoreError, OptionsError, printable

#: Settings the page does not read: paired tests (the page has no test table) and levels
#: above the document.
UNREAD = ("paired_bs", "paired_ar", "level", "topic_pattern")


def add_report_command(commands: argparse._SubParsersAction) -> None:
    from anascore.cli.score import GROUP_KINDS

    report = commands.add_parser(
        "report", help="write one self-contained HTML report: scores, errors, documents",
        description="Write an HTML file (no network needed to open it) with the corpus scores, "
                    "the per-document table, the error analysis and its impact chart, grouped "
                    "scores (--group-by), and every document's key and response side by side, "
                    "errors marked (docs/report.md).")
    output = add_analysis_inputs(report)["output"]
    output.add_argument("-o", "--output", required=True, metavar="FILE",
                        help="the HTML file to write")
    output.add_argument("--names", nargs="+", metavar="NAME", default=None,
                        help="a name for each response (default: the file names)")
    output.add_argument("--group-by", default=None, metavar="KIND", choices=GROUP_KINDS,
                        help="add grouped scores, as for score --group-by")
    output.add_argument("--genre-pattern", metavar="REGEX", default=None,
                        help="with --group-by genre: as for score")
    add_warning_arguments(output, strict=False,
                          quiet="print no warnings and no 'wrote FILE' line (the warnings "
                                "stay on the page)")
    report.set_defaults(run=run_report, command_parser=report)


def run_report(parser: argparse.ArgumentParser, arguments: argparse.Namespace) -> int:
    """Run ``anascore report``."""
    from anascore.analysis.report_page import report_files
    from anascore.formats.io.output import atomic_output, check_writable, refuse_overwriting_inputs
    from anascore.report.systems import system_names

    if arguments.names is not None and len(arguments.names) != len(arguments.responses):
        parser.error(f"--names gives {len(arguments.names)} names for "
                     f"{len(arguments.responses)} responses")
    if arguments.genre_pattern is not None and arguments.group_by != "genre":
        parser.error("--genre-pattern needs --group-by genre")
    refuse_given(parser, arguments, UNREAD, "anascore report does not read it (the page "
                 "scores each document); score with anascore score")
    try:
        options = Options.create(**given_settings(arguments))
    except OptionsError as error:
        settings_error(parser, arguments, error.message)
    refuse_unclassified(parser, arguments, options, "report")
    names = arguments.names or list(system_names(arguments.responses))
    said: list[str] = []
    try:
        refuse_overwriting_inputs([arguments.key, *arguments.responses], arguments.output)
        target = check_writable(arguments.output)
        page = report_files(arguments.key, arguments.responses, names, options,
                            group_by=arguments.group_by, genre_pattern=arguments.genre_pattern,
                            said=said)
        with atomic_output(target) as stream:
            stream.write(page)
    except OptionsError as error:
        if error.path is None:  # a setting alone; one the files cannot honour names the file
            settings_error(parser, arguments, error.message)
        print_error(name_preset(error.location_message(), arguments))
        return 1
    except AnascoreError as error:
        print_error(name_preset(error.location_message(), arguments))
        return 1
    except OSError as error:
        print_error(f"{arguments.output}: {error.strerror}")
        return 1
    report_warnings(said, arguments)  # as score and errors print them (they are on the page)
    if not arguments.quiet:
        size = len(page.encode("utf-8")) / 1e6
        print(f"anascore: wrote {printable(arguments.output)} ({size:.1f} MB)", file=sys.stderr)
    return 0
