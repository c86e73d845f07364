"""``anascore errors``: every error of each response classified as Kummerfeld & Klein (2013)
do, and what fixing each type of error would gain (:mod:`anascore.analysis`)."""

from __future__ import annotations

import argparse
import re

from anascore.cli.common import print_error, print_warnings, write
from anascore.cli.settings_flags import (
    add_setting_flags,
    given_settings,
    name_preset,
    refuse_given,
    section_groups,
    settings_error,
)
from anascore.config.options import Options
from anascore.config.settings import BY_NAME
from anascore.core.errors import AnascoreError, OptionsError

#: Settings the error analysis does not read: resampling, the key's hash, levels above the
#: document.
UNREAD = ("confidence", "confidence_level", "seed", "paired_bs", "paired_ar", "sign_key",
          "level", "topic_pattern")


def refuse_unclassified(parser: argparse.ArgumentParser, arguments: argparse.Namespace,
                        options: Options, command: str) -> None:
    """The settings the error analysis does not classify
    (:data:`~anascore.analysis.analyse.UNCLASSIFIED`) refused in one line, naming the preset
    that set one when the user gave a preset rather than the flag."""
    from anascore.analysis.analyse import UNCLASSIFIED

    for name, why in UNCLASSIFIED.items():
        if getattr(options, name) in (False, None, "none"):
            continue
        flag = BY_NAME[name].flag
        why = re.sub(r" \([a-z_]+=[^)]*\)", "", why)  # its Python spelling: the flag is named
        if getattr(arguments, name, None) is None and arguments.preset:
            parser.error(f"anascore {command}: --preset {arguments.preset} sets {flag}, and "
                         f"{why}; score this preset with anascore score, or give the "
                         "preset's other settings by hand")
        parser.error(f"anascore {command}: {why}; drop {flag}, and score that part with "
                     "anascore score")


def add_analysis_inputs(command: argparse.ArgumentParser) -> dict[str, argparse._ArgumentGroup]:
    """KEY, the responses and the settings' flags ``errors`` and ``report`` share with
    ``score``; the sections of ``--help``, for the command's own flags."""
    command.add_argument("key", metavar="KEY", help="the gold annotation")
    command.add_argument("responses", metavar="RESPONSE", nargs="+", help="a system output")
    sections = section_groups(command)
    add_setting_flags(sections)
    return sections


def add_errors_command(commands: argparse._SubParsersAction) -> None:
    from anascore.analysis import OUTPUTS as ERROR_OUTPUTS

    errors = commands.add_parser(
        "errors", help="classify a response's errors and measure what each type costs",
        description="Classify every error of each RESPONSE against KEY as Kummerfeld & Klein "
                    "(2013) do (span error, conflated entities, divided entity, extra / "
                    "missing mention, extra / missing entity) on the alignment the scores "
                    "use, and give each metric's F1 with only one type's errors fixed "
                    "(docs/error-analysis.md). Several responses: a column per system.")
    output = add_analysis_inputs(errors)["output"]
    output.add_argument("--output", choices=ERROR_OUTPUTS, default="text",
                        help="text table (default), JSON, CSV or Markdown")
    output.add_argument("--per-document", action="store_true",
                        help="also give every document's error counts")
    output.add_argument("--list", dest="listed", action="store_true",
                        help="also list every error: document, type, mentions in context, "
                             "entities")
    errors.set_defaults(run=run_errors, command_parser=errors)


def run_errors(parser: argparse.ArgumentParser, arguments: argparse.Namespace) -> int:
    """Run ``anascore errors``."""
    from anascore.analysis.analyse import analyse_files_many
    from anascore.analysis.render import render_errors
    from anascore.report.systems import system_names

    refuse_given(parser, arguments, UNREAD, "anascore errors does not read it (the error "
                 "analysis counts each document once); score with anascore score")
    try:
        options = Options.create(**given_settings(arguments))
    except OptionsError as error:
        settings_error(parser, arguments, error.message)
    refuse_unclassified(parser, arguments, options, "errors")
    try:
        analyses = dict(zip(system_names(arguments.responses),
                            analyse_files_many(arguments.key, arguments.responses, options),
                            strict=True))
    except OptionsError as error:
        if error.path is None:  # a setting alone (or one the preset set): bad usage
            settings_error(parser, arguments, error.message)
        print_error(name_preset(error.location_message(), arguments))
        return 1
    except AnascoreError as error:
        print_error(name_preset(error.location_message(), arguments))
        return 1
    except KeyboardInterrupt:
        return 130
    for analysis in analyses.values():
        print_warnings(analysis.report.warnings)
    return write(render_errors(analyses, arguments.output,
                               per_document=arguments.per_document, listed=arguments.listed))
