"""Conversions to CorefUD: Udapi and the CorefUD scorer read what they write, and the re-read
keeps heads, MIN spans and zeros (issue 21, item 4).

Udapi (which the CorefUD scorer reads files with) refuses an empty head field
(``Entity=(0---``: "Non-integer '' as head index") and takes a ``/`` in ``# sent_id`` for a
zone ("not a valid zone name"). The tests that run Udapi or the CorefUD scorer (checkout at
``$COREFUD_SCORER``, default ``/tmp/ref/corefud-scorer``) skip when they are absent.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import anascore
from anascore.core.errors import FormatError
from anascore.formats import read_documents
from anascore.formats.corefud import read_corefud
from anascore.formats.io.conversion import convert
from anascore.formats.ua import read_ua
from tests.support.paths import ROOT

KEY_CONLL = ROOT / "examples" / "key.conll"
SCORER = Path(os.environ.get("COREFUD_SCORER", "/tmp/ref/corefud-scorer"))

# A UA document without a dependency tree (HEAD '_', as CODI-CRAC): the heads come from a
# one-token Min or a one-token markable; m2's Min is two tokens, so its head is unknown.
UA = ("# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY "
      "BRIDGING DISCOURSE_DEIXIS\n") + """\
# newdoc id = light_dev/episode_1
# sent_id = episode_1-1
1\tThe\t_\t_\t_\t_\t_\t_\t_\t_\t(EntityID=1|MarkableID=m1|Min=2|SemType=dn\t_\t_
2\tfisherman\t_\t_\t_\t_\t_\t_\t_\t_\t)\t_\t_
3\tsaw\t_\t_\t_\t_\t_\t_\t_\t_\t_\t_\t_
4\ta\t_\t_\t_\t_\t_\t_\t_\t_\t(EntityID=2|MarkableID=m2|Min=5,6\t_\t_
5\tgold\t_\t_\t_\t_\t_\t_\t_\t_\t_\t_\t_
6\tgoddess\t_\t_\t_\t_\t_\t_\t_\t_\t)\t_\t_
7\t.\t_\t_\t_\t_\t_\t_\t_\t_\t_\t_\t_

