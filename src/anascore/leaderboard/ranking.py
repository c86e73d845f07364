"""A leaderboard over several datasets: combined scores, ranks, and the statistics behind them.

Each dataset's key is read once and every system's responses are scored against it
(:func:`anascore.scoring.pipeline.score_files_many`), giving per-document count matrices. Everything
after that works on the counts alone (``docs/design.md``):

* **A dataset's score** is the primary metric of its summed counts (the micro-average over its
  documents, as the reference scorer computes it).
* **The combined score** of one run is the weighted mean of its datasets' scores
  (``combine = "macro"``, how the CRAC shared tasks rank systems: every dataset counts the
  same, whatever its size) or the metric of the counts summed over every dataset
  (``"micro"``). A system with several runs (seeds) scores the mean of its runs' combined
  scores, reported with their standard deviation (ddof = 1).
* **Intervals** are percentile bootstrap intervals (Efron & Tibshirani 1993, §13.3) from
  resampling documents *within each dataset* (a stratified bootstrap: each resample has as
  many documents of each dataset as the dataset has, so every dataset keeps its place in the
  macro average). Every system and run is resampled with the same weights, and a system's
  resampled score is the mean of its runs' — so the interval reflects the sampling of
  documents, and the seed variance is reported beside it, not mixed into it.
* **Rank intervals** come from the same resamples: in each resample the systems are ranked
  (1 + the number of systems scoring strictly higher), and a system's interval runs from the
  ``(1 − level) / 2`` quantile of its ranks (rounded down to an order statistic) to the
  ``(1 + level) / 2`` quantile (rounded up).
* **Paired tests** compare every pair of systems on the combined score with the paired
  bootstrap of :mod:`anascore.stats.significance` (the resampled differences, centred on
  their mean, against the observed difference; ``p = (1 + extreme) / (1 + resamples)``, so it
  is never below ``1 / (1 + resamples)``), and the p-values are adjusted with Holm's method over
  all the pairs compared. With several runs the test compares the run means on these
  documents: it says nothing of other seeds.

The resamples of a dataset are drawn from a generator seeded by the task's seed and the
dataset's name, over its documents sorted by name: permuting the datasets, the systems or the
documents of a file changes no number.
"""

from __future__ import annotations

import math
import os
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from anascore.core.errors import AnascoreError
from anascore.leaderboard.manifest import Dataset, Task
from anascore.report import Report
from anascore.scoring.pipeline import score_files_many
from anascore.stats.batch import batch_scores
from anascore.stats.bootstrap import (
    CHUNK_ELEMENTS,
    Interval,
    counted_metrics,
    percentile_interval,
    resample_weights,
)
from anascore.stats.metric_suite import MetricSuite
from anascore.stats.significance import TIE_TOLERANCE, holm, p_value_from
from anascore.stats.sums import column_sums, scores_from_counts

Counts = Mapping[str, np.ndarray]


@dataclass(frozen=True)
class Standing:
    """One system's place on the leaderboard.

    ``score`` is the combined score (the mean over runs), ``run_scores`` each run's, ``std``
    their standard deviation (``None`` with one run); ``datasets`` the primary metric on each
    dataset (mean over runs). ``interval`` and ``ranks`` are the bootstrap intervals of the
    score and of the rank (``None`` without resamples)."""

    system: str
    rank: int
    score: float
    run_scores: tuple[float, ...]
    std: float | None
    datasets: Mapping[str, float]
    interval: Interval | None = None
    ranks: tuple[int, int] | None = None

    def to_dict(self) -> dict[str, Any]:
        result: dict[str, Any] = {
            "system": self.system, "rank": self.rank, "score": self.score,
            "runs": list(self.run_scores), "std": self.std, "datasets": dict(self.datasets),
        }
        if self.interval is not None:
            result["interval"] = self.interval.to_dict()
        if self.ranks is not None:
            result["rank_interval"] = {"best": self.ranks[0], "worst": self.ranks[1]}
        return result


