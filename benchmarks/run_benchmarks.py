"""Time anascore against the Perl reference scorer and a read-and-split baseline.

What is timed is always a whole fresh process, from ``exec`` to exit, because that is what a
user waits for: interpreter start-up, imports, reading, scoring and printing included.

- ``anascore``: ``anascore score KEY RESPONSE`` (every metric, the default), through the
  console script installed beside this Python, else ``python -m anascore``;
- ``perl``: ``perl scorer.pl all KEY RESPONSE none`` (only with ``--perl-scorer``);
- ``baseline``: ``python -c`` reading both files and splitting every line into fields, nothing
  else — the least any Python scorer must do, so ``anascore / baseline`` is the cost of
  everything anascore does beyond reading its input.

Each command runs once untimed (to warm the page cache and Python's bytecode cache), then
``--repeats`` times, the commands interleaved so that a change in the load of a shared machine
hits them alike; the median wall-clock time is reported. Peak memory is each process's own
maximum resident set size, from ``os.wait4`` (the kernel's ``ru_maxrss`` of that one child,
no ``/usr/bin/time`` needed).

Usage::

    python benchmarks/run_benchmarks.py --perl-scorer /path/to/scorer.pl
    python benchmarks/run_benchmarks.py --corpus /tmp/anascore-bench --write-readme
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import generate_corpus

HERE = Path(__file__).resolve().parent
README = HERE / "README.md"
RESULTS_START = "<!-- results:start -->"
RESULTS_END = "<!-- results:end -->"

BASELINE_PROGRAM = """\
import sys
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            line.split()
"""

#: The environment of every timed command: this one, except that Python may write its
#: bytecode cache (the warm-up run writes it, as ``pip install`` does at install time; a
#: machine that sets PYTHONDONTWRITEBYTECODE would otherwise compile anascore's modules from
#: source on every run, which no installed copy does).
COMMAND_ENVIRONMENT = {name: value for name, value in os.environ.items()
                       if name != "PYTHONDONTWRITEBYTECODE"}

# The targets of the issue (benchmarks/README.md).
TARGET_PERL_RATIO = 15.0
TARGET_BASELINE_RATIO = 3.0
TARGET_SINGLE_SECONDS = 5.0
TARGET_PEAK_MB = 200.0


@dataclass(frozen=True)
class Run:
    """One finished process: wall-clock and CPU seconds, peak resident memory, exit status.

    CPU time (user + system) is reported beside wall-clock time because on a shared machine
    another process's load stretches the wall clock but hardly the CPU time.
    """

    seconds: float
    cpu_seconds: float
    peak_mb: float
    returncode: int


@dataclass(frozen=True)
class Result:
    """Every timed run of one command on one corpus."""

    name: str
    corpus: str
    command: tuple[str, ...]
    runs: tuple[Run, ...]

    @property
    def median(self) -> float:
        """The median wall-clock time, in seconds."""
        return statistics.median(run.seconds for run in self.runs)

    @property
    def median_cpu(self) -> float:
        """The median CPU time (user + system), in seconds."""
        return statistics.median(run.cpu_seconds for run in self.runs)

    @property
    def fastest(self) -> float:
        """The shortest wall-clock time, in seconds."""
        return min(run.seconds for run in self.runs)

    @property
    def peak_mb(self) -> float:
        """The largest peak resident set size over the runs, in MB (10⁶ bytes)."""
        return max(run.peak_mb for run in self.runs)


def run_once(command: Sequence[str]) -> Run:
    """Run ``command`` to completion, its output discarded, and measure it.

    ``os.wait4`` reaps exactly this child and returns its own resource usage, so the peak
    memory is this process's (and its reaped children's), not the maximum over every child
    this benchmark ever ran, as ``getrusage(RUSAGE_CHILDREN)`` would give.
    """
    with tempfile.TemporaryFile() as errors:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=errors,
                                   env=COMMAND_ENVIRONMENT)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode != 0:
            errors.seek(0)
            message = errors.read().decode("utf-8", "replace").strip().splitlines()
            raise RuntimeError(f"{' '.join(command)} failed ({process.returncode}): "
                               f"{message[-1] if message else 'no message'}")
    # ru_maxrss is in KiB on Linux, in bytes on macOS.
    peak_bytes = usage.ru_maxrss if sys.platform == "darwin" else usage.ru_maxrss * 1024
    return Run(seconds, usage.ru_utime + usage.ru_stime, peak_bytes / 1e6, process.returncode)


def measure(commands: dict[tuple[str, str], Sequence[str]], repeats: int) -> list[Result]:
    """Every command once untimed, then ``repeats`` interleaved timed rounds."""
    runs: dict[tuple[str, str], list[Run]] = {label: [] for label in commands}
    for label, command in commands.items():
        print(f"warm-up: {label[0]} on {label[1]}", file=sys.stderr)
        run_once(command)
    for round_number in range(1, repeats + 1):
        for label, command in commands.items():
            run = run_once(command)
            runs[label].append(run)
            print(f"round {round_number}/{repeats}: {label[0]} on {label[1]}: "
                  f"{run.seconds:.3f} s ({run.cpu_seconds:.3f} s CPU), {run.peak_mb:.0f} MB",
                  file=sys.stderr)
    return [Result(name, corpus, tuple(command), tuple(runs[(name, corpus)]))
            for (name, corpus), command in commands.items()]


def anascore_command() -> list[str] | None:
    """How to start anascore: the console script installed beside this Python (not a pyenv
    shim, whose own start-up would be charged to anascore), else ``python -m anascore``;
    ``None`` when neither works."""
    script = Path(sys.executable).parent / "anascore"
    candidates = [[str(script)]] if script.exists() else []
    candidates.append([sys.executable, "-m", "anascore"])
    for command in candidates:
        try:
            probe = subprocess.run([*command, "--help"], capture_output=True, timeout=60)
        except OSError:
            continue
        if probe.returncode == 0:
            return command
    return None


def tool_version(command: Sequence[str]) -> str:
    """The first line a ``--version`` invocation prints, or ``unknown``."""
    try:
        probe = subprocess.run(command, capture_output=True, text=True, timeout=60)
    except OSError:
        return "unknown"
    lines = (probe.stdout or probe.stderr).strip().splitlines()
    return next((line for line in lines if line.strip()), "unknown")


def cpu_model() -> str:
    """The CPU model name (Linux), else the platform's processor string."""
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        match = re.search(r"^model name\s*:\s*(.+)$", cpuinfo.read_text(), re.MULTILINE)
        if match:
            return match.group(1).strip()
    return platform.processor() or "unknown"