# sent_id = episode_1-2
8\tHe\t_\t_\t_\t_\t_\t_\t_\t_\t(EntityID=1|MarkableID=m3)\t_\t_
9\tsmiled\t_\t_\t_\t_\t_\t_\t_\t_\t_\t_\t_
10\tat\t_\t_\t_\t_\t_\t_\t_\t_\t_\t_\t_
11\ther\t_\t_\t_\t_\t_\t_\t_\t_\t(EntityID=2|MarkableID=m4|Min=11)\t_\t_
"""


def _udapi_mentions(path: Path) -> list[tuple[str, list[str], str]]:
    """Every mention as Udapi reads it (strictly, as the CorefUD scorer does): entity,
    words, head."""
    udapi = pytest.importorskip("udapi")
    document = udapi.Document(str(path))
    return [(mention.entity.eid, [word.form for word in mention.words], mention.head.form)
            for mention in document.coref_mentions]


def _corefud_scorer_conll(key: Path, response: Path, *options: str) -> str:
    if not (SCORER / "corefud-scorer.py").exists():
        pytest.skip(f"no CorefUD scorer checkout at {SCORER}")
    pytest.importorskip("udapi")
    done = subprocess.run([sys.executable, str(SCORER / "corefud-scorer.py"), str(key),
                           str(response), *options], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return next(line for line in done.stdout.splitlines() if line.startswith("CoNLL score"))


@pytest.fixture
def ua_path(tmp_path: Path) -> Path:
    path = tmp_path / "light.conllua"
    path.write_text(UA, encoding="utf-8")
    return path


def test_conll2012_to_corefud_is_read_by_udapi_and_scores_100_in_the_corefud_scorer(tmp_path):
    # examples/key.conll has OntoNotes names, '(news/ex/00/ex_0001); part 000', and no heads.
    out = tmp_path / "key.conllu"
    convert(KEY_CONLL, out, to="corefud")
    text = out.read_text(encoding="utf-8")
    sent_ids = [line for line in text.splitlines() if line.startswith("# sent_id")]
    assert sent_ids and not any("/" in line for line in sent_ids)
    assert "---" not in text  # no empty head field
    mentions = _udapi_mentions(out)
    # Without heads in the source, Udapi heads every mention by its first word.
    assert len(mentions) == sum(len(entity.mentions) for document in read_documents(KEY_CONLL)
                                for entity in document.entities)
    assert all(head == words[0] for _, words, head in mentions)
    for match in ("exact", "head", "partial"):
        assert _corefud_scorer_conll(out, out, "-a", match) == "CoNLL score: 100.00"


def test_conll2012_to_corefud_reads_back_without_heads(tmp_path):
    # The source gives no head: the re-read gives none either (head matching refuses both).
    out = tmp_path / "key.conllu"
    convert(KEY_CONLL, out, to="corefud")
    for original, back in zip(read_documents(KEY_CONLL), read_corefud(out), strict=True):
        assert [m.tokens for e in original.entities for m in e.mentions] == [
            m.tokens for e in back.entities for m in e.mentions]
        # (a one-position mention is headed by its position, as the CorefUD reader heads it)
        assert all(m.head is None or len(m.tokens) == 1 for e in back.entities
                   for m in e.mentions)
    report = anascore.score(KEY_CONLL, out, metrics="muc,bcub,ceafe,lea")
    assert all(score.f1 == 1.0 for score in report.metrics.values())


def test_ua_to_corefud_keeps_min_spans_and_heads(ua_path, tmp_path):
    out = tmp_path / "light.conllu"
    convert(ua_path, out, to="corefud")
    text = out.read_text(encoding="utf-8")
    assert "\t_|" not in text  # MISC is 'Entity=…', not '_|Entity=…'
    header = next(line for line in text.splitlines() if line.startswith("# global.Entity"))
    assert "-MIN" in header
    [original] = read_ua(ua_path, token_columns=True)
    [back] = read_corefud(out)
    spans = [(m.tokens, m.min_tokens, m.head) for e in original.entities for m in e.mentions]
    assert spans == [(m.tokens, m.min_tokens, m.head) for e in back.entities for m in e.mentions]
    # m1 headed by its Min 'fisherman', m3 and m4 by their one token, m2's head unknown
    assert [head for *_, head in spans] == [1, 7, None, 10]


def test_ua_to_corefud_is_read_by_udapi_and_scores_100_in_the_corefud_scorer(ua_path,
                                                                             tmp_path):
    out = tmp_path / "light.conllu"
    convert(ua_path, out, to="corefud")
    # m2 has no head (its Min is two words, and no tree): Udapi heads it by its first word.
    assert _udapi_mentions(out) == [("1", ["The", "fisherman"], "fisherman"),
                                    ("2", ["a", "gold", "goddess"], "a"),
                                    ("1", ["He"], "He"),
                                    ("2", ["her"], "her")]
    assert _corefud_scorer_conll(out, out) == "CoNLL score: 100.00"


def test_ua_to_corefud_scores_as_the_original_under_min_matching(ua_path, tmp_path):
    # The response finds 'fisherman' (m1's Min) and 'gold goddess' (m2's Min): each a MIN
    # match, which exact matching does not make.
    response = tmp_path / "response.conllua"
    response.write_text(UA.replace("(EntityID=1|MarkableID=m1|Min=2|SemType=dn\t", "_\t")
                        .replace("fisherman\t_\t_\t_\t_\t_\t_\t_\t_\t)",
                                 "fisherman\t_\t_\t_\t_\t_\t_\t_\t_\t(EntityID=1|MarkableID=m1)")
                        .replace("(EntityID=2|MarkableID=m2|Min=5,6\t", "_\t")
                        .replace("gold\t_\t_\t_\t_\t_\t_\t_\t_\t_",
                                 "gold\t_\t_\t_\t_\t_\t_\t_\t_\t(EntityID=2|MarkableID=m2"),
                        encoding="utf-8")
    key_out, response_out = tmp_path / "key.conllu", tmp_path / "response.conllu"
    convert(ua_path, key_out, to="corefud")
    convert(response, response_out, to="corefud")
    original = anascore.score(ua_path, response, match="min", metrics="mentions,muc,bcub")
    converted = anascore.score(key_out, response_out, match="min", metrics="mentions,muc,bcub")
    assert original.metrics["mentions"].recall == 1.0
    assert anascore.score(ua_path, response, metrics="mentions").metrics["mentions"].recall == 0.5
    for name, score in original.metrics.items():
        assert converted.metrics[name].f1 == score.f1, name


def test_a_min_span_outside_its_markable_is_refused_or_dropped_with_a_warning(ua_path,
                                                                              tmp_path):
    # CODI-CRAC files hold Min values outside their markable; a CorefUD MIN counts positions
    # of its mention, so it cannot hold them.
    path = tmp_path / "outside.conllua"
    path.write_text(UA.replace("Min=5,6", "Min=6,7"), encoding="utf-8")
    out = tmp_path / "outside.conllu"
    with pytest.raises(FormatError, match="1 MIN span outside its mention"):
        convert(path, out, to="corefud")
    assert not out.exists()
    warnings = convert(path, out, to="corefud", drop_unsupported=True)
    assert any("dropped 1 MIN span outside its mention" in warning for warning in warnings)
    [back] = read_corefud(out)
    assert [m.min_tokens for e in back.entities for m in e.mentions] == [(1,), None, None,
                                                                        (10,)]


def test_a_min_outside_its_markable_heads_nothing(ua_path, tmp_path):
    # CODI-CRAC's 'you' (light_dev markable_177, token 35) has Min=24, another word: it was
    # the markable's head, a head outside its mention, which CorefUD cannot write
    path = tmp_path / "outside.conllua"
    path.write_text(UA.replace("(EntityID=1|MarkableID=m3)", "(EntityID=1|MarkableID=m3|Min=2)"),
                    encoding="utf-8")
    [document] = read_ua(path)
    assert [(m.tokens, m.min_tokens, m.head) for m in document.entities[0].mentions] == [
        ((0, 1), (1,), 1), ((7,), (1,), 7)]


# A CorefUD document whose mention 'gone home' starts on an empty node: its head, from the
# tree, is the word 'home' (the empty node's HEAD is '_'), so it is no zero.
COREFUD = """\
# newdoc id = d
# global.Entity = eid-etype-head-other
# sent_id = d-1
1\tAnna\t_\t_\t_\t_\t2\tnsubj\t_\tEntity=(e1-person-1-)
2\tleft\t_\t_\t_\t_\t0\troot\t_\t_
2.1\tgone\t_\t_\t_\t_\t_\t_\t2:conj\tEntity=(e2-place-
3\thome\t_\t_\t_\t_\t2\tobj\t_\tEntity=e2)
4\tand\t_\t_\t_\t_\t5\tcc\t_\t_
5\tshe\t_\t_\t_\t_\t2\tconj\t_\tEntity=(e1-person-1-)
6\tthere\t_\t_\t_\t_\t5\tadvmod\t_\tEntity=(e2-place-1-)
"""


def test_a_mention_that_starts_on_an_empty_node_is_a_zero_in_no_reader(tmp_path):
    key = tmp_path / "key.conllu"
    key.write_text(COREFUD, encoding="utf-8")
    as_ua = tmp_path / "key.conllua"
    convert(key, as_ua, to="ua")
    [corefud] = read_corefud(key)
    [ua] = read_ua(as_ua)  # as scoring reads it, without token columns
    heads = [m.head for e in corefud.entities for m in e.mentions]
    assert heads == [0, 5, 3, 6]  # 'gone home' headed by 'home'
    assert [m.head for e in ua.entities for m in e.mentions] == heads
    for response in (key, as_ua):
        report = anascore.score(key, response, keep_zeros=False, metrics="mentions")
        assert report.metrics["mentions"].precision == 1.0
        assert report.metrics["mentions"].recall == 1.0


def test_heads_a_ua_file_does_not_give_are_not_content_a_conversion_loses(tmp_path):
    # A UA file names no head: every head is worked out of its dependency tree (or Min), as
    # a CorefUD file's without a head field, and is no content CoNLL-2012 loses.
    source = ROOT / "tests" / "fixtures" / "ua" / "typed_key.conllua"
    with pytest.raises(FormatError, match=r"has 4 MIN spans, which conll2012 cannot hold"):
        convert(source, tmp_path / "out.conll", to="conll2012")
    assert convert(source, tmp_path / "out.conll", to="conll2012",
                   drop_unsupported=True) == [
        f"{source}: dropped 4 MIN spans (1 of 1 documents), which conll2012 cannot hold"]
