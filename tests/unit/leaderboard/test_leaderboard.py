"""``anascore evaluate``: the combined score is the mean (or micro sum) of single-dataset runs;
no permutation of datasets, systems or documents changes a number; the statistics equal a
plain-Python reimplementation, and the intervals cover as they claim."""

from __future__ import annotations

import math
import random
import zlib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import anascore
from anascore.config.options import Options
from anascore.core.errors import OptionsError
from anascore.formats.conll2012 import write_conll2012
from anascore.leaderboard import evaluate, read_task
from anascore.leaderboard.manifest import Dataset, System, Task
from anascore.leaderboard.ranking import rank_systems
from anascore.leaderboard.render import LEADERBOARD_OUTPUTS, render_leaderboard
from anascore.report import Report
from anascore.stats.bootstrap import resample_weights
from tests.support.strategies import document_pairs, to_document, without_crossing

CONLL = ("muc", "bcub", "ceafe")


def write_dataset(folder: Path, name: str, pairs, systems: dict[str, list[int]]) -> None:
    """``name``'s key and, for each system, a response: document ``i`` of system ``s`` is
    the key's (index 0 of ``pairs[i]``) or its response (index 1), as ``systems[s][i]``."""
    documents = [(without_crossing(key), without_crossing(response), tokens)
                 for key, response, tokens in pairs]
    write_conll2012([to_document(key, tokens, f"({name}{index}); part 000")
                     for index, (key, _, tokens) in enumerate(documents)],
                    folder / f"{name}.key")
    for system, choices in systems.items():
        write_conll2012([to_document(document[choice], document[2],
                                     f"({name}{index}); part 000")
                         for index, (document, choice) in enumerate(
                             zip(documents, choices, strict=True))],
                        folder / f"{system}.{name}")


def manifest(folder: Path, datasets: list[str], systems: list[str], *, combine="macro",
             resamples=200, weights=None, extra="") -> Path:
    lines = [f'combine = "{combine}"', f"resamples = {resamples}", extra]
    for dataset in datasets:
        weight = f"\nweight = {weights[dataset]}" if weights else ""
        lines.append(f'[[datasets]]\nname = "{dataset}"\nkey = "{dataset}.key"{weight}')
    for system in systems:
        lines.append(f'[[systems]]\nname = "{system}"\nresponses = "{system}.{{dataset}}"')
    path = folder / "task.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


datasets_strategy = st.lists(st.lists(document_pairs(), min_size=1, max_size=3),
                             min_size=2, max_size=3)


@settings(max_examples=5, deadline=None)
@given(datasets_strategy, st.randoms(use_true_random=False))
def test_combined_score_is_the_mean_or_micro_sum_of_single_runs(tmp_path_factory, datasets,
                                                                 rng):
    folder = tmp_path_factory.mktemp("task")
    names = [f"set{index}" for index in range(len(datasets))]
    for name, pairs in zip(names, datasets, strict=True):
        write_dataset(folder, name, pairs, {"a": [rng.randint(0, 1) for _ in pairs],
                                            "b": [1] * len(pairs)})
    weights = {name: index + 1 for index, name in enumerate(names)}
    board = evaluate(manifest(folder, names, ["a", "b"], resamples=0, weights=weights))
    for standing in board.standings:
        singles = {name: anascore.score(folder / f"{name}.key",
                                        folder / f"{standing.system}.{name}").metrics["conll"].f1
                   for name in names}
        assert standing.datasets == pytest.approx(singles, abs=1e-12)
        mean = sum(weights[name] * singles[name] for name in names) / sum(weights.values())
        assert abs(standing.score - mean) <= 1e-12
    micro = evaluate(manifest(folder, names, ["a", "b"], combine="micro", resamples=0))
    for standing in micro.standings:
        # The micro combination is the score of every dataset's documents as one corpus.
        key, response = folder / "all.key", folder / f"all.{standing.system}"
        key.write_text("".join((folder / f"{name}.key").read_text() for name in names))
        response.write_text("".join((folder / f"{standing.system}.{name}").read_text()
                                    for name in names))
        assert abs(standing.score - anascore.score(key, response).metrics["conll"].f1) <= 1e-12


