"""The reference scorers' test situations, re-told in our own fixtures.

Every case of the reference scorer's suite (TC-A … TC-N of ``test/TestCases.README`` in
conll/reference-coreference-scorers v8.01) is encoded in
``fixtures/reference_situations/<group>/`` with the same entities and mention spans, in our own
words. The expected values are the fractions the README derives, written out so that they equal
what the Perl scorer computes (to 1e-9; the README and the scorer's test configuration round
some of them to four or five decimals). LEA is checked against the LEA lines that the CorefUD
scorer's copy of the README adds, and against the worked example of the LEA paper
(Moosavi & Strube 2016, §5).

Letters name mentions as the README does: lower-case (or digits) in the key, ``x``, ``y``,
``z`` response-only mentions, ``B`` a response mention overlapping ``b``. In TC-A-12 and
TC-A-13 the response-only mentions are called ``p``, ``q``, ``r`` here (the README reuses
``x``, ``y``, ``z`` for other spans). Each fixture's first line lists its entities.

BLANC follows the reference scorer: recall, precision and F1 are the means of the
coreference-link and non-coreference-link parts, and when the key has no links of one kind
(TC-M, TC-N) only the other part is scored.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import pytest

import anascore
from anascore import Report
from tests.support.paths import FIXTURES

FIXTURES = FIXTURES / "reference_situations"
TOLERANCE = 1e-9

Triple = tuple[float, float, float]
Part = tuple[float, float]


def f1(recall: float, precision: float) -> float:
    """The harmonic mean of recall and precision, 0 when both are 0."""
    return 2 * recall * precision / (recall + precision) if recall + precision else 0.0


def prf(recall: float, precision: float) -> Triple:
    """Recall, precision and F1 of a metric from its recall and precision."""
    return recall, precision, f1(recall, precision)


@dataclass(frozen=True)
class Blanc:
    """BLANC's expected halves: (recall, precision) of the coreference links and of the
    non-coreference links; ``None`` for a kind of link the key does not have."""

    coref: Part | None
    non_coref: Part | None

    @property
    def triple(self) -> Triple:
        """Recall, precision and F1: the mean over the parts the key has."""
        parts = [prf(*part) for part in (self.coref, self.non_coref) if part is not None]
        recall, precision, f1_value = (sum(values) / len(parts)
                                       for values in zip(*parts, strict=True))
        return recall, precision, f1_value


@dataclass(frozen=True)
class Case:
    """One reference case: the fixture pair and the expected values of each metric."""

    group: str
    response: str
    expected: dict[str, Triple] = field(default_factory=dict)
    blanc: Blanc | None = None

    @property
    def key_path(self) -> Path:
        return FIXTURES / self.group / "key.conll"

    @property
    def response_path(self) -> Path:
        return FIXTURES / self.group / f"response_{self.response}.conll"


def case(group: str, response: int, *, blanc: Blanc | None = None, **expected: Triple) -> Case:
    """A case of the fixture group ``group`` scored with ``response_<response>.conll``."""
    return Case(group, str(response), dict(expected), blanc)


# The de-duplicated response of TC-A-7, TC-A-8 and TC-A-9, {a} {b c x} {d y} {z}, and TC-A-4.
A4_VALUES = {
    # MUC: {b c} is one link found; response links b-c, c-x, d-y: one right of three.
    "muc": prf(1 / 3, 1 / 3),
    # B³: recall (1 + 2²/2 + 1²/3) / 6, precision (1 + 2²/3 + 1²/2 + 0) / 7.
    "bcub": prf((1 + 2 + 1 / 3) / 6, (1 + 4 / 3 + 1 / 2) / 7),
    # CEAFm: 4 mentions in aligned entities ({a}, {b c}~{b c x}, {d e f}~{d y}).
    "ceafm": prf(4 / 6, 4 / 7),
    # CEAFe: φ4 = 1 + 2·2/(2+3) + 2·1/(3+2) = 2.2, over 3 key and 4 response entities.
    "ceafe": prf((1 + 4 / 5 + 2 / 5) / 3, (1 + 4 / 5 + 2 / 5) / 4),
    # LEA: recall (1·1 + 2·1 + 3·0) / 6, precision (1·1 + 3·(1/3) + 2·0 + 1·0) / 7.
    "lea": prf((1 + 2 * 1 + 3 * 0) / 6, (1 + 3 * (1 / 3) + 2 * 0 + 1 * 0) / 7),
}
A4_BLANC = Blanc(coref=(1 / 4, 1 / 4), non_coref=(5 / 11, 5 / 17))

CASES: dict[str, Case] = {
    # A1 — perfect: key {a} {b c} {d e f}, response the same.
    "A1": case("a", 1, muc=prf(3 / 3, 3 / 3), bcub=prf(6 / 6, 6 / 6), ceafm=prf(6 / 6, 6 / 6),
               ceafe=prf(3 / 3, 3 / 3), lea=prf(6 / 6, 6 / 6),
               blanc=Blanc(coref=(4 / 4, 4 / 4), non_coref=(11 / 11, 11 / 11))),
    # A2 — missing mentions and entities: response {a} {d e}.
    "A2": case("a", 2, muc=prf(1 / 3, 1 / 1),
               bcub=prf((1 + 0 + 2 * (2 / 3)) / 6, 3 / 3),
               ceafm=prf(3 / 6, 3 / 3),
               ceafe=prf((1 + 4 / 5) / 3, (1 + 4 / 5) / 2),
               lea=prf((1 + 2 * 0 + 3 * (1 / 3)) / 6, (1 + 2 * 1) / 3),
               blanc=Blanc(coref=(1 / 4, 1 / 1), non_coref=(2 / 11, 2 / 2))),
    # A3 — false-alarm mentions and entities: response {a} {b c x} {d z e f} {y}.
    "A3": case("a", 3, muc=prf(3 / 3, 3 / 5),
               bcub=prf(6 / 6, (1 + 2**2 / 3 + 3**2 / 4 + 0) / 9),
               ceafm=prf(6 / 6, 6 / 9),
               ceafe=prf((1 + 4 / 5 + 6 / 7) / 3, (1 + 4 / 5 + 6 / 7) / 4),
               lea=prf((1 + 2 + 3) / 6, (1 + 3 * (1 / 3) + 4 * (3 / 6) + 1 * 0) / 9),
               blanc=Blanc(coref=(4 / 4, 4 / 9), non_coref=(11 / 11, 11 / 27))),
    # A4 — missing and false-alarm mentions: response {a} {b c x} {d y} {z}.
    "A4": case("a", 4, **A4_VALUES, blanc=A4_BLANC),
    # A5 — as A4 with B (inside b) in b's response entity: response {a} {b B c x} {d y} {z}.
    "A5": case("a", 5, muc=prf(1 / 3, 1 / 4),
               bcub=prf((1 + 2 + 1 / 3) / 6, (1 + 2**2 / 4 + 1 / 2 + 0) / 8),
               ceafm=prf(4 / 6, 4 / 8),
               ceafe=prf((1 + 2 * 2 / (2 + 4) + 2 / 5) / 3, (1 + 2 * 2 / (2 + 4) + 2 / 5) / 4),
               lea=prf((1 + 2 * 1 + 3 * 0) / 6, (1 + 4 * (1 / 6) + 2 * 0 + 1 * 0) / 8),
               blanc=Blanc(coref=(1 / 4, 1 / 7), non_coref=(5 / 11, 5 / 21))),
    # A6 — as A4 with B in another response entity: response {a} {b c x} {d y} {B z}.
    "A6": case("a", 6, muc=prf(1 / 3, 1 / 4),
               bcub=prf((1 + 2 + 1 / 3) / 6, (1 + 4 / 3 + 1 / 2 + 0) / 8),
               ceafm=prf(4 / 6, 4 / 8),
               ceafe=prf((1 + 4 / 5 + 2 / 5) / 3, (1 + 4 / 5 + 2 / 5) / 4),
               lea=prf((1 + 2 * 1 + 3 * 0) / 6, (1 + 3 * (1 / 3) + 2 * 0 + 2 * 0) / 8),
               blanc=Blanc(coref=(1 / 4, 1 / 5), non_coref=(5 / 11, 5 / 23))),
    # A7 — b repeated in its own response entity {a} {b b c x} {d y} {z}: de-duplicated, A4.
    "A7": case("a", 7, **A4_VALUES, blanc=A4_BLANC),
    # A8 — b repeated in another entity {a} {b c x} {d y} {b z}: the first copy is kept, A4.
    "A8": case("a", 8, **A4_VALUES, blanc=A4_BLANC),
    # A9 — b repeated ten times in {b … b z} (B³ could be gamed): de-duplicated, A4.
    "A9": case("a", 9, **A4_VALUES, blanc=A4_BLANC),
    # A10 — gold mentions, only singletons in the response {a} {b} {c} {d} {e} {f}.
    "A10": case("a", 10, muc=prf(0 / 3, 0),
                bcub=prf((1 + 2 * (1 / 2) + 3 * (1 / 3)) / 6, 6 / 6),
                lea=prf((1 * 1 + 2 * 0 + 3 * 0) / 6, (1 * 1 + 5 * 0) / 6),
                blanc=Blanc(coref=(0 / 4, 0), non_coref=(11 / 11, 11 / 15))),
    # A11 — gold mentions, all in one response entity {a b c d e f}.
    "A11": case("a", 11, muc=prf(3 / 3, 3 / 5),
                bcub=prf(6 / 6, (1**2 + 2**2 + 3**2) / 6 / 6),
                lea=prf((1 * 0 + 2 * 1 + 3 * 1) / 6, 6 * (4 / 15) / 6),
                blanc=Blanc(coref=(4 / 4, 4 / 15), non_coref=(0 / 11, 0))),
    # A12 — system mentions, only singletons: response {a} {p} {q} {c} {d} {e} {r}.
    "A12": case("a", 12, muc=prf(0 / 3, 0),
                bcub=prf((1 + 1 / 2 + 2 * (1 / 3)) / 6, (1 + 1 + 1 + 1 + 0 + 0 + 0) / 7),
                lea=prf((1 * 1 + 2 * 0 + 3 * 0) / 6, (1 * 1 + 6 * 0) / 7),
                blanc=Blanc(coref=(0 / 4, 0), non_coref=(5 / 11, 5 / 21))),
    # A13 — system mentions, all in one response entity {a p q c d e r}.
    "A13": case("a", 13, muc=prf(1 / 3, 1 / 6),
                bcub=prf((1 + 1 / 2 + 2**2 / 3) / 6, (1 + 1 + 2**2) / 7 / 7),
                lea=prf((1 * 0 + 2 * 0 + 3 * (1 / 3)) / 6, 7 * (1 / 21) / 7),
                blanc=Blanc(coref=(1 / 4, 1 / 21), non_coref=(0 / 11, 0))),
    # B1 — key {a b} {c d e}, response {b c x} {d e}: b-c is a key non-coreference link.
    "B1": case("b", 1, lea=prf((2 * 0 + 3 * (1 / 3)) / 5, (3 * 0 + 2 * 1) / 5),
               blanc=Blanc(coref=(1 / 4, 1 / 4), non_coref=(2 / 6, 2 / 6))),
    # C1 — B1 plus an entity {f g} found exactly.
    "C1": case("c", 1, lea=prf((2 * 0 + 3 * (1 / 3) + 2 * 1) / 7, (3 * 0 + 2 * 1 + 2 * 1) / 7),
               blanc=Blanc(coref=(2 / 5, 2 / 5), non_coref=(10 / 16, 10 / 16))),
    # D1 — B³ paper: key {1 2 3 4 5} {6 7} {8 9 A B C}, response merges the two smaller ones.
    "D1": case("d", 1, muc=prf(9 / 9, 9 / 10),
               bcub=prf(12 / 12, (5**2 / 5 + (2**2 + 5**2) / 7) / 12),
               lea=prf((5 + 2 + 5) / 12, (5 * 1 + 7 * (11 / 21)) / 12)),
    # E1 — B³ paper: the response merges the two big entities {1 … 5 8 … C} {6 7}.
    "E1": case("e", 1, muc=prf(9 / 9, 9 / 10),
               bcub=prf(12 / 12, ((5**2 + 5**2) / 10 + 2**2 / 2) / 12),
               lea=prf((5 + 2 + 5) / 12, (10 * (20 / 45) + 2 * 1) / 12)),
    # F1 — MUC paper: key {A B C D}, response {A B} {C D}.
    "F1": case("f", 1, muc=prf(2 / 3, 2 / 2), lea=prf(4 * (2 / 6) / 4, (2 * 1 + 2 * 1) / 4)),
    # G1 — MUC paper: key {A B} {C D}, response {A B C D}.
    "G1": case("g", 1, muc=prf(2 / 2, 2 / 3), lea=prf((2 * 1 + 2 * 1) / 4, 4 * (2 / 6) / 4)),
    # H1 — MUC paper: key {A B C D}, response the same (other links, same entity).
    "H1": case("h", 1, muc=prf(3 / 3, 3 / 3), lea=prf(4 * (6 / 6) / 4, 4 * (6 / 6) / 4)),
    # I1 — MUC paper: key {A B C D}, response {A B} {C D}.
    "I1": case("i", 1, muc=prf(2 / 3, 2 / 2), lea=prf(4 * (2 / 6) / 4, (2 * 1 + 2 * 1) / 4)),
    # J1 — MUC paper: key {A B C}, response {A C}.
    "J1": case("j", 1, muc=prf(1 / 2, 1 / 1), lea=prf(3 * (1 / 3) / 3, 2 * 1 / 2)),
    # K1 — MUC paper: key {B C D E G H J}, response {A B C} {D E F} {G H I}.
    "K1": case("k", 1, muc=prf(3 / 6, 3 / 6),
               lea=prf(7 * ((1 + 1 + 1) / 21) / 7, (3 * (1 / 3) + 3 * (1 / 3) + 3 * (1 / 3)) / 9)),
    # L1 — MUC paper: key {A B C} {D E F G}, response {A B} {C D} {F G H}.
    "L1": case("l", 1, muc=prf(2 / 5, 2 / 4),
               lea=prf((3 * (1 / 3) + 4 * (1 / 6)) / 7, (2 * 1 + 2 * 0 + 3 * (1 / 3)) / 7)),
    # M1 — key {a b c d e f} (no non-coreference links), response the same.
    "M1": case("m", 1, muc=prf(5 / 5, 5 / 5), bcub=prf(6 / 6, 6 / 6), ceafm=prf(6 / 6, 6 / 6),
               ceafe=prf(1 / 1, 1 / 1), lea=prf(6 / 6, 6 / 6),
               blanc=Blanc(coref=(15 / 15, 15 / 15), non_coref=None)),
    # M2 — key {a b c d e f}, gold mentions, response only singletons.
    "M2": case("m", 2, muc=prf(0 / 5, 0), lea=prf(6 * (0 / 15) / 6, 6 * 0 / 6),
               blanc=Blanc(coref=(0 / 15, 0), non_coref=None)),
    # M3 — key {a b c d e f}, gold mentions, response {a b} {c d e} {f}.
    "M3": case("m", 3, lea=prf(6 * (4 / 15) / 6, (2 * 1 + 3 * 1 + 1 * 0) / 6),
               blanc=Blanc(coref=(4 / 15, 4 / 4), non_coref=None)),
    # M4 — key {a b c d e f}, system mentions in one entity {a b c x z y}.
    "M4": case("m", 4, lea=prf(6 * (3 / 15) / 6, 6 * (3 / 15) / 6),
               blanc=Blanc(coref=(3 / 15, 3 / 15), non_coref=None)),
    # M5 — key {a b c d e f}, system mentions as singletons {a} {b} {c} {x} {z} {y}.
    "M5": case("m", 5, muc=prf(0 / 5, 0), lea=prf(6 * (0 / 15) / 6, 6 * 0 / 6),
               blanc=Blanc(coref=(0 / 15, 0), non_coref=None)),
    # M6 — key {a b c d e f}, system mentions {a b} {c x z} {y}.
    "M6": case("m", 6, lea=prf(6 * (1 / 15) / 6, (2 * 1 + 3 * 0 + 1 * 0) / 6),
               blanc=Blanc(coref=(1 / 15, 1 / 4), non_coref=None)),
    # N1 — key {a} {b} {c} {d} {e} {f} (no coreference links), response the same.
    "N1": case("n", 1, muc=prf(0, 0), lea=prf(6 / 6, 6 / 6),
               blanc=Blanc(coref=None, non_coref=(15 / 15, 15 / 15))),
    # N2 — key all singletons, response one entity {a b c d e f}.
    "N2": case("n", 2, muc=prf(0, 0 / 5), lea=prf(6 * 0 / 6, 6 * (0 / 15) / 6),
               blanc=Blanc(coref=None, non_coref=(0 / 15, 0))),
    # N3 — key all singletons, response {a b} {c d e} {f}.
    "N3": case("n", 3, lea=prf((5 * 0 + 1 * 1) / 6, (2 * 0 + 3 * 0 + 1 * 1) / 6),
               blanc=Blanc(coref=None, non_coref=(11 / 15, 11 / 11))),
    # N4 — key all singletons, system mentions as singletons {a} {b} {c} {x} {z} {y}.
    "N4": case("n", 4, muc=prf(0, 0), lea=prf((1 + 1 + 1) / 6, (1 + 1 + 1) / 6),
               blanc=Blanc(coref=None, non_coref=(3 / 15, 3 / 15))),
    # N5 — key all singletons, system mentions in one entity {a b c x z y}.
    "N5": case("n", 5, lea=prf(6 * 0 / 6, 6 * (0 / 15) / 6),
               blanc=Blanc(coref=None, non_coref=(0 / 15, 0))),
    # N6 — key all singletons, system mentions {a b} {c x z} {y}.
    "N6": case("n", 6, lea=prf(6 * 0 / 6, (2 * 0 + 3 * 0 + 1 * 0) / 6),
               blanc=Blanc(coref=None, non_coref=(2 / 15, 2 / 11))),
}

REPEATED_MENTION_CASES = ("A7", "A8", "A9")


@functools.cache
def scored(case_id: str) -> Report:
    """The report for one case (scored once, shared by its tests)."""
    entry = CASES[case_id]
    return anascore.score(entry.key_path, entry.response_path, format="conll2012")


class Scored(Protocol):
    """What the checks read from a score: recall, precision and F1."""

    recall: float
    precision: float
    f1: float


def assert_triple(actual: Scored, expected: Triple, what: str) -> None:
    """Recall, precision and F1 of ``actual`` equal ``expected`` to :data:`TOLERANCE`."""
    got = (actual.recall, actual.precision, actual.f1)
    for name, value, want in zip(("recall", "precision", "f1"), got, expected, strict=True):
        assert math.isclose(value, want, rel_tol=0, abs_tol=TOLERANCE), (
            f"{what} {name}: {value!r}, expected {want!r}")


METRIC_PARAMS = [
    pytest.param(case_id, metric, id=f"{case_id}-{metric}")
    for case_id, entry in CASES.items()
    for metric in entry.expected
]
BLANC_PARAMS = [case_id for case_id, entry in CASES.items() if entry.blanc is not None]


def test_every_fixture_is_used() -> None:
    """Each response file of the fixtures belongs to a case (and each case has its files)."""
    used = {entry.response_path for entry in CASES.values()}
    on_disk = set(FIXTURES.glob("*/response_*.conll"))
    assert used == on_disk
    assert all(entry.key_path.is_file() for entry in CASES.values())


@pytest.mark.parametrize(("case_id", "metric"), METRIC_PARAMS)
def test_metric(case_id: str, metric: str) -> None:
    """MUC, B³, CEAFm, CEAFe and LEA equal the reference values of the case."""
    expected = CASES[case_id].expected[metric]
    assert_triple(scored(case_id).metrics[metric], expected, f"{case_id} {metric}")


@pytest.mark.parametrize("case_id", BLANC_PARAMS)
def test_blanc(case_id: str) -> None:
    """BLANC and its two halves equal the reference values of the case."""
    blanc = CASES[case_id].blanc
    assert blanc is not None
    score = scored(case_id).metrics["blanc"]
    assert_triple(score, blanc.triple, f"{case_id} blanc")
    if blanc.coref is not None:
        assert_triple(score.coref_links, prf(*blanc.coref), f"{case_id} blanc coreference links")
    if blanc.non_coref is not None:
        assert_triple(score.non_coref_links, prf(*blanc.non_coref),
                      f"{case_id} blanc non-coreference links")


@pytest.mark.parametrize("case_id", [c for c, e in CASES.items() if {"muc", "bcub", "ceafe"}
                                     <= e.expected.keys()])
def test_conll_average(case_id: str) -> None:
    """The CoNLL score is the mean F1 of MUC, B³ and CEAFe."""
    expected = CASES[case_id].expected
    mean = (expected["muc"][2] + expected["bcub"][2] + expected["ceafe"][2]) / 3
    assert math.isclose(scored(case_id).metrics["conll"].f1, mean, rel_tol=0,
                        abs_tol=TOLERANCE)


@pytest.mark.parametrize("case_id", REPEATED_MENTION_CASES)
def test_repeated_response_mentions_are_reported(case_id: str) -> None:
    """TC-A-7 … 9 repeat the response mention b: it is scored once, with a warning."""
    assert any("repeated" in warning for warning in scored(case_id).warnings)


def test_no_warnings_without_repeated_mentions() -> None:
    """The other cases have the same tokens on both sides and no repeated mention."""
    noisy = {case_id: scored(case_id).warnings for case_id in CASES
             if case_id not in REPEATED_MENTION_CASES and scored(case_id).warnings}
    assert noisy == {}


def test_lea_paper_example() -> None:
    """Moosavi & Strube (2016), §5: key {a b c} {d e f g}, response {a b} {c d} {f g h i}.

    Recall: k1 keeps one of its three links (a-b), k2 one of six (f-g); precision: r1's only
    link is right, r2's is wrong, r3 has one right link of six. The paper rounds to 0.24 and
    0.33.
    """
    report = anascore.score(FIXTURES / "lea_paper" / "key.conll",
                            FIXTURES / "lea_paper" / "response.conll", format="conll2012")
    recall = (3 * (1 / 3) + 4 * (1 / 6)) / (3 + 4)
    precision = (2 * (1 / 1) + 2 * (0 / 1) + 4 * (1 / 6)) / (2 + 2 + 4)
    assert_triple(report.metrics["lea"], prf(recall, precision), "LEA paper example")
    assert round(report.metrics["lea"].recall, 2) == 0.24
    assert round(report.metrics["lea"].precision, 2) == 0.33
