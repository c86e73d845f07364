"""Where a one-process ``anascore score`` run's time goes, against the floor: how much of the
issue's "within 3× of the floor" is left for reading once Python has started, anascore and
numpy are imported and the documents are counted — and so whether any reader, however fast,
could meet it.

For each case of ``corpora_benchmark.py`` (the same files, the same options), these run as
whole fresh processes, interleaved (A, B, C, A, B, C, …) after one untimed warm-up each:

- ``python``: ``python -c pass``, the interpreter's own start and exit;
- ``floor``: the floor (``run_benchmarks.BASELINE_PROGRAM``), which reads both files and splits
  their lines: ``floor - python`` is what the floor spends on reading;
- ``run``: ``anascore score --metrics all --output json --jobs 1`` with the case's options, run
  in process by a small wrapper (:data:`PHASES_PROGRAM`) that notes when anascore's imports
  (numpy among them) are done and how long the per-document counting
  (``anascore.scoring.pipeline.count_key_document``: selection, matching, every metric) takes.

Its phases: ``start and imports`` (the run's wall time outside the wrapper's clock — the
interpreter's start and exit — and the wrapper's import of anascore's command line, numpy
among it); ``counting``; and ``reading and the rest`` (reading and pairing the documents,
checking their words, modules imported on first use, the output).

``bound / floor`` is what the run would take, as a ratio to the floor, with a reader exactly as
fast as the floor's reading and everything else as it is: when it exceeds 3, no reader can
bring the run within 3× of the floor.

For the synthetic cases, a fourth process is timed beside them: ``least``, the least reader
(``least_reader.py``), which reads both files doing only what no reader can skip (the cells
split, the word forms kept, the brackets parsed into mentions) and checks nothing. ``least
reading / the floor's`` is its reading (``least - python``) over the floor's
(``floor - python``), and ``least bound / floor`` what the run would take with a reader as
fast as it: the lowest a pure-Python run can go with today's start-up and counting.

Usage::

    python benchmarks/time_budget.py --shared ../shared [--repeats 5] [--case gum-ua ...]
"""

from __future__ import annotations

import json
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from corpora_benchmark import case_parser, prepared_cases  # noqa: E402
from run_benchmarks import BASELINE_PROGRAM, run_once  # noqa: E402

#: The wrapper: ``python -c PHASES_PROGRAM PHASES_FILE anascore-arguments…`` runs the command
#: line in process (with the command's collector thresholds) and writes its phases as JSON.
PHASES_PROGRAM = """\
import gc, json, sys, time
began = time.perf_counter()
from anascore.cli.entry import COLLECTOR_THRESHOLDS
gc.set_threshold(*COLLECTOR_THRESHOLDS)
import anascore.cli.main
import anascore.scoring.pipeline as scoring
imported = time.perf_counter()
counting = 0.0
count_key_document = scoring.count_key_document
def timed(*arguments, **keywords):
    global counting
    start = time.perf_counter()
    try:
        return count_key_document(*arguments, **keywords)
    finally:
        counting += time.perf_counter() - start
scoring.count_key_document = timed
status = anascore.cli.main.main(sys.argv[2:])
with open(sys.argv[1], "w") as phases:
    json.dump({"imports": imported - began, "counting": counting,
               "inside": time.perf_counter() - began, "status": status}, phases)
"""


def main(argv: Sequence[str] | None = None) -> int:
    parser = case_parser(__doc__.split("\n\n")[0])
    args = parser.parse_args(argv)
    _, work, cases = prepared_cases(parser, args)
    phases_file = work / "phases.json"

    samples: dict[tuple[str, str], list[dict[str, float]]] = {}
    for round_number in range(args.repeats + 1):  # round 0: the untimed warm-up
        for case in cases:
            key, response = str(work / case.key), str(work / f"response_{case.key}")
            python = run_once([sys.executable, "-c", "pass"])
            floor = run_once([sys.executable, "-c", BASELINE_PROGRAM, key, response])
            run = run_once([sys.executable, "-c", PHASES_PROGRAM, str(phases_file), "score",
                            key, response, "--metrics", "all", "--output", "json", "--jobs",
                            "1", *case.options])
            least = (run_once([sys.executable, str(HERE / "least_reader.py"), key, response])
                     if case.synthetic else None)
            phases = json.loads(phases_file.read_text())
            if phases["status"] != 0:
                raise SystemExit(f"{case.name}: anascore score exited with {phases['status']}")
            if round_number == 0:
                continue
            samples.setdefault(("python", case.name), []).append({"wall": python.seconds})
            samples.setdefault(("floor", case.name), []).append({"wall": floor.seconds})
            samples.setdefault(("run", case.name), []).append({"wall": run.seconds, **phases})
            if least is not None:
                samples.setdefault(("least", case.name), []).append({"wall": least.seconds})
            print(f"round {round_number}/{args.repeats}: {case.name}: python "
                  f"{python.seconds:.3f} s, floor {floor.seconds:.3f} s, run {run.seconds:.3f} s "
                  f"(imports {phases['imports']:.3f}, counting {phases['counting']:.3f})",
                  file=sys.stderr)
    print(render(samples, [case.name for case in cases], args.repeats))
    return 0


def _median(samples: list[dict[str, float]], field: str) -> float:
    return statistics.median(sample[field] for sample in samples)


def render(samples: dict[tuple[str, str], list[dict[str, float]]], cases: Sequence[str],
           repeats: int) -> str:
    """A Markdown table of each case's phases (medians), in seconds and as ratios."""
    lines = [
        "| case | floor (s) | 3× floor | start and imports | counting | reading and the rest "
        "| run / floor | left for reading within 3× | the floor's reading | bound / floor "
        "| least reading / the floor's | least bound / floor |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for case in cases:
        run = samples[("run", case)]
        floor = _median(samples[("floor", case)], "wall")
        python = _median(samples[("python", case)], "wall")
        wall = _median(run, "wall")
        start = statistics.median(sample["wall"] - sample["inside"] + sample["imports"]
                                  for sample in run)
        counting = _median(run, "counting")
        rest = statistics.median(sample["inside"] - sample["imports"] - sample["counting"]
                                 for sample in run)
        floor_reading = max(floor - python, 0.0)
        left = 3 * floor - start - counting
        bound = (start + counting + floor_reading) / floor
        least_columns = "- | - |"
        if ("least", case) in samples:
            least_reading = max(_median(samples[("least", case)], "wall") - python, 0.0)
            least_columns = (f"{least_reading / max(floor_reading, 1e-9):.2f} | "
                             f"{(start + counting + least_reading) / floor:.2f} |")
        lines.append(
            f"| {case} | {floor:.3f} | {3 * floor:.3f} | {start:.3f} | {counting:.3f} | "
            f"{rest:.3f} | {wall / floor:.2f} | {left:.3f} | {floor_reading:.3f} | "
            f"{bound:.2f} | {least_columns}")
    lines.append("")
    lines.append(f"Medians of {repeats} interleaved rounds, in seconds. A negative 'left for "
                 "reading' means start, imports and counting alone exceed 3× the floor.")
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