def test_a_system_equal_to_the_key_ranks_first_with_f1_one(tmp_path):
    pairs = [([[(0, 1), (3, 3)], [(5, 5), (7, 8)]], [[(0, 1), (5, 5)], [(3, 3)]], 10),
             ([[(0, 0), (2, 2)]], [[(0, 0)], [(2, 2), (4, 4)]], 6)]
    for name in ("x", "y"):
        write_dataset(tmp_path, name, pairs, {"gold": [0, 0], "noisy": [1, 1]})
    board = evaluate(manifest(tmp_path, ["x", "y"], ["noisy", "gold"]))
    first = board.standings[0]
    assert (first.system, first.rank, first.score) == ("gold", 1, 1.0)
    assert first.ranks == (1, 1)


# Permutations -----------------------------------------------------------------------------

def synthetic_reports(rng: np.random.Generator, documents: int, quality: float) -> Report:
    """A report of ``documents`` documents with MUC, B³ and CEAFe counts whose numerators are
    about ``quality`` of their denominators."""
    options = Options(metrics=(*CONLL, "conll"))
    counts = {}
    for name in ("mentions", *CONLL):
        denominators = rng.integers(5, 40, size=(documents, 2)).astype(float)
        numerators = np.floor(denominators * rng.uniform(quality - 0.2, min(1, quality + 0.2),
                                                         size=(documents, 2)))
        counts[name] = np.column_stack([numerators[:, 0], denominators[:, 0],
                                        numerators[:, 1], denominators[:, 1]])
    return Report(options, tuple(f"doc{index:03d}" for index in range(documents)), counts)


def synthetic_task(datasets: dict[str, int], systems: dict[str, float], seed: int = 3,
                   runs: int = 1, resamples: int = 300):
    rng = np.random.default_rng(seed)
    options = Options(metrics=(*CONLL, "conll"))
    task = Task(Path("task.toml"), "synthetic", "conll", "macro",
                tuple(Dataset(name, Path(f"{name}.key"), options, 1.0 + index)
                      for index, name in enumerate(datasets)),
                tuple(System(name, tuple({} for _ in range(runs))) for name in systems),
                resamples=resamples)
    reports = {system: tuple({name: synthetic_reports(rng, size, quality)
                              for name, size in datasets.items()} for _ in range(runs))
               for system, quality in systems.items()}
    return task, reports


def permuted_report(report: Report, order: list[int]) -> Report:
    return Report(report.options, tuple(report.document_names[index] for index in order),
                  {name: matrix[order] for name, matrix in report.counts.items()})


def numbers(board) -> dict:
    return {standing.system: standing.to_dict() for standing in board.standings} | {
        (test.higher, test.lower): test.to_dict() for test in board.tests}


@settings(max_examples=10, deadline=None)
@given(st.randoms(use_true_random=False))
def test_no_permutation_changes_any_number(rng):
    task, reports = synthetic_task({"d1": 12, "d2": 7, "d3": 20},
                                   {"s1": 0.6, "s2": 0.62, "s3": 0.5, "s4": 0.7}, runs=2)
    expected = numbers(rank_systems(task, reports))
    datasets, systems = list(task.datasets), list(task.systems)
    rng.shuffle(datasets)
    rng.shuffle(systems)
    shuffled = {}
    for system in systems:
        runs = []
        for run in reports[system.name]:
            permuted = {}
            for name in rng.sample(list(run), len(run)):
                order = list(range(len(run[name].document_names)))
                rng.shuffle(order)
                permuted[name] = permuted_report(run[name], order)
            runs.append(permuted)
        shuffled[system.name] = tuple(runs)
    task = Task(task.path, task.name, task.metric, task.combine, tuple(datasets),
                tuple(systems), task.resamples, task.confidence_level, task.seed)
    assert numbers(rank_systems(task, shuffled)) == expected


# The statistics, again in plain Python ----------------------------------------------------

def plain_f1(counts: list[float]) -> float:
    recall = counts[0] / counts[1] if counts[1] else 0.0
    precision = counts[2] / counts[3] if counts[3] else 0.0
    return 2 * recall * precision / (recall + precision) if recall + precision else 0.0


def plain_quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    position = q * (len(ordered) - 1)
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (ordered[above] - ordered[below]) * (position - below)


