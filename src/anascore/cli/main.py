"""The ``anascore`` command: a thin layer over the Python API.

Exit status: 0 on success, 1 for bad input (one line, ``anascore: error: FILE:LINE: what was
wrong``), 2 for bad command-line usage. Warnings go to stderr, results to stdout.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NoReturn

import anascore.cli.blas_threads  # noqa: F401  (before numpy is imported)
from anascore.cli.flags import add_singleton_and_zero_flags
from anascore.config.format_catalogue import BY_NAME, FORMAT_NAMES
from anascore.config.linguistic_settings import (
    DEFAULT_COREFERENCE_CLASSES,
    DEFAULT_DOMINANT_COEFFICIENTS,
    DEFAULT_LINK_WEIGHTS,
    numbers_text,
)
from anascore.config.options import (
    ALL_METRICS,
    COMPAT_MODES,
    CUT_POLICIES,
    DEFAULT_SEED,
    FORMATS,
    LEVELS,
    MATCH_METHODS,
    METRIC_NAMES,
    WINDOW_RULES,
    ZERO_MATCH_METHODS,
    Options,
    canonical_metric,
)
from anascore.config.presets import PRESET_NAMES, describe_mode
from anascore.core.errors import QUOTED_CHARACTERS, AnascoreError, OptionsError, printable, shorten
from anascore.core.version import __version__
from anascore.report import Report
from anascore.report.reference_layout import render_reference_layout
from anascore.report.text_table import render_text
from anascore.scoring.pipeline import score_files

if TYPE_CHECKING:
    from anascore.report.systems import SystemsReport

#: ``--output`` choices.
OUTPUTS = ("text", "json", "csv", "markdown", "latex")
#: Resamples or trials when a statistics flag is given without a number.
DEFAULT_RESAMPLES = {"confidence": 1000, "paired_bs": 1000, "paired_ar": 10000}

#: Warnings printed before the rest are only counted.
SHOWN_WARNINGS = 20


class _Parser(argparse.ArgumentParser):
    """argparse's parser, whose usage errors escape what they quote (an argument's value)
    and cut a long quoted value short (:func:`~anascore.core.errors.shorten`), as every other
    error line does; subcommands' parsers are of the same class."""

    def error(self, message: str) -> NoReturn:
        super().error(printable(_LONG_QUOTE.sub(lambda found: f"'{shorten(found[1])}'",
                                                message)))


