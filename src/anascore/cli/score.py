"""``anascore score``: each response scored against the key (several: one table, a row per
system, paired tests against the first), grouped scores (``--group-by``) and several levels
(``--level``)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from anascore.cli.common import (
    OUTPUTS,
    add_warning_arguments,
    print_error,
    report_warnings,
    write,
)
from anascore.cli.settings_flags import (
    add_setting_flags,
    given_settings,
    name_preset,
    section_groups,
    settings_error,
)
from anascore.config.options import Options, canonical_metric
from anascore.config.presets import describe_mode
from anascore.core.errors import AnascoreError, OptionsError
from anascore.report import Report
from anascore.report.text_table import render_text
from anascore.scoring.pipeline import score_files

if TYPE_CHECKING:
    from anascore.report.systems import SystemsReport

#: ``--group-by``'s kinds.
GROUP_KINDS = ("document", "genre", "mention-type", "entity-type", "entity-size",
               "mention-distance")


def add_score_command(commands: argparse._SubParsersAction) -> None:
    score = commands.add_parser(
        "score", help="score one or more response files against a key file",
        description="Score each RESPONSE against KEY with mention identification, MUC, B3, "
                    "CEAFm, CEAFe, BLANC, LEA and the CoNLL average. With several responses: "
                    "one table, a row per system; paired tests compare each with the first.")
    score.add_argument("key", metavar="KEY", help="the gold annotation")
    score.add_argument("responses", metavar="RESPONSE", nargs="+",
                       help="a system output (several: the first is the baseline)")
    sections = section_groups(score)
    add_setting_flags(sections)
    output = sections["output"]
    output.add_argument("--output", choices=OUTPUTS, default="text",
                        help="text table (percentages, default), JSON or CSV (fractions), "
                             "Markdown, or a LaTeX table with the signature as a footnote")
    add_warning_arguments(output)
    output.add_argument("--per-document", action="store_true",
                        help="also report every document's scores")
    output.add_argument("--details", action="store_true",
                        help="JSON: also list, per document and metric, each aligned pair of "
                             "split-antecedent sets with its δ terms")
    output.add_argument("--reference-layout", action="store_true",
                        help="print the Perl reference scorer's TOTALS layout")
    output.add_argument("--group-by", metavar="KIND", default=None, choices=GROUP_KINDS,
                        help="also score every group of documents (document, genre) or of "
                             "mentions (mention-type, entity-type, entity-size, "
                             "mention-distance), with micro and macro rows "
                             "(docs/grouped-scores.md)")
    output.add_argument("--genre-pattern", metavar="REGEX", default=None,
                        help="with --group-by genre: a regular expression whose first group, "
                             "searched in each document name, is its genre (default: the "
                             "OntoNotes prefix bc/, bn/, mz/, nw/, pt/, tc/, wb/)")
    _add_comparison_arguments(output)
    score.set_defaults(run=run_score, command_parser=score)


def run_score(parser: argparse.ArgumentParser, arguments: argparse.Namespace) -> int:
    """Run ``anascore score``."""
    _check_score_usage(parser, arguments)
    settings = given_settings(arguments)
    levels: tuple[str | None, ...] = settings.pop("level", None) or (None,)
    topic_pattern = settings.pop("topic_pattern", None)
    if len(levels) > 1:
        from anascore.cli.level_flags import check_levels_usage

        check_levels_usage(parser, arguments, levels)
    every_options = []
    for level in levels:
        try:
            every_options.append(Options.create(
                level=level, topic_pattern=(topic_pattern if len(levels) == 1
                                            or level in ("topic", "subtopic") else None),
                **settings))
        except OptionsError as error:
            # Every setting comes from the command line here: a usage error, named by its flag.
            settings_error(parser, arguments, error.message)
    if len(every_options) > 1:
        from anascore.cli.level_flags import score_levels

        return score_levels(arguments, every_options, _score, _render, _warnings,
                            report_warnings, write)
    [options] = every_options
    if arguments.sort_by is not None:
        arguments.sort_by = canonical_metric(arguments.sort_by)
        if arguments.sort_by not in options.reported_metrics:
            parser.error(f"--sort-by {arguments.sort_by}: not among the reported metrics "
                         f"({', '.join(options.reported_metrics)})")
    if arguments.group_by is not None or arguments.genre_pattern is not None:
        return _score_groups(parser, arguments, options)
    try:
        result = _score(arguments, options)
    except AnascoreError as error:
        print_error(name_preset(error.location_message(), arguments))
        return 1
    if not report_warnings(_warnings(result), arguments):
        return 1
    return write(_render(result, arguments))


def _score_groups(parser: argparse.ArgumentParser, arguments: argparse.Namespace,
                  options: Options) -> int:
    """``score --group-by``: the plain report, then the groups' table (JSON: under
    ``"groups"``; CSV: the groups' table alone)."""
    from anascore.scoring.groups import check_kind, group_files

    if arguments.group_by is None:
        parser.error("--genre-pattern needs --group-by genre")
    if len(arguments.responses) > 1 or arguments.names is not None:
        parser.error("--group-by scores one response; give one response file")
    if arguments.reference_layout or arguments.output == "latex":
        parser.error("--group-by prints text, json, csv or markdown")
    try:
        check_kind(arguments.group_by, options, arguments.genre_pattern)
    except OptionsError as error:
        parser.error(f"--group-by {arguments.group_by}: {error.message}")
    try:
        report, groups = group_files(arguments.key, arguments.responses[0],
                                     arguments.group_by, options, arguments.genre_pattern)
    except AnascoreError as error:
        print_error(name_preset(error.location_message(), arguments))
        return 1
    if not report_warnings([*_warnings(report), *groups.warnings], arguments):
        return 1
    if arguments.output == "json":
        from anascore.report.names import system_names

        data = report.to_dict(per_document=arguments.per_document, details=arguments.details,
                              response=system_names(arguments.responses)[0])
        data["groups"] = groups.to_dict()
        import json  # only for JSON output

        return write(json.dumps(data, indent=2, allow_nan=False) + "\n")
    if arguments.output == "csv":
        return write(groups.to_csv())
    table = groups.to_markdown() if arguments.output == "markdown" else groups.to_text()
    return write(_render(report, arguments) + "\nF1 by " + arguments.group_by + "\n\n"
                  + table + "\n")