def load_average() -> str:
    """The one-minute load average, which says how much others shared the machine."""
    try:
        return f"{os.getloadavg()[0]:.2f}"
    except OSError:
        return "unknown"


def source_revision() -> str:
    """The commit of the checkout this benchmark belongs to, flagged when ``src/`` has
    uncommitted changes (an editable install runs the working tree, not the commit)."""
    root = HERE.parent
    try:
        commit = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True, timeout=60)
        status = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--", "src"],
                                capture_output=True, text=True, timeout=60)
    except OSError:
        return "unknown"
    if commit.returncode != 0:
        return "unknown"
    dirty = " with uncommitted changes in src/" if status.stdout.strip() else ""
    return f"commit {commit.stdout.strip()}{dirty}"


def corpus_description(folder: Path) -> str:
    """The seed and error settings of the corpora in ``folder``, from their manifest."""
    manifest = folder / generate_corpus.MANIFEST
    if not manifest.is_file():
        return f"{folder} (no {generate_corpus.MANIFEST})"
    settings = json.loads(manifest.read_text(encoding="utf-8"))
    return (f"generate_corpus.py --seed {settings['seed']} (OntoNotes-sized: "
            f"{settings['ontonotes']})")


def verdict(ok: bool) -> str:
    """A table cell for a target: met or missed."""
    return "met" if ok else "**missed**"