def test_statistics_equal_a_plain_python_reimplementation():
    task, reports = synthetic_task({"d1": 6, "d2": 9}, {"s1": 0.6, "s2": 0.58, "s3": 0.45},
                                   runs=2, resamples=400)
    board = rank_systems(task, reports)
    systems = [system.name for system in task.systems]
    # The same draws: one generator per dataset, seeded by the task seed and its name.
    weights = {}
    for dataset in task.datasets:
        generator = np.random.default_rng([task.seed, zlib.crc32(dataset.name.encode())])
        size = len(reports["s1"][0][dataset.name].document_names)
        weights[dataset.name] = resample_weights(size, task.resamples, generator).tolist()
    total_weight = sum(dataset.weight for dataset in task.datasets)

    def combined(system: str, run: int, draw: int | None) -> float:
        result = 0.0
        for dataset in task.datasets:
            report = reports[system][run][dataset.name]
            order = sorted(range(len(report.document_names)),
                           key=lambda index: report.document_names[index])
            f1s = []
            for metric in CONLL:
                rows = report.counts[metric].tolist()
                summed = [0.0] * 4
                for position, index in enumerate(order):
                    times = 1 if draw is None else weights[dataset.name][draw][position]
                    for field in range(4):
                        summed[field] += times * rows[index][field]
                f1s.append(plain_f1(summed))
            result += dataset.weight * sum(f1s) / 3
        return result / total_weight

    point = {system: sum(combined(system, run, None) for run in range(2)) / 2
             for system in systems}
    resampled = {system: [sum(combined(system, run, draw) for run in range(2)) / 2
                          for draw in range(task.resamples)] for system in systems}
    level = task.confidence_level
    for standing in board.standings:
        system = standing.system
        assert standing.score == pytest.approx(point[system], abs=1e-12)
        runs = [combined(system, run, None) for run in range(2)]
        assert standing.std == pytest.approx(abs(runs[0] - runs[1]) / math.sqrt(2), abs=1e-12)
        assert standing.interval.low == pytest.approx(
            plain_quantile(resampled[system], (1 - level) / 2), abs=1e-12)
        assert standing.interval.high == pytest.approx(
            plain_quantile(resampled[system], (1 + level) / 2), abs=1e-12)
        ranks = sorted(1 + sum(resampled[other][draw] > resampled[system][draw] + 1e-12
                               for other in systems) for draw in range(task.resamples))
        low_index = math.floor((1 - level) / 2 * (task.resamples - 1))
        high_index = math.ceil((1 + level) / 2 * (task.resamples - 1))
        assert standing.ranks == (ranks[low_index], ranks[high_index])
    raw = {}
    for test in board.tests:
        deltas = [resampled[test.higher][draw] - resampled[test.lower][draw]
                  for draw in range(task.resamples)]
        mean = sum(deltas) / len(deltas)
        delta = point[test.higher] - point[test.lower]
        assert test.delta == pytest.approx(delta, abs=1e-12) and delta >= 0
        extreme = sum(abs(value - mean) >= abs(delta) - 1e-12 for value in deltas)
        raw[(test.higher, test.lower)] = (1 + extreme) / (1 + task.resamples)
        assert test.p_value == raw[(test.higher, test.lower)]
    # Holm: the i-th smallest p times (m − i), made monotone, capped at 1.
    ordered = sorted(raw.items(), key=lambda item: item[1])
    running = 0.0
    for position, (pair, p) in enumerate(ordered):
        running = max(running, min(1.0, (len(ordered) - position) * p))
        assert board.test(*pair).p_adjusted == pytest.approx(running)