@dataclass(frozen=True)
class PairTest:
    """A paired bootstrap test of two systems' combined scores (``higher`` ranks above
    ``lower``; ``delta`` = higher − lower ≥ 0)."""

    higher: str
    lower: str
    delta: float
    p_value: float
    p_adjusted: float
    resamples: int

    def to_dict(self) -> dict[str, Any]:
        return {"higher": self.higher, "lower": self.lower, "delta": self.delta,
                "p_value": self.p_value, "p_adjusted": self.p_adjusted,
                "resamples": self.resamples}


@dataclass(frozen=True)
class Failure:
    """A system's run that could not be scored on a dataset (its file is malformed, or
    refused by the dataset's settings): ``reason`` is the error's one line, naming the file
    and the line. The other systems are ranked without it."""

    system: str
    run: int
    dataset: str
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"system": self.system, "run": self.run, "dataset": self.dataset,
                "reason": self.reason}


@dataclass(frozen=True)
class Leaderboard:
    """The result of ``anascore evaluate``: standings in rank order, the paired tests, and
    every per-dataset report (``reports[system][run][dataset]``)."""

    task: Task
    standings: tuple[Standing, ...]
    tests: tuple[PairTest, ...]
    reports: Mapping[str, tuple[Mapping[str, Report], ...]] = field(repr=False)
    warnings: tuple[str, ...] = ()
    #: The cells that could not be scored (:class:`Failure`); their systems are not ranked
    #: (``task`` and ``reports`` hold the ranked systems only).
    failures: tuple[Failure, ...] = ()
    #: Each unranked system's score on each dataset (mean over runs; ``None``: failed).
    unranked: Mapping[str, Mapping[str, float | None]] = field(default_factory=dict)

    @property
    def significance_level(self) -> float:
        return 1 - self.task.confidence_level

    def __repr__(self) -> str:
        return _leaderboard_repr(self)

    def _repr_html_(self) -> str:
        """The standings as a small table (a notebook shows it)."""
        return _leaderboard_html(self)

    def to_dataframe(self) -> Any:
        """The standings as a pandas DataFrame (the ``pandas`` extra), a row per system in
        rank order (the unranked after): ``rank``, ``score`` and ``score_low``/``score_high``
        (fractions), ``sd``, ``rank_best``/``rank_worst``, and a column per dataset."""
        return _leaderboard_dataframe(self)

    def test(self, first: str, second: str) -> PairTest | None:
        """The test of two systems, in either order."""
        for test in self.tests:
            if {test.higher, test.lower} == {first, second}:
                return test
        return None

    def key_report(self, dataset: str) -> Report:
        """A report of the dataset (the first system's first run): its key's hash
        (``key_hash``, ``key_fields``) and signature are every system's."""
        return self.reports[self.task.systems[0].name][0][dataset]

    def dataset_signature(self, dataset: Dataset) -> str:
        """The dataset's signature: its settings, and its key's hash when they sign it."""
        return self.key_report(dataset.name).signature

    def to_dict(self, *, reports: bool = False) -> dict[str, Any]:
        """The JSON object ``anascore evaluate --output json`` prints (``reports``: every
        per-dataset report too); each dataset names its key's hash (``key_hash``,
        ``key_sha256``: :mod:`anascore.scoring.key_hash`)."""
        task = self.task
        result: dict[str, Any] = {
            "task": task.name, "metric": task.metric, "combine": task.combine,
            "datasets": [{"name": dataset.name, "key": str(dataset.key),
                          **self.key_report(dataset.name).key_fields(),
                          "weight": dataset.weight, "signature": self.dataset_signature(dataset)}
                         for dataset in task.datasets],
            "resamples": task.resamples, "confidence_level": task.confidence_level,
            "seed": task.seed,
            "standings": [standing.to_dict() for standing in self.standings],
            "tests": [test.to_dict() for test in self.tests],
            "warnings": list(self.warnings),
        }
        if self.failures:
            result["failures"] = [failure.to_dict() for failure in self.failures]
            result["unranked"] = {system: dict(datasets)
                                  for system, datasets in self.unranked.items()}
        if reports:
            result["reports"] = {
                system: [{dataset: report.to_dict() for dataset, report in run.items()}
                         for run in runs]
                for system, runs in self.reports.items()}
        return result


