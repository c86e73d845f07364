"""Error classification (Kummerfeld & Klein 2013) and its impact table."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anascore.analysis.analyse import analyse_documents, analyse_errors
from anascore.analysis.classification import ERROR_TYPES
from anascore.config.options import Options
from anascore.core.model import Document, Entity, Mention
from tests.support.paths import SHARED

IDENTITY = "mentions,muc,bcub,ceafm,ceafe,blanc,lea,conll"


def document(clusters: list[list[tuple[int, int]]], name: str = "d", length: int = 30) -> Document:
    return Document(name, tuple(f"w{i}" for i in range(length)),
                    tuple(Entity(f"e{index}", tuple(Mention.span(*span) for span in cluster))
                          for index, cluster in enumerate(clusters)))


def analyse(key, response, **settings):  # type: ignore[no-untyped-def]
    options = Options.create(metrics=IDENTITY, **settings)
    return analyse_documents([(document(key), document(response))], options)


def only(kind: str) -> dict[str, int]:
    return {name: int(name == kind) for name in ERROR_TYPES}


KEY = [[(0, 1), (3, 3), (6, 6)], [(9, 10), (12, 12)]]
CASES = {
    "span_error": [[(1, 1), (3, 3), (6, 6)], [(9, 10), (12, 12)]],
    "conflated_entities": [[(0, 1), (3, 3), (6, 6), (9, 10), (12, 12)]],
    "divided_entity": [[(0, 1), (3, 3)], [(6, 6)], [(9, 10), (12, 12)]],
    "extra_mention": [[(0, 1), (3, 3), (6, 6), (15, 15)], [(9, 10), (12, 12)]],
    "missing_mention": [[(0, 1), (3, 3)], [(9, 10), (12, 12)]],
    "extra_entity": [[(0, 1), (3, 3), (6, 6)], [(9, 10), (12, 12)], [(20, 20), (22, 22)]],
    "missing_entity": [[(0, 1), (3, 3), (6, 6)]],
}


@pytest.mark.parametrize("kind", ERROR_TYPES)
def test_each_category_alone(kind: str) -> None:
    result = analyse(KEY, CASES[kind])
    assert result.counts() == only(kind)
    assert [error.type for error in result.errors] == [kind]
    for metric, values in result.impact_table()["all"].items():
        assert values["f1"] == pytest.approx(100.0), metric
    # Fixing this type alone is fixing everything here.
    for metric, values in result.impact_table()[kind].items():
        assert values["f1"] == pytest.approx(100.0), metric


def test_span_error_is_found_with_head_matching_too() -> None:
    key = document(KEY)
    heads = Document("d", key.tokens, tuple(
        Entity(entity.id, tuple(Mention((*m.tokens,), head=m.tokens[0]) for m in entity.mentions))
        for entity in key.entities))
    response = Document("d", key.tokens, tuple(
        Entity(entity.id, tuple(Mention(tuple(range(m.tokens[0], m.tokens[-1] + 2))
                                        if m.tokens == (0, 1) else m.tokens, head=m.tokens[0])
                                for m in entity.mentions)) for entity in key.entities))
    result = analyse_documents([(heads, response)], Options.create(match="head"))
    assert result.counts() == only("span_error")
    # Head matching already aligns the pair: fixing the span changes no score.
    assert result.impact_table()["span_error"]["muc"]["delta_f1"] == 0


def test_impact_of_divided_entity_on_muc() -> None:
    # Key entity 1 of 3 mentions split 2 + 1: MUC recall (2 + 1) / (2 + 1) → (1 + 1) / 3,
    # precision 1; fixing the division gives 100.
    result = analyse(KEY, CASES["divided_entity"])
    recall, precision = 2 / 3, 1.0
    f1 = 2 * recall * precision / (recall + precision)
    assert result.report.metrics["muc"].f1 == pytest.approx(f1)
    assert result.impact_table()["divided_entity"]["muc"]["delta_f1"] == pytest.approx(
        100 * (1 - f1))
    assert result.impact_table()["missing_mention"]["muc"]["delta_f1"] == 0


def test_extra_singleton_is_an_extra_mention() -> None:
    result = analyse(KEY, [*KEY, [(20, 20)]])
    assert result.counts() == only("extra_mention")


spans = st.lists(st.tuples(st.integers(0, 25), st.integers(0, 3)), min_size=0, max_size=12,
                 unique_by=lambda item: item[0])


@st.composite
def clusterings(draw):  # type: ignore[no-untyped-def]
    starts = draw(spans)
    mentions = sorted({(start, min(start + width, 29)) for start, width in starts})
    labels = [draw(st.integers(0, 4)) for _ in mentions]
    clusters: dict[int, list[tuple[int, int]]] = {}
    for mention, label in zip(mentions, labels, strict=True):
        clusters.setdefault(label, []).append(mention)
    return list(clusters.values())


@settings(max_examples=60, deadline=None)
@given(clusterings(), clusterings())
def test_fixing_every_error_gives_100(key, response) -> None:  # type: ignore[no-untyped-def]
    # Fixed, the response is the key: every metric scores as the key against itself (100
    # wherever the metric is defined; MUC of singletons only is 0 / 0, scored 0 by all).
    result = analyse(key, response)
    perfect = analyse(key, key).report.metrics
    for metric, values in result.impact_table()["all"].items():
        assert values["f1"] == pytest.approx(100 * perfect[metric].f1), metric
    if any(len(cluster) > 1 for cluster in key):
        assert all(values["f1"] == pytest.approx(100.0)
                   for values in result.impact_table()["all"].values())


@settings(max_examples=60, deadline=None)
@given(clusterings())
def test_perfect_response_has_no_errors(key) -> None:  # type: ignore[no-untyped-def]
    assert sum(analyse(key, key).counts().values()) == 0


MIRROR = {"extra_mention": "missing_mention", "missing_mention": "extra_mention",
          "extra_entity": "missing_entity", "missing_entity": "extra_entity",
          "conflated_entities": "divided_entity", "divided_entity": "conflated_entities",
          "span_error": "span_error"}


@settings(max_examples=60, deadline=None)
@given(clusterings(), clusterings())
def test_errors_mirror(key, response) -> None:  # type: ignore[no-untyped-def]
    forward = analyse(key, response).counts()
    backward = analyse(response, key).counts()
    assert backward == {MIRROR[kind]: count for kind, count in forward.items()}


@settings(max_examples=60, deadline=None)
@given(clusterings(), clusterings(), st.randoms(use_true_random=False))
def test_counts_invariant_under_reordering(key, response, random) -> None:  # type: ignore[no-untyped-def]
    def shuffled(clusters):  # type: ignore[no-untyped-def]
        clusters = [random.sample(cluster, len(cluster)) for cluster in clusters]
        return random.sample(clusters, len(clusters))

    other_key, other_response = document(shuffled(key), "b"), document(shuffled(response), "b")
    options = Options.create(metrics=IDENTITY)
    first = analyse_documents([(document(key, "a"), document(response, "a")),
                               (other_key, other_response)], options).counts()
    second = analyse_documents([(document(shuffled(key), "b"), document(shuffled(response), "b")),
                                (document(key, "a"), document(response, "a"))], options).counts()
    assert first == second


def corpus(*parts: str) -> Path:
    path = SHARED.joinpath("corpora", *parts)
    if not path.exists():
        pytest.skip(f"{path} is absent")
    return path


def test_api_on_a_litbank_file_against_itself() -> None:
    path = next(iter(sorted(corpus("litbank", "coref-conll").glob("*.conll"))))
    result = analyse_errors(path, path)
    assert sum(result.counts().values()) == 0
    assert all(values["f1"] == pytest.approx(100.0)
               for values in result.impact_table()["all"].values())


def test_span_pairs_follow_the_analyser() -> None:
    # Punctuation at the ends is set aside ("meadows ;" is "meadows"); nested mentions with
    # different last tokens ("the company" in "the company 's chairman") are not paired.
    words = ("the", "company", "'s", "chairman", "saw", "meadows", ";", "it", ".")
    key = Document("d", words, (Entity("a", (Mention.span(0, 1), Mention.span(7, 7))),
                                Entity("b", (Mention.span(5, 5), Mention.span(8, 8)))))
    response = Document("d", words, (Entity("x", (Mention.span(0, 3), Mention.span(7, 7))),
                                     Entity("y", (Mention.span(5, 6), Mention.span(8, 8)))))
    result = analyse_documents([(key, response)], Options.create(metrics=IDENTITY))
    assert result.counts() == {**only("span_error"), "extra_mention": 1, "missing_mention": 1}
    [span] = [error for error in result.errors if error.type == "span_error"]
    assert span.key_mentions == ((5,),) and span.response_mentions == ((5, 6),)


def test_short_repr() -> None:
    assert repr(analyse(KEY, CASES["missing_entity"])) == (
        "ErrorAnalysis(1 documents: span_error=0, conflated_entities=0, divided_entity=0, "
        "extra_mention=0, missing_mention=0, extra_entity=0, missing_entity=1)")


def test_span_errors_pair_mentions_by_their_part_of_speech_head() -> None:
    # "a copyright law compatible with standards" (key) and "a copyright law" (response)
    # share the head "law" by their tags; by the last token they would not ("standards").
    words = ("He", "wants", "a", "copyright", "law", "compatible", "with", "standards", ".",
             "It", "helps", ".")
    tags = ("PRP", "VBZ", "DT", "NN", "NN", "JJ", "IN", "NNS", ".", "PRP", "VBZ", ".")

    def side(span: tuple[int, int], pos: bool) -> Document:
        return Document("d", words, (Entity("e", (Mention.span(*span), Mention.span(9, 9))),),
                        token_columns={"pos": tags} if pos else {})

    with_tags = analyse_documents([(side((2, 7), True), side((2, 4), True))], Options.create())
    assert with_tags.counts() == only("span_error")
    without = analyse_documents([(side((2, 7), False), side((2, 4), False))], Options.create())
    assert without.counts()["span_error"] == 0
    assert without.counts()["missing_mention"] == 1 and without.counts()["extra_mention"] == 1




@pytest.mark.parametrize("output", ["text", "markdown", "csv", "json"])
def test_a_metric_not_applicable_is_n_a_not_nan(capsys: pytest.CaptureFixture[str],
                                                output: str, example_pair) -> None:
    """The zero metric on CoNLL-2012 files (no empty nodes) is n/a, as in anascore score: the
    impact table printed 'nan (+nan)' and the JSON held NaN, which is not JSON."""
    import json

    from anascore.cli.main import main

    status = main(["errors", *example_pair,
                   "--metrics", "muc,zero", "--output", output])
    out = capsys.readouterr().out
    assert status == 0
    assert "nan" not in out.lower().replace("n/a", "")
    if output == "json":
        data = json.loads(out, parse_constant=lambda name: pytest.fail(name))
        # fractions, as every JSON anascore writes (issue 23)
        assert data["scores"] == {"muc": pytest.approx(0.8785046728971963), "zero": None}
        assert data["impact"]["all"] == {"muc": {"f1": 1.0,
                                                 "delta_f1": pytest.approx(0.12149532710280365)},
                                         "zero": {"f1": None, "delta_f1": None}}
    elif output == "csv":  # one long table: n/a is an empty cell (issue 23)
        rows = [row for row in out.splitlines() if row.startswith("response.conll,impact,,all,")]
        assert sorted(rows) == ["response.conll,impact,,all,,muc,1.0,0.12149532710280364,,,,",
                                "response.conll,impact,,all,,zero,,,,,,"]
    else:
        assert "n/a" in out
        rows = [line for line in out.splitlines() if line.lstrip("| ").startswith("all")]
        assert rows and all("n/a" in row and "100.00 (+12.15)" in row for row in rows)


def test_the_analysis_keeps_nan_in_python(example_pair) -> None:
    analysis = analyse_errors(*example_pair, metrics="muc,zero")
    assert math.isnan(analysis.impact_table()["all"]["zero"]["f1"])
    assert analysis.to_dict()["impact"]["all"]["zero"] == {"f1": None, "delta_f1": None}


def test_a_tie_keeps_the_piece_with_the_earliest_mention_in_token_order() -> None:
    # Key: The(1 owner of the(0 dog 0)|1) laughed . / It(0) barked at him(1) .  The response
    # puts all four mentions in one entity: two key entities of two mentions each, a tie.
    # The piece that stays (docs/error-analysis.md; the impact fix) holds the earliest
    # mention, [The owner of the dog], so the conflated piece is {the dog, It}; --list named
    # {The owner of the dog, him}, breaking the tie by mention index (the file's order).
    dog, it, owner, him = (3, 4), (7, 7), (0, 4), (10, 10)
    for key in ([[dog, it], [owner, him]], [[owner, him], [dog, it]]):
        for response in ([[dog, owner, it, him]], [[him, it, owner, dog]]):
            [error] = analyse(key, response).errors
            assert error.type == "conflated_entities"
            assert error.key_mentions == error.response_mentions == ((3, 4), (7,))
            # The mirror image: one response entity divided in two key entities.
            [mirror] = analyse(response, key).errors
            assert mirror.type == "divided_entity"
            assert mirror.key_mentions == mirror.response_mentions == ((3, 4), (7,))