#: A quoted value longer than an error line quotes (argparse quotes a bad value whole).
_LONG_QUOTE = re.compile("'([^'\\n]{" + str(QUOTED_CHARACTERS + 1) + ",})'")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="anascore",
        description="Score anaphora and coreference resolution against a gold key.")
    parser.add_argument("--version", action="version", version=f"anascore {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    score = commands.add_parser(
        "score", help="score one or more response files against a key file",
        description="Score each RESPONSE against KEY with mention identification, MUC, B3, "
                    "CEAFm, CEAFe, BLANC, LEA and the CoNLL average. With several responses: "
                    "one table, a row per system; paired tests compare each with the first.")
    score.add_argument("key", metavar="KEY", help="the gold annotation")
    score.add_argument("responses", metavar="RESPONSE", nargs="+",
                       help="a system output (several: the first is the baseline)")
    score.add_argument("--format", choices=FORMATS, default="auto",
                       help="input format (default: detected from the file)")
    score.add_argument("--metrics", default=None, type=_metric_list,
                       help=f"comma-separated subset of {','.join(METRIC_NAMES)} "
                            "(default: the identity metrics, or the preset's; 'all' adds "
                            "mor and zero; the linguistically aware lmuc, lbcub, lceafm, "
                            "lceafe and dominant are computed only when named)")
    score.add_argument("--jobs", metavar="N", type=_whole_number, default=0,
                       help="processes that read and count documents (CoNLL-2012, CoNLL-U, "
                            "UA; default 0: a process per 2 MB of input, up to one per idle "
                            "CPU; 1: one process)")
    singletons = score.add_mutually_exclusive_group()
    singletons.add_argument("--keep-singletons", dest="keep_singletons", action="store_true",
                            default=None,
                            help="score single-mention entities as the files contain them "
                                 "(default, as the reference scorer)")
    singletons.add_argument("--remove-singletons", dest="keep_singletons",
                            action="store_false",
                            help="remove single-mention entities from key and response")
    score.set_defaults(keep_singletons=None)
    score.add_argument("--match", choices=MATCH_METHODS, default=None,
                       help="how response mentions are aligned with key mentions: exact "
                            "(default), min (within the key mention, covering its MIN), head "
                            "(same head), partial (inside the key, covering its head) or "
                            "craft (CRAFT 2019)")
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
    score.add_argument("--keep-non-referring", action="store_true", default=None,
                       help="also score the identification of non-referring markables")
    score.add_argument("--keep-bridging", action="store_true", default=None,
                       help="also score bridging (anaphor recognition, mention and entity "
                            "anchors)")
    score.add_argument("--discourse-deixis", action="store_true", default=None,
                       help="also score the discourse-deixis layer with the identity metrics")
    score.add_argument("--keep-split-antecedents", action="store_true", default=None,
                       help="score split-antecedent plurals with the generalized metrics of "
                            "Paun et al. 2023 (default: plurals are ordinary entities)")
    score.add_argument("--only-split-antecedents", action="store_true", default=None,
                       help="report the split-antecedent scores alone, under the usual metric "
                            "names (implies --keep-split-antecedents)")
    score.add_argument("--lea-split-importance", type=float, default=None, metavar="BETA",
                       help="LEA weight factor of entities with a split antecedent "
                            "(default: 1)")
    score.add_argument("--compat", choices=COMPAT_MODES, default=None,
                       help="ua: follow the UA scorer 2.0 / CorefUD scorer conventions where "
                            "they differ (default: none)")
    score.add_argument("--window", metavar="N", type=_whole_number, default=None,
                       help="score every document in windows of N words, each window as a "
                            "document (docs/windows.md; default: whole documents)")
    score.add_argument("--window-rule", choices=WINDOW_RULES, default=None,
                       help="with --window: consecutive windows, each mention in the window "
                            "of its first word (clean, default), or BookCoref's gold_window "
                            "rules (bookcoref)")
    score.add_argument("--level", metavar="LEVEL[,LEVEL…]", type=_level_list, default=None,
                       help=f"the scoring unit: {', '.join(LEVELS)} (default: document; "
                            "topic, subtopic, corpus: the documents of a topic, subtopic or "
                            "the whole key scored as one, chains joined by ID); several, "
                            "comma-separated, give a report per level "
                            "(docs/cross-document.md)")
    score.add_argument("--topic-pattern", metavar="REGEX", default=None,
                       help="with --level topic or subtopic: a regular expression whose first "
                            "group, searched in each document name, is its topic (second "
                            "group: subtopic), for formats that give none; e.g. '^([^_]+)_' "
                            "for ECB+")
    score.add_argument("--preset", choices=PRESET_NAMES, default=None,
                       help="the settings of a shared task (crac22 … crac26: the CorefUD "
                            "scorer's); other options given change them")
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
    score.add_argument("--output", choices=OUTPUTS, default="text",
                       help="text table (percentages, default), JSON or CSV (fractions), "
                            "Markdown, or a LaTeX table with the signature as a footnote")
    score.add_argument("--align-tokens", action="store_true", default=None,
                       help="the response is on other tokens (another tokenizer, sub-words, "
                            "generated text): map its mentions onto the key's tokens through "
                            "their characters (marked-up text always is)")
    score.add_argument("--cut-tokens", choices=CUT_POLICIES, default=None,
                       help="with --align-tokens (needed), a key token a mention covers only "
                            "in part: taken whole (extend, default), left out (shrink), or an "
                            "error")
    score.add_argument("--key-documents-only", action="store_true", default=None,
                       help="score the key's documents and ignore, with a warning, response "
                            "documents the key lacks (default: an error naming the nearest "
                            "key documents)")
    score.add_argument("--sign-key", action="store_true", default=None,
                       help="name the key in the signature: key:1a2b3c4d, the start of the "
                            "SHA-256 of its content (the JSON output has it either way)")
    _add_warning_arguments(score)
    score.add_argument("--per-document", action="store_true",
                       help="also report every document's scores")
    score.add_argument("--details", action="store_true",
                       help="JSON: also list, per document and metric, each aligned pair of "
                            "split-antecedent sets with its δ terms")
    score.add_argument("--reference-layout", action="store_true",
                       help="print the Perl reference scorer's TOTALS layout")
    score.add_argument("--group-by", metavar="KIND", default=None,
                       choices=("document", "genre", "mention-type", "entity-type",
                                "entity-size", "mention-distance"),
                       help="also score every group of documents (document, genre) or of "
                            "mentions (mention-type, entity-type, entity-size, "
                            "mention-distance), with micro and macro rows "
                            "(docs/grouped-scores.md)")
    score.add_argument("--genre-pattern", metavar="REGEX", default=None,
                       help="with --group-by genre: a regular expression whose first group, "
                            "searched in each document name, is its genre (default: the "
                            "OntoNotes prefix bc/, bn/, mz/, nw/, pt/, tc/, wb/)")
    _add_comparison_arguments(score)
    _add_plot_command(commands)
    _add_lab_command(commands)
    _add_convert_command(commands)
    _add_evaluate_command(commands)
    _add_codabench_command(commands)
    _add_errors_command(commands)
    _add_report_command(commands)
    from anascore.cli.agree import add_agree_command

    add_agree_command(commands)
    return parser


