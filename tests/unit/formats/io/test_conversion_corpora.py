"""Every real corpus converted to every format and back keeps its sentences and scores as its
original wherever nothing had to be dropped (skipped without ../shared; a few files of each
corpus by default, all of them with ANASCORE_CONVERT_ALL=1)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

import anascore
from anascore.formats import detect_format, read_documents
from anascore.formats.io.conversion import (
    CONVERT_TARGETS,
    MENTION_ONLY_TARGETS,
    PLAIN_TARGETS,
    convert,
)
from anascore.formats.sentences import sentence_of
from anascore.formats.ua import write_ua
from tests.support.paths import CORPORA, EXAMPLES

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


# Mention records and mention-based CoNLL hold mentions, not text (what lies outside the
# mentions is not written): tests/unit/formats/test_crossdoc_formats.py checks their mentions
# instead.
@pytest.mark.skipif(not SOURCES, reason="../shared/corpora is absent")
@pytest.mark.parametrize("source", SOURCES, ids=lambda path: path.name)
@pytest.mark.parametrize("target", [target for target in CONVERT_TARGETS
                                    if target not in MENTION_ONLY_TARGETS])
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


@pytest.mark.parametrize("source", [EXAMPLES /
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


# ---------------------------------------------------------------------------------------------
# A conversion that drops nothing scores exactly as the original: every corpus format to every
# target, a response made from the key, every matching method, zeros kept and removed.

MATCHES = ("exact", "head", "partial", "min", "craft")
SCORED = "mentions,muc,bcub,ceafe,ceafm,lea,blanc"
#: By default the first document of the smallest file of each corpus (of GUM, of those with
#: empty nodes, so that zeros are there to remove); every file and document with
#: ANASCORE_CONVERT_ALL=1.
PROPERTY_SOURCES = ([path for files in CHOSEN.values() for path in files] if EVERY else
                    [min(files, key=lambda path: path.stat().st_size) for files in (
                        CHOSEN["litbank"], GUM_WITH_EMPTY_NODES, CHOSEN["codi-crac"]) if files])
DOCUMENTS = None if EVERY else 1
#: Each source with the format its original is written in (``None``: its own); jsonlines,
#: of which there is no corpus, from LitBank.
PROPERTY_CASES = [*((path, None) for path in PROPERTY_SOURCES),
                  *((path, "jsonlines") for path in PROPERTY_SOURCES if path.suffix == ".conll")]


def _sample(path: Path) -> list:
    documents = []
    for document in read_documents(path, all_columns=True):
        documents.append(document)
        if DOCUMENTS is not None and len(documents) == DOCUMENTS:
            break
    return documents


def _overlaps(tokens: tuple[int, ...], others: list) -> bool:
    wanted = set(tokens)
    return any(wanted & set(other.tokens) for other in others)


def _changed(document, number: int):
    """A response made from ``document``, the same for every format: of every six mentions
    (in file order) one is left out, one moves to an entity of its own, one shrinks to its
    MIN span (else its first position); the head of a mention whose positions changed is
    left to the reader (as a file would give it). Each empty node becomes a singleton (a
    zero), and so does each empty node with the word after it (a mention that starts on an
    empty node, and is no zero when the word heads it)."""
    from dataclasses import replace

    from anascore.core.model import Entity, Mention

    nodes, sentences = document.nodes, sentence_of(document)
    entities, singles = [], []
    # no span twice: how a copy counts is a convention of each reference scorer (compat="ua")
    spans = {mention.tokens for entity in document.entities for mention in entity.mentions}
    for entity in document.entities:
        mentions = []
        for mention in entity.mentions:
            number += 1
            others = [other for other in entity.mentions if other is not mention]
            tokens = mention.tokens
            if number % 6 == 0:
                continue
            if number % 6 == 1 and len(entity.mentions) > 1:
                singles.append(Entity(f"moved{number}", (mention,)))
                continue
            if number % 6 == 2 and len(tokens) > 1:
                inside = mention.min_tokens and set(mention.min_tokens) <= set(tokens)
                tokens = tuple(mention.min_tokens) if inside else tokens[:1]
            if tokens != mention.tokens:
                if tokens in spans or _overlaps(tokens, others):
                    tokens = mention.tokens
                else:
                    spans.add(tokens)
                    min_tokens = (mention.min_tokens if mention.min_tokens
                                  and set(mention.min_tokens) <= set(tokens) else None)
                    mention = Mention(tokens, mention.line, None, min_tokens,
                                      mention.attributes)
            mentions.append(mention)
        if mentions:
            entities.append(Entity(entity.id, tuple(mentions), (), entity.attributes))
    for position, empty in enumerate(nodes.empty if nodes is not None else ()):
        if empty:
            added = [(position,)]
            if (position + 1 < len(sentences) and not nodes.empty[position + 1]
                    and sentences[position + 1] == sentences[position]):
                added.append((position, position + 1))
            singles.extend(Entity(f"added{tokens}", (Mention(tokens),)) for tokens in added
                           if tokens not in spans)
    changed = replace(document, entities=(*entities, *singles), bridging=(),
                      non_referring=(), discourse_deixis=(), heads_not_given=frozenset())
    return changed, number


COREFUD_SCORER = Path(os.environ.get("COREFUD_SCORER", "/tmp/ref/corefud-scorer"))


def _readable_by_udapi_and_the_corefud_scorer(key: Path, response: Path) -> None:
    """Udapi reads both files (strictly, as the CorefUD scorer does), and the CorefUD scorer
    scores the key 100 against itself (each skipped where absent)."""
    import subprocess
    import sys

    try:
        import udapi
    except ImportError:
        return
    for path in (key, response):
        assert udapi.Document(str(path)).coref_mentions is not None
    if (COREFUD_SCORER / "corefud-scorer.py").exists():
        done = subprocess.run([sys.executable, str(COREFUD_SCORER / "corefud-scorer.py"),
                               str(key), str(key), "-m", "muc", "bcub", "ceafe"],
                              capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr[-2000:]
        assert "CoNLL score: 100.00" in done.stdout


def _values(report) -> dict:
    """Each metric's recall, precision and F1 (a score not applicable as ``"n/a"``)."""
    return {name: tuple("n/a" if value != value else value
                        for value in (score.recall, score.precision, score.f1))
            for name, score in report.metrics.items()}


