"""The CorefUD scorer's suite on UA exploded files (``corefud-scorer-ua``, built on the UA
scorer 2.0), reproduced under ``compat="ua"``: every case whose files are UA, matched exactly
or by MIN spans (the scorers' ``partial-corefud`` on UA files), to 1e-6 of the values the
scorer computes and within the tolerance its own test asserts.

Split-antecedent cases run with ``keep_split_antecedents`` as the case gives it (also checked,
to 1e-9, by test_conformance_split_antecedents.py). CRAFT matching (``partial-craft``) and the
zero cases run with the case's ``keep_zeros`` and ``zero_match_method``, also those whose
response lacks an empty node of the key (or adds one): the UA reader gives CoNLL-U node
details (``Document.nodes``), so such a pair is aligned over the union of its empty nodes as
CorefUD files are.
"""

from __future__ import annotations

import json
import math

import pytest

from anascore.config.options import Options
from anascore.scoring.pipeline import score_files
from tests.support.paths import REFERENCE_CASES

SHARED = REFERENCE_CASES
if not (SHARED / "expected.json").exists():
    pytest.skip(f"reference cases not found at {SHARED}", allow_module_level=True)

CASES = [case for case in json.loads((SHARED / "expected.json").read_text())["cases"]
         if case["format"] == "ua"]
MATCH = {"exact": "exact", "partial-corefud": "min", "partial-craft": "craft"}


def skip_reason(case: dict) -> str | None:
    if case["options"]["match"] not in MATCH:
        return f"match {case['options']['match']}"
    return None


def within(actual: float, expected: float, tolerance: dict) -> bool:
    if tolerance["type"] == "pytest.approx":
        return math.isclose(actual, expected, rel_tol=tolerance.get("rel", 0.0),
                            abs_tol=tolerance.get("abs", 1e-12))
    return math.isclose(actual, expected, rel_tol=0.0, abs_tol=1e-12)


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_reference_case(case: dict) -> None:
    reason = skip_reason(case)
    if reason:
        pytest.skip(reason)
    options = Options(keep_singletons=case["options"]["keep_singletons"],
                      keep_split_antecedents=case["options"]["keep_split_antecedents"],
                      match=MATCH[case["options"]["match"]], compat="ua", format="ua",
                      keep_zeros=case["options"].get("keep_zeros", True),
                      zero_match=case["options"].get("zero_match_method", "dependent"))
    report = score_files(SHARED / case["key"], SHARED / case["response"], options)
    assert case["peer"], case["id"]
    for metric, peer in case["peer"].items():
        score = report.metrics[metric]
        actual = (score.recall, score.precision, score.f1)
        assert actual == pytest.approx((peer["recall"], peer["precision"], peer["f1"]),
                                       abs=1e-6), metric
        expected = case["expected"][metric]
        if case["reproduced"][metric]:
            assert all(within(value, expected[name], expected["tolerance"])
                       for value, name in zip(actual, ("recall", "precision", "f1"),
                                              strict=True)), metric


def test_the_suite_is_mostly_run() -> None:
    run = [case for case in CASES if skip_reason(case) is None]
    assert len(run) >= 60
