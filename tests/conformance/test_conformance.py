"""Conformance with the reference scorers on their own published test files.

Reads ``../shared/reference-cases/`` beside the project (see its README): ``expected.json`` lists
each case of the reference scorers' suites with the values the reference scorer computes on
it (``peer``, full precision). Every CoNLL-2012 case is scored here and compared with ``peer`` to
1e-9: the Perl reference scorer v8.01 (suite ``conll-reference-scorer``) and the CorefUD scorer
1.2 on the same files (suite ``corefud-scorer-conll``, which adds LEA). The module is skipped when
the folder is absent.

Known difference: when the key has no coreference links or no non-coreference links (M3, M6, N3,
N6), the CorefUD scorer averages BLANC over both parts, giving exactly half the Perl values;
anascore follows the Perl scorer, so those four CorefUD BLANC values are expected failures by
default, and reproduced with ``compat="ua"`` (the CorefUD scorer is built on the UA scorer 2.0).
"""

from __future__ import annotations

import functools
import json
import math
from typing import Any

import pytest

import anascore
from anascore import Report
from tests.support.paths import REFERENCE_CASES

SHARED = REFERENCE_CASES
if not (SHARED / "expected.json").is_file():
    pytest.skip(f"reference cases not found at {SHARED}", allow_module_level=True)

TOLERANCE = 1e-9
SUITES = ("conll-reference-scorer", "corefud-scorer-conll")
# Options of the cases that anascore takes; the others in these suites (split antecedents,
# zeros, boundary crossing) are UA/CorefUD reader switches with no effect on CoNLL-2012 files.
SCORING_OPTIONS = ("keep_singletons", "match")
COREFUD_BLANC_HALF = frozenset({"M3", "M6", "N3", "N6"})
COREFUD_BLANC_REASON = ("CorefUD BLANC convention, reproduced with compat='ua' "
                        "(test_corefud_blanc_under_compat_ua)")


def load_cases() -> dict[str, dict[str, Any]]:
    """The CoNLL-2012 cases of the two suites, by case id."""
    with (SHARED / "expected.json").open(encoding="utf-8") as stream:
        cases = json.load(stream)["cases"]
    return {case["id"]: case for case in cases if case["suite"] in SUITES}


CASES = load_cases()


@functools.cache
def scored(case_id: str) -> Report:
    """The report of one case, scored with the case's options (once per case)."""
    case = CASES[case_id]
    assert case["format"] == "conll2012"
    options = {name: value for name, value in case["options"].items() if name in SCORING_OPTIONS}
    return anascore.score(SHARED / case["key"], SHARED / case["response"], format="conll2012",
                          **options)


def short_name(case_id: str) -> str:
    """``corefud-scorer-conll/M3`` → ``M3``."""
    return case_id.rsplit("/", 1)[1]


def metric_params() -> list[Any]:
    """One parameter per (case, metric) of ``peer``, with the marks its comparison needs."""
    params = []
    for case_id, case in CASES.items():
        for metric in case["peer"]:
            marks: list[pytest.MarkDecorator] = []
            if metric not in anascore.METRIC_NAMES:
                marks.append(pytest.mark.skip(reason=f"anascore has no metric {metric!r}"))
            elif (case["suite"] == "corefud-scorer-conll" and metric == "blanc"
                  and short_name(case_id) in COREFUD_BLANC_HALF):
                marks.append(pytest.mark.xfail(reason=COREFUD_BLANC_REASON, strict=True))
            params.append(pytest.param(case_id, metric, id=f"{case_id}:{metric}", marks=marks))
    return params


def count_params() -> list[Any]:
    """One parameter per (case, metric) whose ``peer`` has the reference scorer's counts."""
    return [pytest.param(case_id, metric, id=f"{case_id}:{metric}")
            for case_id, case in CASES.items()
            for metric, values in case["peer"].items()
            if "counts" in values and metric in anascore.METRIC_NAMES]


def test_cases_found() -> None:
    """Both suites are there: 36 Perl cases (A1 … N6) and 34 CorefUD ones (no A8, A9)."""
    suites = [case["suite"] for case in CASES.values()]
    assert suites.count("conll-reference-scorer") == 36
    assert suites.count("corefud-scorer-conll") == 34


@pytest.mark.parametrize(("case_id", "metric"), metric_params())
def test_peer_values(case_id: str, metric: str) -> None:
    """Recall, precision and F1 equal what the reference scorer computes, to 1e-9."""
    expected = CASES[case_id]["peer"][metric]
    actual = scored(case_id).metrics[metric]
    for field in ("recall", "precision", "f1"):
        value, want = getattr(actual, field), expected[field]
        assert math.isclose(value, want, rel_tol=0, abs_tol=TOLERANCE), (
            f"{case_id} {metric} {field}: {value!r}, the reference scorer gives {want!r}")


@pytest.mark.parametrize(("case_id", "metric"), count_params())
def test_peer_counts(case_id: str, metric: str) -> None:
    """The raw counts equal the Perl scorer's: recall numerator and denominator, precision
    numerator and denominator (BLANC: coreference links, then non-coreference links)."""
    expected = CASES[case_id]["peer"][metric]["counts"]
    score = scored(case_id).metrics[metric]
    parts = [score.coref_links, score.non_coref_links] if metric == "blanc" else [score]
    actual = [value for part in parts for value in
              (part.recall_num, part.recall_den, part.precision_num, part.precision_den)]
    assert len(actual) == len(expected)
    for position, (value, want) in enumerate(zip(actual, expected, strict=True)):
        assert math.isclose(value, want, rel_tol=0, abs_tol=TOLERANCE), (
            f"{case_id} {metric} count {position}: {value!r}, the Perl scorer gives {want!r}")


@pytest.mark.parametrize("name", sorted(COREFUD_BLANC_HALF))
def test_corefud_blanc_is_half_the_perl_value(name: str) -> None:
    """Where the key lacks one kind of link, the CorefUD BLANC is half of anascore's (Perl's)."""
    corefud = CASES[f"corefud-scorer-conll/{name}"]["peer"]["blanc"]
    blanc = scored(f"conll-reference-scorer/{name}").metrics["blanc"]
    for field in ("recall", "precision", "f1"):
        assert math.isclose(getattr(blanc, field) / 2, corefud[field], rel_tol=0,
                            abs_tol=TOLERANCE)


@pytest.mark.parametrize("name", sorted(COREFUD_BLANC_HALF))
def test_corefud_blanc_under_compat_ua(name: str) -> None:
    """``compat="ua"`` scores BLANC as the CorefUD scorer does, to 1e-9."""
    case = CASES[f"corefud-scorer-conll/{name}"]
    options = {key: value for key, value in case["options"].items() if key in SCORING_OPTIONS}
    blanc = anascore.score(SHARED / case["key"], SHARED / case["response"], format="conll2012",
                           compat="ua", **options).metrics["blanc"]
    for field in ("recall", "precision", "f1"):
        assert math.isclose(getattr(blanc, field), case["peer"]["blanc"][field], rel_tol=0,
                            abs_tol=TOLERANCE)
