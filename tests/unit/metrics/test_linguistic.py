"""LMUC, LB³, LCEAFm, LCEAFe (Chen & Ng 2013) on the paper's running example.

The key and the five responses of §4.1 are our own CoNLL-2012 files
(``fixtures/chen_ng_2013/``, described in its README): the mention types come from their
part-of-speech and named-entity columns, as they would for an OntoNotes file.
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings

import anascore
from anascore.comparison.contingency import Comparison
from anascore.comparison.mention_types import MENTION_TYPES, comparison_types
from anascore.config.options import Options
from anascore.core.errors import OptionsError
from anascore.core.model import Document, Entity, Mention
from anascore.formats import read_documents
from anascore.matching import align_exact
from anascore.metrics.linguistic import linguistic_weights, spanning_tree_weight
from anascore.scoring.document import count_document
from anascore.selection.sides import select_side
from tests.support.paths import EXAMPLES, FIXTURES
from tests.support.strategies import document_pairs, to_document

FIXTURES = FIXTURES / "chen_ng_2013"
KEY = FIXTURES / "key.conll"
RESPONSES = "abcde"
METRICS = ("muc", "lmuc", "bcub", "lbcub", "ceafm", "lceafm", "ceafe", "lceafe")
W1 = (1.0, 1.0, 1.0, 1e-20)
W2 = (1.0, 1.0, 1.0, 0.5)
W3 = (1.0, 1.0, 1.0, 1.0)
W4 = (1.0, 0.75, 0.5, 1.0)
W5 = (1.0, 0.5, 0.25, 1.0)

#: Chen & Ng 2013, Table 1: recall, precision, F (percent) of each metric, LMetrics under W4.
TABLE_1 = {
    "a": {"muc": (58.3, 100, 73.7), "lmuc": (50.7, 58.6, 54.4),
          "bcub": (64.3, 100, 78.3), "lbcub": (39.2, 70.0, 50.2),
          "ceafm": (75.0, 75.0, 75.0), "lceafm": (50.7, 58.6, 54.4),
          "ceafe": (91.1, 56.1, 69.4), "lceafe": (73.8, 45.4, 56.2)},
    "b": {"muc": (66.7, 100, 80.0), "lmuc": (53.7, 64.3, 58.5),
          "bcub": (71.3, 100, 83.3), "lbcub": (43.1, 75.0, 54.7),
          "ceafm": (80.0, 80.0, 80.0), "lceafm": (53.7, 64.3, 58.5),
          "ceafe": (91.9, 61.3, 73.6), "lceafe": (74.5, 49.7, 59.6)},
    "c": {"muc": (66.7, 100, 80.0), "lmuc": (64.2, 68.3, 66.2),
          "bcub": (71.3, 100, 83.3), "lbcub": (50.8, 75.0, 60.6),
          "ceafm": (80.0, 80.0, 80.0), "lceafm": (64.2, 68.3, 66.2),
          "ceafe": (91.9, 61.3, 73.6), "lceafe": (76.7, 51.1, 61.4)},
    "d": {"muc": (66.7, 100, 80.0), "lmuc": (74.6, 71.4, 73.0),
          "bcub": (71.3, 100, 83.3), "lbcub": (58.6, 75.0, 65.8),
          "ceafm": (80.0, 80.0, 80.0), "lceafm": (74.6, 71.4, 73.0),
          "ceafe": (91.9, 61.3, 73.6), "lceafe": (78.4, 52.3, 62.8)},
    "e": {"muc": (91.7, 91.7, 91.7), "lmuc": (76.1, 92.7, 83.6),
          "bcub": (79.0, 79.0, 79.0), "lbcub": (65.0, 72.5, 68.5),
          "ceafm": (70.0, 70.0, 70.0), "lceafm": (58.2, 70.9, 63.9),
          "ceafe": (86.5, 86.5, 86.5), "lceafe": (85.8, 85.8, 85.8)},
}


def scores(response: str, weights: tuple[float, ...] = W4, metrics=METRICS):
    # Link weights only with a metric that weighs links (elsewhere they are refused).
    weighted = {"link_weights": weights} if set(metrics) & {"lmuc", "lbcub", "lceafm",
                                                            "lceafe"} else {}
    report = anascore.score(KEY, FIXTURES / f"response_{response}.conll", metrics=metrics,
                            **weighted)
    return report.metrics


def f1(response: str, metric: str, weights: tuple[float, ...]) -> float:
    return scores(response, weights, (metric,))[metric].f1


@pytest.mark.parametrize(("response", "metric"), list(itertools.product(RESPONSES, METRICS)))
def test_table_1(response: str, metric: str) -> None:
    """Every row of Table 1 (40 rows × recall, precision, F) to the printed precision."""
    score = scores(response)[metric]
    printed = TABLE_1[response][metric]
    computed = tuple(round(value * 100, 1) for value in (score.recall, score.precision,
                                                         score.f1))
    assert computed == pytest.approx(printed, abs=1e-9)


def test_the_example_has_the_types_of_figure_2() -> None:
    """Names are squares, nominals triangles, pronouns circles in Figure 2; ours come from the
    fixture's part-of-speech and named-entity columns."""
    key = next(read_documents(KEY, token_columns=True))
    side = select_side(key, Options(), "key", [])
    comparison = Comparison.from_sides(side, side, align_exact(side.mentions, side.mentions),
                                       Options(metrics=("lmuc",)))
    types = comparison_types(comparison, "test")
    by_words = {" ".join(key.tokens[t] for t in mention.tokens): MENTION_TYPES[code]
                for mention, code in zip(side.mentions, types.key.tolist(), strict=True)}
    assert by_words == {
        "Jesus": "name", "Jerusalem": "name", "the city": "nominal", "he": "pronoun",
        "I": "pronoun", "it": "pronoun", "you": "pronoun", "your": "pronoun",
        "your enemies": "nominal", "They": "pronoun", "peace": "nominal", "now": "pronoun",
        "A time": "nominal", "all sides": "nominal", "all your people": "nominal"}