def _leaderboard_repr(board: Leaderboard) -> str:
    """``Leaderboard(task: 2 systems on 2 datasets, conll (macro): 1. gold 100.00, …)``."""
    from anascore.report.notebook import with_interval

    shown = ", ".join(f"{standing.rank}. {standing.system} "
                      f"{with_interval(standing.score, standing.interval)}"
                      for standing in board.standings[:5])
    more = f", … {len(board.standings) - 5} more" if len(board.standings) > 5 else ""
    failed = f"; {len(board.unranked)} unranked (n/a)" if board.unranked else ""
    return (f"Leaderboard({board.task.name}: {len(board.standings)} systems on "
            f"{len(board.task.datasets)} datasets, {board.task.metric} ({board.task.combine}): "
            f"{shown}{more}{failed})")


def _leaderboard_html(board: Leaderboard) -> str:
    """A row per system in rank order: its rank, combined score (with its interval) and each
    dataset's score; the unranked systems after, n/a where their cell failed."""
    from anascore.report.notebook import html_table, with_interval

    datasets = [dataset.name for dataset in board.task.datasets]
    rows = [(standing.system, [str(standing.rank),
                               with_interval(standing.score, standing.interval),
                               *(with_interval(standing.datasets[name]) for name in datasets)])
            for standing in board.standings]
    for system, scores in board.unranked.items():
        cells = ["–", "n/a"]
        for name in datasets:
            value = scores[name]
            cells.append("n/a" if value is None else with_interval(value))
        rows.append((system, cells))
    caption = (f"{board.task.name}: {board.task.metric} F1 (%), combined "
               f"({board.task.combine}) and per dataset")
    return html_table(caption, ["rank", "score", *datasets], rows)


def _leaderboard_dataframe(board: Leaderboard) -> Any:
    """A row per system: rank, score (a fraction) and its interval's ends, the standard
    deviation over runs, the rank interval, and each dataset's score (NaN: failed)."""
    from anascore.report.notebook import dataframe

    def row(standing: Standing | None, datasets: Mapping[str, float | None]) -> dict[str, Any]:
        interval = None if standing is None else standing.interval
        ranks = None if standing is None else standing.ranks
        return {"rank": None if standing is None else standing.rank,
                "score": math.nan if standing is None else standing.score,
                "score_low": math.nan if interval is None else interval.low,
                "score_high": math.nan if interval is None else interval.high,
                "sd": math.nan if standing is None or standing.std is None else standing.std,
                "rank_best": None if ranks is None else ranks[0],
                "rank_worst": None if ranks is None else ranks[1],
                **{dataset.name: (math.nan if datasets[dataset.name] is None
                                  else datasets[dataset.name])
                   for dataset in board.task.datasets}}

    rows = {standing.system: row(standing, standing.datasets) for standing in board.standings}
    rows.update({system: row(None, scores) for system, scores in board.unranked.items()})
    return dataframe(rows, ["system"])


