"""How anascore's time and memory grow: a PreCo-train-sized corpus and a BookCoref-sized
document, side by side with the read-and-split floor.

Cases (synthetic CoNLL-2012 from ``generate_corpus.py``, deterministic for ``--seed``, written
to ``--work`` or a temporary folder, never into the repository):

- ``corpus x1``: a tenth of PreCo's training set — 3,612 documents of about 338 tokens,
  1.22 M tokens, about 380,000 key mentions (PreCo's density: many singletons);
- ``corpus x10``: the same documents ten times over under other names — 36,120 documents,
  12.2 M tokens, about 3.8 M mentions: PreCo train;
- ``document N``: one document of N = 1,000, 5,000, 20,000 and 50,000 key mentions at
  OntoNotes' density (the 50,000 one has 431,000 tokens: BookCoref-sized).

Each is scored by ``anascore score KEY RESPONSE`` with ``--jobs 1`` and with the default
(``--jobs 0``), every default metric (CEAF's assignment and BLANC included), timed as whole
processes, interleaved with the floor (a bare ``python`` that reads both files and splits
their lines), after one warm-up; reported are medians, peak memory (``os.wait4``), ratios to
the floor and the growth from one size to the next.

    python benchmarks/scale_benchmark.py --work /tmp/anascore-scale [--repeats 3] [--skip-corpus]
"""

from __future__ import annotations

import argparse
import random
import re
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import generate_corpus  # noqa: E402
from run_benchmarks import BASELINE_PROGRAM, Result, anascore_command, measure  # noqa: E402

PRECO_DOCUMENTS = 36_120
PRECO_TOKENS = 12_200_000
PRECO_MENTIONS = 3_800_000
PRECO_ENTITIES = 1_600_000  # PreCo keeps singletons: about 2.4 mentions per entity
SCALE = 10
DOCUMENT_MENTIONS = (1_000, 5_000, 20_000, 50_000)
_BEGIN = re.compile(r"^#begin document \((.*)\); part (\d+)$", re.M)


