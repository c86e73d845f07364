"""Properties of the split-antecedent generalization on random documents with accommodated
sets: without sets every metric is the standard one (Paun et al. 2023 §4.3, first principle),
a perfect response scores 1, scores lie in [0, 1], and neither the order of entities nor the
roles of key and response change anything they should not."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from anascore.comparison.contingency import Comparison
from anascore.config.options import Options
from anascore.core.model import Document, Entity, Mention
from anascore.matching import MATCHERS
from anascore.metrics import REGISTRY
from anascore.metrics.scores import BlancScore
from anascore.report import Report
from anascore.scoring.document import count_document
from anascore.selection.accommodated_sets import AccommodatedSets
from anascore.selection.sides import select_side
from tests.support.strategies import document_pairs

METRICS = ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea")
KEEP = Options(keep_split_antecedents=True)
MODES = {
    "keep": KEEP,
    "only": Options(keep_split_antecedents=True, only_split_antecedents=True),
    "keep-ua": Options(keep_split_antecedents=True, compat="ua"),
    "only-ua": Options(keep_split_antecedents=True, only_split_antecedents=True, compat="ua"),
    "keep-beta": Options(keep_split_antecedents=True, lea_split_importance=5.0),
}


@st.composite
def element_lists(draw: st.DrawFn, count: int) -> list[list[int]]:
    """For each entity, the earlier entities its set holds (often none; nested sets
    allowed)."""
    return [draw(st.lists(st.integers(0, index - 1), min_size=1, max_size=3, unique=True))
            if index and draw(st.booleans()) else [] for index in range(count)]


@st.composite
def plural_pairs(draw: st.DrawFn) -> tuple[Document, Document]:
    key, response, tokens = draw(document_pairs())
    return (to_document(key, draw(element_lists(len(key))), tokens),
            to_document(response, draw(element_lists(len(response))), tokens))


def to_document(clusters: list[list[tuple[int, int]]], elements: list[list[int]],
                tokens: int) -> Document:
    return Document("doc", tuple(f"w{index}" for index in range(tokens)), tuple(
        Entity(str(number), tuple(Mention.span(start, end) for start, end in cluster),
               tuple(str(element) for element in elements[number]))
        for number, cluster in enumerate(clusters)))


def repeats_spans(*documents: Document) -> bool:
    """Whether a document holds a span twice: under ``compat="ua"`` every copy is kept and
    counted as the UA scorer 2.0 counts them, which can go above 1, below 1 for a perfect
    response, and (split antecedents turning each entity into a set) differ with and without
    sets (docs/differences-ua.md); the properties are checked there without them."""
    return any(len({mention.tokens for entity in document.entities
                    for mention in entity.mentions})
               != sum(len(entity.mentions) for entity in document.entities)
               for document in documents)


def scores_of(key: Document, response: Document, options: Options) -> dict:
    record = count_document(key, response, options, [])
    return Report.from_records(options, ["doc"], [record]).metrics


def values(score) -> list[float]:
    result = [score.recall, score.precision, score.f1]
    if isinstance(score, BlancScore):
        result += values(score.coref_links) + values(score.non_coref_links)
    return result


@settings(max_examples=60, deadline=None)
@given(plural_pairs())
def test_scores_lie_between_zero_and_one(pair) -> None:
    key, response = pair
    for options in MODES.values():
        if options.compat == "ua" and repeats_spans(key, response):
            continue
        for name, score in scores_of(key, response, options).items():
            if name != "conll":
                assert all(0.0 <= value <= 1.0 + 1e-12 for value in values(score)), name


@settings(max_examples=60, deadline=None)
@given(plural_pairs(), st.sampled_from(["keep", "keep-ua", "only", "only-ua"]))
def test_a_perfect_response_scores_one(pair, mode: str) -> None:
    key, _ = pair
    options = MODES[mode]
    assume(options.compat == "none" or not repeats_spans(key))
    side = select_side(key, options, "key", [])
    sets = side.accommodated
    sizes = side.entity_sizes + (sets.has_set(len(side.entity_sizes)) if sets else 0)
    scores = scores_of(key, key, options)
    for name in METRICS:
        if options.only_split_antecedents and (sets is None or name == "blanc"):
            continue  # no set to score; BLANC between sets may have no link of either kind
        if not options.only_split_antecedents:
            if name == "muc" and not (sizes > 1).any():
                continue  # no link to count
            if name == "blanc" and sizes.sum() < 2:
                continue
            if len(sizes) == 0:
                continue
        score = scores[name]
        assert [score.recall, score.precision, score.f1] == pytest.approx([1.0] * 3), name


def shuffled(document: Document, rng: random.Random) -> Document:
    entities = [replace(entity, mentions=tuple(rng.sample(entity.mentions,
                                                          len(entity.mentions))),
                        elements=tuple(rng.sample(entity.elements, len(entity.elements))))
                for entity in document.entities]
    rng.shuffle(entities)
    return replace(document, entities=tuple(entities))


@settings(max_examples=60, deadline=None)
@given(plural_pairs(), st.integers(0, 2**32 - 1), st.sampled_from(["keep", "keep-ua", "only"]))
def test_order_of_entities_mentions_and_elements_never_changes_a_score(pair, seed: int,
                                                                       mode: str) -> None:
    key, response = pair
    rng = random.Random(seed)
    options = MODES[mode]
    assume(options.compat == "none" or not repeats_spans(key, response))
    original = scores_of(key, response, options)
    reordered = scores_of(shuffled(key, rng), shuffled(response, rng), options)
    for name in METRICS:
        assert values(reordered[name]) == pytest.approx(values(original[name]), abs=1e-12), name


def alignment_pairs(key: Document, response: Document) -> dict[str, set[tuple[str, str]]]:
    alignments: list = []
    count_document(key, response, KEEP, [], alignments)
    return {metric: {(pair["key_entity"], pair["response_entity"])
                     for pair in details.to_list()}
            for metric, details in alignments[0].items()}


@settings(max_examples=60, deadline=None)
@given(plural_pairs())
def test_precision_is_recall_with_key_and_response_exchanged(pair) -> None:
    key, response = pair
    forward, backward = alignment_pairs(key, response), alignment_pairs(response, key)
    # Equal F1 totals may be paired either way; the property holds for one pairing.
    assume(all({(b, a) for a, b in backward[metric]} == pairs
               for metric, pairs in forward.items()))
    there, back = scores_of(key, response, KEEP), scores_of(response, key, KEEP)
    for name in ("muc", "bcub", "ceafm", "ceafe", "lea"):
        assert there[name].recall == pytest.approx(back[name].precision, abs=1e-12), name
        assert there[name].precision == pytest.approx(back[name].recall, abs=1e-12), name
    # BLANC's score follows the key's links (the reference scorer's convention); its counts
    # are symmetric: each half's recall counts are the other way's precision counts.
    forth = count_document(key, response, KEEP, [])["blanc"].reshape(2, 2, 2)
    back_counts = count_document(response, key, KEEP, [])["blanc"].reshape(2, 2, 2)
    np.testing.assert_allclose(forth, back_counts[:, ::-1, :], rtol=0, atol=1e-9)


@settings(max_examples=60, deadline=None)
@given(document_pairs())
def test_without_sets_every_metric_is_the_standard_one(pair) -> None:
    key_clusters, response_clusters, tokens = pair
    key = to_document(key_clusters, [[] for _ in key_clusters], tokens)
    response = to_document(response_clusters, [[] for _ in response_clusters], tokens)
    for options in (KEEP, MODES["keep-ua"], MODES["keep-beta"]):
        if options.compat == "ua" and repeats_spans(key, response):
            continue
        # Without sets β weighs nothing, and is refused: the standard options leave it out.
        standard = scores_of(key, response, replace(options, keep_split_antecedents=False,
                                                    lea_split_importance=1.0))
        generalized = scores_of(key, response, options)
        for name in METRICS:
            assert values(generalized[name]) == values(standard[name]), name


NO_SETS = AccommodatedSets(np.zeros(0, dtype=np.int64), (), (), ())


@settings(max_examples=60, deadline=None)
@given(document_pairs(), st.sampled_from(["keep", "keep-ua", "keep-beta"]))
def test_the_generalized_formulas_reduce_to_the_standard_ones(pair, mode: str) -> None:
    # The generalized path forced on a document with no set: every δ is absent.
    key_clusters, response_clusters, tokens = pair
    key = to_document(key_clusters, [[] for _ in key_clusters], tokens)
    response = to_document(response_clusters, [[] for _ in response_clusters], tokens)
    options = MODES[mode]
    key_side = replace(select_side(key, options, "key", []), accommodated=NO_SETS)
    response_side = select_side(response, options, "response", [])
    alignment = MATCHERS["exact"](key_side.mentions, response_side.mentions)
    generalized = Comparison.from_sides(key_side, response_side, alignment, options)
    standard = Comparison.from_sides(replace(key_side, accommodated=None), response_side,
                                     alignment, replace(options, keep_split_antecedents=False,
                                                        lea_split_importance=1.0))
    for name in METRICS:
        np.testing.assert_allclose(REGISTRY[name].count(generalized),
                                   REGISTRY[name].count(standard), rtol=0, atol=1e-12)
        assert any(key.startswith(name) for key in generalized.derived), name
