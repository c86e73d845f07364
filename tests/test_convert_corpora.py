"""Every real corpus converted to every format and back keeps its sentences and scores as its
original wherever nothing had to be dropped (skipped without ../shared; a few files of each
corpus by default, all of them with ANASCORE_CONVERT_ALL=1)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

import anascore
from anascore.conversion import CONVERT_TARGETS, convert
from anascore.formats import detect_format, read_documents
from anascore.formats.sentences import sentence_of
from anascore.formats.ua import write_ua

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
    # Without anything dropped, both files score as the original; what was dropped (zeros
    # in CoNLL-2012, say) is all that was lost: the way back loses nothing more.
    pairs = [(there, back)] if dropped else [(source, there), (source, back)]
    for key, converted in pairs:
        report = anascore.score(key, converted, metrics="mentions,muc,bcub,ceafe,lea")
        for name, score in report.metrics.items():
            assert score.f1 == 1.0, (name, dropped)


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


CODI = sorted((CORPORA / "codi-crac22").glob("*.CONLLUA"))


def _ua_cells(line: str) -> list[str]:
    """A UA line up to the documented normalisations of UA -> UA: cells tab-separated (not
    space-aligned), an absent trailing cell written ``_``, ``Min=N,N`` written ``Min=N``, an
    ``EntityAnchor`` naming a pseudo-entity written with its ``-Pseudo`` suffix, and the
    attributes of a bracket in the writer's order."""
    cells = line.split()
    if line.startswith("#"):
        return cells
    while len(cells) > 13 and cells[-1] == "_":
        cells.pop()

    def bracket(text: str) -> str:
        import re

        text = re.sub(r"Min=(\d+),\1(?=[|)]|$)", r"Min=\1", text)
        text = re.sub(r"(EntityAnchor=[^|()]*?)[-_]Pseudo", r"\1", text)
        return re.sub(r"\(([^()]*)", lambda m: "(" + "|".join(sorted(m.group(1).split("|"))),
                      text)

    return [bracket(cell) for cell in cells]


@pytest.mark.skipif(not CODI, reason="../shared/corpora is absent")
@pytest.mark.parametrize("source", CODI[:2] if not EVERY else CODI, ids=lambda path: path.name)
def test_ua_to_ua_keeps_every_column_and_comment(source, tmp_path):
    out = tmp_path / "same.conllua"
    assert convert(source, out, to="ua") == []
    original = [_ua_cells(line) for line in source.read_text(encoding="utf-8").splitlines()
                if line.strip()]
    written = [_ua_cells(line) for line in out.read_text(encoding="utf-8").splitlines()
               if line.strip()]
    assert written == original
    report = anascore.score(source, out, metrics="muc,bcub,ceafe", keep_bridging=True,
                            discourse_deixis=True, keep_non_referring=True)
    assert all(score.f1 == 1.0 for score in report.metrics.values())


LITBANK = sorted((CORPORA / "litbank" / "coref-conll").glob("*.conll"))


@pytest.mark.parametrize("source", [Path(__file__).resolve().parents[1] / "examples" /
                                    "key.conll", *LITBANK[:2]], ids=lambda path: path.name)
def test_conll2012_to_conll2012_keeps_every_column(source, tmp_path):
    # Documented normalisations: cells tab-separated, "no coreference" written '-', the
    # begin line '#begin document NAME', no blank line before '#end document'.
    out = tmp_path / "same.conll"
    assert convert(source, out, to="conll2012") == []

    def token_cells(path: Path) -> list[list[str]]:
        rows = []
        for line in path.read_text(encoding="utf-8").splitlines():
            cells = line.split("\t") if "\t" in line else line.split()
            if line.strip() and not line.lstrip().startswith("#"):
                rows.append(cells[:-1])
        return rows

    assert token_cells(out) == token_cells(source)
    assert anascore.score(source, out, metrics="muc").metrics["muc"].f1 == 1.0


GUM_WITH_EMPTY_NODES = [path for path in GUM
                        if re.search(r"^[0-9]+\.[0-9]+\t", path.read_text(), re.MULTILINE)]


def _empty_node_ids(path: Path) -> list[str]:
    return [node for document in read_documents(path) if document.nodes is not None
            for node, empty in zip(document.nodes.ids, document.nodes.empty, strict=True)
            if empty]


@pytest.mark.skipif(not GUM_WITH_EMPTY_NODES, reason="../shared/corpora is absent")
@pytest.mark.parametrize("source", GUM_WITH_EMPTY_NODES[:3] if not EVERY else
                         GUM_WITH_EMPTY_NODES, ids=lambda path: path.name)
def test_gum_written_as_ua_numbered_through_the_document_scores_as_the_original(source,
                                                                                tmp_path):
    # The UA writer numbers words through the document (an empty node after the 273rd word
    # is 273.1), where GUM numbers each sentence from 1 (26.1): the same empty nodes, which
    # key and response share. They were paired by their IDs: on all of GUM the original
    # scored 99.97 against its own annotation written this way.
    written = tmp_path / "through.conllua"
    write_ua(read_documents(source), written)
    assert _empty_node_ids(written) != _empty_node_ids(source)
    report = anascore.score(source, written, metrics="mentions,muc,bcub,ceafe,lea")
    for name, score in report.metrics.items():
        assert score.f1 == 1.0, name