def _check_score_usage(parser: argparse.ArgumentParser, arguments: argparse.Namespace) -> None:
    """Combinations argparse cannot check, reported as usage errors (exit status 2)."""
    several = len(arguments.responses) > 1
    if (arguments.paired_bs or arguments.paired_ar) and not several:
        parser.error("--paired-bs and --paired-ar compare responses with the first one; "
                     "give at least two responses")
    if arguments.reference_layout and (several or arguments.output != "text"):
        parser.error("--reference-layout prints one response's totals as text")
    if arguments.reference_layout and arguments.confidence:
        # Printing the layout would drop the intervals the user asked for.
        parser.error("--reference-layout prints the Perl scorer's totals, which have no place "
                     "for confidence intervals; leave it out to see them (the text table, or "
                     "--output json)")
    if arguments.details and arguments.output != "json":
        parser.error("--details lists each aligned pair of split-antecedent sets in the JSON "
                     "output; add --output json")
    if arguments.names is not None and len(arguments.names) != len(arguments.responses):
        parser.error(f"--names gives {len(arguments.names)} names for "
                     f"{len(arguments.responses)} responses")
    for name in ("confidence", "paired_bs", "paired_ar"):
        if (getattr(arguments, name) or 0) < 0:
            parser.error(f"--{name.replace('_', '-')} takes a positive number of resamples")


def _score(arguments: argparse.Namespace, options: Options) -> Report | SystemsReport:
    """One response without paired tests: a :class:`Report` (the single-response outputs);
    else a :class:`SystemsReport`."""
    if len(arguments.responses) == 1 and arguments.names is None:
        return score_files(arguments.key, arguments.responses[0], options,
                           progress=arguments.progress)
    from anascore.scoring.systems import compare_files

    return compare_files(arguments.key, arguments.responses, options, names=arguments.names,
                         progress=arguments.progress)


def _warnings(result: Report | SystemsReport) -> list[str]:
    """Every warning once, in order (a key's warnings are noticed once per response)."""
    reports = (result,) if isinstance(result, Report) else result.reports
    tests = () if isinstance(result, Report) else result.test_warnings
    return list(dict.fromkeys([*(warning for report in reports for warning in report.warnings),
                               *tests]))


def _render(result: Report | SystemsReport, arguments: argparse.Namespace) -> str:
    per_document = arguments.per_document or arguments.sort_by is not None
    if arguments.output == "json" and isinstance(result, Report):
        from anascore.report.names import system_names

        return result.to_json(per_document=per_document, details=arguments.details,
                              sort_by=arguments.sort_by,
                              response=system_names(arguments.responses)[0]) + "\n"
    if arguments.output == "json":
        return result.to_json(per_document=per_document, details=arguments.details,
                              sort_by=arguments.sort_by) + "\n"
    if isinstance(result, Report):
        if arguments.reference_layout:
            from anascore.report.reference_layout import render_reference_layout

            return render_reference_layout(result, per_document=per_document)
        if (arguments.output == "text" and result.intervals is None
                and arguments.sort_by is None):
            return render_text(result, per_document=per_document)
        from anascore.report.systems import SystemsReport, system_names

        result = SystemsReport(system_names(arguments.responses), (result,))
    if arguments.output == "csv":
        from anascore.report.csv_table import render_csv

        return render_csv(result, per_document=per_document, sort_by=arguments.sort_by)
    from anascore.report.tables import all_tables

    tables = all_tables(result, full=arguments.full, per_document=per_document,
                        sort_by=arguments.sort_by,
                        inline_intervals=arguments.output != "text")
    if arguments.output == "markdown":
        from anascore.report.markdown import render_markdown

        return render_markdown(tables, result.signature, mode=describe_mode(result.options))
    if arguments.output == "latex":
        from anascore.report.latex import render_latex

        return render_latex(tables, result.signature, mode=describe_mode(result.options))
    from anascore.report.tables import render_text_tables

    return render_text_tables(tables, result.signature, mode=describe_mode(result.options))


def _add_comparison_arguments(score: argparse._ArgumentGroup) -> None:
    score.add_argument("--names", type=lambda text: [name.strip() for name in text.split(",")],
                       help="comma-separated names of the responses (default: file names)")
    score.add_argument("--full", action="store_true",
                       help="recall, precision and F1 for every metric in tables of several "
                            "systems or documents (default: F1)")
    score.add_argument("--sort-by", metavar="METRIC",
                       help="list documents by this metric's F1, worst first (implies "
                            "--per-document)")
    score.add_argument("--no-progress", dest="progress", action="store_false",
                       help="no progress bar (it shows only when stderr is a terminal)")