def test_counts_of_response_a_and_e_under_w4() -> None:
    """The weights written out (§3, W4): key chains weigh {a, b, c} 2·1 (both links to the
    name), {d … m} 9·1, {n, o} 0.75, and five singletons 1 each."""
    key_weight = 2 * 1 + 9 * 1 + 0.75 + 5 * 1
    report = anascore.score(KEY, FIXTURES / "response_a.conll", metrics="lmuc")
    # (a): S_you is 6 pronoun links, {b, c} one; the five true singletons; every other
    # mention is a wrong singleton, weighing w_sing in the system chains only.
    common = 6 * 0.5 + 0.5 + 5 * 1
    counts = report.corpus_counts["lmuc"].tolist()
    assert counts == pytest.approx([common, key_weight, common, 6 * 0.5 + 0.5 + 11 * 1])
    report = anascore.score(KEY, FIXTURES / "response_e.conll", metrics=("lmuc", "lceafe"))
    # (e): {a, b, c} ∪ S_you holds the parts {a, b, c} (2) and S_you (3), joined by one
    # spurious link, the heaviest: a name link (1).
    common = 2 + 3 + 2 + 0.75 + 5
    counts = report.corpus_counts["lmuc"].tolist()
    assert counts == pytest.approx([common, key_weight, common, (2 + 3 + 1) + 2 + 0.75 + 5])
    # LCEAFe aligns {a, b, c} with the merged chain (2·2 / (2 + 6)) and {d … m} with {d, e, f}
    # (2·2 / (9 + 2)), rather than {d … m} with the merged chain (2·3 / (9 + 6)).
    aligned = 2 * 2 / (2 + 6) + 2 * 2 / (9 + 2) + 1 + 5
    assert report.corpus_counts["lceafe"].tolist() == pytest.approx([aligned, 8, aligned, 8])


def test_uniform_weights_and_a_tiny_singleton_weight_give_muc() -> None:
    """§4.2: with W1 'LMUC will essentially ignore correct identification of single clusters
    and consider all errors to be equal, just like MUC'."""
    for response in RESPONSES:
        result = scores(response, W1, ("muc", "lmuc"))
        assert result["lmuc"].recall == pytest.approx(result["muc"].recall, abs=1e-15)
        assert result["lmuc"].precision == pytest.approx(result["muc"].precision, abs=1e-15)


