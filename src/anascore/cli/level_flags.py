"""``anascore score --level LEVEL[,LEVEL…]``: the levels as the command line reads them, and
the reports of several levels side by side (within-document and cross-document scores, the
table the cross-document papers print).

The command's own printing (rendering a report, its warnings, writing stdout) is
:mod:`anascore.cli.score`'s and is handed in, so that this module imports nothing of it.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

from anascore.config.options import Options
from anascore.config.settings import level_list as level_list  # re-exported (its old home)
from anascore.core.errors import AnascoreError


def check_levels_usage(parser: argparse.ArgumentParser, arguments: argparse.Namespace,
                       levels: Sequence[str | None]) -> None:
    """Several levels print a report each, one after the other (JSON: one object holding
    them by level); what cannot be printed so is a usage error (exit status 2)."""
    if arguments.output == "csv" or arguments.group_by is not None:
        parser.error("--level with several levels prints text, json, markdown or latex, "
                     "without --group-by; give one level")
    if arguments.topic_pattern is not None and not {"topic", "subtopic"} & set(levels):
        parser.error("--topic-pattern names topics, which none of the levels "
                     f"{','.join(map(str, levels))} reads; add topic or subtopic")


def score_levels(arguments: argparse.Namespace, every_options: Sequence[Options],
                 score: Callable[[argparse.Namespace, Options], Any],
                 render: Callable[[Any, argparse.Namespace], str],
                 warnings_of: Callable[[Any], list[str]],
                 report_warnings: Callable[[Sequence[str], argparse.Namespace], bool],
                 write: Callable[[str], int]) -> int:
    """Each level's report (``score`` of the same files with each level's options), under a
    ``Level: NAME`` line, or as JSON ``{"levels": {NAME: report, …}}``; the warnings of all
    of them once. Any error is one line and exit status 1, with nothing printed."""
    results = []
    for options in every_options:
        try:
            results.append(score(arguments, options))
        except AnascoreError as error:
            print(f"anascore: error: {error.location_message()}", file=sys.stderr)
            return 1
    warnings = list(dict.fromkeys(warning for result in results
                                  for warning in warnings_of(result)))
    if not report_warnings(warnings, arguments):
        return 1
    pairs = list(zip(every_options, results, strict=True))
    if arguments.output == "json":
        per_document = arguments.per_document or arguments.sort_by is not None
        data = {"levels": {options.level: json.loads(result.to_json(
            per_document=per_document, details=arguments.details, sort_by=arguments.sort_by))
            for options, result in pairs}}
        return write(json.dumps(data, indent=2, allow_nan=False) + "\n")
    return write("\n".join(f"Level: {options.level}\n\n{render(result, arguments)}"
                           for options, result in pairs))
