"""The properties of tests/properties/test_properties.py for the metrics of the UA layers
(non-referring,
bridging, the identity metrics on the discourse-deixis layer), in every matching method and
compat mode: scores lie in [0, 1], a perfect response scores 1, and the order in which a file
lists entities, mentions, markables and links never changes a score."""

from __future__ import annotations

import math
import random
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from anascore.config.options import Options
from anascore.core.model import Document
from anascore.metrics.scores import AverageScore, BlancScore, BridgingScore, Score
from anascore.report import Report
from anascore.scoring.document import count_document
from tests.support.strategies import ua_document_pairs, ua_documents

MODES = [Options(match=match, compat=compat, keep_non_referring=True, keep_bridging=True,
                 discourse_deixis=True)
         for match in ("exact", "min") for compat in ("none", "ua")]
LAYER_METRICS = ("non_referring", "bridging")


def repeats_spans(document: Document) -> bool:
    """Whether a layer of entities holds a span twice: the UA scorer's counting of such files
    (compat="ua") can go above 1, and below 1 for a perfect response (docs/differences-ua.md),
    so the properties are checked there without them."""
    return any(len({mention.tokens for entity in layer for mention in entity.mentions})
               != sum(len(entity.mentions) for entity in layer)
               for layer in (document.entities, document.discourse_deixis))


def scores_of(key: Document, response: Document, options: Options):
    record = count_document(key, response, options, [])
    return Report.from_records(options, [key.name], [record]).metrics


def same_digits(batch_value: float, value: float) -> bool:
    """The same float, or both not applicable (NaN)."""
    return batch_value == value or (math.isnan(batch_value) and math.isnan(value))


def values(score) -> list[float]:
    if isinstance(score, AverageScore):
        return [score.f1]
    if isinstance(score, BlancScore):
        return [score.recall, score.precision, score.f1, *values(score.coref_links),
                *values(score.non_coref_links)]
    if isinstance(score, BridgingScore):
        return [*values(score.anaphor_recognition), *values(score.mention),
                *values(score.entity)]
    assert isinstance(score, Score)
    return [score.recall, score.precision, score.f1]


@settings(max_examples=60, deadline=None)
@given(ua_document_pairs(), st.sampled_from(MODES))
def test_scores_lie_between_zero_and_one(pair, options: Options) -> None:
    key, response = pair
    assume(options.compat == "none" or not (repeats_spans(key) or repeats_spans(response)))
    for score in scores_of(key, response, options).values():
        assert all(math.isnan(value) or 0.0 <= value <= 1.0  # NaN: n/a (0/0)
                   for value in values(score))


@settings(max_examples=60, deadline=None)
@given(ua_documents(), st.sampled_from(MODES))
def test_a_perfect_response_scores_one(document: Document, options: Options) -> None:
    assume(options.compat == "none" or not repeats_spans(document))
    result = scores_of(document, document, options)
    if document.non_referring:
        assert values(result["non_referring"]) == [1.0] * 3
    bridging = result["bridging"]
    if document.bridging:
        assert values(bridging.anaphor_recognition) == [1.0] * 3
        assert values(bridging.entity) == [1.0] * 3
    links = document.bridging
    if options.compat == "ua":  # the UA scorer keeps an anaphor's last link
        links = tuple({link.anaphor.tokens: link for link in links}.values())
    if any(link.antecedent is not None for link in links):
        assert values(bridging.mention) == [1.0] * 3
    deixis = [mention for entity in document.discourse_deixis for mention in entity.mentions]
    if deixis:
        for name in ("mentions", "bcub", "ceafm", "ceafe", "lea"):
            assert values(result[f"discourse_deixis.{name}"]) == pytest.approx([1.0] * 3)


def shuffled(document: Document, rng: random.Random) -> Document:
    def entities(layer):
        shuffled_layer = [replace(entity, mentions=tuple(rng.sample(entity.mentions,
                                                                    len(entity.mentions))))
                          for entity in layer]
        rng.shuffle(shuffled_layer)
        return tuple(shuffled_layer)

    return replace(document, entities=entities(document.entities),
                   discourse_deixis=entities(document.discourse_deixis),
                   non_referring=tuple(rng.sample(document.non_referring,
                                                  len(document.non_referring))),
                   bridging=tuple(rng.sample(document.bridging, len(document.bridging))))


@settings(max_examples=60, deadline=None)
@given(ua_document_pairs(), st.integers(0, 2**32 - 1), st.sampled_from(("exact", "min")))
def test_order_never_changes_a_score(pair, seed: int, match: str) -> None:
    # anascore's own conventions; under compat="ua" the file order decides what the UA
    # scorer decides by it (the last of an anaphor's links, ties in MIN matching)
    key, response = pair
    options = replace(MODES[0], match=match)
    rng = random.Random(seed)
    original = scores_of(key, response, options)
    reordered = scores_of(shuffled(key, rng), shuffled(response, rng), options)
    for name in (*LAYER_METRICS, *(name for name in original
                                   if name.startswith("discourse_deixis."))):
        assert values(reordered[name]) == pytest.approx(values(original[name]), abs=1e-12,
                                                         nan_ok=True)


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.data_too_large])
@given(st.lists(ua_document_pairs(), min_size=1, max_size=3), st.sampled_from(MODES),
       st.integers(0, 2**32 - 1))
def test_batch_scores_give_the_digits_of_each_metrics_score(pairs, options: Options,
                                                            seed: int) -> None:
    """Resampling scores many corpora at once; every metric of the UA layers, and BLANC in
    the UA scorer's convention under compat="ua", must give there exactly the digits of one
    corpus's score."""
    from anascore.stats.batch import batch_scores
    from anascore.stats.metric_suite import MetricSuite

    records = [count_document(replace(key, name=f"d{index}"),
                              replace(response, name=f"d{index}"), options, [])
               for index, (key, response) in enumerate(pairs)]
    weights = np.random.default_rng(seed).integers(0, 3, size=(5, len(records)))
    totals = {metric: weights @ np.vstack([record[metric] for record in records])
              for metric in options.computed_metrics}
    batch = batch_scores(totals, options.reported_metrics, MetricSuite.of(options))
    for row in range(len(weights)):
        expected = Report.from_records(options, ["corpus"], [
            {metric: totals[metric][row] for metric in totals}]).metrics
        for name, score in expected.items():
            assert same_digits(batch[name].f1[row], score.f1), name
            if not isinstance(score, AverageScore):
                assert same_digits(batch[name].recall[row], score.recall), name
                assert same_digits(batch[name].precision[row], score.precision), name
