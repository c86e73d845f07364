"""Error categories of the non-referring and bridging layers
(:mod:`anascore.analysis.non_entity_layers`)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from anascore.analysis.analyse import analyse_documents, analyse_files
from anascore.config.options import Options
from anascore.core.errors import OptionsError
from anascore.core.model import BridgingLink, Document, Entity, Mention
from tests.support.paths import CORPORA

AMI = CORPORA / "codi-crac22" / "AMI_dev_v2.2022.CONLLUA"
WORDS = tuple(f"w{position}" for position in range(20))


def span(start: int, end: int | None = None) -> Mention:
    return Mention.span(start, start if end is None else end)


def document(non_referring: tuple[Mention, ...], bridging: tuple[BridgingLink, ...]) -> Document:
    entities = (Entity("house", (span(0, 1), span(5))), Entity("car", (span(8, 9), span(12))),
                Entity("door", (span(14, 15),)), Entity("roof", (span(17, 18),)),
                Entity("tyre", (span(3),)))
    return Document("d", WORDS, entities, non_referring=non_referring, bridging=bridging)


KEY = document((span(2), span(7)), (BridgingLink(span(14, 15), None, "house"),
                                     BridgingLink(span(17, 18), None, "house")))
# The response marks "w7" referring-free too but misses "w2", adds "w10"; links the door to
# the house (right), the roof to the car (wrong anchor) and the tyre to the car (extra).
RESPONSE = document((span(7), span(10)), (BridgingLink(span(14, 15), None, "house"),
                                          BridgingLink(span(17, 18), None, "car"),
                                          BridgingLink(span(3), None, "car")))
OPTIONS = Options.create(keep_non_referring=True, keep_bridging=True)


def test_each_layer_category_on_a_hand_made_case() -> None:
    analysis = analyse_documents([(KEY, RESPONSE)], OPTIONS)
    counts = analysis.counts()
    assert {kind: counts[kind] for kind in analysis.error_types[7:]} == {
        "missing_non_referring": 1, "extra_non_referring": 1,
        "missing_bridging": 0, "extra_bridging": 1, "wrong_bridging_anchor": 1}
    # The identity entities are the same on both sides: no identity error.
    assert sum(counts[kind] for kind in analysis.error_types[:7]) == 0
    scores = analysis.report.metrics
    assert scores["non_referring"].recall == 0.5 and scores["non_referring"].precision == 0.5
    impact = analysis.impact_table()
    assert impact["missing_non_referring"]["non_referring"]["f1"] == pytest.approx(
        100 * 2 * (2 / 3) * 1 / (2 / 3 + 1))  # R 1, P 2/3
    # Bridging (entity level): key links 2, response 3, one right: F1 = 2/5; without the
    # extra link, 1 of 2 on each side: 1/2.
    assert analysis.report.metrics["bridging"].f1 == pytest.approx(2 / 5)
    assert impact["extra_bridging"]["bridging"]["f1"] == pytest.approx(50.0)
    assert impact["wrong_bridging_anchor"]["bridging"]["f1"] == pytest.approx(
        100 * 2 * 1 * (2 / 3) / (1 + 2 / 3))
    for metric, values in impact["all"].items():
        assert values["f1"] == 100.0, metric


def test_layer_errors_mirror_when_key_and_response_swap() -> None:
    forward = analyse_documents([(KEY, RESPONSE)], OPTIONS).counts()
    backward = analyse_documents([(RESPONSE, KEY)], OPTIONS).counts()
    assert forward["missing_non_referring"] == backward["extra_non_referring"]
    assert forward["extra_non_referring"] == backward["missing_non_referring"]
    assert forward["extra_bridging"] == backward["missing_bridging"]
    assert forward["wrong_bridging_anchor"] == backward["wrong_bridging_anchor"]


def test_a_perfect_response_has_no_layer_error() -> None:
    counts = analyse_documents([(KEY, KEY)], OPTIONS).counts()
    assert all(count == 0 for count in counts.values())


def test_split_antecedents_are_still_refused() -> None:
    with pytest.raises(OptionsError, match="split-antecedent plurals are not classified"):
        analyse_documents([(KEY, RESPONSE)], Options.create(keep_split_antecedents=True))


@pytest.mark.skipif(not AMI.exists(), reason="../shared/corpora is absent")
def test_codi_crac_every_layer_fixed_gives_100(tmp_path) -> None:
    from anascore.formats.ua import read_ua, write_ua

    documents = list(read_ua(AMI))
    changed = []
    for doc in documents:
        # Drop every third non-referring markable and bridging link, and move some anchors.
        bridging = [link for index, link in enumerate(doc.bridging) if index % 3]
        entity_ids = [entity.id for entity in doc.entities]
        bridging = [BridgingLink(link.anaphor, None, entity_ids[index % len(entity_ids)])
                    if index % 4 == 0 else link for index, link in enumerate(bridging)]
        # (Split antecedents are not scored here: their ElementOf may name dropped markables.)
        entities = tuple(replace(entity, elements=()) for entity in doc.entities)
        changed.append(Document(doc.name, doc.tokens, entities,
                                non_referring=doc.non_referring[::2], bridging=tuple(bridging),
                                discourse_deixis=doc.discourse_deixis))
    response = tmp_path / "response.CONLLUA"
    write_ua(changed, response)
    options = Options.create(keep_non_referring=True, keep_bridging=True, discourse_deixis=True,
                             match="min")
    analysis = analyse_files(str(AMI), str(response), options)
    counts = analysis.counts()
    assert counts["missing_non_referring"] > 0 and counts["missing_bridging"] > 0
    assert counts["wrong_bridging_anchor"] > 0
    for metric, values in analysis.impact_table()["all"].items():
        assert values["f1"] == 100.0, metric