def evaluate_task(task: Task, *, progress: bool = False) -> Leaderboard:
    """Score every system on every dataset and rank them (see the module docstring).

    A response that cannot be scored (malformed, or refused by the dataset's settings) does
    not stop the leaderboard: its cell is a :class:`Failure` with the error's line, its system
    is listed unranked, and the others are ranked. An error of a dataset's key, or one that
    every system meets, stops it as before."""
    reports: dict[str, list[dict[str, Report]]] = {
        system.name: [{} for _ in system.runs] for system in task.systems}
    warnings: list[str] = []
    failures: list[Failure] = []
    for dataset in task.datasets:
        paths = [run[dataset.name] for system in task.systems for run in system.runs]
        scored = iter(_score_each(dataset, paths, progress))
        said: dict[str, list[str]] = {}  # each warning of this dataset: the systems that had it
        scored_systems: list[str] = []  # the systems scored on it
        for system in task.systems:
            for number, run in enumerate(reports[system.name]):
                report = next(scored)
                if isinstance(report, AnascoreError):
                    failures.append(Failure(system.name, number, dataset.name,
                                            report.location_message()))
                    continue
                run[dataset.name] = report
                scored_systems.append(system.name)
                for warning in report.warnings:
                    said.setdefault(warning, []).append(system.name)
        warnings.extend(_dataset_warnings(dataset.name, said, set(scored_systems)))
    failed = {failure.system for failure in failures}
    ranked = tuple(system for system in task.systems if system.name not in failed)
    frozen = {system.name: tuple(reports[system.name]) for system in ranked}
    board = rank_systems(replace(task, systems=ranked), frozen, tuple(dict.fromkeys(warnings)))
    if not failures:
        return board
    counted = counted_metrics([task.metric])
    unranked = {
        system.name: {dataset.name: None if any(dataset.name not in run for run in
                                                reports[system.name])
                      else float(np.mean([_dataset_score(task, dataset, column_totals(
                          _sorted_counts(run[dataset.name], counted)))
                          for run in reports[system.name]]))
                      for dataset in task.datasets}
        for system in task.systems if system.name in failed}
    return replace(board, failures=tuple(failures), unranked=unranked)


def _score_each(dataset: Dataset, paths: list[Path], progress: bool,
                ) -> list[Report | AnascoreError]:
    """Every response's report on ``dataset``, or the error that refused it. All are scored
    together (the key read once); when that fails, one by one, so that one bad response costs
    only its own cell. An error of the key, or one every response meets, is raised."""
    try:
        return list(score_files_many(dataset.key, paths, dataset.options, progress=progress))
    except AnascoreError as error:
        if len(paths) == 1 or _is_the_keys(error, dataset):
            raise
        first = error
    results: list[Report | AnascoreError] = []
    for path in paths:
        try:
            results += score_files_many(dataset.key, [path], dataset.options)
        except AnascoreError as error:
            if _is_the_keys(error, dataset):
                raise
            results.append(error)
    if all(isinstance(result, AnascoreError) for result in results):
        raise first
    return results


def _is_the_keys(error: AnascoreError, dataset: Dataset) -> bool:
    """Whether ``error`` is about the dataset's key (a file of it, for a folder of files)."""
    if not error.path:
        return False
    key, where = os.path.abspath(dataset.key), os.path.abspath(error.path)
    return where == key or where.startswith(key.rstrip(os.sep) + os.sep)


def _dataset_warnings(dataset: str, said: dict[str, list[str]],
                      systems: set[str]) -> list[str]:
    """The warnings of one dataset's runs (``said``: each warning, the systems whose runs gave
    it; ``systems``: every system scored on the dataset), in order, each naming the dataset
    and the system; one that every system gave alike (the key's: a repeated key mention, its
    MIN spans, its chain IDs) names the dataset alone, once — not once per system."""
    lines = []
    for warning, names in said.items():
        if len(systems) > 1 and set(names) == systems:
            lines.append(f"dataset {dataset!r}: {warning}")
        else:
            lines.extend(f"dataset {dataset!r}, system {name!r}: {warning}"
                         for name in dict.fromkeys(names))
    return lines


