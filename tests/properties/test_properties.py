"""Properties every registered metric must have (one module over the registry, in the manner
of scikit-learn's ``metrics/cluster/tests/test_common.py``): a perfect response scores 1,
scores lie in [0, 1], order never matters, and corpus counts are sums of document counts."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anascore.config.options import DERIVED_METRICS, METRIC_NAMES, METRIC_SETTINGS, Options
from anascore.core.model import Document, Entity
from anascore.metrics import REGISTRY
from anascore.metrics.dominant import DominantScore
from anascore.metrics.scores import AverageScore, BlancScore, Score
from anascore.report import Report
from anascore.scoring.document import count_document
from anascore.selection.sides import select_side
from tests.support.strategies import document_pairs, to_document

#: Every metric of identity entities, the linguistically aware ones too (the strategies give
#: mentions types); the metrics of the UA layers are checked in test_ua_properties.py.
OPTIONS = Options(metrics=tuple(name for name in METRIC_NAMES if name not in METRIC_SETTINGS))


def scores_of(key: Document, response: Document, options: Options = OPTIONS):
    record = count_document(key, response, options, [])
    return Report.from_records(options, [key.name], [record]).metrics


def same_digits(batch_value: float, value: float) -> bool:
    """The same float, or both not applicable (NaN)."""
    return batch_value == value or (math.isnan(batch_value) and math.isnan(value))


def values(score) -> list[float]:
    if isinstance(score, AverageScore):
        return [score.f1]
    if isinstance(score, DominantScore):
        return [value for averages in (score.micro, score.macro, score.scheme)
                for value in (averages.recall, averages.precision, averages.f1)] + [
            value for item in score.classes for value in (item.recall, item.precision, item.f1)]
    if isinstance(score, BlancScore):
        return [score.recall, score.precision, score.f1, *values(score.coref_links),
                *values(score.non_coref_links)]
    assert isinstance(score, Score)
    return [score.recall, score.precision, score.f1]


@given(document_pairs())
def test_scores_lie_between_zero_and_one(pair) -> None:
    key, response, tokens = pair
    for score in scores_of(to_document(key, tokens), to_document(response, tokens)).values():
        assert all(math.isnan(value) or 0.0 <= value <= 1.0  # NaN: n/a (0/0)
                   for value in values(score))


@given(document_pairs())
def test_a_perfect_response_scores_one(pair) -> None:
    key, _, tokens = pair
    document = to_document(key, tokens)
    side = select_side(document, OPTIONS, "key", [])
    if side.mention_count == 0:
        return
    for name, score in scores_of(document, document).items():
        if name in ("muc", "conll") and not (side.entity_sizes > 1).any():
            continue  # MUC has no coreference link to count
        if name == "blanc" and side.mention_count < 2:
            continue  # BLANC has no link of either kind with one mention
        if name == "zero":
            # no empty nodes, so no zero anaphor: not applicable, not 0
            assert all(math.isnan(value) for value in values(score))
            continue
        if name == "dominant":
            if (side.entity_sizes > 1).any():  # else no annotation to count
                perfect = [score.micro, score.macro] + [
                    item for item in score.classes if item.attempted]
                assert [(item.recall, item.precision) for item in perfect] == (
                    [(1.0, 1.0)] * len(perfect))
            continue
        if name == "blanc":
            assert [score.recall, score.precision, score.f1] == [1.0, 1.0, 1.0]
        else:
            assert values(score) == pytest.approx([1.0] * len(values(score)), abs=1e-12)


def shuffled(document: Document, rng: random.Random) -> Document:
    entities = [Entity(entity.id, tuple(rng.sample(entity.mentions, len(entity.mentions))))
                for entity in document.entities]
    rng.shuffle(entities)
    return Document(document.name, document.tokens, tuple(entities))


@given(document_pairs(), st.integers(0, 2**32 - 1))
def test_order_of_entities_and_mentions_never_changes_a_score(pair, seed: int) -> None:
    key, response, tokens = pair
    rng = random.Random(seed)
    key_document, response_document = to_document(key, tokens), to_document(response, tokens)
    original = scores_of(key_document, response_document)
    reordered = scores_of(shuffled(key_document, rng), shuffled(response_document, rng))
    for name in original:
        assert values(reordered[name]) == pytest.approx(values(original[name]), abs=1e-12,
                                                         nan_ok=True)


@settings(max_examples=50)
@given(st.lists(document_pairs(), min_size=1, max_size=6), st.integers(0, 2**32 - 1))
def test_corpus_counts_are_sums_of_document_counts_in_any_order(pairs, seed: int) -> None:
    records = [count_document(to_document(key, tokens, f"d{index}"),
                              to_document(response, tokens, f"d{index}"), OPTIONS, [])
               for index, (key, response, tokens) in enumerate(pairs)]
    names = [f"d{index}" for index in range(len(records))]
    report = Report.from_records(OPTIONS, names, records)
    for metric in OPTIONS.computed_metrics:
        expected = np.sum([record[metric] for record in records], axis=0)
        assert report.corpus_counts[metric] == pytest.approx(expected, abs=1e-9)
    order = list(range(len(records)))
    random.Random(seed).shuffle(order)
    reordered = Report.from_records(OPTIONS, [names[i] for i in order],
                                    [records[i] for i in order])
    for name, score in report.metrics.items():
        assert values(reordered.metrics[name]) == values(score)


@given(document_pairs())
def test_precision_is_recall_with_key_and_response_exchanged(pair) -> None:
    key, response, tokens = pair
    forward = scores_of(to_document(key, tokens), to_document(response, tokens))
    backward = scores_of(to_document(response, tokens), to_document(key, tokens))
    for name in ("mentions", "muc", "bcub", "ceafm", "ceafe", "lea", "mor"):
        assert forward[name].recall == pytest.approx(backward[name].precision, abs=1e-12)
        assert forward[name].precision == pytest.approx(backward[name].recall, abs=1e-12)


def test_every_registered_metric_is_reported() -> None:
    assert set(REGISTRY) | set(DERIVED_METRICS) == set(METRIC_NAMES)


@settings(max_examples=30)
@given(st.lists(document_pairs(), min_size=1, max_size=8), st.integers(0, 2**32 - 1))
def test_batch_scores_give_the_digits_of_each_metrics_score(pairs, seed: int) -> None:
    """Resampling scores many corpora at once (``score_batch``, or ``score`` row by row);
    every registered metric must give there exactly the digits its ``score`` gives."""
    from anascore.stats.batch import batch_scores

    records = [count_document(to_document(key, tokens, f"d{index}"),
                              to_document(response, tokens, f"d{index}"), OPTIONS, [])
               for index, (key, response, tokens) in enumerate(pairs)]
    weights = np.random.default_rng(seed).integers(0, 3, size=(5, len(records)))
    totals = {metric: weights @ np.vstack([record[metric] for record in records])
              for metric in OPTIONS.computed_metrics}
    batch = batch_scores(totals, OPTIONS.metrics)
    for row in range(len(weights)):
        expected = Report.from_records(OPTIONS, ["corpus"], [
            {metric: totals[metric][row] for metric in totals}]).metrics
        for name, score in expected.items():
            assert same_digits(batch[name].f1[row], score.f1)
            if not isinstance(score, AverageScore):
                assert same_digits(batch[name].recall[row], score.recall)
                assert same_digits(batch[name].precision[row], score.precision)
