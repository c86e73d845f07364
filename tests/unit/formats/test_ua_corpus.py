"""Every CODI-CRAC 2022 file (UA exploded format, every layer) reads without error, and scored
against itself gives 1 on every metric in every mode (split-antecedent plurals scored by Paun et
al.'s generalized metrics)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from anascore.config.options import Options
from anascore.formats.ua import read_ua
from anascore.report import Report
from anascore.scoring.document import count_document
from tests.support.paths import CORPORA

CORPUS = CORPORA / "codi-crac22"
FILES = sorted(CORPUS.glob("*.CONLLUA"))
if not FILES:
    pytest.skip(f"CODI-CRAC 2022 files not found in {CORPUS}", allow_module_level=True)

MODES = [
    Options(keep_singletons=singletons, keep_split_antecedents=plurals, match=match,
            compat=compat, keep_non_referring=True, keep_bridging=True, discourse_deixis=True)
    for singletons, plurals, match, compat in itertools.product(
        (True, False), (False, True), ("exact", "min"), ("none", "ua"))
    if singletons or not plurals
]


@pytest.mark.parametrize("path", FILES, ids=[path.name for path in FILES])
def test_file_reads_and_scores_one_against_itself(path: Path) -> None:
    documents = list(read_ua(path))
    assert documents and all(document.entities for document in documents)
    assert any(document.bridging for document in documents)
    assert any(document.discourse_deixis for document in documents)
    assert any(document.non_referring for document in documents)
    for options in MODES:
        warnings: list[str] = []
        records = [count_document(document, document, options, warnings)
                   for document in documents]
        report = Report.from_records(options, [document.name for document in documents],
                                     records, warnings)
        # Some CODI-CRAC plurals share their set with another entity (AMI_test, Persuasion_test,
        # light_dev, light_train), and some MIN spans lie outside their markable (every
        # file): properties of the data, scored with a warning.
        assert [warning for warning in warnings
                if "accommodate the same set" not in warning
                and "MIN span outside" not in warning] == []
        if not options.keep_split_antecedents:
            assert not [warning for warning in warnings if "MIN span outside" not in warning]
        assert len(report.metrics) == 8 + 2 + 8  # identity, non-referring, bridging, DD
        for name, score in report.metrics.items():
            values = ([score.f1] if name.endswith("conll") else
                      [getattr(score, part).f1 for part in
                       ("anaphor_recognition", "mention", "entity")] if name == "bridging"
                      else [score.recall, score.precision, score.f1])
            assert values == pytest.approx([1.0] * len(values), abs=1e-12), (
                name, options.signature())
