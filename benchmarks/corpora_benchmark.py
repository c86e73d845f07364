"""Time anascore on real corpora, side by side with the floor (and the Perl scorer and CoVal
when pointed at them), and print ratios.

Every case is a key and a response file in one format, with the options the issue sets for
it. For each case these commands run as whole fresh processes, interleaved (A, B, C, A, B,
C, …) after one untimed warm-up each, so that a change in the machine's load hits every
command alike:

- ``floor``: a bare ``python -c`` that reads both files and splits their lines into fields —
  the least any Python scorer has to do (``run_benchmarks.BASELINE_PROGRAM``);
- ``jobs 1``: ``anascore score --jobs 1 --metrics all --output json`` with the case's options;
- ``default``: the same with the default ``--jobs 0``;
- ``perl`` (CoNLL-2012 cases, ``--perl-scorer``): ``scorer.pl all KEY RESPONSE none``;
- ``coval`` (CoNLL-2012 cases, ``--coval``): CoVal's ``scorer.py KEY RESPONSE``.

With ``--busy`` a CPU-bound neighbour process runs for the whole measurement, holding one
core, so the default's choice of processes is measured on a machine whose second core is taken.

Absolute times on a shared machine are noise; the ratios of medians measured side by side
are what the targets are set on (anascore ``--jobs 1`` within 3× of the floor, the default
within 2× where a second core is free, the default never slower than ``--jobs 1``).

Usage::

    python benchmarks/corpora_benchmark.py --shared ../shared [--repeats 5] [--busy]
        [--perl-scorer scorer.pl] [--coval path/to/coval] [--case gum-ua ...]
        [--scale 10 | --no-synthetic] [--work DIR]

The table gives, per case, the ratios of the medians to the floor's, and the peak memory
beside the size of one input file (the key); below it, the issue's targets on the synthetic
corpus (one process within 3× of the floor, the default within 2×, peak memory below one
input file's size), met or missed.

The cases' files are made into a temporary folder (``--work``; pass one to keep them between
runs). The synthetic cases: ``generate_corpus.py --scale 10``, the corpus ten times
OntoNotes-test size (3,480 documents, 1.7 M tokens) in CoNLL-2012, and the same key and
response converted with ``anascore convert`` to CorefUD CoNLL-U and to UA. The real ones,
from the corpora in ``shared/corpora``: the GUM documents concatenated in every format (UA
converted from CorefUD with ``anascore convert --drop-unsupported``), LitBank concatenated,
CODI-CRAC 2022 AMI dev and all seven CODI-CRAC 2022 files concatenated;
each response is the key perturbed by ``perturb_response.py`` (seed 1, rate 0.1).
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from run_benchmarks import (  # noqa: E402
    BASELINE_PROGRAM,
    Result,
    anascore_command,
    measure,
)


@dataclass(frozen=True)
class Case:
    """One corpus in one format, and the options the issue scores it with; a ``synthetic``
    case is the generated corpus ten times OntoNotes-test size (its response is the
    generator's, with typical system errors, not ``perturb_response.py``'s)."""

    name: str
    key: str
    options: tuple[str, ...]
    reference_scorers: bool = False
    synthetic: bool = False


CASES = (
    Case("scale-conll", "scale.conll", (), reference_scorers=True, synthetic=True),
    Case("scale-corefud", "scale.conllu", (), synthetic=True),
    Case("scale-ua", "scale.ua", (), synthetic=True),
    Case("litbank-conll", "litbank.conll", (), reference_scorers=True),
    Case("gum-conll", "gum.conll", (), reference_scorers=True),
    Case("gum-corefud", "gum.conllu", ("--match", "head", "--remove-singletons")),
    Case("gum-ua", "gum.ua", ()),
    Case("codi-ua", "codi.ua", ("--keep-non-referring", "--keep-bridging",
                                "--discourse-deixis", "--keep-split-antecedents")),
    Case("codi-all-ua", "codi_all.ua", ("--keep-non-referring", "--keep-bridging",
                                        "--discourse-deixis", "--keep-split-antecedents")),
)

#: The targets of issue 24, on the synthetic corpus (ratios of median wall-clock times).
TARGET_ONE_PROCESS = 3.0
TARGET_DEFAULT = 2.0


def prepare_synthetic(work: Path, anascore: list[str], scale: float) -> None:
    """Write the synthetic corpus (``scale`` times OntoNotes-test size) as CoNLL-2012, and
    converted from it to CorefUD CoNLL-U and UA, into ``work`` (files already there are kept).

    The generator runs in a process of its own: Linux keeps a process's peak memory across
    fork and exec, so a parent that built the corpus in memory would charge its peak to every
    command it times.
    """
    key, response = work / "scale.conll", work / "response_scale.conll"
    if not (key.exists() and response.exists()):
        generated = work / "generated"
        subprocess.run([sys.executable, str(HERE / "generate_corpus.py"), "--output",
                        str(generated), "--single-mentions", "0", "--scale", str(scale)],
                       check=True, stdout=subprocess.DEVNULL)
        (generated / "ontonotes_key.conll").replace(key)
        (generated / "ontonotes_response.conll").replace(response)
    for suffix, target in (("conllu", "corefud"), ("ua", "ua")):
        for source in (key, response):
            converted = source.with_suffix(f".{suffix}")
            if not converted.exists():
                subprocess.run([*anascore, "convert", str(source), str(converted), "--to",
                                target, "--quiet"], check=True)


def prepare(shared: Path, work: Path, anascore: list[str],
            cases: Sequence[Case] = CASES, scale: float = 10) -> None:
    """Write every case's key and response into ``work`` (skipping files already there)."""
    if any(case.synthetic for case in cases):
        prepare_synthetic(work, anascore, scale)
    if all(case.synthetic for case in cases):
        return
    corpora = shared / "corpora"
    sources = {
        "litbank.conll": sorted((corpora / "litbank" / "coref-conll").glob("*.conll")),
        "gum.conll": sorted((corpora / "gum" / "coref-conll").glob("*.conll")),
        "gum.conllu": sorted((corpora / "gum" / "dep").glob("*.conllu")),
        "codi.ua": [corpora / "codi-crac22" / "AMI_dev_v2.2022.CONLLUA"],
        "codi_all.ua": sorted((corpora / "codi-crac22").glob("*.CONLLUA")),
    }
    for name, files in sources.items():
        target = work / name
        if not target.exists():
            if not files:
                raise SystemExit(f"no files for {name} under {corpora}")
            with open(target, "wb") as out:
                for path in files:
                    out.write(path.read_bytes())
    if not (work / "gum.ua").exists():
        subprocess.run([*anascore, "convert", str(work / "gum.conllu"), str(work / "gum.ua"),
                        "--to", "ua", "--drop-unsupported"], check=True,
                       stderr=subprocess.DEVNULL)
    for case in cases:
        response = work / f"response_{case.key}"
        if not case.synthetic and not response.exists():
            subprocess.run([sys.executable, str(HERE / "perturb_response.py"),
                            str(work / case.key), str(response), "--rate", "0.1", "--seed", "1"],
                           check=True)