def test_a_larger_singleton_weight_lowers_lmuc_for_a_to_d_and_raises_it_for_e() -> None:
    """§4.2: from W1 to W2 to W3 'the LMUC scores for responses (a), (b), (c) and (d)
    decrease' (wrong singletons), and 'the LMUC score for response (e) is higher than the
    corresponding MUC score' (all singletons right, none wrong)."""
    for response in "abcd":
        assert f1(response, "lmuc", W1) > f1(response, "lmuc", W2) > f1(response, "lmuc", W3)
    muc = f1("e", "muc", W1)
    assert f1("e", "lmuc", W2) > muc and f1("e", "lmuc", W3) > muc


def test_the_singleton_weight_does_not_change_lb3_or_lceafe() -> None:
    """§4.2: 'the value of w_sing does not impact LB³ and LCEAFe'."""
    for response, metric in itertools.product(RESPONSES, ("lbcub", "lceafe")):
        values = [scores(response, weights, (metric,))[metric] for weights in (W1, W2, W3)]
        assert [value.recall for value in values] == pytest.approx([values[0].recall] * 3)
        assert [value.precision for value in values] == pytest.approx([values[0].precision] * 3)


def test_wrong_singletons_cost_lb3_and_lceafe_more_than_b3_and_ceafe() -> None:
    """§4.2: B³ 'only gives 0.7% more points to response (e) than response (a)', LB³
    'assigns a much lower score to response (a)'; LCEAFe 'penalizes erroneous singleton
    clusters more than CEAFe does'."""
    assert round(f1("e", "bcub", W3) * 100, 1) - round(f1("a", "bcub", W3) * 100, 1) == (
        pytest.approx(0.7))
    for weights in (W1, W2, W3):
        assert f1("e", "lbcub", weights) - f1("a", "lbcub", weights) > 0.15
        assert f1("a", "lceafe", weights) < f1("a", "ceafe", weights) - 0.05


def test_lceafm_ranks_a_above_e_without_singletons_and_below_with_them() -> None:
    """§4.2: LCEAFm(W1) 'gives a higher score to response (a) than response (e)'; under W3
    'response (e) is assigned a higher score … than response (a)' (also fn. 9)."""
    assert f1("a", "lceafm", W1) > f1("e", "lceafm", W1)
    assert f1("e", "lceafm", W3) > f1("a", "lceafm", W3)


@pytest.mark.parametrize("pair", [("muc", "lmuc"), ("bcub", "lbcub"), ("ceafm", "lceafm"),
                                  ("ceafe", "lceafe")])
def test_response_a_scores_lower_with_smaller_pronoun_and_nominal_weights(pair) -> None:
    """§4.3: 'LMetrics(W4) and LMetrics(W5) assign much lower scores to response (a) than the
    OMetrics', and 'the LMetrics(W5) scores are even lower than the LMetrics(W4) scores'."""
    original, linguistic = pair
    assert f1("a", original, W4) > f1("a", linguistic, W4) > f1("a", linguistic, W5)


@pytest.mark.parametrize("pair", [("muc", "lmuc"), ("bcub", "lbcub"), ("ceafm", "lceafm"),
                                  ("ceafe", "lceafe")])
def test_linking_to_a_name_beats_a_nominal_beats_a_pronoun(pair) -> None:
    """§4.3: the OMetrics give (b), (c), (d) the same scores; the LMetrics under W4 and W5
    rank (d) > (c) > (b), and the gaps widen from W4 to W5."""
    original, linguistic = pair
    assert f1("b", original, W4) == f1("c", original, W4) == f1("d", original, W4)
    gaps = {}
    for name, weights in (("W4", W4), ("W5", W5)):
        b, c, d = (f1(response, linguistic, weights) for response in "bcd")
        assert d > c > b
        gaps[name] = (c - b, d - c)
    assert gaps["W5"][0] > gaps["W4"][0] and gaps["W5"][1] > gaps["W4"][1]


def brute_force_tree(types: list[set[int]], weights: tuple[float, float, float]) -> float:
    """Kruskal over every link between nodes holding mentions of the given types (0 name,
    1 nominal, 2 pronoun): a link between two nodes takes the heaviest of their mention pairs,
    each weighing by Chen & Ng's first applicable rule."""
    def link(first: int, second: int) -> float:
        return weights[min(first, second)]

    edges = sorted(((max(link(a, b) for a in types[i] for b in types[j]), i, j)
                    for i, j in itertools.combinations(range(len(types)), 2)), reverse=True)
    parent = list(range(len(types)))

    def find(node: int) -> int:
        while parent[node] != node:
            node = parent[node]
        return node

    total = 0.0
    for weight, i, j in edges:
        if find(i) != find(j):
            parent[find(i)] = find(j)
            total += weight
    return total