def _add_evaluate_command(commands: argparse._SubParsersAction) -> None:
    evaluate = commands.add_parser(
        "evaluate", help="rank systems over several datasets from a task manifest",
        description="Score every system of TASK (a TOML manifest: datasets, their settings, "
                    "the systems' responses) on every dataset, combine the datasets' scores "
                    "(macro or micro), and rank the systems with bootstrap intervals of the "
                    "score and the rank, and paired tests between systems. See "
                    "docs/shared-task.md.")
    evaluate.add_argument("task", metavar="TASK", help="the task manifest (.toml)")
    evaluate.add_argument("--output", choices=OUTPUTS, default="text",
                          help="how to print the leaderboard (default: text)")
    evaluate.add_argument("--reports", metavar="DIR", default=None,
                          help="also write every per-dataset report as JSON to "
                               "DIR/SYSTEM/DATASET.json (DIR/SYSTEM/run-N/… for several runs)")
    evaluate.add_argument("--jobs", metavar="N", type=_whole_number, default=0,
                          help="processes per dataset, as for score (default 0: as the "
                               "files' size gains from)")
    evaluate.add_argument("--no-progress", dest="progress", action="store_false",
                          help="no progress bar (it shows only when stderr is a terminal)")
    _add_warning_arguments(evaluate)


def _add_codabench_command(commands: argparse._SubParsersAction) -> None:
    codabench = commands.add_parser(
        "codabench", help="write a Codabench scoring program and reference data for a task",
        description="Write OUT/scoring_program (metadata.yaml, score.py and anascore's own "
                    "source: Python >= 3.11 with numpy and scipy runs it), OUT/reference_data "
                    "(the datasets' keys) and OUT/leaderboard.yaml (the leaderboard of "
                    "competition.yaml) from TASK, the manifest of anascore evaluate; its "
                    "[[systems]] are not needed. See docs/shared-task.md.")
    codabench.add_argument("task", metavar="TASK", help="the task manifest (.toml)")
    codabench.add_argument("out", metavar="OUT", help="a new folder to write")
    _add_warning_arguments(codabench, strict=False, quiet="print no 'wrote' line")


def _run_codabench(arguments: argparse.Namespace) -> int:
    from anascore.leaderboard.codabench import write_bundle

    try:
        written = write_bundle(arguments.task, arguments.out)
    except AnascoreError as error:
        print(f"anascore: error: {error.location_message()}", file=sys.stderr)
        return 1
    if not arguments.quiet:
        print(f"anascore: wrote {arguments.out}: {', '.join(written)}", file=sys.stderr)
    return 0