def _busy() -> None:
    while True:
        pass


def case_parser(description: str) -> argparse.ArgumentParser:
    """The arguments of every script timing these cases: where the corpora and the cases'
    files are, how many rounds, which cases."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--shared", type=Path, default=HERE.parent.parent / "shared",
                        help="the shared folder holding corpora/ (default: ../shared)")
    parser.add_argument("--work", type=Path, default=None,
                        help="folder for the cases' files (default: a temporary folder)")
    parser.add_argument("--repeats", type=int, default=5, help="timed rounds (default: 5)")
    parser.add_argument("--case", action="append", choices=[case.name for case in CASES],
                        help="only these cases (repeatable; default: all)")
    parser.add_argument("--scale", type=float, default=10,
                        help="the synthetic cases' size in OntoNotes test sets (default: 10)")
    parser.add_argument("--no-synthetic", action="store_true",
                        help="only the real corpora (the synthetic corpus takes a minute or "
                             "two to write)")
    return parser


def prepared_cases(parser: argparse.ArgumentParser,
                   args: argparse.Namespace) -> tuple[list[str], Path, list[Case]]:
    """The anascore command, the folder holding every case's files (written there first when
    missing) and the cases asked for; a usage error when anascore is not installed or
    ``--repeats`` is below 1."""
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    anascore = anascore_command()
    if anascore is None:
        parser.error("anascore is not installed")
    work = args.work or Path(tempfile.mkdtemp(prefix="anascore-corpora-"))
    work.mkdir(parents=True, exist_ok=True)
    cases = [case for case in CASES if (not args.case or case.name in args.case)
             and not (args.no_synthetic and case.synthetic)]
    if not cases:
        parser.error("no case left to time")
    prepare(args.shared, work, anascore, cases, args.scale)
    return anascore, work, cases


def main(argv: Sequence[str] | None = None) -> int:
    parser = case_parser(__doc__.split("\n\n")[0])
    parser.add_argument("--busy", action="store_true",
                        help="keep one core busy with a CPU-bound neighbour while timing")
    parser.add_argument("--perl-scorer", type=Path, default=None,
                        help="the reference scorer's scorer.pl, timed on CoNLL-2012 cases")
    parser.add_argument("--coval", type=Path, default=None,
                        help="a CoVal checkout (its scorer.py), timed on CoNLL-2012 cases")
    args = parser.parse_args(argv)
    anascore, work, cases = prepared_cases(parser, args)
    commands: dict[tuple[str, str], Sequence[str]] = {}
    for case in cases:
        key, response = str(work / case.key), str(work / f"response_{case.key}")
        score = [*anascore, "score", key, response, "--metrics", "all", "--output", "json",
                 *case.options]
        commands[("floor", case.name)] = [sys.executable, "-c", BASELINE_PROGRAM, key, response]
        commands[("jobs 1", case.name)] = [*score, "--jobs", "1"]
        commands[("default", case.name)] = score
        if case.reference_scorers and args.perl_scorer:
            commands[("perl", case.name)] = ["perl", str(args.perl_scorer), "all", key,
                                            response, "none"]
        if case.reference_scorers and args.coval:
            commands[("coval", case.name)] = [sys.executable, str(args.coval / "scorer.py"),
                                             key, response]

    neighbour = None
    if args.busy:
        neighbour = multiprocessing.Process(target=_busy, daemon=True)
        neighbour.start()
    try:
        results = measure(commands, args.repeats)
    finally:
        if neighbour is not None:
            neighbour.terminate()
    print(render(results, cases, args, work))
    return 0


def render(results: Sequence[Result], cases: Sequence[Case], args: argparse.Namespace,
           work: Path | None = None) -> str:
    """A Markdown table: medians, ratios to the floor and peak memory against the size of one
    input file (the key), per case; below it, the targets on the synthetic corpus."""
    by = {(result.name, result.corpus): result for result in results}
    names = [name for name in ("jobs 1", "default", "perl", "coval")
             if any((name, case.name) in by for case in cases)]
    header = ["case", "floor (s)", *[f"{name} / floor" for name in names],
              "default / jobs 1", "jobs 1 / floor (CPU)", "key MB", "peak MB (jobs 1)",
              "peak MB (default)", "peak / key file"]
    rows = ["| " + " | ".join(header) + " |", "|---|" + "---:|" * (len(header) - 1)]
    verdicts = []
    for case in cases:
        floor = by[("floor", case.name)].median
        cells = [case.name, f"{floor:.3f}"]
        for name in names:
            result = by.get((name, case.name))
            cells.append(f"{result.median / floor:.2f}" if result else "")
        one, default = by[("jobs 1", case.name)], by[("default", case.name)]
        peak = max(one.peak_mb, default.peak_mb)
        size = (work / case.key).stat().st_size / 1e6 if work is not None else float("nan")
        cells += [f"{default.median / one.median:.2f}",
                  f"{one.median_cpu / by[('floor', case.name)].median_cpu:.2f}",
                  f"{size:.0f}", f"{one.peak_mb:.0f}",
                  f"{default.peak_mb:.0f}", f"{peak / size:.2f}"]
        rows.append("| " + " | ".join(cells) + " |")
        if case.synthetic:
            checks = ((f"one process ≤ {TARGET_ONE_PROCESS:g}× floor", one.median / floor,
                       TARGET_ONE_PROCESS),
                      (f"default ≤ {TARGET_DEFAULT:g}× floor", default.median / floor,
                       TARGET_DEFAULT),
                      ("peak memory < one input file", peak / size, 1.0))
            verdicts += [f"- {case.name}: {what}: {value:.2f} "
                         f"({'met' if value <= target else '**missed**'})"
                         for what, value, target in checks]
    spread = statistics.median(
        (max(r.seconds for r in result.runs) - min(r.seconds for r in result.runs))
        / result.median for result in results)
    rows.append("")
    neighbour = " with a busy neighbour" if args.busy else ""
    rows.append(f"Median of {args.repeats} interleaved runs{neighbour}; median relative spread "
                f"of a command's runs: {spread:.0%}. Ratios of median wall-clock times "
                "(the targets' measure), and of median CPU times for one process (steadier on "
                "a loaded machine); peak memory from os.wait4 (a run's largest process).")
    if verdicts:
        rows += ["", f"Targets on the synthetic corpus ({args.scale:g}× OntoNotes test):",
                 *verdicts]
    return "\n".join(rows)


if __name__ == "__main__":
    sys.exit(main())
