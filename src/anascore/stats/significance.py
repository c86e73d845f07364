"""Paired significance tests of systems against a baseline, on per-document counts.

Both tests ask whether a system's F1 on a metric differs from the baseline's on the same
documents more than chance would make it, and both work on the documents × fields count
matrices alone: a resampled or shuffled corpus is a weighted sum of document counts, so
thousands of them are a few matrix products.

Paired bootstrap resampling (Koehn 2004, *Statistical significance tests for machine
translation evaluation*, §4): draw documents with replacement, the same draws for both
systems, and look at the distribution of the F1 difference δ* over resamples. Koehn reports
how often the system beats the baseline (``win_rate`` here). The p-value is two-sided, from
the bootstrap distribution shifted to the null hypothesis of no difference (Efron & Tibshirani
1993, §16.4): ``p = (1 + #{|δ* − mean δ*| ≥ |δ|}) / (1 + B)`` with δ the observed difference
and B resamples. The percentile interval of δ* is reported too.

Approximate randomization (Noreen 1989; Riezler & Maxwell 2005, *On some pitfalls in automatic
evaluation and significance testing for MT*, §3.1): under the null hypothesis the two systems'
outputs are exchangeable per document, so each trial swaps the baseline's and the system's
counts of every document with probability ½ and recomputes |δ|;
``p = (1 + #{|δ_shuffled| ≥ |δ|}) / (1 + R)`` for R trials. With ``S`` the trials × documents
0/1 swap matrix and ``D = system − baseline`` the document count differences, the shuffled
corpora are ``baseline_total + S @ D`` and ``system_total − S @ D``.

A difference counts as at least as large as the observed one within ``TIE_TOLERANCE`` (ties
count against rejecting), so identical systems give p = 1 exactly.

Several systems. Each system is compared with the first (the baseline); with k systems on one
metric, the k p-values are also adjusted with Holm's step-down method (Holm 1979), which keeps
the chance of any false rejection among the k at most α under any dependence between the tests
(and rejects at least what Bonferroni rejects). ``p_adjusted`` is that value; ``p_value`` the
raw one. Metrics are not corrected among themselves: they are different questions about the
same outputs; whoever tests several metrics as one family can multiply by their number
(Bonferroni).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from anascore.options import Options
from anascore.progress import Progress
from anascore.stats.bootstrap import (
    DEFAULT_SEED,
    bootstrap_scores,
    chunk_sizes,
    counted_metrics,
    percentile_interval,
    split_scores,
    stack,
)
from anascore.stats.sums import column_sums, scores_from_counts

#: Two F1 differences closer than this count as equal.
TIE_TOLERANCE = 1e-12
#: The names of the tests, as in reports and on the command line.
PAIRED_BOOTSTRAP = "paired-bs"
APPROXIMATE_RANDOMIZATION = "paired-ar"


@dataclass(frozen=True)
class PairedResult:
    """One system against the baseline on one metric's F1, by one test.

    ``delta`` is system F1 − baseline F1 on the whole corpus; ``p_value`` the two-sided
    p-value, ``p_adjusted`` the same after Holm's correction over the systems compared with
    the baseline. The paired bootstrap also gives ``win_rate`` (the share of resamples where
    the system scores higher, Koehn 2004) and the interval ``delta_low``–``delta_high`` of
    the difference at ``level``.
    """

    test: str
    metric: str
    baseline: str
    system: str
    baseline_f1: float
    system_f1: float
    delta: float
    p_value: float
    p_adjusted: float
    trials: int
    win_rate: float | None = None
    delta_low: float | None = None
    delta_high: float | None = None
    level: float | None = None

    def to_dict(self) -> dict[str, Any]:
        result: dict[str, Any] = {
            "baseline_f1": self.baseline_f1, "system_f1": self.system_f1,
            "delta": self.delta, "p_value": self.p_value, "p_adjusted": self.p_adjusted,
            "trials": self.trials,
        }
        if self.win_rate is not None:
            result["win_rate"] = self.win_rate
            result["delta_interval"] = {"low": self.delta_low, "high": self.delta_high,
                                        "level": self.level}
        return result


def observed_f1(counts: Mapping[str, np.ndarray], names: Sequence[str],
                options: Options | None = None) -> dict[str, float]:
    """The corpus F1 of each metric (the numbers the report prints)."""
    totals = {metric: column_sums(counts[metric]) for metric in counted_metrics(names)}
    return {name: score.f1 for name, score in scores_from_counts(totals, names, options).items()}


def p_value_from(extreme: int, trials: int) -> float:
    """``(1 + extreme) / (1 + trials)``: the chance of a statistic at least as extreme, with
    the observed corpus counted as one of the trials (so never 0)."""
    return (1 + extreme) / (1 + trials)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the given order.

    >>> holm([0.01, 0.04, 0.03])
    [0.03, 0.06, 0.06]
    """
    count = len(p_values)
    order = sorted(range(count), key=lambda index: p_values[index])
    adjusted = [0.0] * count
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (count - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted


def paired_bootstrap(count_sets: Sequence[Mapping[str, np.ndarray]], names: Sequence[str],
                     systems: Sequence[str], *, resamples: int, seed: int = DEFAULT_SEED,
                     level: float = 0.95, progress: bool = False,
                     options: Options | None = None) -> list[dict[str, PairedResult]]:
    """Paired bootstrap test of every system (``count_sets[1:]``) against the baseline
    (``count_sets[0]``), on each metric in ``names``.

    Returns, for each compared system (in order), its result per metric.
    """
    scores = bootstrap_scores(count_sets, names, resamples=resamples, seed=seed,
                              progress=progress, options=options)
    observed = [observed_f1(counts, names, options) for counts in count_sets]
    raw: list[dict[str, PairedResult]] = []
    for system in range(1, len(count_sets)):
        results: dict[str, PairedResult] = {}
        for name in names:
            deltas = scores[system][name].f1 - scores[0][name].f1
            delta = observed[system][name] - observed[0][name]
            extreme = int(np.count_nonzero(
                np.abs(deltas - deltas.mean()) >= abs(delta) - TIE_TOLERANCE))
            interval = percentile_interval(deltas, level)
            results[name] = PairedResult(
                PAIRED_BOOTSTRAP, name, systems[0], systems[system], observed[0][name],
                observed[system][name], delta, p_value_from(extreme, resamples), 0.0,
                resamples, win_rate=float(np.mean(deltas > TIE_TOLERANCE)),
                delta_low=interval.low, delta_high=interval.high, level=level)
        raw.append(results)
    return _with_holm(raw, names)


def approximate_randomization(count_sets: Sequence[Mapping[str, np.ndarray]],
                              names: Sequence[str], systems: Sequence[str], *, trials: int,
                              seed: int = DEFAULT_SEED, progress: bool = False,
                              options: Options | None = None) -> list[dict[str, PairedResult]]:
    """Approximate randomization test of every system (``count_sets[1:]``) against the
    baseline (``count_sets[0]``), swapping whole document count records.

    Returns, for each compared system (in order), its result per metric.
    """
    metrics = counted_metrics(names)
    baseline_matrix, _ = stack(count_sets[:1], metrics)
    observed = [observed_f1(counts, names, options) for counts in count_sets]
    compared = len(count_sets) - 1
    differences, layout = stack(count_sets[1:], metrics)
    differences = differences - np.tile(baseline_matrix, (1, compared))
    system_totals = np.concatenate([
        np.concatenate([column_sums(counts[metric]) for metric in metrics])
        for counts in count_sets[1:]]) if compared else np.zeros(0)
    baseline_totals = np.tile(column_sums(baseline_matrix), compared)
    documents = baseline_matrix.shape[0]
    rng = np.random.default_rng(seed)
    extreme = [dict.fromkeys(names, 0) for _ in range(compared)]
    with Progress("randomization", trials, enabled=None if progress else False) as bar:
        for size in chunk_sizes(trials, documents):
            swaps = (rng.random((size, documents)) < 0.5).astype(np.float64)
            moved = swaps @ differences
            shuffled_baselines = split_scores(baseline_totals + moved, layout, names, options)
            shuffled_systems = split_scores(system_totals - moved, layout, names, options)
            for index in range(compared):
                for name in names:
                    delta = observed[index + 1][name] - observed[0][name]
                    shuffled = (shuffled_systems[index][name].f1
                                - shuffled_baselines[index][name].f1)
                    extreme[index][name] += int(np.count_nonzero(
                        np.abs(shuffled) >= abs(delta) - TIE_TOLERANCE))
            bar.advance(size)
    raw = [{name: PairedResult(
        APPROXIMATE_RANDOMIZATION, name, systems[0], systems[index + 1], observed[0][name],
        observed[index + 1][name], observed[index + 1][name] - observed[0][name],
        p_value_from(extreme[index][name], trials), 0.0, trials) for name in names}
        for index in range(compared)]
    return _with_holm(raw, names)


def _with_holm(raw: list[dict[str, PairedResult]],
               names: Sequence[str]) -> list[dict[str, PairedResult]]:
    adjusted = [dict(results) for results in raw]
    for name in names:
        corrected = holm([results[name].p_value for results in raw])
        for results, value in zip(adjusted, corrected, strict=True):
            results[name] = replace(results[name], p_adjusted=value)
    return adjusted