def _run_evaluate(arguments: argparse.Namespace) -> int:
    from anascore.leaderboard import evaluate, read_task
    from anascore.leaderboard.render import render_leaderboard
    from anascore.leaderboard.reports import check_reports, write_reports

    try:
        task = read_task(arguments.task, jobs=arguments.jobs)
        if arguments.reports is not None:
            check_reports(task, arguments.reports)
        board = evaluate(task, progress=arguments.progress)
        if arguments.reports is not None:
            write_reports(board, arguments.reports)
    except AnascoreError as error:
        _print_error(error.location_message())
        return 1
    if not _report_warnings(board.warnings, arguments):
        return 1
    return _write(render_leaderboard(board, arguments.output))


def _add_convert_command(commands: argparse._SubParsersAction) -> None:
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
    _add_warning_arguments(convert_command, strict=False,
                           quiet="print no warnings (what was dropped)")
    convert_command.set_defaults(command_parser=convert_command)


def _run_convert(arguments: argparse.Namespace) -> int:
    from anascore.formats.io.conversion import convert

    try:
        warnings = convert(arguments.input, arguments.output, to=arguments.to,
                           format=arguments.format,
                           drop_unsupported=arguments.drop_unsupported,
                           exclusive_ends=arguments.exclusive_ends)
    except AnascoreError as error:
        return _input_error(arguments, error)
    _report_warnings(warnings, arguments, every=True)
    return 0


def _input_error(arguments: argparse.Namespace, error: AnascoreError) -> int:
    """Exit status 1 and one line for bad input; a setting refused without a file to name
    (OUT is IN, an image format) is bad usage: the subcommand's usage, exit status 2."""
    if isinstance(error, OptionsError) and error.path is None:
        arguments.command_parser.error(error.message)
    _print_error(error.location_message())
    return 1


def _add_comparison_arguments(score: argparse.ArgumentParser) -> None:
    score.add_argument("--names", type=lambda text: [name.strip() for name in text.split(",")],
                       help="comma-separated names of the responses (default: file names)")
    score.add_argument("--full", action="store_true",
                       help="recall, precision and F1 for every metric in tables of several "
                            "systems or documents (default: F1)")
    score.add_argument("--sort-by", metavar="METRIC",
                       help="list documents by this metric's F1, worst first (implies "
                            "--per-document)")
    statistics = score.add_argument_group(
        "confidence and significance",
        "Resampling of the per-document counts (documents are the units drawn). Flags take "
        "an optional number of resamples; put them after the files.")
    statistics.add_argument("--confidence", metavar="N", type=int, nargs="?", default=0,
                            const=DEFAULT_RESAMPLES["confidence"],
                            help="bootstrap confidence intervals of every score, from N "
                                 "resamples (default 1000)")
    statistics.add_argument("--confidence-level", metavar="LEVEL", type=float, default=0.95,
                            help="coverage of the intervals, and 1 - the significance level "
                                 "of the tests (default 0.95)")
    statistics.add_argument("--seed", type=int, default=DEFAULT_SEED,
                            help=f"seed of every resampling (default {DEFAULT_SEED})")
    statistics.add_argument("--paired-bs", metavar="N", type=int, nargs="?", default=0,
                            const=DEFAULT_RESAMPLES["paired_bs"],
                            help="paired bootstrap test (Koehn 2004) of each response against "
                                 "the first, N resamples (default 1000)")
    statistics.add_argument("--paired-ar", metavar="N", type=int, nargs="?", default=0,
                            const=DEFAULT_RESAMPLES["paired_ar"],
                            help="approximate randomization test (Riezler & Maxwell 2005) "
                                 "of each response against the first, N trials "
                                 "(default 10000)")
    statistics.add_argument("--no-progress", dest="progress", action="store_false",
                            help="no progress bar (it shows only when stderr is a terminal)")


def _add_plot_command(commands: argparse._SubParsersAction) -> None:
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
    plot.set_defaults(command_parser=plot)


def _add_lab_command(commands: argparse._SubParsersAction) -> None:
    lab = commands.add_parser(
        "lab", help="how each metric reacts to each kind of error (Moosavi & Strube 2016 §6)",
        description="Score controlled responses against a key of entities 1x20, 2x10, 3x5, "
                    "1x4 and 10x2 with every metric: resolved links, resolved entities, "
                    "splits, extra mentions, mention identification.")
    lab.add_argument("--output", choices=OUTPUTS, default="text",
                     help="how to print the tables (default: text)")
    lab.add_argument("--plot", metavar="FILE",
                     help="also draw the curves to FILE (.png, .svg or .pdf; needs the plot extra)")
    lab.set_defaults(command_parser=lab)


