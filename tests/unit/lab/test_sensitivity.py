"""The metric sensitivity lab (Moosavi & Strube 2016, §6): values derived by hand for the
controlled responses, and every observation the paper states for Figures 2–8, each marked
as reproduced or not by anascore's numbers."""

from __future__ import annotations

import json

import pytest

from anascore.cli.main import main
from anascore.lab.sensitivity import (
    KEY_SIZES,
    key_clusters,
    observations,
    run_lab,
    score_response,
)

EXPERIMENTS = run_lab()
BY_FIGURE = {experiment.figure: experiment for experiment in EXPERIMENTS}
OBSERVATIONS = {observation.number: observation for observation in observations(EXPERIMENTS)}

# Key: 79 mentions in 17 entities; MUC counts 79 − 17 = 62 key links, LEA and BLANC count
# 190 + 2·45 + 3·10 + 6 + 10·1 = 326 coreference links.
KEY_MENTIONS = 79
KEY_ENTITIES = 17


def f1(recall: float, precision: float) -> float:
    return 2 * recall * precision / (recall + precision)


def test_the_key_of_the_paper() -> None:
    assert sorted(KEY_SIZES, reverse=True) == [20, 10, 10, 5, 5, 5, 4] + [2] * 10
    assert sum(len(cluster) for cluster in key_clusters()) == KEY_MENTIONS
    scores = score_response(key_clusters())
    assert all(score.f1 == 1.0 for score in scores.values())


def test_splitting_an_entity_in_two_costs_muc_one_link_whatever_the_sizes() -> None:
    # Recall (62 − 1) / 62, precision 61 / 61.
    for label in ("18-2", "16-4", "10-10", "5-5", "3-2", "2-2"):
        assert BY_FIGURE[6].point(label).f1("muc") == pytest.approx(f1(61 / 62, 1.0))
    for label in ("9-9-2", "9-5-6", "5-3-2"):
        assert BY_FIGURE[6].point(label).f1("muc") == pytest.approx(f1(60 / 62, 1.0))


def test_ceafe_of_a_split_keeps_the_largest_part() -> None:
    # 18-2: the entity of 20 is matched with its part of 18, φ₄ = 2·18 / (20 + 18); the
    # other 16 entities are exact. Recall over 17 key entities, precision over 18.
    matched = 16 + 2 * 18 / (20 + 18)
    assert BY_FIGURE[6].point("18-2").f1("ceafe") == pytest.approx(
        f1(matched / KEY_ENTITIES, matched / (KEY_ENTITIES + 1)))


def test_extra_mentions() -> None:
    figure = BY_FIGURE[7]
    # LEA, one extra mention in an entity of n: that response entity of n + 1 mentions keeps
    # n (n − 1) / 2 of its (n + 1) n / 2 links: (n + 1) · (n − 1)/(n + 1) = n − 1 of n + 1.
    # Precision (79 − 1) / 80, recall 1.
    for n in (2, 4, 5, 10, 20):
        assert figure.point(f"1-{n}").f1("lea") == pytest.approx(f1(1.0, 78 / 80))
    # Two extra mentions as an entity of their own: 0 of 2 more in LEA's precision.
    assert figure.point("2-0").f1("lea") == pytest.approx(f1(1.0, 79 / 81))
    # CEAFe: an 18th response entity matched with nothing.
    assert figure.point("2-0").f1("ceafe") == pytest.approx(f1(1.0, 17 / 18))
    # CEAFm: 79 of 79 + k mentions, wherever the k extra mentions go.
    assert figure.point("3-10").f1("ceafm") == pytest.approx(f1(1.0, 79 / 82))
    assert figure.point("3-0").f1("ceafm") == figure.point("3-10").f1("ceafm")


def test_whole_entities_resolved() -> None:
    # The first j entities complete, the others absent: CEAFe recall j / 17, precision 1;
    # B3, CEAFm and LEA recall (mentions of those entities) / 79, precision 1.
    for figure in (4, 5):
        experiment = BY_FIGURE[figure]
        ordered = sorted(KEY_SIZES, reverse=figure == 4)
        for count, point in enumerate(experiment.points[1:], start=1):
            assert point.f1("ceafe") == pytest.approx(f1(count / KEY_ENTITIES, 1.0))
            recall = sum(ordered[:count]) / KEY_MENTIONS
            for metric in ("bcub", "ceafm", "lea"):
                assert point.f1(metric) == pytest.approx(f1(recall, 1.0))


