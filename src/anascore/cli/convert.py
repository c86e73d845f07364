"""``anascore convert``: an annotated file written in another format
(:mod:`anascore.formats.io.conversion`)."""

from __future__ import annotations

import argparse

from anascore.cli.common import add_warning_arguments, input_error, report_warnings
from anascore.config.format_catalogue import BY_NAME, FORMAT_NAMES
from anascore.config.options import FORMATS
from anascore.core.errors import AnascoreError


def add_convert_command(commands: argparse._SubParsersAction) -> None:
    convert_command = commands.add_parser(
        "convert", help="convert an annotated file to another format",
        description="Read IN and write its documents to OUT in the format --to names. What "
                    "the target cannot hold (split antecedents, bridging, zeros, "
                    "discontinuous mentions, heads …) is refused unless --drop-unsupported.")
    convert_command.add_argument("input", metavar="IN", help="the file to convert")
    convert_command.add_argument("output", metavar="OUT", help="the file to write")
    convert_command.add_argument("--to", required=True,
                                 choices=tuple(name for name in FORMAT_NAMES
                                               if BY_NAME[name].writable),
                                 help="the format of OUT")
    convert_command.add_argument("--format", choices=FORMATS, default="auto",
                                 help="the format of IN (default: detected)")
    convert_command.add_argument("--drop-unsupported", action="store_true",
                                 help="drop what the target format cannot hold (listed as "
                                      "warnings) instead of refusing")
    convert_command.add_argument("--exclusive-ends", action="store_true",
                                 help="jsonlines: span ends are exclusive, in IN and OUT")
    add_warning_arguments(convert_command, strict=False,
                           quiet="print no warnings (what was dropped)")
    convert_command.set_defaults(run=run_convert, command_parser=convert_command)


def run_convert(parser: argparse.ArgumentParser, arguments: argparse.Namespace) -> int:
    from anascore.formats.io.conversion import convert

    try:
        warnings = convert(arguments.input, arguments.output, to=arguments.to,
                           format=arguments.format,
                           drop_unsupported=arguments.drop_unsupported,
                           exclusive_ends=arguments.exclusive_ends)
    except AnascoreError as error:
        return input_error(arguments, error)
    report_warnings(warnings, arguments, every=True)
    return 0