def _level_list(text: str) -> tuple[str, ...]:
    """``--level``'s value (:func:`anascore.cli.level_flags.level_list`), its module imported
    only when the flag is given."""
    from anascore.cli.level_flags import level_list

    return level_list(text)


def _metric_list(text: str) -> tuple[str, ...]:
    names = tuple(canonical_metric(name) for name in text.split(",") if name.strip())
    if "all" in names:
        return ALL_METRICS + tuple(name for name in names if name != "all")
    unknown = [name for name in names if name not in METRIC_NAMES]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"unknown metric {', '.join(unknown) or '(none)'}; expected a comma-separated "
            f"subset of {', '.join(METRIC_NAMES)} or 'all'")
    return names


def _flags_for_settings(message: str) -> str:
    """A message about :class:`Options` settings, in the words of the command line:
    ``confidence_level`` becomes ``--confidence-level`` (and ``keep_bridging=True`` the flag
    alone)."""
    for name in sorted(Options.__dataclass_fields__, key=len, reverse=True):
        flag = "--" + name.replace("_", "-")
        message = re.sub(rf"\b{name}=True\b(?: \({re.escape(flag)}\))?", flag, message)
        message = re.sub(rf"(?<![-\w]){name}\b", flag, message)
    return message


def _whole_number(text: str) -> int:
    try:
        number = int(text)
    except ValueError:
        number = -1
    if number < 0:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a whole number (0 or more)")
    return number


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    arguments = parser.parse_args(argv)
    if arguments.command == "plot":
        return _run_plot(arguments)
    if arguments.command == "lab":
        return _run_lab(arguments)
    if arguments.command == "convert":
        return _run_convert(arguments)
    if arguments.command == "evaluate":
        return _run_evaluate(arguments)
    if arguments.command == "codabench":
        return _run_codabench(arguments)
    if arguments.command == "report":
        return _run_report(parser, arguments)
    if arguments.command == "errors":
        return _run_errors(arguments)
    if arguments.command == "agree":
        from anascore.cli.agree import run_agree

        return run_agree(arguments, _report_warnings, _write)
    _check_score_usage(parser, arguments)
    settings = {name: getattr(arguments, name) for name in (
        "keep_singletons", "match", "keep_zeros", "zero_match", "exclusive_ends",
        "keep_non_referring", "keep_bridging", "discourse_deixis", "keep_split_antecedents",
        "only_split_antecedents", "lea_split_importance", "compat", "key_documents_only",
        "align_tokens", "cut_tokens", "sign_key", "window", "window_rule")}
    if arguments.only_split_antecedents:
        settings["keep_split_antecedents"] = True
    levels: tuple[str | None, ...] = arguments.level or (None,)
    if len(levels) > 1:
        from anascore.cli.level_flags import check_levels_usage

        check_levels_usage(parser, arguments, levels)
    every_options = []
    for level in levels:
        try:
            every_options.append(Options.create(
                preset=arguments.preset, metrics=arguments.metrics, format=arguments.format,
                link_weights=arguments.link_weights,
                dominant_coefficients=arguments.dominant_coefficients,
                coreference_classes=arguments.coreference_classes,
                attempted_classes=arguments.attempted_classes,
                scheme_classes=arguments.scheme_classes, confidence=arguments.confidence,
                confidence_level=arguments.confidence_level, seed=arguments.seed,
                paired_bs=arguments.paired_bs, paired_ar=arguments.paired_ar,
                jobs=arguments.jobs, level=level,
                topic_pattern=(arguments.topic_pattern if len(levels) == 1
                               or level in ("topic", "subtopic") else None), **settings))
        except OptionsError as error:
            # Every setting comes from the command line here: a usage error, named by its flag.
            parser.error(_flags_for_settings(error.message))
    if len(every_options) > 1:
        from anascore.cli.level_flags import score_levels

        return score_levels(arguments, every_options, _score, _render, _warnings,
                            _report_warnings, _write)
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
        _print_error(error.location_message())
        return 1
    if not _report_warnings(_warnings(result), arguments):
        return 1
    return _write(_render(result, arguments))


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
        _print_error(error.location_message())
        return 1
    if not _report_warnings([*_warnings(report), *groups.warnings], arguments):
        return 1
    if arguments.output == "json":
        data = report.to_dict(per_document=arguments.per_document, details=arguments.details)
        data["groups"] = groups.to_dict()
        import json  # only for JSON output

        return _write(json.dumps(data, indent=2, allow_nan=False) + "\n")
    if arguments.output == "csv":
        return _write(groups.to_csv())
    table = groups.to_markdown() if arguments.output == "markdown" else groups.to_text()
    return _write(_render(report, arguments) + "\nF1 by " + arguments.group_by + "\n\n"
                  + table + "\n")