def test_no_correct_link() -> None:
    # Figure 3 at 0%: every mention found, none with a coreferent mention of its entity.
    none = BY_FIGURE[3].points[0]
    assert none.f1("mentions") == 1.0
    assert none.f1("muc") == 0.0 and none.f1("lea") == 0.0
    # Figure 8 at 100%: every key mention alone. B3 recall Σ |K| · (1/|K|) / 79 = 17 / 79,
    # precision 1.
    everything = BY_FIGURE[8].points[-1]
    assert everything.f1("bcub") == pytest.approx(f1(KEY_ENTITIES / KEY_MENTIONS, 1.0))


# The paper's observations: reproduced (True) or not (False) by anascore's numbers, with why.
EXPECTED = {
    1: True,    # Fig. 2–3: only MUC and LEA give 0 with no correct link.
    2: True,    # Fig. 2: CEAFe's step from 0% to 20% is the largest (86.6 points).
    # Fig. 3: CEAFe does not fall from 0% to 20% in our construction (23.6 → 60.1): the paper
    # does not describe how the wrong links of its Figure 3 were drawn, and ours (pairs of
    # mentions from different entities) gives CEAFe no drop.
    3: False,
    4: True,    # Fig. 2: BLANC at most B3 and LEA.
    # Fig. 3: BLANC leads the others by 17 points at 0% but by less further on, and falls
    # below CEAFm at 78%: "at least 20% higher" holds only at the start in our construction.
    5: False,
    6: True,    # Fig. 4–5: CEAFe ignores entity sizes.
    7: True,    # Fig. 4–5: B3 = CEAFm = LEA.
    8: True,    # Fig. 4–5: BLANC most sensitive to the number of links.
    9: True,    # Fig. 6: MUC counts splits only.
    10: True,   # Fig. 6: CEAFe 2-2 = 10-10, 9-9-2 = 9-5-6.
    11: True,   # Fig. 6: B3 18-2 > 5-3-2 > 16-4.
    12: True,   # Fig. 6: BLANC 5-3-2 > 18-2 > 16-4.
    13: True,   # Fig. 6: CEAFm 18-2 > 16-4 > 5-3-2.
    14: True,   # Fig. 6: CEAFe 18-2 > 16-4 > 5-3-2.
    15: True,   # Fig. 6: LEA 18-2 > 16-4 > 5-3-2.
    16: True,   # Fig. 7: MUC and CEAFm least discriminative.
    17: True,   # Fig. 7: all but CEAFe rank 3-10 worst (MUC and CEAFm with ties).
    18: True,   # Fig. 7: CEAFe ranks 2-0 and 3-0 worst.
    19: True,   # Fig. 7: only LEA finds 2-0 less harmful than 1-2 and 1-10.
    20: True,   # Fig. 7: LEA blind to which entity one extra mention joins.
    21: True,   # Fig. 8: B3, CEAF, BLANC reward mention identification alone.
}


def test_every_observation_is_checked() -> None:
    assert sorted(OBSERVATIONS) == sorted(EXPECTED)


@pytest.mark.parametrize("number", sorted(EXPECTED))
def test_observation(number: int) -> None:
    observation = OBSERVATIONS[number]
    assert observation.holds is EXPECTED[number], (
        f"Figure {observation.figure}: {observation.statement} — {observation.evidence}")


def test_lab_command_prints_tables_and_observations(capsys) -> None:
    assert main(["lab"]) == 0
    out = capsys.readouterr().out
    assert "Figure 6: Splitting one entity (F1, %)" in out
    assert "Observations of Moosavi & Strube (2016, §6), checked" in out
    assert main(["lab", "--output", "json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert [experiment["figure"] for experiment in result["experiments"]] == [2, 3, 4, 5, 6,
                                                                              7, 8]
    assert sum(item["holds"] for item in result["observations"]) == sum(EXPECTED.values())