def write_corpus(work: Path, seed: int) -> tuple[dict[str, tuple[Path, Path]], dict[str, str]]:
    """The corpus files (x1 and x10) and their descriptions."""
    files: dict[str, tuple[Path, Path]] = {}
    described: dict[str, str] = {}
    one = (work / "corpus_x1_key.conll", work / "corpus_x1_response.conll")
    ten = (work / "corpus_x10_key.conll", work / "corpus_x10_response.conll")
    if not all(path.exists() for path in (*one, *ten)):
        rng = random.Random(seed)
        documents = generate_corpus.ontonotes_corpus(
            rng, generate_corpus.ResponseErrors(), parts=PRECO_DOCUMENTS // SCALE,
            tokens=PRECO_TOKENS // SCALE, mentions=PRECO_MENTIONS // SCALE,
            entities=PRECO_ENTITIES // SCALE)
        generate_corpus.write_pair(rng, documents, *one)
        for source, target in zip(one, ten, strict=True):
            text = source.read_text(encoding="utf-8")
            with target.open("w", encoding="utf-8") as out:
                for copy in range(SCALE):
                    out.write(_BEGIN.sub(lambda found, copy=copy:
                                         f"#begin document ({found.group(1)}_{copy}); part "
                                         f"{found.group(2)}", text))
    files["corpus x1"], files["corpus x10"] = one, ten
    described["corpus x1"] = _describe(one[0])
    described["corpus x10"] = _describe(ten[0])
    return files, described


def write_documents(work: Path, seed: int) -> tuple[dict[str, tuple[Path, Path]],
                                                     dict[str, str]]:
    files: dict[str, tuple[Path, Path]] = {}
    described: dict[str, str] = {}
    for mentions in DOCUMENT_MENTIONS:
        pair = (work / f"document_{mentions}_key.conll",
                work / f"document_{mentions}_response.conll")
        if not all(path.exists() for path in pair):
            rng = random.Random(seed + mentions)
            document = generate_corpus.single_document(rng, generate_corpus.ResponseErrors(),
                                                       mentions)
            generate_corpus.write_pair(rng, [document], *pair)
        files[f"document {mentions}"] = pair
        described[f"document {mentions}"] = _describe(pair[0])
    return files, described


def _describe(key: Path) -> str:
    """Documents, tokens and key mentions of a CoNLL-2012 file (counted from the file)."""
    documents = tokens = mentions = 0
    with key.open(encoding="utf-8") as lines:
        for line in lines:
            if line.startswith("#begin"):
                documents += 1
            elif line.strip() and not line.startswith("#"):
                tokens += 1
                mentions += line.rsplit(None, 1)[-1].count("(")
    return f"{documents:,} documents, {tokens:,} tokens, {mentions:,} key mentions"


def render(results: Sequence[Result], described: dict[str, str], cases: Sequence[str]) -> str:
    by = {(result.name, result.corpus): result for result in results}
    rows = ["| case | size | floor (s) | --jobs 1 (s) | default (s) | --jobs 1 / floor | "
            "peak MB (--jobs 1) | peak MB (default) |", "|---|---|---:|---:|---:|---:|---:|---:|"]
    for case in cases:
        floor, one, default = (by[(name, case)] for name in ("floor", "jobs 1", "default"))
        rows.append(f"| {case} | {described[case]} | {floor.median:.2f} | {one.median:.2f} | "
                    f"{default.median:.2f} | {one.median / floor.median:.1f} | "
                    f"{one.peak_mb:.0f} | {default.peak_mb:.0f} |")
    growth = []
    steps = [(a, b) for a, b in pairwise(cases)
             if a.split()[0] == b.split()[0]]
    for small, large in steps:
        one_small, one_large = by[("jobs 1", small)], by[("jobs 1", large)]
        floor_small, floor_large = by[("floor", small)], by[("floor", large)]
        growth.append(f"| {small} → {large} | {floor_large.median / floor_small.median:.1f} | "
                      f"{one_large.median / one_small.median:.1f} | "
                      f"{one_large.peak_mb / one_small.peak_mb:.2f} |")
    if growth:
        rows += ["", "| growth | floor time | --jobs 1 time | --jobs 1 peak memory |",
                 "|---|---:|---:|---:|", *growth]
    return "\n".join(rows)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", type=Path, default=None,
                        help="folder for the generated files (default: a temporary folder)")
    parser.add_argument("--seed", type=int, default=2012)
    parser.add_argument("--repeats", type=int, default=3, help="timed rounds (default: 3)")
    parser.add_argument("--skip-corpus", action="store_true",
                        help="only the single documents (the corpus takes minutes to write)")
    parser.add_argument("--generate-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    anascore = anascore_command()
    if anascore is None:
        parser.error("anascore is not installed")
    work = args.work or Path(tempfile.mkdtemp(prefix="anascore-scale-"))
    work.mkdir(parents=True, exist_ok=True)
    if not args.generate_only:
        # Generate in a process of its own: Linux keeps a process's peak memory across
        # fork and exec, so every command timed from a parent that built the corpus in memory
        # would report that parent's peak as its own.
        subprocess.run([sys.executable, __file__, "--generate-only", "--work", str(work),
                        "--seed", str(args.seed), *(["--skip-corpus"] if args.skip_corpus
                                                     else [])], check=True)
    files, described = write_documents(work, args.seed)
    if not args.skip_corpus:
        corpus, corpus_described = write_corpus(work, args.seed)
        files.update(corpus)
        described.update(corpus_described)
    if args.generate_only:
        return 0
    commands: dict[tuple[str, str], Sequence[str]] = {}
    for case, (key, response) in files.items():
        commands[("floor", case)] = [sys.executable, "-c", BASELINE_PROGRAM, str(key),
                                     str(response)]
        commands[("jobs 1", case)] = [*anascore, "score", str(key), str(response),
                                      "--jobs", "1"]
        commands[("default", case)] = [*anascore, "score", str(key), str(response)]
    results = measure(commands, args.repeats)
    print(render(results, described, list(files)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