def test_intervals_cover_as_they_claim():
    # A population of documents whose MUC, B³ and CEAFe counts are drawn from one
    # distribution: the true combined score is the ratio of the expected counts. The 90%
    # stratified-bootstrap interval of 60-document samples should cover it about 90% of the
    # time (percentile intervals undercover a little on small samples).
    population = np.random.default_rng(11)
    denominators = population.integers(5, 60, size=(20000, 3)).astype(float)
    rates = np.array([0.5, 0.7, 0.6])
    options = Options(metrics=(*CONLL, "conll"))

    # Recall and precision are both ``rate`` in expectation, so each F1 tends to ``rate``.
    truth = float(np.mean(rates))
    covered = 0
    trials = 120
    for trial in range(trials):
        chosen = population.integers(0, len(denominators), size=60)
        counts = {}
        for index, name in enumerate(CONLL):
            column = denominators[chosen, index]
            found = population.binomial(column.astype(int), rates[index]).astype(float)
            proposed = population.binomial(column.astype(int), rates[index]).astype(float)
            counts[name] = np.column_stack([found, column, proposed, column])
        counts["mentions"] = counts["muc"]
        report = Report(options, tuple(f"d{index:02d}" for index in range(60)), counts)
        task = Task(Path("t.toml"), "coverage", "conll", "macro",
                    (Dataset("only", Path("k"), options),), (System("s", ({},)),),
                    resamples=400, confidence_level=0.9, seed=trial)
        interval = rank_systems(task, {"s": ({"only": report},)}).standings[0].interval
        covered += interval.low <= truth <= interval.high
    assert 0.8 <= covered / trials <= 0.98


# The manifest -----------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "message"), [
    ('combine = "median"\n', "combine = 'median'; expected one of macro, micro"),
    ("resamples = -1\n", "resamples = -1; expected a whole number"),
    ('colour = "blue"\n', "unknown key 'colour'"),
    ('[[datasets]]\nname = "x"\nkey = "x.key"\n', "no [[systems]]"),
    ('[[datasets]]\nname = "x"\nkey = "x.key"\nweight = 0\n', "weight = 0; expected a number"),
    ('[[datasets]]\nname = "x"\nkey = "x.key"\nsettings = { matc = "head" }\n',
     "dataset 'x': unknown option matc"),
    ('[[datasets]]\nname = "x"\nkey = "x.key"\nsettings = { metrics = "muc" }\n',
     "the primary metric 'conll' is not among its reported metrics"),
    ('[[datasets]]\nname = "x"\nkey = "x.key"\n[[systems]]\nname = "s"\n'
     'responses = { y = "s.y" }\n', "response for 'y', which is not a dataset"),
    ('[[datasets]]\nname = "x"\nkey = "x.key"\n[[datasets]]\nname = "y"\nkey = "y.key"\n'
     '[[systems]]\nname = "s"\nresponses = { x = "s.x" }\n', "no response for dataset 'y'"),
    ('[[datasets]]\nname = "x"\nkey = "x.key"\n[[datasets]]\nname = "y"\nkey = "y.key"\n'
     '[[systems]]\nname = "s"\nresponses = "s.conll"\n', "has no {dataset}"),
    ('[[datasets]]\nname = "x"\nkey = "x.key"\n[[datasets]]\nname = "x"\nkey = "y.key"\n',
     "two datasets are named 'x'"),
    ('[[datasets]]\nname = "x"\nkey = "x.key"\n[[systems]]\nname = "s"\n'
     'responses = "s.x"\nruns = ["s.x"]\n', "either responses (one run) or runs"),
    ('combine = "micro"\n[[datasets]]\nname = "x"\nkey = "x.key"\n[[datasets]]\nname = "y"\n'
     'key = "y.key"\nsettings = { keep_singletons = false }\n'
     '[[systems]]\nname = "s"\nresponses = "s.{dataset}"\n', "needs the same settings"),
    ("name = \n", "not TOML"),
    # These two used to end in a TypeError traceback.
    ('[settings]\nmetrics = 5\n[[datasets]]\nname = "x"\nkey = "x.key"\n',
     "dataset 'x': metrics = 5; expected 'all', comma-separated names or a list of names"),
    ('[settings]\njobs = 2\n[[datasets]]\nname = "x"\nkey = "x.key"\n',
     "dataset 'x': jobs is not a dataset's setting; give the processes on the command line "
     "(anascore evaluate --jobs N)"),
    # These were carried into each dataset's signature (bootstrap:500@0.95, paired-bs:100,
    # seed:7) though nothing of the dataset was resampled with them.
    *((f'[settings]\n{name} = {value}\n[[datasets]]\nname = "x"\nkey = "x.key"\n',
       f"dataset 'x': {name} is not a dataset's setting; the task's statistics are set at "
       "the top of the manifest (resamples, confidence_level, seed)")
      for name, value in (("confidence", 500), ("paired_bs", 100), ("paired_ar", 100),
                          ("seed", 7), ("confidence_level", 0.9))),
    ('[[datasets]]\nname = "x"\nkey = "x.key"\nsettings = { confidence = 500 }\n',
     "dataset 'x': confidence is not a dataset's setting; the task's statistics"),
])
def test_every_manifest_mistake_is_one_clear_error(tmp_path, text, message):
    path = tmp_path / "task.toml"
    path.write_text(text)
    with pytest.raises(OptionsError) as caught:
        read_task(path)
    assert message in caught.value.message
    assert caught.value.path == str(path)


