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
