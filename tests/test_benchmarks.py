"""The benchmark scripts the README tells users to run start and finish (on a small corpus)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.mark.skipif(not (BENCHMARKS / "significance_benchmark.py").exists(),
                    reason="benchmarks/ not beside tests/")
def test_significance_benchmark_runs_on_a_small_corpus() -> None:
    # it used to stop with KeyError: 'mor', asking the tests for metrics never counted
    result = subprocess.run(
        [sys.executable, str(BENCHMARKS / "significance_benchmark.py"), "--documents", "12",
         "--repeats", "1", "--resamples", "40"],
        capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr
    assert "corpus: 12 documents" in result.stdout
    assert "paired bootstrap p-values against system1 (CoNLL, LEA):" in result.stdout
    assert result.stdout.count("ΔCoNLL") == 4


@pytest.mark.skipif(not (BENCHMARKS / "generate_corpus.py").exists(),
                    reason="benchmarks/ not beside tests/")
def test_the_generated_corpus_is_read_and_scored(tmp_path) -> None:
    # Its documents have OntoNotes' layout, with sentences of different widths (a
    # predicate-argument column per predicate): a reader checking widths per document refused
    # them, and every benchmark on it.
    import random

    import anascore

    sys.path.insert(0, str(BENCHMARKS))
    try:
        import generate_corpus
    finally:
        sys.path.remove(str(BENCHMARKS))
    rng = random.Random(7)
    documents = generate_corpus.ontonotes_corpus(
        rng, generate_corpus.ResponseErrors(), parts=6, tokens=3_000, mentions=400,
        entities=90)
    key, response = tmp_path / "key.conll", tmp_path / "response.conll"
    generate_corpus.write_pair(rng, documents, key, response)
    widths = {len(line.split("\t")) for line in key.read_text().splitlines()
              if line and not line.startswith("#")}
    assert len(widths) > 1
    report = anascore.score(key, response)
    assert len(report.document_names) == 6
    assert 0 < report.metrics["muc"].f1 < 1
