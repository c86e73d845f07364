"""The ``anascore`` command: a thin layer over the Python API.

Exit status: 0 on success, 1 for bad input (one line, ``anascore: error: FILE:LINE: what was
wrong``), 2 for bad command-line usage. Warnings go to stderr, results to stdout.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from anascore.convert import CONVERT_TARGETS, convert
from anascore.errors import AnascoreError
from anascore.options import (
    COMPAT_MODES,
    DEFAULT_METRICS,
    FORMATS,
    MATCH_METHODS,
    METRIC_NAMES,
    ZERO_MATCH_METHODS,
    Options,
)
from anascore.presets import PRESETS
from anascore.report.reference_layout import render_reference_layout
from anascore.report.text import render_text
from anascore.scoring import score_files
from anascore.version import __version__

#: Warnings printed before the rest are only counted.
SHOWN_WARNINGS = 20


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="anascore",
        description="Score anaphora and coreference resolution against a gold key.")
    parser.add_argument("--version", action="version", version=f"anascore {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    score = commands.add_parser(
        "score", help="score a response file against a key file",
        description="Score RESPONSE against KEY with mention identification, MUC, B3, "
                    "CEAFm, CEAFe, BLANC, LEA and the CoNLL average.")
    score.add_argument("key", metavar="KEY", help="the gold annotation")
    score.add_argument("response", metavar="RESPONSE", help="the system output")
    score.add_argument("--format", choices=FORMATS, default="auto",
                       help="input format (default: detected from the file)")
    score.add_argument("--metrics", default=None, type=_metric_list,
                       help=f"comma-separated subset of {','.join(METRIC_NAMES)}, or 'all' "
                            f"(default: {','.join(DEFAULT_METRICS)}, or the preset's)")
    singletons = score.add_mutually_exclusive_group()
    singletons.add_argument("--keep-singletons", dest="keep_singletons", action="store_true",
                            default=None,
                            help="score single-mention entities as the files contain them "
                                 "(default, as the reference scorer)")
    singletons.add_argument("--remove-singletons", dest="keep_singletons",
                            action="store_false",
                            help="remove single-mention entities from key and response")
    score.add_argument("--match", choices=MATCH_METHODS, default=None,
                       help="how response mentions are aligned with key mentions (default: "
                            "exact)")
    zeros = score.add_mutually_exclusive_group()
    zeros.add_argument("--keep-zeros", dest="keep_zeros", action="store_true", default=None,
                       help="score zero mentions (headed by CoNLL-U empty nodes; default)")
    zeros.add_argument("--remove-zeros", dest="keep_zeros", action="store_false",
                       help="remove zero mentions from key and response")
    score.add_argument("--zero-match", choices=ZERO_MATCH_METHODS, default=None,
                       help="align zeros by their dependencies first (dependent, default) or "
                            "by position like every mention (linear)")
    score.add_argument("--exclusive-ends", action="store_true", default=None,
                       help="jsonlines input: span ends are exclusive")
    score.add_argument("--compat", choices=COMPAT_MODES, default=None,
                       help="ua: follow the UA / CorefUD scorers' conventions where they differ")
    score.add_argument("--preset", choices=tuple(PRESETS), default=None,
                       help="a shared task's settings (crac22 … crac25: the CorefUD scorer's)")
    score.add_argument("--output", choices=("text", "json"), default="text",
                       help="text table (percentages) or JSON (fractions)")
    score.add_argument("--per-document", action="store_true",
                       help="also report every document's scores")
    score.add_argument("--reference-layout", action="store_true",
                       help="print the Perl reference scorer's TOTALS layout")
    convert = commands.add_parser(
        "convert", help="convert an annotated file to another format",
        description="Read IN and write its documents to OUT in the format --to names. What "
                    "the target cannot hold (split antecedents, bridging, zeros, "
                    "discontinuous mentions, heads …) is refused unless --drop-unsupported.")
    convert.add_argument("input", metavar="IN", help="the file to convert")
    convert.add_argument("output", metavar="OUT", help="the file to write")
    convert.add_argument("--to", required=True, choices=CONVERT_TARGETS,
                         help="the format of OUT")
    convert.add_argument("--format", choices=FORMATS, default="auto",
                         help="the format of IN (default: detected)")
    convert.add_argument("--drop-unsupported", action="store_true",
                         help="drop what the target format cannot hold (listed as warnings) "
                              "instead of refusing")
    convert.add_argument("--exclusive-ends", action="store_true",
                         help="jsonlines: span ends are exclusive, in IN and OUT")
    return parser


def _metric_list(text: str) -> tuple[str, ...]:
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    if "all" in names:
        return METRIC_NAMES
    unknown = [name for name in names if name not in METRIC_NAMES]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"unknown metric {', '.join(unknown) or '(none)'}; expected a comma-separated "
            f"subset of {', '.join(METRIC_NAMES)} or 'all'")
    return names


def _convert(arguments: argparse.Namespace) -> int:
    try:
        warnings = convert(arguments.input, arguments.output, to=arguments.to,
                           format=arguments.format,
                           drop_unsupported=arguments.drop_unsupported,
                           exclusive_ends=arguments.exclusive_ends)
    except AnascoreError as error:
        print(f"anascore: error: {error.location_message()}", file=sys.stderr)
        return 1
    for warning in warnings:
        print(f"anascore: warning: {warning}", file=sys.stderr)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    arguments = build_parser().parse_args(argv)
    if arguments.command == "convert":
        return _convert(arguments)
    try:
        settings = {name: getattr(arguments, name) for name in
                    ("keep_singletons", "match", "keep_zeros", "zero_match", "exclusive_ends",
                     "compat", "preset") if getattr(arguments, name) is not None}
        options = Options.create(metrics=arguments.metrics, format=arguments.format,
                                 **settings)
        report = score_files(arguments.key, arguments.response, options)
    except AnascoreError as error:
        print(f"anascore: error: {error.location_message()}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    for warning in report.warnings[:SHOWN_WARNINGS]:
        print(f"anascore: warning: {warning}", file=sys.stderr)
    if len(report.warnings) > SHOWN_WARNINGS:
        print(f"anascore: warning: … and {len(report.warnings) - SHOWN_WARNINGS} more "
              "warnings (all of them are in the JSON output)", file=sys.stderr)
    if arguments.output == "json":
        output = report.to_json(per_document=arguments.per_document) + "\n"
    elif arguments.reference_layout:
        output = render_reference_layout(report)
    else:
        output = render_text(report, per_document=arguments.per_document)
    try:
        sys.stdout.write(output)
        sys.stdout.flush()
    except BrokenPipeError:
        sys.stderr.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