@pytest.mark.skipif(not PROPERTY_SOURCES, reason="../shared/corpora is absent")
@pytest.mark.parametrize(("source", "written_as"), PROPERTY_CASES,
                         ids=lambda case: getattr(case, "name", case))
# Mention records and mention-per-line files hold mentions, not text: a response with other
# mentions than its key is laid out on other tokens there
# (tests/unit/formats/test_crossdoc_formats.py
# checks them against the Perl scorer instead).
@pytest.mark.parametrize("target", [target for target in CONVERT_TARGETS
                                    if target not in MENTION_ONLY_TARGETS])
def test_a_conversion_that_drops_nothing_scores_as_the_original(source, written_as, target,
                                                                tmp_path):
    from anascore.core.errors import OptionsError
    from anascore.formats import writer
    from anascore.formats.io.conversion import drop_content, unsupported_content

    original = written_as or detect_format(source)
    # The original holds only what its format and the target can: the rest is dropped first.
    key_documents = _sample(source)
    for held_by in {original, target}:
        key_documents = [drop_content(document, held_by)
                         if unsupported_content(document, held_by) else document
                         for document in key_documents]
    number, response_documents = 0, []
    for document in key_documents:
        changed, number = _changed(document, number)
        response_documents.append(changed)
    (tmp_path / "original").mkdir()
    (tmp_path / "converted").mkdir()
    key, response = tmp_path / "original" / "key", tmp_path / "original" / "response"
    writer(original)(key_documents, key)
    writer(original)(response_documents, response)
    suffix = ".conllu" if target == "corefud" else f".{target}"
    key_there = tmp_path / "converted" / f"key{suffix}"
    response_there = tmp_path / "converted" / f"response{suffix}"
    said = convert(key, key_there, to=target) + convert(response, response_there, to=target)
    # The one thing said without dropping content: heads a CorefUD file does not give, which
    # a UA file cannot leave ungiven (compat="ua" then heads the original by first words).
    unheaded = [warning for warning in said if "no head in the file" in warning]
    assert [warning for warning in said if warning not in unheaded] == []
    if target == "corefud":
        _readable_by_udapi_and_the_corefud_scorer(key_there, response_there)
    compared = 0
    # anascore's conventions with zeros kept and removed, and the reference scorers' (heads
    # the file does not give are first words there: the same in every format too)
    settings = [(True, "none"), (False, "none"), (False, "ua")]
    if unheaded:
        # Not compared, and said by convert: compat="ua" heads a CorefUD mention whose file
        # gives no head by its first word, as Udapi does; a UA file names no head, and its
        # heads come from its dependency tree, which is all the conversion can write.
        assert original == "corefud" and target == "ua"
        settings.remove((False, "ua"))
    for match in MATCHES:
        for keep_zeros, compat in settings:
            options = {"match": match, "keep_zeros": keep_zeros, "metrics": SCORED,
                       "compat": compat}
            try:
                expected = _values(anascore.score(key, response, **options))
            except OptionsError:
                continue  # the original lacks what the method needs (heads, zeros)
            try:
                converted = _values(anascore.score(key_there, response_there, **options))
            except OptionsError:
                # --remove-zeros and --match min on a format that cannot hold zeros or MIN
                # spans are refused; the original holds none either (they were dropped), so
                # it scores as with zeros kept, or by exact spans. Head matching is refused
                # too where compat="ua" heads the original by its first words.
                assert target in PLAIN_TARGETS
                if match in ("head", "partial"):
                    assert compat == "ua"
                    continue
                assert not keep_zeros or match == "min"
                neutral = {**options, "keep_zeros": True,
                           "match": "exact" if match == "min" else match}
                converted = _values(anascore.score(key_there, response_there, **neutral))
            assert converted == expected, (match, keep_zeros, compat)
            compared += 1
    assert compared >= 2


KOREA = CORPORA / "gum" / "dep" / "GUM_news_korea.conllu"


@pytest.mark.skipif(not KOREA.is_file(), reason="../shared/corpora is absent")
def test_the_documented_exception_a_gum_file_against_its_ua_conversion(tmp_path):
    # docs/formats.md: a file scored against its conversion is 100, but under --compat ua a GUM
    # mention without a head in the file is headed by its first word in the original and by its
    # tree in the UA file, so head matching gives MUC F1 24.49 on GUM_news_korea.
    converted = tmp_path / "korea.ua"
    said = convert(KOREA, converted, to="ua")
    assert any("no head in the file" in warning for warning in said)
    same = anascore.score(KOREA, converted, match="head", metrics="muc")
    assert same.metrics["muc"].f1 == 1.0
    reference = anascore.score(KOREA, converted, match="head", compat="ua", metrics="muc")
    assert round(100 * reference.metrics["muc"].f1, 2) == 24.49
