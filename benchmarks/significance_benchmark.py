"""How long confidence intervals and paired significance tests take on an OntoNotes-sized
comparison of several systems.

The issue's budget: 10,000 paired-bootstrap resamples, 5 systems, every identity metric
(mentions, MUC, B³, CEAFm, CEAFe, BLANC, LEA, and the CoNLL average), an OntoNotes-sized corpus
(348 documents): under 30 s on the 2-core development machine.

What is timed: the statistics alone, from the per-document count matrices a ``Report`` holds
(``anascore.stats``), which is all the tests ever touch. The count matrices are real: a
synthetic key of 348 documents (about 57 mentions in 13 entities per document, the shape of
the OntoNotes English test set) and 5 systems made from it with growing error rates (missed
and spurious mentions, split and merged entities, wrong links) are scored with anascore's own
per-document pipeline first (timed apart, as "counting").

With ``--write DIR`` the key and the responses are also written as CoNLL-2012 files, and the
whole command ``anascore score KEY R1 … R5 --paired-bs 10000`` is timed as a fresh process.

Usage::

    PYTHONPATH=src python benchmarks/significance_benchmark.py [--repeats 3] [--write DIR]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from anascore.config.options import Options
from anascore.core.model import Document, Entity, Mention
from anascore.report import Report
from anascore.scoring.document import count_document
from anascore.stats.bootstrap import confidence_intervals
from anascore.stats.significance import approximate_randomization, paired_bootstrap

DOCUMENTS = 348
MENTIONS_PER_DOCUMENT = 57
ENTITIES_PER_DOCUMENT = 13
TOKENS_PER_DOCUMENT = 490
#: Per system: (share of mentions missed, spurious mentions per key mention, share of entities
#: split, share merged into another, share of mentions linked to a wrong entity).
SYSTEM_ERRORS = (
    (0.10, 0.15, 0.15, 0.06, 0.05),
    (0.09, 0.14, 0.14, 0.06, 0.05),
    (0.12, 0.18, 0.18, 0.08, 0.07),
    (0.06, 0.10, 0.10, 0.04, 0.03),
    (0.10, 0.15, 0.15, 0.06, 0.05),
)


def synthetic_key(rng: random.Random, index: int) -> Document:
    """A document of single- to three-token mentions, none overlapping, in entities of 2 or
    more mentions (sizes skewed like OntoNotes: many pairs, a few long chains)."""
    slots = rng.sample(range(0, TOKENS_PER_DOCUMENT - 3, 4), MENTIONS_PER_DOCUMENT)
    spans = [(start, start + rng.choice((0, 0, 1, 2))) for start in sorted(slots)]
    weights = [1 / (rank + 1) for rank in range(ENTITIES_PER_DOCUMENT)]
    labels = list(range(ENTITIES_PER_DOCUMENT)) * 2
    labels += rng.choices(range(ENTITIES_PER_DOCUMENT), weights,
                          k=MENTIONS_PER_DOCUMENT - len(labels))
    rng.shuffle(labels)
    entities: dict[int, list[Mention]] = {}
    for (start, end), label in zip(spans, labels, strict=True):
        entities.setdefault(label, []).append(Mention.span(start, end))
    return Document(
        name=f"(bench/doc_{index:04d}); part 000",
        tokens=tuple(f"w{position}" for position in range(TOKENS_PER_DOCUMENT)),
        entities=tuple(Entity(str(label), tuple(mentions))
                       for label, mentions in sorted(entities.items())))


def synthetic_response(key: Document, rng: random.Random,
                       errors: tuple[float, float, float, float, float]) -> Document:
    """``key`` with the given error rates (see :data:`SYSTEM_ERRORS`)."""
    missed, spurious, split, merged, relinked = errors
    clusters = [[mention for mention in entity.mentions if rng.random() >= missed]
                for entity in key.entities]
    for cluster in list(clusters):
        if len(cluster) >= 4 and rng.random() < split:
            cut = rng.randrange(2, len(cluster) - 1)
            clusters.append(cluster[cut:])
            del cluster[cut:]
    for position, cluster in enumerate(clusters):
        if cluster and rng.random() < merged:
            other = rng.randrange(len(clusters))
            if other != position:
                clusters[other].extend(cluster)
                cluster.clear()
    for cluster in clusters:
        for mention in list(cluster):
            if rng.random() < relinked and len(clusters) > 1:
                cluster.remove(mention)
                rng.choice(clusters).append(mention)
    used = {token for cluster in clusters for mention in cluster for token in mention.tokens}
    free = [start for start in range(1, TOKENS_PER_DOCUMENT - 1, 4) if start not in used
            and start + 1 not in used]
    extra = [Mention.span(start, start) for start in
             rng.sample(free, min(len(free), round(spurious * MENTIONS_PER_DOCUMENT)))]
    for mention in extra:
        if rng.random() < 0.7 or not clusters:
            clusters.append([mention])
        else:
            rng.choice(clusters).append(mention)
    return Document(key.name, key.tokens,
                    tuple(Entity(str(number), tuple(cluster))
                          for number, cluster in enumerate(clusters) if cluster))


def corpus(seed: int, documents: int = DOCUMENTS) -> tuple[list[Document], list[list[Document]]]:
    rng = random.Random(seed)
    keys = [synthetic_key(rng, index) for index in range(documents)]
    responses = [[synthetic_response(key, rng, errors) for key in keys]
                 for errors in SYSTEM_ERRORS]
    return keys, responses


def timed(function: Callable[[], object], repeats: int) -> tuple[float, float]:
    """Median and fastest wall-clock seconds of ``repeats`` runs."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--resamples", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--documents", type=int, default=DOCUMENTS,
                        help=f"documents in the synthetic corpus (default {DOCUMENTS})")
    parser.add_argument("--write", metavar="DIR",
                        help="also write the CoNLL files there and time the whole command")
    arguments = parser.parse_args(argv)

    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}, numpy {np.__version__}")
    keys, responses = corpus(arguments.seed, arguments.documents)
    options = Options()
    start = time.perf_counter()
    reports = [Report.from_records(options, [key.name for key in keys],
                                   [count_document(key, response, options, [])
                                    for key, response in zip(keys, system, strict=True)])
               for system in responses]
    counting = time.perf_counter() - start
    count_sets = [report.counts for report in reports]
    names = [f"system{index + 1}" for index in range(len(reports))]
    mentions = sum(len(entity.mentions) for key in keys for entity in key.entities)
    print(f"corpus: {len(keys)} documents, {mentions} key mentions, {len(reports)} systems; "
          f"counting every document of every system: {counting:.2f} s")
    for name, report in zip(names, reports, strict=True):
        print(f"  {name}: CoNLL F1 {report.metrics['conll'].f1 * 100:.2f}, LEA F1 "
              f"{report.metrics['lea'].f1 * 100:.2f}")

    # the metrics a default run reports (the identity metrics and CoNLL): every name in
    # METRIC_NAMES would ask for metrics that were never counted (mor, zero, the layers)
    metrics = options.reported_metrics
    count = arguments.resamples
    rows = [
        (f"paired bootstrap, {count} resamples, {len(reports)} systems",
         lambda: paired_bootstrap(count_sets, metrics, names, resamples=count)),
        (f"approximate randomization, {count} trials, {len(reports)} systems",
         lambda: approximate_randomization(count_sets, metrics, names, trials=count)),
        (f"confidence intervals, {count} resamples, {len(reports)} systems",
         lambda: confidence_intervals(count_sets, metrics, resamples=count)),
    ]
    print(f"\nstatistics on the count matrices (median / fastest of {arguments.repeats}):")
    for label, function in rows:
        median, fastest = timed(function, arguments.repeats)
        budget = "  (budget 30 s)" if label.startswith("paired bootstrap") else ""
        print(f"  {label:<60} {median:6.2f} s / {fastest:6.2f} s{budget}")
    results = paired_bootstrap(count_sets, metrics, names, resamples=count)
    print("\npaired bootstrap p-values against system1 (CoNLL, LEA):")
    for system in results:
        print(f"  {system['conll'].system}: ΔCoNLL {system['conll'].delta * 100:+.2f} "
              f"p={system['conll'].p_value:.4f}; ΔLEA {system['lea'].delta * 100:+.2f} "
              f"p={system['lea'].p_value:.4f}")

    if arguments.write:
        from anascore.formats.conll2012 import write_conll2012

        folder = Path(arguments.write)
        folder.mkdir(parents=True, exist_ok=True)
        write_conll2012(keys, folder / "key.conll")
        paths = []
        for index, system in enumerate(responses, start=1):
            path = folder / f"system{index}.conll"
            write_conll2012(system, path)
            paths.append(str(path))
        command = [sys.executable, "-m", "anascore", "score", str(folder / "key.conll"),
                   *paths, "--paired-bs", str(count), "--no-progress"]
        median, fastest = timed(lambda: subprocess.run(command, check=True,
                                                       capture_output=True), arguments.repeats)
        print(f"\nwhole command (read 6 files, count, test; fresh process): {median:.2f} s / "
              f"{fastest:.2f} s\n  {' '.join(command[1:])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