def usable_cpus() -> int:
    """The CPUs this process may run on (what ``--jobs 0`` uses)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def render(results: Sequence[Result], environment: dict[str, str]) -> str:
    """The Markdown report: one row per command and corpus, then the ratios and targets."""
    lines = [
        "| command | corpus | median s | fastest s | median CPU s | runs | peak RSS MB |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for result in results:
        lines.append(f"| {result.name} | {result.corpus} | {result.median:.3f} | "
                     f"{result.fastest:.3f} | {result.median_cpu:.3f} | {len(result.runs)} | "
                     f"{result.peak_mb:.0f} |")
    found = {(result.name, result.corpus): result for result in results}
    anascore = found.get(("anascore", "ontonotes"))
    perl = found.get(("perl", "ontonotes"))
    baseline = found.get(("baseline", "ontonotes"))
    single = found.get(("anascore", "single"))
    lines += ["", "| target (wall clock, as the issue sets them) | median | | CPU time of "
                  "every process, for information |",
              "|---|---:|---|---:|"]
    if anascore and perl:
        ratio = perl.median / anascore.median
        cpu = perl.median_cpu / anascore.median_cpu
        lines.append(f"| Perl `all` / anascore ≥ {TARGET_PERL_RATIO:g}× (OntoNotes-sized) | "
                     f"{ratio:.1f}× | {verdict(ratio >= TARGET_PERL_RATIO)} | {cpu:.1f}× |")
    if anascore and baseline:
        ratio = anascore.median / baseline.median
        cpu = anascore.median_cpu / baseline.median_cpu
        lines.append(f"| anascore / read-and-split baseline ≤ {TARGET_BASELINE_RATIO:g}× "
                     f"(OntoNotes-sized) | {ratio:.2f}× | "
                     f"{verdict(ratio <= TARGET_BASELINE_RATIO)} | {cpu:.2f}× |")
    if single:
        lines.append(f"| anascore, one document of 20,000 key mentions < "
                     f"{TARGET_SINGLE_SECONDS:g} s | {single.median:.2f} s | "
                     f"{verdict(single.median < TARGET_SINGLE_SECONDS)} | "
                     f"{single.median_cpu:.2f} s |")
    ours = [result for result in results if result.name.startswith("anascore")]
    if ours:
        peak = max(result.peak_mb for result in ours)
        lines.append(f"| anascore peak memory < {TARGET_PEAK_MB:g} MB (per process) | "
                     f"{peak:.0f} MB | {verdict(peak < TARGET_PEAK_MB)} | |")
    lines += ["", *(f"- {key}: {value}" for key, value in environment.items())]
    return "\n".join(lines)


def write_readme(report: str) -> None:
    """Replace the results section of ``benchmarks/README.md`` (between its markers)."""
    text = README.read_text(encoding="utf-8")
    start = text.index(RESULTS_START) + len(RESULTS_START)
    end = text.index(RESULTS_END)
    README.write_text(text[:start] + "\n" + report + "\n" + text[end:], encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: generate (or reuse) the corpora, time every command, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=None,
                        help="folder with the files generate_corpus.py writes (default: "
                             "generate them into a temporary folder)")
    parser.add_argument("--seed", type=int, default=2012,
                        help="seed when generating the corpora (default: 2012)")
    parser.add_argument("--repeats", type=int, default=5,
                        help="timed runs of every command (default: 5)")
    parser.add_argument("--perl-scorer", type=Path, default=None,
                        help="path of the reference scorer's scorer.pl, to time it too")
    parser.add_argument("--skip-single", action="store_true",
                        help="do not time the single document of 20,000 key mentions")
    parser.add_argument("--write-readme", action="store_true",
                        help="put the results table into benchmarks/README.md")
    args = parser.parse_args(argv)
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    if args.perl_scorer is not None and not args.perl_scorer.is_file():
        parser.error(f"--perl-scorer: no such file: {args.perl_scorer}")

    corpus = args.corpus
    if corpus is None:
        corpus = Path(tempfile.mkdtemp(prefix="anascore-bench-"))
        # In a process of its own: Linux keeps a process's peak memory across fork and exec,
        # so every command timed from a parent that built the corpus in memory would report
        # that parent's peak as its own.
        subprocess.run([sys.executable, str(Path(generate_corpus.__file__)), "--output",
                        str(corpus), "--seed", str(args.seed)], check=True)
    files = {name: str(corpus / f"{name}.conll") for name in
             ("ontonotes_key", "ontonotes_response", "single_key", "single_response")}
    missing = [path for path in files.values() if not Path(path).is_file()]
    if missing:
        parser.error(f"--corpus: missing {', '.join(missing)}")

    pairs = {"ontonotes": (files["ontonotes_key"], files["ontonotes_response"])}
    if not args.skip_single:
        pairs["single"] = (files["single_key"], files["single_response"])
    commands: dict[tuple[str, str], Sequence[str]] = {}
    anascore = anascore_command()
    if anascore is None:
        print("anascore is not installed (neither the console script nor python -m anascore "
              "works): timing the others only", file=sys.stderr)
    perl = shutil.which("perl")
    if args.perl_scorer is not None and perl is None:
        parser.error("--perl-scorer given but perl is not on PATH")
    for corpus_name, (key, response) in pairs.items():
        if anascore is not None:
            commands[("anascore", corpus_name)] = [*anascore, "score", key, response]
            if corpus_name == "ontonotes":  # one process, for comparison (not a target)
                commands[("anascore --jobs 1", corpus_name)] = [
                    *anascore, "score", "--jobs", "1", key, response]
        if args.perl_scorer is not None and corpus_name == "ontonotes":
            commands[("perl", corpus_name)] = [perl, str(args.perl_scorer), "all", key,
                                               response, "none"]
        commands[("baseline", corpus_name)] = [sys.executable, "-c", BASELINE_PROGRAM, key,
                                               response]

    load_before = load_average()
    results = measure(commands, args.repeats)
    environment = {
        "date": date.today().isoformat(),
        "CPU": f"{cpu_model()} ({os.cpu_count()} logical CPUs, shared)",
        "Python": platform.python_version(),
        "anascore": tool_version([*anascore, "--version"]) if anascore else "not installed",
        "perl": tool_version([perl, "-e", "print $^V"]) if perl else "not installed",
        "anascore source": source_revision(),
        "corpus": corpus_description(corpus),
        "timing": f"median of {args.repeats} whole-process runs after one warm-up; peak RSS "
                  "from os.wait4",
        "anascore processes": f"`anascore score` with its default `--jobs 0`: "
                              f"{usable_cpus()} here on the OntoNotes-sized "
                              "corpus (one for the single document)",
        "load average (1 min) before / after": f"{load_before} / {load_average()}",
    }
    report = render(results, environment)
    print(report)
    if args.write_readme:
        write_readme(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