def rank_systems(task: Task, reports: Mapping[str, tuple[Mapping[str, Report], ...]],
                 warnings: tuple[str, ...] = ()) -> Leaderboard:
    """The leaderboard of already scored reports (``reports[system][run][dataset]``)."""
    systems = [system.name for system in task.systems]
    counted = counted_metrics([task.metric])
    # Per dataset and per system run: the counted metrics' matrices, documents by name.
    matrices = {dataset.name: [[_sorted_counts(run[dataset.name], counted)
                                for run in reports[system]] for system in systems]
                for dataset in task.datasets}
    run_scores = [
        [_combined(task, {dataset.name: column_totals(matrices[dataset.name][index][run])
                          for dataset in task.datasets})
         for run in range(len(reports[system]))]
        for index, system in enumerate(systems)]
    scores = np.array([np.mean(runs) for runs in run_scores])
    dataset_scores = [
        {dataset.name: float(np.mean([_dataset_score(task, dataset,
                                                      column_totals(counts))
                                      for counts in matrices[dataset.name][index]]))
         for dataset in task.datasets}
        for index in range(len(systems))]
    ranks = _ranks(scores[:, None])[:, 0]

    intervals: list[Interval | None] = [None] * len(systems)
    rank_intervals: list[tuple[int, int] | None] = [None] * len(systems)
    tests: list[PairTest] = []
    if task.resamples:
        resampled = _bootstrap(task, matrices, [len(reports[system]) for system in systems])
        resampled_ranks = _ranks(resampled)
        low, high = (1 - task.confidence_level) / 2, (1 + task.confidence_level) / 2
        for index in range(len(systems)):
            intervals[index] = percentile_interval(resampled[index], task.confidence_level)
            rank_intervals[index] = (
                int(np.quantile(resampled_ranks[index], low, method="lower")),
                int(np.quantile(resampled_ranks[index], high, method="higher")))
        tests = _pair_tests(systems, scores, resampled, task.resamples)
        warnings = (*warnings, *_too_few_resamples(task, len(tests)))

    order = sorted(range(len(systems)), key=lambda index: (ranks[index], systems[index]))
    standings = tuple(
        Standing(systems[index], int(ranks[index]), float(scores[index]),
                 tuple(run_scores[index]),
                 float(np.std(run_scores[index], ddof=1)) if len(run_scores[index]) > 1
                 else None,
                 dataset_scores[index], intervals[index], rank_intervals[index])
        for index in order)
    return Leaderboard(task, standings, tuple(tests), reports, warnings)


def _too_few_resamples(task: Task, pairs: int) -> tuple[str, ...]:
    """A warning when Holm's adjustment over ``pairs`` tests cannot reach significance with
    the resamples asked for: its smallest adjusted p is ``pairs / (1 + resamples)``."""
    smallest = min(1.0, pairs / (1 + task.resamples))
    alpha = 1 - task.confidence_level
    if pairs and smallest >= alpha:
        needed = math.ceil(pairs / alpha)
        return (f"with {pairs} pairs of systems and {task.resamples} resamples, the smallest "
                f"p-value Holm's adjustment can give is {smallest:.3g}, not below "
                f"{alpha:g}: no difference can be significant; use resamples = {needed} or "
                "more",)
    return ()


def column_totals(counts: Counts) -> dict[str, np.ndarray]:
    """The corpus counts of per-document matrices."""
    return {name: column_sums(matrix) for name, matrix in counts.items()}


def _sorted_counts(report: Report, counted: Sequence[str]) -> dict[str, np.ndarray]:
    order = np.argsort(np.array(report.document_names, dtype=object), kind="stable")
    return {name: report.counts[name][order] for name in counted}


def _dataset_score(task: Task, dataset: Dataset, totals: Counts) -> float:
    return scores_from_counts(totals, [task.metric],
                              MetricSuite.of(dataset.options))[task.metric].f1


def _in_name_order(task: Task) -> list[Dataset]:
    """The datasets in one order whatever the manifest's, so that sums round alike."""
    return sorted(task.datasets, key=lambda dataset: dataset.name)


def _combined(task: Task, totals: Mapping[str, Counts]) -> float:
    """One run's combined score from each dataset's corpus counts."""
    datasets = _in_name_order(task)
    if task.combine == "micro":
        summed = {name: column_sums(np.vstack([totals[dataset.name][name]
                                               for dataset in datasets]))
                  for name in totals[datasets[0].name]}
        return _dataset_score(task, datasets[0], summed)
    weights = math.fsum(dataset.weight for dataset in datasets)
    return math.fsum(dataset.weight * _dataset_score(task, dataset, totals[dataset.name])
                     for dataset in datasets) / weights


