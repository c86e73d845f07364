"""Fuzzing every reader, ``convert`` and the parallel path with seeded mutants of valid files:
the outcome is a score in [0, 1] (or n/a) or one AnascoreError, never another exception; a
file converted without loss scores 1 against its source; several processes decide as one.

The default run is short (a few hundred mutants per format, within a minute in all);
``ANASCORE_FUZZ_MUTANTS=20000`` runs a longer one."""

from __future__ import annotations

import math
import os
import random
from collections import Counter
from pathlib import Path

import pytest

import anascore
from anascore.core.errors import AnascoreError
from anascore.formats.io.conversion import convert
from tests.support.mutations import mutant, write_mutant
from tests.support.paths import EXAMPLES, FIXTURES

SOURCES = {
    "conll2012": EXAMPLES / "key.conll",
    "jsonlines": FIXTURES / "jsonlines" / "key.jsonlines",
    "corefud": FIXTURES / "corefud" / "two_documents.conllu",
    "ua": FIXTURES / "ua" / "features.conllua",
}
MUTANTS = int(os.environ.get("ANASCORE_FUZZ_MUTANTS", "150"))


def _first_document(text: str, format: str) -> str:
    """A short source: the first document of the bundled CoNLL-2012 example."""
    if format != "conll2012":
        return text
    end = text.index("#end document") + len("#end document\n")
    return text[:end]


def outcome(key: Path, response: Path, **options) -> str:
    """``"score"`` (every value in [0, 1] or n/a) or ``"error"``; anything else fails."""
    try:
        report = anascore.score(key, response, metrics="all", **options)
    except AnascoreError as error:
        assert "\n" not in error.location_message()
        return "error"
    for name, result in report.metrics.items():
        for field in ("recall", "precision", "f1"):
            value = getattr(result, field, None)
            assert value is None or math.isnan(value) or 0 <= value <= 1 + 1e-12, (name, value)
    return "score"


@pytest.mark.parametrize("format", list(SOURCES))
def test_mutants_score_or_fail_with_one_line(format, tmp_path):
    rng = random.Random(f"fuzz-{format}")
    source = _first_document(SOURCES[format].read_text(encoding="utf-8"), format)
    original = tmp_path / f"original.{format}"
    original.write_text(source, encoding="utf-8")
    counts: Counter[str] = Counter()
    for number in range(MUTANTS):
        path = tmp_path / f"mutant{number % 4}.{format}"
        write_mutant(path, mutant(source, rng))
        counts[outcome(original, path, format=format)] += 1
        counts[outcome(path, path, format=format)] += 1
        counts[outcome(path, path)] += 1  # and with the format detected
    assert counts["score"] and counts["error"]  # the mutants reach both outcomes


def _converted_scores_one(source: Path, format: str, target: str, folder: Path) -> str:
    out = folder / f"converted.{target}"
    try:
        convert(source, out, to=target, format=format)
    except AnascoreError:
        return "refused"
    report = anascore.score(source, out, metrics="muc,bcub,ceafe,mentions")
    for name in ("mentions", "muc", "bcub", "ceafe"):
        assert report.metrics[name].f1 in (1.0,) or (
            report.metrics[name].recall == report.metrics[name].precision == 0), name
    return "converted"


@pytest.mark.parametrize("format", list(SOURCES))
def test_a_mutant_converted_without_loss_scores_one_against_it(format, tmp_path):
    rng = random.Random(f"convert-{format}")
    source = _first_document(SOURCES[format].read_text(encoding="utf-8"), format)
    counts: Counter[str] = Counter()
    for number in range(max(MUTANTS // 5, 20)):
        path = tmp_path / f"mutant{number}.{format}"
        write_mutant(path, mutant(source, rng))
        try:
            anascore.score(path, path, format=format)
        except AnascoreError:
            continue
        for target in SOURCES:
            counts[_converted_scores_one(path, format, target, tmp_path)] += 1
    assert counts["converted"]


def _decision(key: Path, response: Path, jobs: int) -> object:
    try:
        return anascore.score(key, response, format="conll2012", jobs=jobs,
                              metrics="all").to_dict(per_document=True)
    except AnascoreError as error:
        return error.location_message()


def test_several_processes_decide_as_one_on_mutants(tmp_path):
    # Documents enough for two processes; each mutant damages one place of the response.
    rng = random.Random("parallel")
    text = EXAMPLES.joinpath("key.conll").read_text(encoding="utf-8")
    key = tmp_path / "key.conll"
    key.write_text(text, encoding="utf-8")
    for number in range(max(MUTANTS // 10, 12)):
        response = tmp_path / f"response{number}.conll"
        write_mutant(response, mutant(text, rng))
        assert _decision(key, response, 1) == _decision(key, response, 2), number
