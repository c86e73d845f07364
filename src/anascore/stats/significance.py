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

Too little data (:mod:`anascore.stats.adequacy`). Every result carries ``smallest_p``, the
smallest p-value the test could have given here (``1 / (1 + B)`` for the bootstrap;
``(1 + R · 2^(1−k)) / (1 + R)`` for randomization on the ``k`` documents where the systems'
counts differ), and a ``note`` when the test cannot reject at α = 1 − level whatever the
systems do, or rests on too few documents or resamples to be trusted. With fewer than two
documents (or, for one metric, fewer than two documents with anything to count) nothing can
vary between resamples: the test is not applicable — ``p_value`` ``NaN`` (``null`` in JSON,
``n/a`` in tables) with the reason in ``note``, never a p of 1/(N + 1). A metric that is not
applicable on the corpus (0/0, :mod:`anascore.metrics.scores`) has no difference to test, and a
resample where either system's score is not applicable is left out of the bootstrap's counts.
Holm's correction runs over the applicable p-values.

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

from anascore.config.options import DERIVED_METRICS
from anascore.core.progress import Progress
from anascore.metrics.scores import is_applicable, json_number
from anascore.stats.adequacy import (
    MIN_TEST_RESAMPLES,
    check_resamples,
    fewest_documents,
    ideal_coverage,
    not_applicable_reason,
    smallest_bootstrap_p,
    smallest_randomization_p,
    too_few_documents,
)
from anascore.stats.bootstrap import (
    DEFAULT_SEED,
    NOT_APPLICABLE,
    chunk_sizes,
    counted_metrics,
    metric_documents,
    percentile_interval,
    resample_weights,
    split_scores,
    stack,
)
from anascore.stats.metric_suite import MetricSuite
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

    ``smallest_p`` is the smallest p-value the test could give here
    (:mod:`anascore.stats.adequacy`); ``documents`` the documents it rests on (the bootstrap:
    all of them; randomization: those where the two systems' counts of the metric differ,
    the only ones a swap moves). ``note`` says why the test is not applicable (then
    ``p_value`` and ``p_adjusted`` are ``NaN``; ``applicable`` is false), or that it cannot
    reject at α = 1 − level, or rests on too few documents or resamples.
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
    smallest_p: float | None = None
    documents: int | None = None
    note: str | None = None

    @property
    def applicable(self) -> bool:
        """Whether the test gave a p-value (false: ``note`` says why not)."""
        return is_applicable(self.p_value)

    def to_dict(self) -> dict[str, Any]:
        result: dict[str, Any] = {
            "baseline_f1": json_number(self.baseline_f1),
            "system_f1": json_number(self.system_f1), "delta": json_number(self.delta),
            "p_value": json_number(self.p_value), "p_adjusted": json_number(self.p_adjusted),
            "trials": self.trials, "smallest_p": self.smallest_p, "documents": self.documents,
        }
        if self.win_rate is not None:
            result["win_rate"] = json_number(self.win_rate)
            result["delta_interval"] = {
                "low": None if self.delta_low is None else json_number(self.delta_low),
                "high": None if self.delta_high is None else json_number(self.delta_high),
                "level": self.level}
        if self.note is not None:
            result["note"] = self.note
        return result


def observed_f1(counts: Mapping[str, np.ndarray], names: Sequence[str],
                suite: MetricSuite | None = None) -> dict[str, float]:
    """The corpus F1 of each metric (the numbers the report prints)."""
    totals = {metric: column_sums(counts[metric]) for metric in counted_metrics(names)}
    return {name: score.f1 for name, score in scores_from_counts(totals, names, suite).items()}