def _ranks(scores: np.ndarray) -> np.ndarray:
    """Competition ranks of a systems × samples matrix, per column: 1 + the number of
    systems scoring strictly higher (beyond :data:`TIE_TOLERANCE`)."""
    higher = scores[None, :, :] > scores[:, None, :] + TIE_TOLERANCE
    return 1 + higher.sum(axis=1)


def _bootstrap(task: Task, matrices: Mapping[str, list[list[dict[str, np.ndarray]]]],
               runs: Sequence[int]) -> np.ndarray:
    """A systems × resamples matrix of resampled combined scores (each system the mean of
    its runs), resampling documents within each dataset."""
    generators = {dataset.name: np.random.default_rng(
        [task.seed, zlib.crc32(dataset.name.encode("utf-8"))]) for dataset in task.datasets}
    largest = max(len(next(iter(matrices[dataset.name][0][0].values())))
                  for dataset in task.datasets)
    per_chunk = max(1, CHUNK_ELEMENTS // max(largest, 1))
    chunks: list[np.ndarray] = []
    done = 0
    while done < task.resamples:
        size = min(per_chunk, task.resamples - done)
        weights = {dataset.name: resample_weights(
            len(next(iter(matrices[dataset.name][0][0].values()))), size,
            generators[dataset.name]) for dataset in task.datasets}
        chunk = np.zeros((len(runs), size))
        for system, run_count in enumerate(runs):
            for run in range(run_count):
                chunk[system] += _resampled_combined(task, matrices, system, run, weights)
            chunk[system] /= run_count
        chunks.append(chunk)
        done += size
    return np.hstack(chunks)


def _resampled_combined(task: Task, matrices: Mapping[str, list[list[dict[str, np.ndarray]]]],
                        system: int, run: int, weights: Mapping[str, np.ndarray]) -> np.ndarray:
    datasets = _in_name_order(task)
    totals = {dataset.name: {name: weights[dataset.name] @ matrix
                             for name, matrix in matrices[dataset.name][system][run].items()}
              for dataset in datasets}
    if task.combine == "micro":
        first = datasets[0]
        summed = {name: np.sum([totals[dataset.name][name] for dataset in datasets], axis=0)
                  for name in totals[first.name]}
        return batch_scores(summed, [task.metric],
                            MetricSuite.of(first.options))[task.metric].f1
    scores = np.array([dataset.weight * batch_scores(
        totals[dataset.name], [task.metric],
        MetricSuite.of(dataset.options))[task.metric].f1
        for dataset in datasets])
    return np.sum(scores, axis=0) / math.fsum(dataset.weight for dataset in datasets)


def _pair_tests(systems: Sequence[str], scores: np.ndarray, resampled: np.ndarray,
                resamples: int) -> list[PairTest]:
    """Paired bootstrap tests of every pair of systems, Holm-adjusted over all pairs."""
    pairs: list[tuple[int, int]] = []
    for first in range(len(systems)):
        for second in range(first + 1, len(systems)):
            higher, lower = ((first, second) if (scores[first], systems[second])
                             >= (scores[second], systems[first]) else (second, first))
            pairs.append((higher, lower))
    raw = []
    for higher, lower in pairs:
        deltas = resampled[higher] - resampled[lower]
        delta = float(scores[higher] - scores[lower])
        extreme = int(np.count_nonzero(np.abs(deltas - deltas.mean())
                                       >= abs(delta) - TIE_TOLERANCE))
        raw.append((higher, lower, delta, p_value_from(extreme, resamples)))
    adjusted = holm([p for *_, p in raw])
    tests = [PairTest(systems[higher], systems[lower], delta, p, p_holm, resamples)
             for (higher, lower, delta, p), p_holm in zip(raw, adjusted, strict=True)]
    place = {system: (-float(scores[index]), system) for index, system in enumerate(systems)}
    return sorted(tests, key=lambda test: (place[test.higher], place[test.lower]))