def _check_score_usage(parser: argparse.ArgumentParser, arguments: argparse.Namespace) -> None:
    """Combinations argparse cannot check, reported as usage errors (exit status 2)."""
    several = len(arguments.responses) > 1
    if (arguments.paired_bs or arguments.paired_ar) and not several:
        parser.error("--paired-bs and --paired-ar compare responses with the first one; "
                     "give at least two responses")
    if arguments.reference_layout and (several or arguments.output != "text"):
        parser.error("--reference-layout prints one response's totals as text")
    if arguments.details and arguments.output != "json":
        parser.error("--details lists each aligned pair of split-antecedent sets in the JSON "
                     "output; add --output json")
    if arguments.names is not None and len(arguments.names) != len(arguments.responses):
        parser.error(f"--names gives {len(arguments.names)} names for "
                     f"{len(arguments.responses)} responses")
    for name in ("confidence", "paired_bs", "paired_ar"):
        if getattr(arguments, name) < 0:
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


def _add_warning_arguments(command: argparse.ArgumentParser, *, strict: bool = True,
                           quiet: str = "print no warnings (they stay in the JSON output)"
                           ) -> None:
    command.add_argument("--quiet", action="store_true", help=quiet)
    if strict:
        command.add_argument("--strict", action="store_true",
                             help="make any warning (a missing document, different words, "
                                  "repeated mentions …) an error: exit status 1, no result")


def _report_warnings(warnings: Sequence[str], arguments: argparse.Namespace, *,
                     every: bool = False) -> bool:
    """Print the warnings (unless ``--quiet``); ``False`` when ``--strict`` makes them an
    error (printed as one line: the first warning, and how many more)."""
    if getattr(arguments, "strict", False) and warnings:
        more = (f" (and {len(warnings) - 1} more warning{'s' if len(warnings) > 2 else ''})"
                if len(warnings) > 1 else "")
        _print_error(f"{warnings[0]}{more}; --strict makes warnings errors")
        return False
    if not arguments.quiet:
        _print_warnings(warnings, every=every)
    return True


def _print_error(message: str) -> None:
    """The one line of an error on stderr, anything unprintable escaped (a message quotes
    input: a terminal escape code from a file must not reach the terminal)."""
    print(f"anascore: error: {printable(message)}", file=sys.stderr)


def _print_warnings(warnings: Sequence[str], *, every: bool = False) -> None:
    """Warnings on stderr, one line each with anything unprintable escaped; past
    :data:`SHOWN_WARNINGS` only counted (all of them are in the JSON output), unless
    ``every``."""
    shown = warnings if every else warnings[:SHOWN_WARNINGS]
    for warning in shown:
        print(f"anascore: warning: {printable(warning)}", file=sys.stderr)
    if len(warnings) > len(shown):
        print(f"anascore: warning: … and {len(warnings) - len(shown)} more warnings (all of "
              "them are in the JSON output)", file=sys.stderr)


def _warnings(result: Report | SystemsReport) -> list[str]:
    """Every warning once, in order (a key's warnings are noticed once per response)."""
    reports = (result,) if isinstance(result, Report) else result.reports
    tests = () if isinstance(result, Report) else result.test_warnings
    return list(dict.fromkeys([*(warning for report in reports for warning in report.warnings),
                               *tests]))


def _render(result: Report | SystemsReport, arguments: argparse.Namespace) -> str:
    per_document = arguments.per_document or arguments.sort_by is not None
    if arguments.output == "json":
        return result.to_json(per_document=per_document, details=arguments.details,
                              sort_by=arguments.sort_by) + "\n"
    if isinstance(result, Report):
        if arguments.reference_layout:
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


