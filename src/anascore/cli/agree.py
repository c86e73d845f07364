"""The ``anascore agree`` subcommand: its arguments and its run (registered by
:mod:`anascore.cli.main`, which hands over how it prints warnings and writes the result)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from anascore.agree import DISTANCES, MISSING_RULES
from anascore.cli.flags import add_singleton_and_zero_flags
from anascore.config.options import DEFAULT_SEED, FORMATS, MATCH_METHODS, Options
from anascore.core.errors import AnascoreError, OptionsError
from anascore.formats.io.output import atomic_output, check_writable

#: ``--output`` choices.
AGREE_OUTPUTS: tuple[str, ...] = ("text", "json", "csv", "markdown")
#: Resamples when ``--confidence`` is given without a number (as for score).
DEFAULT_RESAMPLES = 1000


def add_agree_command(commands: argparse._SubParsersAction) -> None:
    agree = commands.add_parser(
        "agree", help="agreement between two or more annotations of the same documents",
        description="How far apart two or more annotations of the same documents are: "
                    "Krippendorff's alpha over mentions, each mention's value the set of "
                    "mentions of its chain, with the distances jaccard, masi (NLTK's), "
                    "masi-dkpro (DKPro Statistics') and binary; and every pair of "
                    "annotations scored with the identity metrics, whose F1 is symmetric "
                    "(docs/agreement.md).")
    agree.add_argument("annotations", metavar="ANNOTATION", nargs="+",
                       help="an annotation of the documents (two or more)")
    agree.add_argument("--names", type=lambda text: [name.strip() for name in text.split(",")],
                       help="comma-separated names of the annotations (default: file names)")
    agree.add_argument("--distance", default=None, type=_distances,
                       help=f"comma-separated set distances of alpha, among "
                            f"{', '.join(DISTANCES)} (default: all)")
    agree.add_argument("--missing", choices=MISSING_RULES, default="empty",
                       help="a mention one annotator lacks: the empty set as that annotator's "
                            "value (empty, Passonneau's rule, default), or alpha over the "
                            "mentions every annotator has (shared)")
    agree.add_argument("--format", choices=FORMATS, default="auto",
                       help="input format (default: detected from the file)")
    agree.add_argument("--match", choices=MATCH_METHODS, default=None,
                       help="how the mentions of two annotations are aligned for the pairwise "
                            "metrics, as for score (default: exact; alpha identifies mentions "
                            "by their exact spans)")
    add_singleton_and_zero_flags(agree, "every annotation")
    agree.add_argument("--discourse-deixis", action="store_true", default=None,
                       help="also the discourse-deixis layer: alpha over its mentions and the "
                            "identity metrics on its chains")
    agree.add_argument("--keep-non-referring", action="store_true", default=None,
                       help="also the F1 of the identification of non-referring markables")
    agree.add_argument("--keep-bridging", action="store_true", default=None,
                       help="refused: no symmetric agreement measure of bridging here")
    agree.add_argument("--confidence", metavar="N", type=int, nargs="?", default=0,
                       const=DEFAULT_RESAMPLES,
                       help="bootstrap intervals of alpha and of every pair's F1 from N "
                            "resamples of the documents (default 1000), as score "
                            "--confidence")
    agree.add_argument("--confidence-level", metavar="LEVEL", type=float, default=0.95,
                       help="coverage of the intervals (default 0.95)")
    agree.add_argument("--seed", type=int, default=DEFAULT_SEED,
                       help=f"seed of the resampling (default {DEFAULT_SEED})")
    agree.add_argument("--output", choices=AGREE_OUTPUTS, default="text",
                       help="text tables (default), JSON, CSV (fractions) or Markdown")
    agree.add_argument("--per-document", action="store_true",
                       help="text, Markdown: also every document's alpha and F1 (JSON and "
                            "CSV always have them)")
    agree.add_argument("--html", metavar="FILE", default=None,
                       help="also write the adjudication page: every annotation of each "
                            "document side by side, the mentions they disagree on marked")
    agree.add_argument("--quiet", action="store_true",
                       help="print no warnings (they stay in the JSON output)")
    agree.add_argument("--strict", action="store_true",
                       help="make any warning an error: exit status 1, no result")
    agree.set_defaults(command_parser=agree)


def _distances(text: str) -> tuple[str, ...]:
    from anascore.agree.alpha import check_distances

    try:
        return check_distances(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def run_agree(arguments: argparse.Namespace,
              report_warnings: Callable[[Sequence[str], argparse.Namespace], bool],
              write: Callable[[str], int]) -> int:
    """Run ``anascore agree``: usage errors exit 2 (the subcommand's usage), bad input 1."""
    from anascore.agree.core import agreement_files
    from anascore.agree.render import render_agreement

    parser: argparse.ArgumentParser = arguments.command_parser
    if len(arguments.annotations) < 2:
        parser.error("give two or more annotations")
    if arguments.names is not None and len(arguments.names) != len(arguments.annotations):
        parser.error(f"--names gives {len(arguments.names)} names for "
                     f"{len(arguments.annotations)} annotations")
    if arguments.confidence < 0:
        parser.error("--confidence takes a positive number of resamples")
    settings = {name: getattr(arguments, name) for name in (
        "match", "keep_singletons", "keep_zeros", "keep_bridging", "keep_non_referring",
        "discourse_deixis")}
    try:
        options = Options.create(format=arguments.format, confidence=arguments.confidence,
                                 confidence_level=arguments.confidence_level,
                                 seed=arguments.seed, **settings)
    except OptionsError as error:
        parser.error(error.message)
    try:
        target = None if arguments.html is None else check_writable(arguments.html)
        result = agreement_files(arguments.annotations, options, names=arguments.names,
                                 distance=arguments.distance, missing=arguments.missing)
    except OptionsError as error:
        if error.path is None:
            parser.error(error.message)
        print(f"anascore: error: {error.location_message()}", file=sys.stderr)
        return 1
    except AnascoreError as error:
        print(f"anascore: error: {error.location_message()}", file=sys.stderr)
        return 1
    if not report_warnings(list(result.warnings), arguments):
        return 1  # --strict: no result, no page
    if target is not None:
        from anascore.agree.html import write_adjudication

        try:
            with atomic_output(target) as stream:
                write_adjudication(result, arguments.annotations, stream)
        except AnascoreError as error:
            print(f"anascore: error: {error.location_message()}", file=sys.stderr)
            return 1
        except OSError as error:
            print(f"anascore: error: {target}: {error.strerror or error}", file=sys.stderr)
            return 1
    return write(render_agreement(result, arguments.output,
                                  per_document=arguments.per_document))
