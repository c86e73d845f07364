"""Cross-document scale (issue 25): a WEC-Eng-train-sized corpus scored as one meta-document
and at topic level, anascore beside the Perl reference scorer.

The corpus (mention-based CoNLL, one line ``DOC<TAB>(CHAIN)`` per mention, as Barhom et al.
and WEC-Eng write their keys; deterministic for ``--seed``; written to ``--work`` or a
temporary folder, never into the repository) has WEC-Eng train's size — 40,529 mentions in
7,042 chains (Eirew et al. 2021, Table 2) — with a long tail of chain sizes (most chains a
few mentions, the largest several hundred, as WEC's), spread over ``TOPICS`` topics of
documents of a few mentions each; a chain stays within its topic. The response is the key
perturbed within each topic: a tenth of the mentions moved to another chain of their topic, a
twentieth split off alone, a twentieth of the chains merged into another.

Cases: the corpus cut to 1/64, 1/32, … 1/2 and all of its topics, each scored

* by ``anascore score KEY RESPONSE --level corpus`` on the file of one document per ECB-style
  document (the meta-document made by anascore), and by the Perl scorer on the same mentions
  written as one meta-document (``scorer.pl all KEY RESPONSE none``);
* at topic level: ``anascore … --level topic --topic-pattern '^T(\\d+)_'``, and the Perl scorer
  on one ``#begin document`` per topic.

Timed as whole processes, interleaved, after one warm-up, with ``--repeats`` rounds; the
median wall-clock and CPU seconds (on a shared machine another process's load stretches the
wall clock but hardly the CPU time), anascore's growth from one size to the next (its
exponent: 1 is linear) and the ratio Perl / anascore of CPU time. The Perl scorer's CEAF (a
Munkres assignment over every pair of chains of a unit) grows with the cube of the unit's
chains: once its warm-up takes more than ``--perl-budget`` CPU seconds, that run is its only
one at that size (the table says ``1 run``), and the larger sizes of that level are not run.

    python benchmarks/crossdoc_benchmark.py --perl PATH/scorer.pl [--work DIR] [--repeats 3]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from run_benchmarks import Run, anascore_command, run_once  # noqa: E402

MENTIONS = 40_529
CHAINS = 7_042
TOPICS = 512
MENTIONS_PER_DOCUMENT = 5
FRACTIONS = (64, 32, 16, 8, 4, 2, 1)
TOPIC_PATTERN = r"^T(\d+)_"

#: One mention: its topic, document and chain.
Mention = tuple[int, str, str]


def chain_sizes(rng: random.Random, chains: int, mentions: int) -> list[int]:
    """``chains`` sizes of at least 1 summing to ``mentions``, with a long tail (a Pareto
    draw with shape 1.3, scaled)."""
    draws = [rng.paretovariate(1.3) for _ in range(chains)]
    scale = (mentions - chains) / sum(draws)
    sizes = [1 + int(draw * scale) for draw in draws]
    for _ in range(mentions - sum(sizes)):
        sizes[rng.randrange(chains)] += 1
    return sizes


def corpus(seed: int) -> tuple[list[Mention], list[Mention]]:
    """The key's and the response's mentions, in file order (by topic, then document)."""
    rng = random.Random(seed)
    sizes = chain_sizes(rng, CHAINS, MENTIONS)
    by_topic: dict[int, list[str]] = {topic: [] for topic in range(TOPICS)}
    for number, size in enumerate(sizes):
        by_topic[rng.randrange(TOPICS)].extend([f"C{number}"] * size)
    key: list[Mention] = []
    for topic, chains in by_topic.items():
        rng.shuffle(chains)
        documents = max(1, len(chains) // MENTIONS_PER_DOCUMENT)
        placed = sorted((rng.randrange(documents), chain) for chain in chains)
        key.extend((topic, f"T{topic}_{document}", chain) for document, chain in placed)
    topic_chains: dict[int, list[str]] = {}
    for topic, _, chain in key:
        topic_chains.setdefault(topic, []).append(chain)
    merged = {chain: rng.choice(chains) for chains in topic_chains.values()
              for chain in set(chains) if rng.random() < 0.05}
    response: list[Mention] = []
    for number, (topic, document, chain) in enumerate(key):
        draw = rng.random()
        if draw < 0.05:
            chain = f"S{number}"
        elif draw < 0.15:
            chain = rng.choice(topic_chains[topic])
        response.append((topic, document, merged.get(chain, chain)))
    return key, response


def write(path: Path, mentions: Sequence[Mention], unit: str,
          numbers: dict[str, int]) -> None:
    """Mention-based CoNLL with one ``#begin document`` per ``unit`` (``document``, ``topic``
    or ``corpus``) and chains as numbers (the Perl scorer reads numeric IDs only)."""
    lines: list[str] = []
    current = None
    for topic, document, chain in mentions:
        name = {"document": document, "topic": f"T{topic}", "corpus": "corpus"}[unit]
        if name != current:
            if current is not None:
                lines.append("#end document")
            lines.append(f"#begin document ({name}); part 000")
            current = name
        lines.append(f"{document}\t({numbers.setdefault(chain, len(numbers))})")
    lines.append("#end document")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def files(work: Path, seed: int) -> dict[int, dict[str, tuple[Path, Path]]]:
    """Each fraction's key and response files, by unit of the files."""
    key, response = corpus(seed)
    written: dict[int, dict[str, tuple[Path, Path]]] = {}
    for fraction in FRACTIONS:
        topics = TOPICS // fraction
        parts = ([m for m in key if m[0] < topics], [m for m in response if m[0] < topics])
        written[fraction] = {}
        for unit in ("document", "topic", "corpus"):
            paths = (work / f"x{fraction}_{unit}.key", work / f"x{fraction}_{unit}.response")
            numbers: dict[str, int] = {}
            for path, mentions in zip(paths, parts, strict=True):
                write(path, mentions, unit, numbers)
            written[fraction][unit] = paths
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--perl", type=Path, default=None,
                        help="the reference scorer's scorer.pl (left out: anascore alone)")
    parser.add_argument("--work", type=Path, default=None)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2021)
    parser.add_argument("--fractions", default=",".join(map(str, FRACTIONS)),
                        help="the sizes, as 1/N of the topics (default: %(default)s)")
    parser.add_argument("--perl-budget", type=float, default=60.0,
                        help="CPU seconds a Perl warm-up may take before larger sizes of its "
                             "level are not run (default: %(default)s)")
    arguments = parser.parse_args(argv)
    anascore = anascore_command()
    if anascore is None:
        print("anascore cannot be started", file=sys.stderr)
        return 1
    fractions = [int(part) for part in arguments.fractions.split(",")]
    with tempfile.TemporaryDirectory() as temporary:
        work = arguments.work or Path(temporary)
        work.mkdir(parents=True, exist_ok=True)
        written = files(work, arguments.seed)
        rows = []
        perl_skipped: set[str] = set()
        for fraction in fractions:
            size = sum(1 for line in written[fraction]["corpus"][0].open(encoding="utf-8")
                       if not line.startswith("#"))
            for level in ("corpus", "topic"):
                key, response = written[fraction]["document"]
                ours = [*anascore, "score", str(key), str(response), "--level", level,
                        "--jobs", "1", "--quiet"]
                if level == "topic":
                    ours += ["--topic-pattern", TOPIC_PATTERN]
                commands = {"anascore": ours}
                if arguments.perl is not None and level not in perl_skipped:
                    perl_key, perl_response = written[fraction][level]
                    commands["perl"] = ["perl", str(arguments.perl), "all", str(perl_key),
                                        str(perl_response), "none"]
                runs: dict[str, list[Run]] = {name: [] for name in commands}
                for name, command in list(commands.items()):
                    warm = run_once(command)  # a failure is an error naming the command
                    if name == "perl" and warm.cpu_seconds > arguments.perl_budget:
                        # Over the budget: this run is its only one, and the larger sizes
                        # of this level are not run.
                        perl_skipped.add(level)
                        runs[name].append(warm)
                        del commands[name]
                for _ in range(arguments.repeats):
                    for name, command in commands.items():
                        runs[name].append(run_once(command))
                medians = {name: (statistics.median(run.seconds for run in found),
                                  statistics.median(run.cpu_seconds for run in found))
                           for name, found in runs.items()}
                rows.append((level, size, medians, {name: len(found)
                                                    for name, found in runs.items()}))
                print(f"{level} 1/{fraction}: {size} mentions: "
                      + ", ".join(f"{name} {wall:.2f} s ({cpu:.2f} s CPU)"
                                  for name, (wall, cpu) in medians.items()), file=sys.stderr)
        print(render(rows))
    return 0


def render(rows: Sequence[tuple[str, int, dict[str, tuple[float, float]], dict[str, int]]]
           ) -> str:
    """The Markdown table of the README: median wall-clock and CPU seconds, anascore's growth
    exponent (CPU, from the size before: 1 is linear) and the ratio Perl / anascore (CPU)."""
    lines = ["| level | mentions | anascore wall (s) | anascore CPU (s) | growth exponent | "
             "Perl wall (s) | Perl CPU (s) | Perl / anascore (CPU) |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    previous: dict[str, tuple[int, float]] = {}
    for level, size, medians, counted in rows:
        wall, cpu = medians["anascore"]
        growth = ""
        if level in previous:
            size_before, cpu_before = previous[level]
            growth = f"{math.log(cpu / cpu_before) / math.log(size / size_before):.2f}"
        previous[level] = (size, cpu)
        perl = medians.get("perl")
        once = " (1 run)" if counted.get("perl") == 1 else ""
        lines.append(f"| {level} | {size:,} | {wall:.2f} | {cpu:.2f} | {growth} | "
                     + (f"{perl[0]:.2f}{once} | {perl[1]:.2f}{once} | {perl[1] / cpu:.1f} |"
                        if perl is not None else "not run | | |"))
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