def p_value_from(extreme: int, trials: int) -> float:
    """``(1 + extreme) / (1 + trials)``: the chance of a statistic at least as extreme, with
    the observed corpus counted as one of the trials (so never 0)."""
    return (1 + extreme) / (1 + trials)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the given order; a p-value that is not
    applicable (``NaN``) stays so and is not counted in the family.

    >>> holm([0.01, 0.04, 0.03])
    [0.03, 0.06, 0.06]
    """
    order = sorted((index for index, value in enumerate(p_values) if is_applicable(value)),
                   key=lambda index: p_values[index])
    count = len(order)
    adjusted = [NOT_APPLICABLE] * len(p_values)
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (count - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted


def paired_bootstrap(count_sets: Sequence[Mapping[str, np.ndarray]], names: Sequence[str],
                     systems: Sequence[str], *, resamples: int, seed: int = DEFAULT_SEED,
                     level: float = 0.95, progress: bool = False,
                     suite: MetricSuite | None = None) -> list[dict[str, PairedResult]]:
    """Paired bootstrap test of every system (``count_sets[1:]``) against the baseline
    (``count_sets[0]``), on each metric in ``names``.

    Only the F1 differences of each resample are kept (compared systems × metrics values per
    resample), in arrays allocated once. Returns, for each compared system (in order), its
    result per metric.
    """
    compared = len(count_sets) - 1
    check_resamples(resamples, "--paired-bs (paired_bs=)", max(compared * len(names), 1))
    observed = [observed_f1(counts, names, suite) for counts in count_sets]
    metrics = counted_metrics(names)
    matrix, layout = stack(count_sets, metrics)
    documents = matrix.shape[0]
    reasons = [{name: _reason(count_sets[0], counts, name, observed[0][name],
                              observed[index + 1][name], documents)
                for name in names} for index, counts in enumerate(count_sets[1:])]
    deltas = {(index, name): np.empty(resamples) for index in range(compared) for name in names
              if reasons[index][name] is None}
    if deltas:
        rng = np.random.default_rng(seed)
        done = 0
        with Progress("paired bootstrap", resamples,
                      enabled=None if progress else False) as bar:
            for size in chunk_sizes(resamples, max(documents, matrix.shape[1])):
                weights = resample_weights(documents, size, rng)
                scores = split_scores(weights @ matrix, layout, names, suite)
                for index, name in deltas:
                    deltas[index, name][done:done + size] = (scores[index + 1][name].f1
                                                             - scores[0][name].f1)
                done += size
                bar.advance(size)
    floor = smallest_bootstrap_p(resamples)
    raw: list[dict[str, PairedResult]] = []
    for index in range(compared):
        results: dict[str, PairedResult] = {}
        for name in names:
            delta = observed[index + 1][name] - observed[0][name]
            base = PairedResult(
                PAIRED_BOOTSTRAP, name, systems[0], systems[index + 1], observed[0][name],
                observed[index + 1][name], delta, NOT_APPLICABLE, NOT_APPLICABLE, resamples,
                level=level, smallest_p=floor, documents=documents)
            reason = reasons[index][name]
            if reason is not None:
                results[name] = replace(base, note=reason)
                continue
            values = deltas[index, name]
            values = values[~np.isnan(values)]
            if not len(values):
                results[name] = replace(base, note="the score is not applicable (0/0) in "
                                                   "every resample")
                continue
            extreme = int(np.count_nonzero(
                np.abs(values - values.mean()) >= abs(delta) - TIE_TOLERANCE))
            interval = percentile_interval(values, level)
            results[name] = replace(
                base, p_value=p_value_from(extreme, len(values)),
                p_adjusted=0.0, win_rate=float(np.mean(values > TIE_TOLERANCE)),
                delta_low=interval.low, delta_high=interval.high,
                note=_bootstrap_note(documents, resamples, len(values), level))
        raw.append(results)
    return _with_holm(raw, names, level)


def _reason(baseline: Mapping[str, np.ndarray], system: Mapping[str, np.ndarray], name: str,
            baseline_f1: float, system_f1: float, documents: int) -> str | None:
    """Why a paired test of one metric is not applicable (``None``: it is)."""
    reason = not_applicable_reason(documents)
    if reason is not None:
        return reason
    if not (is_applicable(baseline_f1) and is_applicable(system_f1)):
        return "no score to compare (0/0 for the baseline or the system)"
    counting = max(metric_documents(baseline, name), metric_documents(system, name))
    if counting < 2:
        return ("only one document has anything for this metric: every resample scores as "
                "that document does")
    return None


def _bootstrap_note(documents: int, resamples: int, applicable: int, level: float) -> str | None:
    """What to know about one paired bootstrap result: it cannot reject; it rests on too few
    documents or resamples; some resamples had no applicable score."""
    alpha = 1 - level
    notes = []
    floor = smallest_bootstrap_p(applicable)
    if floor >= alpha:
        notes.append(f"cannot reject at {alpha:g}: with {applicable} resamples the smallest "
                     f"attainable p is {floor:.3g}")
    elif resamples < MIN_TEST_RESAMPLES:
        notes.append(f"p from only {resamples} resamples; use at least {MIN_TEST_RESAMPLES}")
    if too_few_documents(documents, level):
        notes.append(f"{documents} documents: the bootstrap underestimates the variation on "
                     f"so few (a nominal {level:.0%} interval covers about "
                     f"{ideal_coverage(documents, level):.0%}), so its p-values are too small; "
                     f"prefer --paired-ar, or score at least {fewest_documents(level)}")
    if applicable < resamples:
        notes.append(f"{resamples - applicable} of {resamples} resamples left out: the score is "
                     "not applicable (0/0) in them")
    return "; ".join(notes) or None


def approximate_randomization(count_sets: Sequence[Mapping[str, np.ndarray]],
                              names: Sequence[str], systems: Sequence[str], *, trials: int,
                              seed: int = DEFAULT_SEED, progress: bool = False,
                              suite: MetricSuite | None = None,
                              level: float = 0.95) -> list[dict[str, PairedResult]]:
    """Approximate randomization test of every system (``count_sets[1:]``) against the
    baseline (``count_sets[0]``), swapping whole document count records.

    Nothing is kept per trial (only counts of extreme trials), so memory stays bounded by the
    chunk size whatever ``trials`` is. Returns, for each compared system (in order), its
    result per metric.
    """
    check_resamples(trials, "--paired-ar (paired_ar=)", 0)
    metrics = counted_metrics(names)
    baseline_matrix, _ = stack(count_sets[:1], metrics)
    observed = [observed_f1(counts, names, suite) for counts in count_sets]
    compared = len(count_sets) - 1
    differences, layout = stack(count_sets[1:], metrics)
    differences = differences - np.tile(baseline_matrix, (1, compared))
    system_totals = np.concatenate([
        np.concatenate([column_sums(counts[metric]) for metric in metrics])
        for counts in count_sets[1:]]) if compared else np.zeros(0)
    baseline_totals = np.tile(column_sums(baseline_matrix), compared)
    documents = baseline_matrix.shape[0]
    reasons = [{name: _reason(count_sets[0], counts, name, observed[0][name],
                              observed[index + 1][name], documents)
                for name in names} for index, counts in enumerate(count_sets[1:])]
    tested = [(index, name) for index in range(compared) for name in names
              if reasons[index][name] is None]
    extreme = dict.fromkeys(tested, 0)
    valid = dict.fromkeys(tested, 0)
    rng = np.random.default_rng(seed)
    with Progress("randomization", trials if tested else 0,
                  enabled=None if progress and tested else False) as bar:
        for size in chunk_sizes(trials if tested else 0,
                                max(documents, differences.shape[1])):
            swaps = (rng.random((size, documents)) < 0.5).astype(np.float64)
            moved = swaps @ differences
            shuffled_baselines = split_scores(baseline_totals + moved, layout, names, suite)
            shuffled_systems = split_scores(system_totals - moved, layout, names, suite)
            for index, name in tested:
                delta = observed[index + 1][name] - observed[0][name]
                shuffled = (shuffled_systems[index][name].f1
                            - shuffled_baselines[index][name].f1)
                valid[index, name] += int(np.count_nonzero(~np.isnan(shuffled)))
                extreme[index, name] += int(np.count_nonzero(
                    np.abs(shuffled) >= abs(delta) - TIE_TOLERANCE))
            bar.advance(size)
    raw: list[dict[str, PairedResult]] = []
    for index in range(compared):
        results: dict[str, PairedResult] = {}
        for name in names:
            differing = _differing_documents(differences, layout[index], name)
            base = PairedResult(
                APPROXIMATE_RANDOMIZATION, name, systems[0], systems[index + 1],
                observed[0][name], observed[index + 1][name],
                observed[index + 1][name] - observed[0][name], NOT_APPLICABLE, NOT_APPLICABLE,
                trials, smallest_p=smallest_randomization_p(differing, trials),
                documents=differing)
            reason = reasons[index][name]
            if reason is not None:
                results[name] = replace(base, note=reason)
                continue
            counted = valid[index, name]
            results[name] = replace(
                base, p_value=p_value_from(extreme[index, name], counted), p_adjusted=0.0,
                note=_randomization_note(differing, trials, counted, level))
        raw.append(results)
    return _with_holm(raw, names, level)


def _differing_documents(differences: np.ndarray, places: Mapping[str, slice],
                         name: str) -> int:
    """The documents where a system's counts of ``name`` (of any part of a derived metric)
    differ from the baseline's: only those can move when the two are swapped."""
    parts = DERIVED_METRICS.get(name, (name,))
    columns = np.hstack([differences[:, places[part]] for part in parts])
    return int(np.count_nonzero(np.any(columns != 0, axis=1))) if columns.size else 0


