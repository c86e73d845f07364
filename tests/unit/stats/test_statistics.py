"""Confidence intervals and paired tests, on corpora whose answer is known by construction,
and against a straightforward reference that re-scores every resampled corpus from its
documents."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from anascore.config.options import DEFAULT_METRICS, Options
from anascore.core.model import Document, Entity
from anascore.report import Report
from anascore.scoring.document import count_document
from anascore.stats.bootstrap import (
    bootstrap_scores,
    confidence_intervals,
    percentile_interval,
    resample_weights,
)
from anascore.stats.significance import (
    approximate_randomization,
    holm,
    p_value_from,
    paired_bootstrap,
)
from tests.support.stats_fixtures import corpus, system, with_errors

OPTIONS = Options()
METRICS = DEFAULT_METRICS


def dropped(key: Document) -> Document:
    entities = list(key.entities)
    index = next(i for i, entity in enumerate(entities) if len(entity.mentions) >= 3)
    entities[index] = Entity(entities[index].id, entities[index].mentions[1:])
    return Document(key.name, key.tokens, tuple(entities))


def counts_of(keys, responses) -> dict[str, np.ndarray]:
    records = [count_document(key, response, OPTIONS, [])
               for key, response in zip(keys, responses, strict=True)]
    return Report.from_records(OPTIONS, [key.name for key in keys], records).counts


KEYS = corpus(24, seed=1)
WEAK = system(KEYS, seed=2, errors=(1, 4))
#: Each document misses one key mention (of an entity of 3 or more, so that every metric
#: loses something), and has random errors besides.
WORSE_EVERYWHERE = [with_errors(dropped(key), random.Random(index), 1)
                    for index, key in enumerate(KEYS)]
WEAK_TWIN = system(KEYS, seed=3, errors=(1, 4))
PERFECT = list(KEYS)


# Resampling -----------------------------------------------------------------------------------

def test_a_resample_draws_as_many_documents_as_the_corpus_has() -> None:
    weights = resample_weights(7, 500, np.random.default_rng(0))
    assert weights.shape == (500, 7)
    assert (weights.sum(axis=1) == 7).all()
    # Each document is drawn 7 × 500 × (1/7) = 500 times in expectation.
    assert weights.sum(axis=0) == pytest.approx([500] * 7, rel=0.15)


def test_the_same_seed_gives_the_same_numbers_and_another_seed_others() -> None:
    counts = counts_of(KEYS, WEAK)
    first = confidence_intervals([counts], METRICS, resamples=300, seed=7)
    again = confidence_intervals([counts], METRICS, resamples=300, seed=7)
    other = confidence_intervals([counts], METRICS, resamples=300, seed=8)
    assert first == again
    assert first != other
    twice = paired_bootstrap([counts, counts_of(KEYS, WEAK_TWIN)], METRICS, ["a", "b"],
                             resamples=300, seed=7)
    assert twice == paired_bootstrap([counts, counts_of(KEYS, WEAK_TWIN)], METRICS,
                                     ["a", "b"], resamples=300, seed=7)


def test_intervals_contain_the_corpus_score_and_shrink_as_documents_are_added() -> None:
    """The same 24 documents, then each 4 times: the standard error of a mean over 4× the
    documents is half, so intervals are about half as wide."""
    small = counts_of(KEYS, WEAK)
    large = {metric: np.vstack([matrix] * 4) for metric, matrix in small.items()}
    [narrow] = confidence_intervals([large], METRICS, resamples=2000, seed=1)
    [wide] = confidence_intervals([small], METRICS, resamples=2000, seed=1)
    report = Report.from_records(OPTIONS, [key.name for key in KEYS],
                                 [count_document(k, r, OPTIONS, []) for k, r in
                                  zip(KEYS, WEAK, strict=True)])
    for metric in METRICS:
        width_small = wide[metric].f1.high - wide[metric].f1.low
        width_large = narrow[metric].f1.high - narrow[metric].f1.low
        assert 0.3 < width_large / width_small < 0.7, metric
        assert wide[metric].f1.low <= report.metrics[metric].f1 <= wide[metric].f1.high


def test_intervals_grow_narrower_with_every_doubling_of_distinct_documents() -> None:
    keys = corpus(64, seed=5)
    responses = system(keys, seed=6, errors=(1, 4))
    widths = []
    for size in (8, 16, 32, 64):
        [interval] = confidence_intervals([counts_of(keys[:size], responses[:size])],
                                          ["conll", "lea"], resamples=2000, seed=2)
        widths.append(interval["conll"].f1.high - interval["conll"].f1.low)
    assert widths == sorted(widths, reverse=True)


def test_a_perfect_response_has_a_zero_width_interval() -> None:
    [interval] = confidence_intervals([counts_of(KEYS, PERFECT)], METRICS, resamples=200)
    assert all(interval[metric].f1.low == interval[metric].f1.high == 1.0
               for metric in METRICS)


def test_percentile_interval_of_known_values() -> None:
    # numpy's linear interpolation: the 2.5% point of 0..100 is 2.5, the 97.5% point 97.5.
    interval = percentile_interval(np.arange(101, dtype=float), 0.95)
    assert (interval.low, interval.high) == pytest.approx((2.5, 97.5), abs=1e-9)


# Known answers ------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(10))
def test_identical_systems_never_reject(seed: int) -> None:
    counts = counts_of(KEYS, WEAK)
    for results in (paired_bootstrap([counts, counts], METRICS, ["a", "b"], resamples=500,
                                     seed=seed),
                    approximate_randomization([counts, counts], METRICS, ["a", "b"],
                                              trials=500, seed=seed)):
        for result in results[0].values():
            assert result.delta == 0.0
            # Every resample ties with the observed difference of 0: p = 501 / 501.
            assert result.p_value == 1.0 >= 0.05


def test_a_system_better_on_every_document_rejects() -> None:
    weak, perfect = counts_of(KEYS, WORSE_EVERYWHERE), counts_of(KEYS, PERFECT)
    for metric in METRICS:
        if metric != "conll":
            assert (np.abs(weak[metric] - perfect[metric]).sum(axis=1) > 0).all(), metric
    bootstrap = paired_bootstrap([weak, perfect], METRICS, ["weak", "perfect"],
                                 resamples=2000, seed=1)[0]
    randomization = approximate_randomization([weak, perfect], METRICS, ["weak", "perfect"],
                                              trials=2000, seed=1)[0]
    for metric in METRICS:
        assert bootstrap[metric].delta > 0
        assert bootstrap[metric].win_rate == 1.0
        assert bootstrap[metric].delta_low > 0
        assert bootstrap[metric].p_value < 0.05
        # Under exchange, the observed split is one of 2**24; no trial reaches it.
        assert randomization[metric].p_value == p_value_from(0, 2000)


def test_systems_with_the_same_kind_of_errors_reject_about_as_often_as_the_level() -> None:
    """Pairs of systems whose per-document records are exchangeable by construction (each
    document's two responses are drawn alike): both tests reject at 0.05 in about 5% of 40
    corpora (fixed seeds, so the count is a fact, not a flaky draw)."""
    rejections = {"bs": 0, "ar": 0}
    for seed in range(40):
        keys = corpus(20, seed=100 + seed)
        first, second = counts_of(keys, system(keys, 200 + seed, (1, 4))), \
            counts_of(keys, system(keys, 300 + seed, (1, 4)))
        bs = paired_bootstrap([first, second], ["conll"], ["a", "b"], resamples=400,
                              seed=seed)[0]["conll"]
        ar = approximate_randomization([first, second], ["conll"], ["a", "b"], trials=400,
                                       seed=seed)[0]["conll"]
        rejections["bs"] += bs.p_value < 0.05
        rejections["ar"] += ar.p_value < 0.05
    assert rejections["ar"] <= 6 and rejections["bs"] <= 6, rejections


def test_holm_adjusts_each_p_value_by_its_rank() -> None:
    # Sorted 0.01, 0.03, 0.04: × 3, × 2 (0.06), × 1 (0.04, raised to 0.06 to keep the order).
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([3 * 0.01, 2 * 0.03, 2 * 0.03])
    assert holm([0.5]) == [0.5]
    assert holm([0.6, 0.7]) == [1.0, 1.0]


def test_p_adjusted_is_holm_over_the_compared_systems() -> None:
    count_sets = [counts_of(KEYS, WEAK), counts_of(KEYS, WEAK_TWIN), counts_of(KEYS, PERFECT)]
    results = paired_bootstrap(count_sets, ["lea"], ["a", "b", "c"], resamples=300, seed=3)
    raw = [system_results["lea"].p_value for system_results in results]
    assert [system_results["lea"].p_adjusted for system_results in results] == holm(raw)


# The reference: every resampled corpus re-scored from its documents --------------------------

def corpus_f1(pairs) -> dict[str, float]:
    """Score a corpus given as (key, response) document pairs, from scratch."""
    records = [count_document(key, response, OPTIONS, []) for key, response in pairs]
    report = Report.from_records(OPTIONS, [key.name for key, _ in pairs], records)
    return {metric: score.f1 for metric, score in report.metrics.items()}


def reference_paired_bootstrap(keys, baseline, system_, draws: list[list[int]]):
    """Koehn's paired bootstrap, literally: for each draw, the resampled corpus of both
    systems, scored from the documents; p two-sided around the mean difference."""
    observed = corpus_f1(list(zip(keys, system_, strict=True)))
    base = corpus_f1(list(zip(keys, baseline, strict=True)))
    deltas: dict[str, list[float]] = {metric: [] for metric in METRICS}
    for draw in draws:
        system_scores = corpus_f1([(keys[index], system_[index]) for index in draw])
        baseline_scores = corpus_f1([(keys[index], baseline[index]) for index in draw])
        for metric in METRICS:
            deltas[metric].append(system_scores[metric] - baseline_scores[metric])
    p_values = {}
    for metric in METRICS:
        delta = observed[metric] - base[metric]
        mean = sum(deltas[metric]) / len(deltas[metric])
        extreme = sum(abs(value - mean) >= abs(delta) - 1e-12 for value in deltas[metric])
        p_values[metric] = (1 + extreme) / (1 + len(draws))
    return p_values


def reference_randomization(keys, baseline, system_, swaps: list[list[bool]]):
    """Approximate randomization, literally: swap the two systems' responses of each
    document a coin says to swap, score both corpora from the documents."""
    observed = corpus_f1(list(zip(keys, system_, strict=True)))
    base = corpus_f1(list(zip(keys, baseline, strict=True)))
    extreme = dict.fromkeys(METRICS, 0)
    for swap in swaps:
        first = [(key, b if s else a) for key, a, b, s in
                 zip(keys, baseline, system_, swap, strict=True)]
        second = [(key, a if s else b) for key, a, b, s in
                  zip(keys, baseline, system_, swap, strict=True)]
        first_scores, second_scores = corpus_f1(first), corpus_f1(second)
        for metric in METRICS:
            shuffled = second_scores[metric] - first_scores[metric]
            extreme[metric] += abs(shuffled) >= abs(observed[metric] - base[metric]) - 1e-12
    return {metric: (1 + extreme[metric]) / (1 + len(swaps)) for metric in METRICS}


SMALL_KEYS = KEYS[:12]
SMALL_A = system(SMALL_KEYS, seed=11, errors=(1, 3))
SMALL_B = system(SMALL_KEYS, seed=12, errors=(0, 3))


def test_paired_bootstrap_equals_the_reference_on_the_same_draws() -> None:
    """Given the very resamples the implementation draws (numpy, seed 4: one
    ``integers(0, documents, (resamples, documents))`` call), the reference that re-scores
    each resampled corpus from its documents finds the same p-value for every metric."""
    resamples = 150
    draws = np.random.default_rng(4).integers(0, len(SMALL_KEYS),
                                              size=(resamples, len(SMALL_KEYS))).tolist()
    expected = reference_paired_bootstrap(SMALL_KEYS, SMALL_A, SMALL_B, draws)
    counts = [counts_of(SMALL_KEYS, SMALL_A), counts_of(SMALL_KEYS, SMALL_B)]
    found = paired_bootstrap(counts, METRICS, ["a", "b"], resamples=resamples, seed=4)[0]
    for metric in METRICS:
        assert found[metric].p_value == expected[metric], metric


def test_randomization_equals_the_reference_on_the_same_swaps() -> None:
    trials = 150
    swaps = (np.random.default_rng(4).random((trials, len(SMALL_KEYS))) < 0.5).tolist()
    expected = reference_randomization(SMALL_KEYS, SMALL_A, SMALL_B, swaps)
    counts = [counts_of(SMALL_KEYS, SMALL_A), counts_of(SMALL_KEYS, SMALL_B)]
    found = approximate_randomization(counts, METRICS, ["a", "b"], trials=trials,
                                      seed=4)[0]
    for metric in METRICS:
        assert found[metric].p_value == expected[metric], metric


def test_both_tests_agree_with_the_reference_within_resampling_noise() -> None:
    """Independent draws (Python's random for the reference, 20,000 numpy draws for the
    implementation): the p-values differ by less than four standard errors of the
    reference's estimate."""
    trials = 150
    rng = random.Random(9)
    documents = len(SMALL_KEYS)
    draws = [[rng.randrange(documents) for _ in range(documents)] for _ in range(trials)]
    swaps = [[rng.random() < 0.5 for _ in range(documents)] for _ in range(trials)]
    reference_bs = reference_paired_bootstrap(SMALL_KEYS, SMALL_A, SMALL_B, draws)
    reference_ar = reference_randomization(SMALL_KEYS, SMALL_A, SMALL_B, swaps)
    counts = [counts_of(SMALL_KEYS, SMALL_A), counts_of(SMALL_KEYS, SMALL_B)]
    bs = paired_bootstrap(counts, METRICS, ["a", "b"], resamples=20_000, seed=1)[0]
    ar = approximate_randomization(counts, METRICS, ["a", "b"], trials=20_000, seed=1)[0]
    moderate = 0
    for metric in METRICS:
        for found, expected in ((bs[metric].p_value, reference_bs[metric]),
                                (ar[metric].p_value, reference_ar[metric])):
            noise = math.sqrt(max(found * (1 - found), 0.01) / trials)
            assert abs(found - expected) < 4 * noise + 0.01, metric
            moderate += 0.05 < found < 0.95
    assert moderate >= 4  # the comparison is not only at p = 0 or 1


def test_bootstrap_scores_are_scores_of_weighted_document_counts() -> None:
    """A resample's scores are those of its documents counted with their multiplicities."""
    counts = counts_of(SMALL_KEYS, SMALL_A)
    [scores] = bootstrap_scores([counts], ["lea", "conll"], resamples=3, seed=5)
    weights = resample_weights(len(SMALL_KEYS), 3, np.random.default_rng(5))
    for row in range(3):
        pairs = [(SMALL_KEYS[index], SMALL_A[index])
                 for index, times in enumerate(weights[row]) for _ in range(int(times))]
        expected = corpus_f1(pairs)
        assert scores["lea"].f1[row] == pytest.approx(expected["lea"], abs=1e-12)
        assert scores["conll"].f1[row] == pytest.approx(expected["conll"], abs=1e-12)
