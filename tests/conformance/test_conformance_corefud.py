"""Conformance with the CorefUD scorer 1.2 on its published test suites.

The cases, files and values come from ``../shared/reference-cases/`` (read there, never
copied): the suite ``corefud-scorer-corefud`` (CorefUD CoNLL-U files, exact / head / partial
matching, zeros by position and by dependencies, MOR) and ``corefud-scorer-conll`` (the
CoNLL-2012 cases of the reference scorer, scored as the CorefUD scorer scores them). Every
case is scored with ``compat="ua"`` and compared, to 1e-6, with what the CorefUD scorer
itself computes on the same files (``peer``) and, where the source test is not skipped, with
the value the source test asserts (``expected``, within its tolerance).

Known exceptions, each with its reason:

* OLMC5, OLMC6, OLMC7 — marked ``@pytest.mark.skip(reason="errors in the test")`` in the
  source: their asserted MUC and B³ assume a one-to-many alignment the scorer no longer
  makes (see the case notes); anascore equals what the scorer computes (``peer``).
* ``corefud-scorer-conll/A7`` (a span repeated within one entity) is reproduced: under
  ``compat="ua"`` only UA files keep every copy of a repeated span (as the UA scorer 2.0's UA
  reader); CoNLL-2012 and CorefUD files keep one, as the scorer's own readers do.

BLANC of M3, M6, N3, N6 (halves averaged when *either* side has links of a kind) is
reproduced by ``compat="ua"``; the default, the reference scorer v8.01's convention, differs
(tests/conformance/test_conformance.py).
"""

from __future__ import annotations

import json

import pytest

import anascore
from tests.support.paths import REFERENCE_CASES

SHARED = REFERENCE_CASES
if not (SHARED / "expected.json").exists():
    pytest.skip("../shared/reference-cases is not available", allow_module_level=True)

SUITES = ("corefud-scorer-corefud", "corefud-scorer-conll")
MATCH = {"exact": "exact", "head": "head", "partial-corefud": "partial",
         "partial-craft": "craft"}
FORMAT = {"corefud": "corefud", "conll2012": "conll2012"}


def _cases() -> list[dict]:
    cases = json.loads((SHARED / "expected.json").read_text())["cases"]
    return [case for case in cases if case["suite"] in SUITES]


def _options(case: dict) -> dict:
    options = case["options"]
    settings = {
        "format": FORMAT[case["format"]],
        "match": MATCH[options.get("match", "exact")],
        "keep_singletons": options.get("keep_singletons", True),
        "compat": "ua",
        "metrics": "all",
    }
    if case["format"] == "corefud":
        # The scorer's zero settings; CoNLL-2012 files hold no zeros, and anascore refuses
        # zero settings where no file can hold them.
        settings.update(keep_zeros=options.get("keep_zeros", False),
                        zero_match=options.get("zero_match_method", "linear"))
    return settings


def _metric_cases() -> list:
    params = []
    for case in _cases():
        for metric in sorted(case["peer"]):
            marks = []
            params.append(pytest.param(case, metric, id=f"{case['id']}:{metric}", marks=marks))
    return params


_REPORTS: dict[str, anascore.Report] = {}


def _report(case: dict) -> anascore.Report:
    if case["id"] not in _REPORTS:
        _REPORTS[case["id"]] = anascore.score(SHARED / case["key"], SHARED / case["response"],
                                              **_options(case))
    return _REPORTS[case["id"]]


@pytest.mark.parametrize(("case", "metric"), _metric_cases())
def test_equals_the_corefud_scorer(case: dict, metric: str) -> None:
    result = _report(case).metrics[metric]
    computed = [result.recall, result.precision, result.f1]
    peer = case["peer"][metric]
    assert computed == pytest.approx([peer["recall"], peer["precision"], peer["f1"]],
                                     abs=1e-6)
    if case["skipped_in_source"] is None and metric in case["expected"]:
        expected = case["expected"][metric]
        tolerance = expected["tolerance"]
        values = [expected["recall"], expected["precision"], expected["f1"]]
        if tolerance["type"] == "exact" or ("abs" in tolerance and "rel" not in tolerance):
            assert computed == pytest.approx(values, abs=max(tolerance.get("abs", 0), 1e-12))
        else:
            assert computed == pytest.approx(values, rel=tolerance.get("rel", 1e-6),
                                             abs=tolerance.get("abs", 1e-12))


def test_every_case_of_both_suites_is_checked() -> None:
    cases = _cases()
    assert {case["suite"] for case in cases} == set(SUITES)
    assert len(cases) == 111 + 34