def test_a_missing_response_file_names_the_file(tmp_path):
    pairs = [([[(0, 1), (3, 3)]], [[(0, 1)]], 5)]
    write_dataset(tmp_path, "x", pairs, {"a": [1]})
    (tmp_path / "a.x").unlink()
    with pytest.raises(anascore.AnascoreError, match=r"a\.x: no such file"):
        evaluate(manifest(tmp_path, ["x"], ["a"]))


def test_several_runs_report_mean_and_standard_deviation(tmp_path):
    pairs = [([[(0, 1), (3, 3), (5, 5)]], [[(0, 1), (3, 3)], [(5, 5)]], 7),
             ([[(0, 0), (2, 2)]], [[(0, 0)], [(2, 2)]], 4)]
    write_dataset(tmp_path, "x", pairs, {"seed1": [0, 1], "seed2": [1, 1], "other": [1, 0]})
    path = tmp_path / "task.toml"
    path.write_text('resamples = 100\n[[datasets]]\nname = "x"\nkey = "x.key"\n'
                    '[[systems]]\nname = "ours"\nruns = ["seed1.{dataset}", "seed2.{dataset}"]\n'
                    '[[systems]]\nname = "other"\nresponses = "other.{dataset}"\n')
    board = evaluate(path)
    ours = next(standing for standing in board.standings if standing.system == "ours")
    runs = [anascore.score(tmp_path / "x.key", tmp_path / f"seed{n}.x").metrics["conll"].f1
            for n in (1, 2)]
    assert ours.run_scores == pytest.approx(runs, abs=1e-12)
    assert ours.score == pytest.approx(sum(runs) / 2, abs=1e-12)
    assert ours.std == pytest.approx(abs(runs[0] - runs[1]) / math.sqrt(2), abs=1e-12)
    for output in LEADERBOARD_OUTPUTS:
        text = render_leaderboard(board, output)
        assert "ours" in text and "other" in text
    assert "sd" in render_leaderboard(board, "text")


def test_outputs_render(tmp_path):
    rng = random.Random(5)
    pairs = [([[(0, 1), (3, 3)], [(5, 5), (7, 7)]], [[(0, 1)], [(3, 3), (5, 5), (7, 7)]], 9)
             for _ in range(4)]
    for name in ("x", "y_z"):
        write_dataset(tmp_path, name, pairs, {"a": [rng.randint(0, 1) for _ in pairs],
                                              "b": [1] * 4})
    board = evaluate(manifest(tmp_path, ["x", "y_z"], ["a", "b"]))
    latex = render_leaderboard(board, "latex")
    assert r"\toprule" in latex and r"y\_z" in latex and r"\textbf{" in latex
    csv_lines = render_leaderboard(board, "csv").splitlines()
    assert csv_lines[0].startswith("rank,system,score,score_low,score_high")
    assert len(csv_lines) == 3
    assert "| Rank |" in render_leaderboard(board, "markdown")


def test_too_few_resamples_for_holm_is_a_warning():
    # 4 systems: 6 pairs; with 99 resamples the smallest adjusted p is 6/100 > 0.05.
    task, reports = synthetic_task({"d1": 5}, {"a": 0.9, "b": 0.5, "c": 0.3, "d": 0.1},
                                   resamples=99)
    board = rank_systems(task, reports)
    assert min(test.p_adjusted for test in board.tests) == 6 / 100
    assert any("no difference can be significant; use resamples = 120" in warning
               for warning in board.warnings)
    task, reports = synthetic_task({"d1": 5}, {"a": 0.9, "b": 0.5, "c": 0.3, "d": 0.1},
                                   resamples=200)
    assert not rank_systems(task, reports).warnings