def _randomization_note(differing: int, trials: int, counted: int,
                        level: float) -> str | None:
    """What to know about one randomization result: it cannot reject; it rests on too few
    trials; some trials had no applicable score."""
    alpha = 1 - level
    notes = []
    floor = smallest_randomization_p(differing, trials)
    if floor >= alpha:
        where = ("the systems agree on every document" if differing == 0 else
                 f"the systems differ on {differing} document{'s' if differing != 1 else ''}")
        notes.append(f"cannot reject at {alpha:g}: {where}, so the smallest attainable p is "
                     f"{floor:.3g} (2/2^{differing} for the exact test)" if differing else
                     f"cannot reject at {alpha:g}: {where} (p = 1)")
    elif trials < MIN_TEST_RESAMPLES:
        notes.append(f"p from only {trials} trials; use at least {MIN_TEST_RESAMPLES}")
    if counted < trials:
        notes.append(f"{trials - counted} of {trials} trials left out: the score is not "
                     "applicable (0/0) in them")
    return "; ".join(notes) or None


def _with_holm(raw: list[dict[str, PairedResult]], names: Sequence[str],
               level: float = 0.95) -> list[dict[str, PairedResult]]:
    """Holm-adjusted p-values; a note where the adjustment alone makes rejection
    impossible (the smallest attainable p times the number of systems tested is not below
    α)."""
    alpha = 1 - level
    adjusted = [dict(results) for results in raw]
    for name in names:
        corrected = holm([results[name].p_value for results in raw])
        family = sum(1 for results in raw if results[name].applicable)
        for results, value in zip(adjusted, corrected, strict=True):
            result = replace(results[name], p_adjusted=value)
            floor = result.smallest_p
            if (family > 1 and result.applicable and floor is not None and floor < alpha
                    <= floor * family):
                extra = (f"cannot reject at {alpha:g} after Holm's correction over {family} "
                         f"systems: the smallest attainable adjusted p is "
                         f"{min(1.0, floor * family):.3g}")
                result = replace(result, note=f"{result.note}; {extra}" if result.note
                                 else extra)
            results[name] = result
    return adjusted
