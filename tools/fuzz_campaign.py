"""A long fuzz run over every reader and command: seeded mutants of valid files in the five
input formats, each put through ``score`` (one process, and two for the formats that run in
several), the error analysis, the HTML report and ``convert`` to every target.

    python tools/fuzz_campaign.py [--mutants 20000] [--seed campaign] [--cli-every 50]

It counts, per format and command, the outcomes that are allowed (a score with every value in
[0, 1] or n/a; one :class:`~anascore.core.errors.AnascoreError` whose message is one line) and the
findings that are not: another exception (a traceback for the user), a value outside [0, 1],
one process and two deciding differently, a command taking longer than ``--limit`` seconds
(a hang), a conversion that drops nothing (no warning) scoring below 1 against its source,
and, for a sample of mutants run through the command line, an exit status other than 0 or 1,
or a message of more than one line. It prints a table and the first few findings of each
kind, and exits 1 when there is any finding. tests/properties/test_fuzz.py is the short run of the
same
idea inside the test suite.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests" / "support"))

from mutations import mutant, write_mutant  # noqa: E402

import anascore  # noqa: E402
from anascore.config.options import Options  # noqa: E402
from anascore.core.errors import AnascoreError  # noqa: E402
from anascore.formats.io.conversion import CONVERT_TARGETS, convert  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures"
MARKUP = """\
# newdoc id = d1
[Anna|1] met [her|1] friend [[Bob|2]'s sister|3] at the station .
[She|3] waved at [him|2] and [they|4] left .
"""
SOURCES = {
    "conll2012": ROOT / "examples" / "key.conll",
    "jsonlines": FIXTURES / "jsonlines" / "key.jsonlines",
    "corefud": FIXTURES / "corefud" / "two_documents.conllu",
    "ua": FIXTURES / "ua" / "features.conllua",
}
#: Formats read in several processes (anascore.scoring.parallel).
PARALLEL = ("conll2012", "corefud", "ua")


class Hang(Exception):
    """A call ran past the time limit."""


def _alarm(signum: int, frame: Any) -> None:
    raise Hang


def _markup_key(folder: Path) -> Path:
    """The key the marked-up mutants are scored against: the same text, as CoNLL-2012."""
    from anascore.formats import read_documents

    source = folder / "source.markup"
    source.write_text(MARKUP, encoding="utf-8")
    key = folder / "markup_key.conll"
    convert(source, key, to="conll2012")
    assert list(read_documents(key))
    return key


def _values_in_range(report: Any) -> str | None:
    for name, result in report.metrics.items():
        for field in ("recall", "precision", "f1"):
            value = getattr(result, field, None)
            if value is not None and not math.isnan(value) and not 0 <= value <= 1 + 1e-12:
                return f"{name}.{field} = {value}"
    return None


class Campaign:
    """The counts and findings of one run."""

    def __init__(self, limit: float) -> None:
        self.limit = limit
        self.outcomes: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
        self.findings: dict[str, list[str]] = defaultdict(list)
        self.runs = 0

    def run(self, format: str, command: str, call: Callable[[], Any], what: str) -> Any:
        """``call()`` under the time limit; its outcome counted, a finding kept."""
        self.runs += 1
        signal.setitimer(signal.ITIMER_REAL, self.limit)
        try:
            value = call()
        except AnascoreError as error:
            message = error.location_message()
            if "\n" in message:
                self._find("message of several lines", what, message[:300])
            self.outcomes[format, command]["error"] += 1
            return error
        except Hang:
            self._find("hang", what, f"over {self.limit} s")
            self.outcomes[format, command]["hang"] += 1
            return None
        except Exception:  # every other exception is a finding: a traceback for the user
            self._find("traceback", what, traceback.format_exc(limit=6)[-1500:])
            self.outcomes[format, command]["traceback"] += 1
            return None
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        self.outcomes[format, command]["ok"] += 1
        return value

    def _find(self, kind: str, what: str, detail: str) -> None:
        found = self.findings[kind]
        found.append(f"{what}: {detail}")

    def check_score(self, report: Any, what: str) -> None:
        if report is None or isinstance(report, AnascoreError):
            return
        outside = _values_in_range(report)
        if outside:
            self._find("value outside [0, 1]", what, outside)


def _decision(key: Path, response: Path, format: str, jobs: int) -> object:
    try:
        return anascore.score(key, response, format=format, jobs=jobs,
                              metrics="all").to_dict(per_document=True)
    except AnascoreError as error:
        return error.location_message()


def _cli(campaign: Campaign, key: Path, response: Path, what: str) -> None:
    """One mutant through the command line: exit 0 or 1, one line on stderr when 1."""
    environment = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    for arguments in (["score", str(key), str(response)],
                      ["errors", str(key), str(response)],
                      ["report", str(key), str(response), "-o",
                       str(response.parent / "cli_report.html")]):
        started = time.monotonic()
        try:
            done = subprocess.run([sys.executable, "-m", "anascore", *arguments],
                                  capture_output=True, text=True, errors="replace",
                                  timeout=campaign.limit * 3, env=environment)
        except subprocess.TimeoutExpired:
            campaign._find("hang", f"{what} cli {arguments[0]}", "timed out")
            continue
        campaign.runs += 1
        status = "ok" if done.returncode == 0 else "error"
        campaign.outcomes["cli", arguments[0]][status] += 1
        if done.returncode not in (0, 1):
            campaign._find("cli exit status", f"{what} cli {arguments[0]}",
                           f"{done.returncode}: {done.stderr[-400:]}")
        elif done.returncode == 1:
            lines = [line for line in done.stderr.splitlines() if line.startswith("anascore")]
            if "Traceback" in done.stderr or len(lines) != 1:
                campaign._find("cli message", f"{what} cli {arguments[0]}",
                               done.stderr[-400:])
        if time.monotonic() - started > campaign.limit * 3:
            campaign._find("hang", f"{what} cli {arguments[0]}", "slow")


def one_mutant(campaign: Campaign, format: str, number: int, original: Path, text: str,
               rng: random.Random, folder: Path, *, parallel: bool, cli: bool) -> None:
    path = folder / f"mutant.{format}"
    write_mutant(path, mutant(text, rng))
    what = f"{format} mutant {number}"
    # --format names the key's format too: a marked-up response is detected beside its key
    read_format = "auto" if format == "markup" else format
    # score: against the original, against itself, with the format detected
    for command, key, settings in (("score", original, {"format": read_format}),
                                   ("score-self", path, {"format": read_format}),
                                   ("score-detected", path, {})):
        if format == "markup" and command != "score":
            continue  # marked-up text is a response format only
        report = campaign.run(format, command, lambda key=key, settings=settings: anascore.score(
            key, path, metrics="all", jobs=1, **settings), f"{what} {command}")
        campaign.check_score(report, f"{what} {command}")
    if parallel and format in PARALLEL:
        one = campaign.run(format, "jobs-1", lambda: _decision(original, path, read_format, 1),
                           f"{what} jobs 1")
        two = campaign.run(format, "jobs-2", lambda: _decision(original, path, read_format, 2),
                           f"{what} jobs 2")
        if one is not None and two is not None and one != two:
            campaign._find("one process and two differ", what, json.dumps(
                [str(one)[:200], str(two)[:200]]))
    options = Options.create(format=read_format)
    campaign.run(format, "errors", lambda: anascore.analyse_errors(
        original, path, format=read_format), f"{what} errors")

    def report() -> str:
        from anascore.report.html import report_files
        return report_files(str(original), [str(path)], ["mutant"], options)

    campaign.run(format, "report", report, f"{what} report")
    if format == "markup":
        return
    for target in CONVERT_TARGETS:
        out = folder / f"converted.{target}"
        # what the target cannot hold is dropped, with a warning: the writer still runs
        warnings = campaign.run(format, f"convert-{target}", lambda target=target, out=out: (
            convert(path, out, to=target, format=read_format, drop_unsupported=True)),
            f"{what} convert {target}")
        if not isinstance(warnings, list) or warnings:
            continue  # refused, failed, or dropped something (said so)
        back = campaign.run(format, f"rescore-{target}", lambda out=out: anascore.score(
            path, out, format="auto", metrics="mentions,muc,bcub,ceafe"),
            f"{what} converted to {target}")
        if back is not None and not isinstance(back, AnascoreError):
            for name in ("mentions", "muc", "bcub", "ceafe"):
                result = back.metrics[name]
                if result.f1 != 1.0 and not (result.recall == result.precision == 0):
                    campaign._find("conversion that drops nothing scores below 1",
                                   f"{what} to {target}", f"{name} F1 {result.f1}")
    if cli:
        _cli(campaign, original, path, what)


def _source_text(format: str) -> str:
    if format == "markup":
        return MARKUP
    return SOURCES[format].read_text(encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mutants", type=int, default=2000,
                        help="mutants in all, shared among the five formats")
    parser.add_argument("--seed", default="campaign")
    parser.add_argument("--limit", type=float, default=20.0,
                        help="seconds a call may take before it counts as a hang")
    parser.add_argument("--parallel-every", type=int, default=10,
                        help="compare one process with two on every N-th mutant")
    parser.add_argument("--cli-every", type=int, default=50,
                        help="run every N-th mutant through the command line too")
    parser.add_argument("--json", help="write the counts and findings here")
    arguments = parser.parse_args()
    signal.signal(signal.SIGALRM, _alarm)
    import warnings

    warnings.simplefilter("ignore")
    campaign = Campaign(arguments.limit)
    formats = [*SOURCES, "markup"]
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        originals = {}
        for format in formats:
            if format == "markup":
                originals[format] = _markup_key(folder)
            else:
                originals[format] = folder / f"original.{format}"
                originals[format].write_text(_source_text(format), encoding="utf-8")
        rngs = {format: random.Random(f"{arguments.seed}-{format}") for format in formats}
        done = 0
        try:
            for number in range(arguments.mutants):
                format = formats[number % len(formats)]
                one_mutant(campaign, format, number, originals[format], _source_text(format),
                           rngs[format], folder,
                           parallel=number % arguments.parallel_every == 0,
                           cli=number % arguments.cli_every == 0)
                done = number + 1
                if number and number % 500 == 0:
                    found = sum(len(found) for found in campaign.findings.values())
                    print(f"{number} mutants, {campaign.runs} runs, {found} findings, "
                          f"{time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)
        except KeyboardInterrupt:  # Ctrl-C or SIGINT: the table of the mutants done so far
            print(f"interrupted after {done} mutants", file=sys.stderr)
    elapsed = time.monotonic() - started
    print(f"{done} mutants, {campaign.runs} runs in {elapsed:.0f} s")
    print(f"{'format':<10} {'command':<18} {'ok':>7} {'error':>7} {'other':>7}")
    for (format, command), counts in sorted(campaign.outcomes.items()):
        other = sum(counts.values()) - counts["ok"] - counts["error"]
        print(f"{format:<10} {command:<18} {counts['ok']:>7} {counts['error']:>7} {other:>7}")
    total = sum(len(found) for found in campaign.findings.values())
    print(f"findings: {total}")
    for kind, found in campaign.findings.items():
        print(f"\n{kind}: {len(found)}")
        for finding in found[:5]:
            print("  " + finding.replace("\n", "\n  "))
    if arguments.json:
        Path(arguments.json).write_text(json.dumps({
            "mutants": done, "runs": campaign.runs, "seconds": round(elapsed),
            "outcomes": {f"{format}/{command}": dict(counts)
                         for (format, command), counts in campaign.outcomes.items()},
            "findings": campaign.findings}, indent=1), encoding="utf-8")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
