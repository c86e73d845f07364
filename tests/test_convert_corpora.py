"""Every real corpus converted to every format and back keeps its sentences and scores as its
original wherever nothing had to be dropped (skipped without ../shared; a few files of each
corpus by default, all of them with ANASCORE_CONVERT_ALL=1)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import anascore
from anascore.conversion import CONVERT_TARGETS, convert
from anascore.formats import detect_format, read_documents
from anascore.formats.sentences import sentence_of

CORPORA = Path(__file__).resolve().parents[2] / "shared" / "corpora"
EVERY = os.environ.get("ANASCORE_CONVERT_ALL") == "1"
CHOSEN = {
    "litbank": sorted((CORPORA / "litbank" / "coref-conll").glob("*.conll")),
    "gum-conllu": sorted((CORPORA / "gum" / "dep").glob("*.conllu")),
    "codi-crac": sorted((CORPORA / "codi-crac22").glob("*.CONLLUA")),
}
SOURCES = [path for files in CHOSEN.values() for path in (files if EVERY else files[:2])]


def sentences(path: Path) -> int:
    return sum(sentence_of(document)[-1] + 1 for document in read_documents(path)
               if document.tokens)


@pytest.mark.skipif(not SOURCES, reason="../shared/corpora is absent")
@pytest.mark.parametrize("source", SOURCES, ids=lambda path: path.name)
@pytest.mark.parametrize("target", CONVERT_TARGETS)
def test_a_corpus_converted_and_back_keeps_sentences_and_scores(source, target, tmp_path):
    original = detect_format(source)
    there = tmp_path / f"there.{target}"
    dropped = convert(source, there, to=target, drop_unsupported=True)
    back = tmp_path / f"back.{original}"
    dropped += convert(there, back, to=original, drop_unsupported=True)
    count = sentences(source)
    assert sentences(there) == count and sentences(back) == count
    for converted in (there, back):
        report = anascore.score(source, converted, metrics="mentions,muc,bcub,ceafe,lea")
        for name, score in report.metrics.items():
            if dropped:  # what was dropped is all that was lost: at most a few mentions
                assert score.f1 > 0.99, (name, dropped)
            else:
                assert score.f1 == 1.0, name


GUM = sorted((CORPORA / "gum" / "dep").glob("*.conllu"))


@pytest.mark.skipif(not GUM, reason="../shared/corpora is absent")
@pytest.mark.parametrize("source", GUM[:3] if not EVERY else GUM, ids=lambda path: path.name)
def test_corefud_to_corefud_changes_only_how_entity_values_are_ordered(source, tmp_path):
    # Every column, comment (# text, # sent_id …) and MISC item is kept; the documented
    # normalisation: Entity= values are written in anascore's field order (the header says
    # which), after the token's other MISC items.
    out = tmp_path / "same.conllu"
    convert(source, out, to="corefud")
    original = source.read_text(encoding="utf-8").splitlines()
    written = out.read_text(encoding="utf-8").splitlines()
    assert len(original) == len(written)

    def without_coreference(line: str) -> str:
        if line.startswith("# global.Entity"):
            return "# global.Entity"
        cells = line.split("\t")
        if len(cells) == 10:
            cells[9] = "|".join(sorted(item for item in cells[9].split("|")
                                       if not item.startswith(("Entity=", "SplitAnte=",
                                                               "Bridge=")))) or "_"
        return "\t".join(cells)

    assert [without_coreference(line) for line in original] == [
        without_coreference(line) for line in written]
    assert anascore.score(source, out, metrics="muc,bcub,ceafe").metrics["muc"].f1 == 1.0