def _write(output: str) -> int:
    """The result on stdout: a closed pipe ends quietly, any other failure to write (a full
    disk: ``> /dev/full``) is one line and exit status 1."""
    try:
        sys.stdout.write(output)
        sys.stdout.flush()
    except BrokenPipeError:
        sys.stderr.close()
    except OSError as error:
        _print_error(f"<stdout>: cannot write the output: {error.strerror or error}")
        return 1
    return 0


def _add_errors_command(commands: argparse._SubParsersAction) -> None:
    from anascore.analysis import OUTPUTS as ERROR_OUTPUTS

    errors = commands.add_parser(
        "errors", help="classify a response's errors and measure what each type costs",
        description="Classify every error of each RESPONSE against KEY as Kummerfeld & Klein "
                    "(2013) do (span error, conflated entities, divided entity, extra / "
                    "missing mention, extra / missing entity) on the alignment the scores "
                    "use, and give each metric's F1 with only one type's errors fixed "
                    "(docs/error-analysis.md). Several responses: a column per system.")
    _add_analysis_arguments(errors)
    errors.add_argument("--preset", choices=PRESET_NAMES, default=None,
                        help="the settings of a shared task, as for score")
    errors.add_argument("--jobs", metavar="N", type=_whole_number, default=0,
                        help="processes that read and analyse documents, as for score "
                             "(default 0: as many as pay, on idle CPUs; 1: one process)")
    errors.add_argument("--output", choices=ERROR_OUTPUTS, default="text",
                        help="text table (default), JSON, CSV or Markdown")
    errors.add_argument("--per-document", action="store_true",
                        help="also give every document's error counts")
    errors.add_argument("--list", dest="listed", action="store_true",
                        help="also list every error: document, type, mentions in context, "
                             "entities")


def _add_analysis_arguments(command: argparse.ArgumentParser) -> None:
    """The inputs and the settings ``errors`` and ``report`` share: those the error analysis
    honours."""
    command.add_argument("key", metavar="KEY", help="the gold annotation")
    command.add_argument("responses", metavar="RESPONSE", nargs="+", help="a system output")
    command.add_argument("--format", choices=FORMATS, default="auto",
                         help="input format (default: detected from the file)")
    command.add_argument("--metrics", default=None, type=_metric_list,
                         help="the metrics, as for score")
    command.add_argument("--match", choices=MATCH_METHODS, default=None,
                         help="how mentions are aligned, as for score (default: exact)")
    add_singleton_and_zero_flags(command, "key and response")
    command.add_argument("--zero-match", choices=ZERO_MATCH_METHODS, default=None,
                         help="align zeros by their dependencies (default) or by position")
    command.add_argument("--exclusive-ends", action="store_true", default=None,
                         help="jsonlines input: span ends are exclusive")
    command.add_argument("--key-documents-only", action="store_true", default=None,
                         help="as for score: ignore, with a warning, response documents (and "
                              "files of a response folder) the key lacks")
    command.add_argument("--discourse-deixis", action="store_true", default=None,
                         help="also score the discourse-deixis layer and classify its errors")
    command.add_argument("--keep-non-referring", action="store_true", default=None,
                         help="also score non-referring markables and classify their errors "
                              "(missing / extra non-referring)")
    command.add_argument("--keep-bridging", action="store_true", default=None,
                         help="also score bridging and classify its errors (missing / extra "
                              "bridging, wrong bridging anchor)")


def _analysis_settings(arguments: argparse.Namespace) -> dict[str, Any]:
    """The settings of :func:`_add_analysis_arguments` that were given."""
    return {name: getattr(arguments, name) for name in (
        "keep_singletons", "match", "keep_zeros", "zero_match", "exclusive_ends",
        "key_documents_only", "discourse_deixis", "keep_non_referring", "keep_bridging", "jobs")
        if getattr(arguments, name, None) is not None}


