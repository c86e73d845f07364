"""Conformance with the UA scorer's split-antecedent suites, on their own published files.

Reads ``../shared/reference-cases/`` beside the project (see its README): the plural cases of
the UA scorer v1 (suite ``ua-scorer-plural``) and of the CorefUD scorer 1.2, built on the UA
scorer 2.0 (``corefud-scorer-ua``, folder ``plural``; the same files). Each is scored with
``keep_split_antecedents=True, compat="ua"`` and compared with the values the reference scorer
computes (``peer``) to 1e-9, and with the values its unit test asserts (``expected``) to the
test's own tolerance. The same situations are re-encoded in Python in
``test_split_antecedents.py``, which runs without the shared folder.

Skipped when the folder is absent, and until anascore reads the UA format.
"""

from __future__ import annotations

import functools
import json
import math
from typing import Any

import pytest

import anascore
from anascore.config.options import FORMATS
from tests.support.paths import REFERENCE_CASES

SHARED = REFERENCE_CASES
if not (SHARED / "expected.json").is_file():
    pytest.skip(f"reference cases not found at {SHARED}", allow_module_level=True)
if "ua" not in FORMATS:
    pytest.skip("no UA reader (format 'ua') yet", allow_module_level=True)

TOLERANCE = 1e-9


def load_cases() -> dict[str, dict[str, Any]]:
    with (SHARED / "expected.json").open(encoding="utf-8") as stream:
        cases = json.load(stream)["cases"]
    return {case["id"]: case for case in cases
            if case["suite"] == "ua-scorer-plural"
            or (case["suite"] == "corefud-scorer-ua" and "/plural/" in case["key"])}


CASES = load_cases()


@functools.cache
def scored(case_id: str) -> dict[str, tuple[float, float, float]]:
    case = CASES[case_id]
    assert case["options"]["keep_split_antecedents"] and case["options"]["keep_singletons"]
    report = anascore.score(SHARED / case["key"], SHARED / case["response"], format="ua",
                            keep_split_antecedents=True, compat="ua")
    return {name: (score.recall, score.precision, score.f1)
            for name, score in report.metrics.items() if hasattr(score, "recall")}


def test_every_plural_case_is_found() -> None:
    assert len(CASES) == 30


@pytest.mark.parametrize("case_metric", [f"{case_id}:{metric}"
                                         for case_id, case in sorted(CASES.items())
                                         for metric in case["peer"]])
def test_peer_values(case_metric: str) -> None:
    case_id, metric = case_metric.rsplit(":", 1)
    peer = CASES[case_id]["peer"][metric]
    got = scored(case_id)[metric]
    assert got == pytest.approx((peer["recall"], peer["precision"], peer["f1"]), rel=0,
                                abs=TOLERANCE)


@pytest.mark.parametrize("case_metric", [f"{case_id}:{metric}"
                                         for case_id, case in sorted(CASES.items())
                                         for metric in case["expected"]])
def test_expected_values(case_metric: str) -> None:
    case_id, metric = case_metric.rsplit(":", 1)
    expected = CASES[case_id]["expected"][metric]
    tolerance = expected["tolerance"]
    got = scored(case_id)[metric]
    for value, wanted in zip(got, (expected["recall"], expected["precision"], expected["f1"]),
                             strict=True):
        if tolerance["type"] == "exact":
            assert value == wanted
        else:
            assert math.isclose(value, wanted, rel_tol=tolerance.get("rel", 0.0),
                                abs_tol=tolerance.get("abs", 0.0))
