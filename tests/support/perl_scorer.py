"""The Perl reference scorer v8.01 (``conll/reference-coreference-scorers``) run beside
anascore: where it is, how to run it, how to read its TOTALS lines, and every number on which
it and an :class:`anascore.Report` disagree.

Used by the differential test (``tests/conformance/test_differential_perl.py``), the
cross-document references and the mention-record formats. The scorer is found through
``ANASCORE_PERL_SCORER`` (its ``scorer.pl``) and ``perl`` on PATH; tests that need it are marked
:data:`requires_perl` and skip otherwise.
"""

from __future__ import annotations

import math
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

import anascore

PERL_SCORER = os.environ.get("ANASCORE_PERL_SCORER", "")
PERL = shutil.which("perl")

requires_perl = pytest.mark.skipif(
    not (PERL_SCORER and Path(PERL_SCORER).is_file() and PERL),
    reason="set ANASCORE_PERL_SCORER to the reference scorer's scorer.pl (and put perl on "
           "PATH) to compare with it")
TOLERANCE = 1e-9
COREFERENCE_METRICS = ("muc", "bcub", "ceafm", "ceafe")


# --------------------------------------------------------------------------------------------
# The Perl scorer's output


@dataclass(frozen=True)
class Counts:
    """A ``Recall: (a / b) … Precision: (c / d)`` line of the Perl scorer."""

    recall_num: float
    recall_den: float
    precision_num: float
    precision_den: float

    @property
    def recall(self) -> float:
        """Recall as Perl computes it (0 when the denominator is 0)."""
        return self.recall_num / self.recall_den if self.recall_den else 0.0

    @property
    def precision(self) -> float:
        """Precision as Perl computes it (0 when the denominator is 0)."""
        return self.precision_num / self.precision_den if self.precision_den else 0.0

    @property
    def f1(self) -> float:
        """F1 as Perl computes it from recall and precision."""
        total = self.recall + self.precision
        return 2 * self.precision * self.recall / total if total else 0.0


COUNTS = re.compile(r"Recall: \((\S+) / (\S+)\) \S+\tPrecision: \((\S+) / (\S+)\) ")


def parse_counts(line: str) -> Counts:
    """The four counts of one ``Recall: … Precision: …`` line."""
    match = COUNTS.search(line)
    assert match, f"unexpected Perl output line: {line!r}"
    return Counts(*(float(group) for group in match.groups()))


def parse_perl(output: str) -> dict[str, dict[str, Counts]]:
    """Every TOTALS line of ``scorer.pl all KEY RESPONSE none``, by metric and line label.

    Labels: ``mentions`` (``Identification of Mentions:``), ``coreference``
    (``Coreference:``), and for BLANC ``coref_links``, ``non_coref_links`` and ``blanc``.
    """
    labels = {"Identification of Mentions:": "mentions", "Coreference:": "coreference",
              "Coreference links:": "coref_links", "Non-coreference links:": "non_coref_links",
              "BLANC:": "blanc"}
    blocks: dict[str, dict[str, Counts]] = {}
    metric = None
    for line in output.splitlines():
        if line.startswith("METRIC "):
            metric = line[len("METRIC "):].rstrip(":")
            blocks[metric] = {}
            continue
        for prefix, label in labels.items():
            if line.startswith(prefix + " Recall:") and metric is not None:
                blocks[metric][label] = parse_counts(line)
    assert set(blocks) == {*COREFERENCE_METRICS, "blanc"}, output
    return blocks


def blanc_f1(coref: Counts, non_coref: Counts) -> float:
    """BLANC's F1 as the Perl scorer's totals compute it: the mean of both halves' F1, or one
    half's F1 alone when the key has no links of the other kind."""
    if not coref.recall_den and not non_coref.recall_den:
        return 0.0
    if not coref.recall_den:
        return non_coref.f1
    if not non_coref.recall_den:
        return coref.f1
    return (coref.f1 + non_coref.f1) / 2


def run_perl(key: Path, response: Path) -> dict[str, dict[str, Counts]]:
    """Run the reference scorer on one case, in a process of its own."""
    assert PERL is not None
    result = subprocess.run([PERL, PERL_SCORER, "all", str(key), str(response), "none"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    return parse_perl(result.stdout)


# --------------------------------------------------------------------------------------------
# The comparison


def close(a: float, b: float) -> bool:
    """Equal to 1e-9, relative or absolute (Perl prints 15 significant digits)."""
    return math.isclose(a, b, rel_tol=TOLERANCE, abs_tol=TOLERANCE)


def differences(report: anascore.Report, perl: dict[str, dict[str, Counts]]) -> list[str]:
    """Every number on which anascore and the Perl scorer disagree, described."""
    found: list[str] = []

    def compare(what: str, ours: float, theirs: float) -> None:
        if not close(ours, theirs):
            found.append(f"{what}: anascore {ours!r}, perl {theirs!r}")

    def compare_counts(name: str, ours: anascore.Score, theirs: Counts) -> None:
        for attribute in ("recall_num", "recall_den", "precision_num", "precision_den",
                          "recall", "precision", "f1"):
            compare(f"{name}.{attribute}", getattr(ours, attribute),
                    getattr(theirs, attribute))

    mentions = perl["muc"]["mentions"]
    for metric, block in perl.items():
        if block["mentions"] != mentions:
            found.append(f"perl's mention identification differs between muc and {metric}")
    compare_counts("mentions", report.metrics["mentions"], mentions)
    for metric in COREFERENCE_METRICS:
        compare_counts(metric, report.metrics[metric], perl[metric]["coreference"])
    blanc = report.metrics["blanc"]
    coref, non_coref = perl["blanc"]["coref_links"], perl["blanc"]["non_coref_links"]
    compare_counts("blanc.coref_links", blanc.coref_links, coref)
    compare_counts("blanc.non_coref_links", blanc.non_coref_links, non_coref)
    compare("blanc.recall", blanc.recall, perl["blanc"]["blanc"].recall_num)
    compare("blanc.precision", blanc.precision, perl["blanc"]["blanc"].precision_num)
    compare("blanc.f1", blanc.f1, blanc_f1(coref, non_coref))
    conll = sum(perl[metric]["coreference"].f1 for metric in ("muc", "bcub", "ceafe")) / 3
    compare("conll.f1", report.metrics["conll"].f1, conll)
    return found