def test_spanning_tree_weights_equal_kruskal_over_every_link() -> None:
    """The closed form against brute force, for weights in any order (a user may weigh
    pronoun links above name links; the rules still pick the weight)."""
    rng = random.Random(5)
    for _ in range(400):
        weights = tuple(rng.choice([0.25, 0.5, 0.75, 1.0, 2.0]) for _ in range(3))
        nodes = [set(rng.sample(range(3), rng.randint(1, 3))) for _ in range(rng.randint(1, 6))]
        expected = brute_force_tree(nodes, weights)
        computed = spanning_tree_weight(
            np.array([len(nodes)]), np.array([sum(1 for n in nodes if n & {1, 2})]),
            np.array([sum(1 for n in nodes if 2 in n)]), np.array([any(0 in n for n in nodes)]),
            np.array([any(1 in n for n in nodes)]), weights)
        assert computed[0] == pytest.approx(expected), (nodes, weights)


def test_predicted_mentions_the_key_lacks_are_joined_by_spurious_links() -> None:
    """A response chain of a key mention and a mention the key lacks: the two are parts of
    their own, joined by one spurious link; with the mention type of the response document."""
    def mention(start: int, kind: str) -> Mention:
        return Mention((start,), attributes={"mention_type": kind})

    key_document = Document("d", ("Mary", "she", "it"), (
        Entity("1", (mention(0, "name"), mention(1, "pronoun"))),))
    response_document = Document("d", ("Mary", "she", "it"), (
        Entity("1", (mention(1, "pronoun"), mention(2, "pronoun"))),))
    options = Options(metrics=("lmuc",))
    key_side = select_side(key_document, options, "key", [])
    response_side = select_side(response_document, options, "response", [])
    comparison = Comparison.from_sides(
        key_side, response_side, align_exact(key_side.mentions, response_side.mentions),
        options)
    weights = linguistic_weights(comparison, "lmuc")
    assert weights.key.tolist() == [1.0]            # Mary — she: a name link
    assert weights.common.tolist() == [0.0]         # "she" alone in its cell
    assert weights.response.tolist() == [0.5]       # she — it: a spurious pronoun link


def test_an_input_without_types_is_an_error_naming_the_file(tmp_path: Path) -> None:
    """A five-column CoNLL-2012 file cannot tell mention types: say so, never guess."""
    path = tmp_path / "plain.conll"
    path.write_text("#begin document d\nd 0 0 Mary (1)\nd 0 1 she (1)\n#end document\n")
    with pytest.raises(OptionsError, match="lmuc needs the type") as error:
        anascore.score(path, path, metrics="lmuc")
    assert str(path) in str(error.value) and "mention_type_function" in str(error.value)


def test_a_user_function_supplies_the_types(tmp_path: Path) -> None:
    path = tmp_path / "plain.conll"
    path.write_text("#begin document d\nd 0 0 Mary (1)\nd 0 1 she (1)\n#end document\n")
    by_word = {"Mary": "name", "she": "pronoun"}

    def mention_type(mention, document):
        return by_word[document.tokens[mention.start]]

    report = anascore.score(path, path, metrics="lmuc", mention_type_function=mention_type)
    assert report.metrics["lmuc"].f1 == 1.0
    assert report.corpus_counts["lmuc"].tolist() == [1.0, 1.0, 1.0, 1.0]
    assert "mention_types:test_a_user_function_supplies_the_types.<locals>.mention_type" in (
        report.signature)


def test_link_weights_are_checked() -> None:
    with pytest.raises(OptionsError, match="positive"):
        Options(metrics=("lmuc",), link_weights=(1, 0.75, 0.5, 0))
    with pytest.raises(OptionsError, match="4 finite numbers"):
        Options(metrics=("lmuc",), link_weights=(1, 0.75, 0.5))
    assert Options(metrics=("lmuc",), link_weights="1,0.5,0.25,1").link_weights == (
        1.0, 0.5, 0.25, 1.0)


