"""The benchmark scripts the README tells users to run start and finish (on a small corpus)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.support.paths import CORPORA, EXAMPLES, ROOT

BENCHMARKS = ROOT / "benchmarks"


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


def _time_budget():
    """benchmarks/time_budget.py, imported."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        import time_budget
    finally:
        sys.path.remove(str(BENCHMARKS))
    return time_budget


@pytest.mark.skipif(not (BENCHMARKS / "time_budget.py").exists(),
                    reason="benchmarks/ not beside tests/")
def test_the_time_budget_wrapper_times_the_counting_of_a_real_run(tmp_path) -> None:
    # The wrapper replaces anascore.scoring.pipeline.count_key_document by name: a rename would
    # leave
    # the counting phase at 0 and charge it all to reading.
    time_budget = _time_budget()
    examples = EXAMPLES
    phases = tmp_path / "phases.json"
    result = subprocess.run(
        [sys.executable, "-c", time_budget.PHASES_PROGRAM, str(phases), "score",
         str(examples / "key.conll"), str(examples / "response.conll"), "--jobs", "1",
         "--output", "json"], capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    assert '"conll"' in result.stdout
    measured = json.loads(phases.read_text())
    assert measured["status"] == 0
    assert 0 < measured["imports"] < measured["inside"]
    assert 0 < measured["counting"] < measured["inside"] - measured["imports"]


@pytest.mark.skipif(not (BENCHMARKS / "time_budget.py").exists(),
                    reason="benchmarks/ not beside tests/")
def test_the_time_budget_table_adds_up() -> None:
    time_budget = _time_budget()
    # floor 0.2 s of which the interpreter 0.02 s: 0.18 s of reading; the run: 1.0 s wall,
    # 0.9 s inside the wrapper's clock, 0.1 s of it imports, 0.3 s counting.
    samples = {("python", "c"): [{"wall": 0.02}], ("floor", "c"): [{"wall": 0.2}],
               ("run", "c"): [{"wall": 1.0, "inside": 0.9, "imports": 0.1, "counting": 0.3}]}
    row = time_budget.render(samples, ["c"], 1).splitlines()[2]
    # start and imports 0.1 + 0.1; the rest 0.9 - 0.1 - 0.3; left 0.6 - 0.2 - 0.3;
    # bound (0.2 + 0.3 + 0.18) / 0.2
    assert row == ("| c | 0.200 | 0.600 | 0.200 | 0.300 | 0.500 | 5.00 | 0.100 | 0.180 "
                   "| 3.40 | - | - |")
    # the least reader beside it: 0.38 s, 0.36 s of reading, twice the floor's 0.18 s; the run
    # with a reader as fast: (0.2 + 0.3 + 0.36) / 0.2
    samples[("least", "c")] = [{"wall": 0.38}]
    row = time_budget.render(samples, ["c"], 1).splitlines()[2]
    assert row.endswith("| 3.40 | 2.00 | 4.30 |"), row


@pytest.mark.skipif(not (BENCHMARKS / "least_reader.py").exists(),
                    reason="benchmarks/ not beside tests/")
def test_the_least_reader_finds_the_tokens_and_mentions_anascore_reads(tmp_path) -> None:
    # A lower bound on reading is only one if it does the work every reader must: the same
    # word forms and mentions as anascore's readers, in each format of the scale cases.
    import random

    from anascore.cli.main import main
    from anascore.formats import read_documents

    sys.path.insert(0, str(BENCHMARKS))
    try:
        import generate_corpus
        import least_reader
    finally:
        sys.path.remove(str(BENCHMARKS))
    rng = random.Random(11)
    documents = generate_corpus.ontonotes_corpus(
        rng, generate_corpus.ResponseErrors(), parts=4, tokens=2_000, mentions=300,
        entities=70)
    key, response = tmp_path / "key.conll", tmp_path / "response.conll"
    generate_corpus.write_pair(rng, documents, key, response)
    for suffix, to in (("conllu", "corefud"), ("ua", "ua")):
        assert main(["convert", str(key), str(tmp_path / f"key.{suffix}"), "--to", to]) == 0
    for path in (key, tmp_path / "key.conllu", tmp_path / "key.ua"):
        read = list(read_documents(path, "auto"))
        expected = (sum(len(document.tokens) for document in read),
                    sum(len(entity.mentions) for document in read
                        for entity in document.entities))
        assert expected[1] > 250
        assert least_reader.read(str(path)) == expected, path


@pytest.mark.skipif(not (BENCHMARKS / "crossdoc_benchmark.py").exists(),
                    reason="benchmarks/ not beside tests/")
def test_the_crossdoc_corpus_has_wec_eng_train_size_and_levels_equal_the_written_units(
        tmp_path) -> None:
    """40,529 mentions in 7,042 chains; the per-document file at corpus (topic) level scores
    as the file written one meta-document (one document per topic) does, every metric."""
    import anascore

    sys.path.insert(0, str(BENCHMARKS))
    try:
        import crossdoc_benchmark
    finally:
        sys.path.remove(str(BENCHMARKS))
    key, response = crossdoc_benchmark.corpus(2021)
    assert len(key) == len(response) == 40_529
    assert len({chain for _, _, chain in key}) == 7_042
    written = crossdoc_benchmark.files(tmp_path, 2021)[64]
    by_document = written["document"]
    for level, pattern in (("corpus", None), ("topic", crossdoc_benchmark.TOPIC_PATTERN)):
        joined = anascore.score(*by_document, level=level, topic_pattern=pattern)
        units = anascore.score(*written[level])
        assert len(joined.document_names) == len(units.document_names) > 0
        for name, result in units.metrics.items():
            assert joined.metrics[name] == result, (level, name)


@pytest.mark.skipif(not (BENCHMARKS / "crossdoc_benchmark.py").exists(),
                    reason="benchmarks/ not beside tests/")
def test_the_crossdoc_benchmark_prints_its_table(tmp_path) -> None:
    result = subprocess.run(
        [sys.executable, str(BENCHMARKS / "crossdoc_benchmark.py"), "--fractions", "64,32",
         "--repeats", "1", "--work", str(tmp_path)],
        capture_output=True, text=True, timeout=600, check=False)
    assert result.returncode == 0, result.stderr
    rows = [line for line in result.stdout.splitlines() if line.startswith("| corpus")
            or line.startswith("| topic")]
    assert len(rows) == 4 and all("not run" in row for row in rows), result.stdout


@pytest.mark.skipif(not (BENCHMARKS / "corpora_benchmark.py").exists(),
                    reason="benchmarks/ not beside tests/")
def test_the_corpora_benchmark_prints_the_scale_table_and_its_targets(tmp_path) -> None:
    # The table: one process and default against the floor, per format of the
    # synthetic corpus (here a twentieth of OntoNotes-test size), peak memory against one
    # input file's size, and the targets met or missed.
    result = subprocess.run(
        [sys.executable, str(BENCHMARKS / "corpora_benchmark.py"), "--scale", "0.05",
         "--case", "scale-conll", "--case", "scale-corefud", "--case", "scale-ua",
         "--repeats", "1", "--work", str(tmp_path)],
        capture_output=True, text=True, timeout=600, check=False)
    assert result.returncode == 0, result.stderr
    assert ("| case | floor (s) | jobs 1 / floor | default / floor | default / jobs 1 | "
            "jobs 1 / floor (CPU) | key MB |") in result.stdout
    rows = [line for line in result.stdout.splitlines() if line.startswith("| scale-")]
    assert [row.split(" | ")[0] for row in rows] == ["| scale-conll", "| scale-corefud",
                                                     "| scale-ua"]
    for row in rows:
        cells = row.strip("| ").split(" | ")
        assert float(cells[2]) > 1 and float(cells[3]) > 1, row  # slower than the floor
    targets = [line for line in result.stdout.splitlines() if line.startswith("- scale-")]
    assert len(targets) == 9 and all(line.endswith(("(met)", "(**missed**)"))
                                      for line in targets), result.stdout
    # The three formats hold the same documents and mentions.
    import anascore

    scores = {suffix: anascore.score(tmp_path / f"scale.{suffix}",
                                     tmp_path / f"response_scale.{suffix}").metrics["muc"].f1
              for suffix in ("conll", "conllu", "ua")}
    assert len(set(scores.values())) == 1 and 0 < scores["conll"] < 1, scores


SHARED = CORPORA


@pytest.mark.skipif(not (BENCHMARKS / "training_benchmark.py").exists()
                    or not (SHARED / "litbank" / "coref-conll").is_dir(),
                    reason="benchmarks/ not beside tests/, or no LitBank in ../shared")
def test_the_training_benchmark_prints_its_ratios() -> None:
    result = subprocess.run(
        [sys.executable, str(BENCHMARKS / "training_benchmark.py"), "--shared",
         str(SHARED.parent), "--documents", "3", "--repeats", "1"],
        capture_output=True, text=True, timeout=600, check=False)
    assert result.returncode == 0, result.stderr
    rows = {line.split(" | ")[0][2:]: line.strip("| ").split(" | ")
            for line in result.stdout.splitlines() if line.startswith("| ") and "---" not in line}
    assert {"anascore (e2e's three)", "anascore (default)"} <= set(rows)
    # The same clusters give anascore's evaluators the same CoNLL F1.
    assert rows["anascore (e2e's three)"][3] == rows["anascore (default)"][3]
    assert "litbank: 3 documents" in result.stdout
