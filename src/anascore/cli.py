"""The ``anascore`` command: a thin layer over the Python API.

Exit status: 0 on success, 1 for bad input (one line, ``anascore: error: FILE:LINE: what was
wrong``), 2 for bad command-line usage. Warnings go to stderr, results to stdout.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from anascore.errors import AnascoreError
from anascore.linguistic_settings import (
    DEFAULT_COREFERENCE_CLASSES,
    DEFAULT_DOMINANT_COEFFICIENTS,
    DEFAULT_LINK_WEIGHTS,
    numbers_text,
)
from anascore.options import (
    COMPAT_MODES,
    DEFAULT_METRICS,
    FORMATS,
    MATCH_METHODS,
    METRIC_NAMES,
    Options,
)
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
    score.add_argument("--metrics", default="all", type=_metric_list,
                       help=f"comma-separated subset of {','.join(METRIC_NAMES)} "
                            "(default: all, which is every metric but the linguistically "
                            "aware lmuc, lbcub, lceafm, lceafe and dominant: name those)")
    singletons = score.add_mutually_exclusive_group()
    singletons.add_argument("--keep-singletons", dest="keep_singletons", action="store_true",
                            default=True,
                            help="score single-mention entities as the files contain them "
                                 "(default, as the reference scorer)")
    singletons.add_argument("--remove-singletons", dest="keep_singletons",
                            action="store_false",
                            help="remove single-mention entities from key and response")
    score.add_argument("--match", choices=MATCH_METHODS, default="exact",
                       help="how response mentions are aligned with key mentions")
    score.add_argument("--keep-split-antecedents", action="store_true",
                       help="score split-antecedent plurals with the generalized metrics of "
                            "Paun et al. 2023 (default: plurals are ordinary entities)")
    score.add_argument("--only-split-antecedents", action="store_true",
                       help="report the split-antecedent scores alone, under the usual metric "
                            "names (implies --keep-split-antecedents)")
    score.add_argument("--lea-split-importance", type=float, default=1.0, metavar="BETA",
                       help="LEA weight factor of entities with a split antecedent "
                            "(default: 1)")
    score.add_argument("--compat", choices=COMPAT_MODES, default="none",
                       help="reproduce another scorer's conventions where they differ from "
                            "the papers (ua: the Universal Anaphora scorer 2.0)")
    linguistic = score.add_argument_group(
        "linguistically aware metrics",
        "Chen & Ng 2013 (lmuc, lbcub, lceafm, lceafe) and Žitkus et al. 2023 (dominant); "
        "see docs/linguistic-metrics.md")
    linguistic.add_argument("--link-weights", metavar="NAM,NOM,PRO,SING",
                            default=numbers_text(DEFAULT_LINK_WEIGHTS),
                            help="weights of a link involving a name, else a nominal, else "
                                 "only pronouns, and of a single-mention chain "
                                 "(default: %(default)s)")
    linguistic.add_argument("--dominant-coefficients", metavar="K1,K2,K3,K4",
                            default=numbers_text(DEFAULT_DOMINANT_COEFFICIENTS),
                            help="credit of a TP, WT, WL and WTL annotation "
                                 "(default: %(default)s)")
    linguistic.add_argument("--coreference-classes", metavar="CLASSES",
                            default=",".join(DEFAULT_COREFERENCE_CLASSES),
                            help="the classes to report, as prefixes of the coreference type "
                                 "codes, or 'none' to evaluate without types "
                                 "(default: %(default)s)")
    linguistic.add_argument("--attempted-classes", metavar="CLASSES", default=None,
                            help="the classes the system attempts, for the micro and macro "
                                 "averages (default: every class with an annotation)")
    linguistic.add_argument("--scheme-classes", metavar="N", type=int, default=None,
                            help="number of classes in the annotation scheme, for the "
                                 "scheme-coverage averages (default: as many as listed)")
    score.add_argument("--output", choices=("text", "json"), default="text",
                       help="text table (percentages) or JSON (fractions)")
    score.add_argument("--per-document", action="store_true",
                       help="also report every document's scores")
    score.add_argument("--details", action="store_true",
                       help="JSON: also list, per document and metric, each aligned pair of "
                            "split-antecedent sets with its δ terms")
    score.add_argument("--reference-layout", action="store_true",
                       help="print the Perl reference scorer's TOTALS layout")
    return parser


def _metric_list(text: str) -> tuple[str, ...]:
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    if "all" in names:
        return DEFAULT_METRICS + tuple(name for name in names if name != "all")
    unknown = [name for name in names if name not in METRIC_NAMES]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"unknown metric {', '.join(unknown) or '(none)'}; expected a comma-separated "
            f"subset of {', '.join(METRIC_NAMES)} or 'all'")
    return names


def main(argv: Sequence[str] | None = None) -> int:
    arguments = build_parser().parse_args(argv)
    try:
        options = Options(keep_singletons=arguments.keep_singletons,
                          metrics=arguments.metrics, match=arguments.match,
                          format=arguments.format,
                          keep_split_antecedents=(arguments.keep_split_antecedents
                                                  or arguments.only_split_antecedents),
                          only_split_antecedents=arguments.only_split_antecedents,
                          lea_split_importance=arguments.lea_split_importance,
                          compat=arguments.compat,
                          link_weights=arguments.link_weights,
                          dominant_coefficients=arguments.dominant_coefficients,
                          coreference_classes=arguments.coreference_classes,
                          attempted_classes=arguments.attempted_classes,
                          scheme_classes=arguments.scheme_classes)
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
        output = report.to_json(per_document=arguments.per_document,
                                details=arguments.details) + "\n"
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