EXAMPLE = EXAMPLES / "linguistic"


def test_the_readme_example_ranks_the_responses_both_ways() -> None:
    """docs/linguistic-metrics.md: a response that links the pronouns to each other and to
    'The young scientist' but never to a name wins on CoNLL F1; one that anchors short chains
    on 'Marie Curie', 'Pierre' and 'Paris' wins on every LMetric (W4)."""
    metrics = "muc,bcub,ceafe,conll,lmuc,lbcub,lceafm,lceafe"
    pronouns = anascore.score(EXAMPLE / "key.conll", EXAMPLE / "response_pronouns.conll",
                              metrics=metrics)
    names = anascore.score(EXAMPLE / "key.conll", EXAMPLE / "response_names.conll",
                           metrics=metrics)
    assert round(pronouns.metrics["conll"].f1 * 100, 2) == 73.38
    assert round(names.metrics["conll"].f1 * 100, 2) == 65.52
    shown = {"lmuc": (53.52, 55.56), "lbcub": (49.67, 54.32), "lceafm": (53.52, 55.56),
             "lceafe": (48.00, 58.10)}
    for metric, (pronoun_f1, name_f1) in shown.items():
        assert round(pronouns.metrics[metric].f1 * 100, 2) == pronoun_f1
        assert round(names.metrics[metric].f1 * 100, 2) == name_f1
    # Key chains weigh 4 (four links to "Marie Curie"), 2, 1 and two singletons: 9.
    # Pronouns: {The young scientist, She, her, she} 3 nominal links, {He, him} one pronoun
    # link, the two singletons; four wrong singletons (Marie Curie, Pierre, Paris, there)
    # weigh 1 each in precision.
    common = 3 * 0.75 + 0.5 + 2
    assert pronouns.corpus_counts["lmuc"].tolist() == [common, 9, common, common + 4]
    # Names: three name links and the two singletons; four wrong singletons (The young
    # scientist, her, she, him).
    assert names.corpus_counts["lmuc"].tolist() == [3 + 2, 9, 3 + 2, 3 + 2 + 4]


def test_the_cli_flags(capsys) -> None:
    from anascore.cli.main import main

    response = FIXTURES / "response_d.conll"
    assert main(["score", str(KEY), str(response), "--metrics", "lmuc",
                 "--link-weights", "1,0.5,0.25,1", "--output", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["options"]["link_weights"] == [1.0, 0.5, 0.25, 1.0]
    assert round(data["metrics"]["lmuc"]["f1"] * 100, 2) == 72.59  # W5, response (d)
    with pytest.raises(SystemExit) as caught:  # a usage error, named by its flag
        main(["score", str(KEY), str(response), "--metrics", "lmuc",
              "--link-weights", "1,0.5,0.25"])
    assert caught.value.code == 2
    assert "--link-weights must be 4 finite numbers" in capsys.readouterr().err
    assert main(["score", str(KEY), str(response)]) == 0
    assert "LMUC" not in capsys.readouterr().out  # 'all' leaves the LMetrics out


@settings(max_examples=150)
@given(document_pairs())
def test_lmuc_counts_are_mucs_with_uniform_weights_on_predicted_mentions(pair) -> None:
    """With W1 every link weighs 1 and a singleton 10⁻²⁰: LMUC's counts are MUC's (Pradhan et
    al. 2014's, predicted mentions included) up to 10⁻²⁰ per singleton — the check of
    decision 5 (a response mention the key lacks is a part of its own)."""
    key, response, tokens = pair
    options = Options(metrics=("muc", "lmuc"), link_weights=W1)
    record = count_document(to_document(key, tokens), to_document(response, tokens), options,
                            [])
    assert record["lmuc"].tolist() == pytest.approx(record["muc"].tolist(), abs=1e-15)


def test_split_antecedents_are_not_scored_by_the_linguistic_metrics() -> None:
    """Paun et al. generalize the standard metrics only: asking for both is an error, not a
    silent scoring of plurals as ordinary entities."""
    with pytest.raises(OptionsError, match="lmuc, dominant cannot score split antecedents"):
        Options(metrics=("muc", "lmuc", "dominant"), keep_split_antecedents=True)
    assert Options(metrics=("muc",), keep_split_antecedents=True).keep_split_antecedents
