"""Start-up: a one-document ``anascore score`` against ``python -c "import numpy"``.

Every call of the command pays its start-up before it reads a line; on a small input that is
nearly all of its time. The yardstick is importing numpy, which anascore needs anyway: the
issue's target is ``anascore score`` on a one-document pair within 1.3× of it.

Both run as whole fresh processes (``run_benchmarks.run_once``: wall-clock and CPU time of the
child from ``os.wait4``), one untimed warm-up each (it writes the bytecode cache, as an
install does), then ``--repeats`` rounds, the two interleaved so that the load of a shared
machine hits both alike. Printed: each command's median wall and CPU seconds, and the median
of the rounds' ratios (each round's anascore run over the numpy import beside it) — on a busy
machine only the ratios mean anything.

Usage::

    python benchmarks/startup_benchmark.py [--repeats 20]

It runs this checkout's ``src/`` (``python -m anascore``), on ``examples/key.conll`` and
``examples/response.conll``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import run_benchmarks  # noqa: E402
from run_benchmarks import Result, measure  # noqa: E402

#: The issue's target: anascore's start-up over numpy's import.
TARGET_RATIO = 1.3
SCORE = ("anascore score", "one document")
NUMPY = ("import numpy", "-")


def commands() -> dict[tuple[str, str], list[str]]:
    """The two timed commands (anascore of this checkout, on the example pair)."""
    return {SCORE: [sys.executable, "-m", "anascore", "score",
                    str(ROOT / "examples" / "key.conll"),
                    str(ROOT / "examples" / "response.conll")],
            NUMPY: [sys.executable, "-c", "import numpy"]}


def render(results: Sequence[Result]) -> str:
    """A Markdown table: both commands' medians, and the median of the rounds' ratios."""
    by = {(result.name, result.corpus): result for result in results}
    score, numpy = by[SCORE], by[NUMPY]
    wall = statistics.median(a.seconds / b.seconds
                             for a, b in zip(score.runs, numpy.runs, strict=True))
    cpu = statistics.median(a.cpu_seconds / b.cpu_seconds
                            for a, b in zip(score.runs, numpy.runs, strict=True))
    rows = ["| command | wall (s) | CPU (s) | peak MB |", "|---|---:|---:|---:|"]
    for name, result in (("`anascore score key.conll response.conll`", score),
                         ('`python -c "import numpy"`', numpy)):
        rows.append(f"| {name} | {result.median:.3f} | {result.median_cpu:.3f} | "
                    f"{result.peak_mb:.0f} |")
    verdict = "met" if wall <= TARGET_RATIO else "NOT met"
    rows.append("")
    rows.append(f"anascore / numpy import, median of {len(score.runs)} interleaved rounds' "
                f"ratios: **{wall:.2f}×** wall, {cpu:.2f}× CPU (target ≤ {TARGET_RATIO}×: "
                f"{verdict}).")
    return "\n".join(rows)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=20,
                        help="interleaved rounds (default 20)")
    args = parser.parse_args(argv)
    source = str(ROOT / "src")
    inherited = run_benchmarks.COMMAND_ENVIRONMENT.get("PYTHONPATH")
    run_benchmarks.COMMAND_ENVIRONMENT["PYTHONPATH"] = (
        source if not inherited else source + ":" + inherited)
    print(render(measure(commands(), args.repeats)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