def _add_report_command(commands: argparse._SubParsersAction) -> None:
    report = commands.add_parser(
        "report", help="write one self-contained HTML report: scores, errors, documents",
        description="Write an HTML file (no network needed to open it) with the corpus scores, "
                    "the per-document table, the error analysis and its impact chart, grouped "
                    "scores (--group-by), and every document's key and response side by side, "
                    "errors marked (docs/report.md).")
    _add_analysis_arguments(report)
    report.add_argument("-o", "--output", required=True, metavar="FILE",
                        help="the HTML file to write")
    report.add_argument("--names", nargs="+", metavar="NAME", default=None,
                        help="a name for each response (default: the file names)")
    report.add_argument("--confidence", type=int, default=0, metavar="N",
                        help="bootstrap confidence intervals from N resamples")
    report.add_argument("--group-by", default=None, metavar="KIND",
                        choices=("document", "genre", "mention-type", "entity-type",
                                 "entity-size", "mention-distance"),
                        help="add grouped scores, as for score --group-by")
    report.add_argument("--genre-pattern", metavar="REGEX", default=None,
                        help="with --group-by genre: as for score")
    report.add_argument("--sign-key", action="store_true", default=None,
                        help="name the key in the signature, as for score")
    _add_warning_arguments(report, strict=False,
                           quiet="print no warnings and no 'wrote FILE' line (the warnings stay "
                                 "on the page)")


def _run_report(parser: argparse.ArgumentParser, arguments: argparse.Namespace) -> int:
    from anascore.analysis.report_page import report_files
    from anascore.formats.io.output import atomic_output, check_writable, refuse_overwriting_inputs
    from anascore.report.systems import system_names

    if arguments.names is not None and len(arguments.names) != len(arguments.responses):
        parser.error(f"--names gives {len(arguments.names)} names for "
                     f"{len(arguments.responses)} responses")
    if arguments.genre_pattern is not None and arguments.group_by != "genre":
        parser.error("--genre-pattern needs --group-by genre")
    settings = _analysis_settings(arguments)
    try:
        options = Options.create(metrics=arguments.metrics, format=arguments.format,
                                 confidence=arguments.confidence,
                                 sign_key=arguments.sign_key, **settings)
    except OptionsError as error:
        parser.error(_flags_for_settings(error.message))
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
            parser.error(error.message)
        _print_error(error.location_message())
        return 1
    except AnascoreError as error:
        _print_error(error.location_message())
        return 1
    except OSError as error:
        _print_error(f"{arguments.output}: {error.strerror}")
        return 1
    _report_warnings(said, arguments)  # as score and errors print them (they are on the page)
    if not arguments.quiet:
        size = len(page.encode("utf-8")) / 1e6
        print(f"anascore: wrote {printable(arguments.output)} ({size:.1f} MB)", file=sys.stderr)
    return 0


def _run_errors(arguments: argparse.Namespace) -> int:
    from anascore.analysis.analyse import analyse_files
    from anascore.analysis.render import render_errors
    from anascore.report.systems import system_names

    try:
        settings = _analysis_settings(arguments)
        options = Options.create(preset=arguments.preset, metrics=arguments.metrics,
                                 format=arguments.format, **settings)
        names = system_names(arguments.responses)
        analyses = {}
        for name, path in zip(names, arguments.responses, strict=True):
            analyses[name] = analyse_files(arguments.key, path, options)
    except AnascoreError as error:
        _print_error(error.location_message())
        return 1
    except KeyboardInterrupt:
        return 130
    for analysis in analyses.values():
        _print_warnings(analysis.report.warnings)
    return _write(render_errors(analyses, arguments.output,
                                per_document=arguments.per_document, listed=arguments.listed))


def _run_plot(arguments: argparse.Namespace) -> int:
    try:
        from anascore.report.plot import plot_report_file

        plot_report_file(arguments.report, arguments.output, metric=arguments.metric)
    except AnascoreError as error:
        return _input_error(arguments, error)
    return 0


def _run_lab(arguments: argparse.Namespace) -> int:
    from anascore.lab.sensitivity import render_lab, run_lab

    try:
        experiments = run_lab()
        output = render_lab(experiments, arguments.output)
        if arguments.plot:
            from anascore.report.plot import plot_lab

            plot_lab(experiments, arguments.plot)
    except AnascoreError as error:
        return _input_error(arguments, error)
    return _write(output)


if __name__ == "__main__":
    sys.exit(main())
