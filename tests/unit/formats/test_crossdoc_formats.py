"""The cross-document formats (issue 25): mention records in JSON (Barhom et al. 2019, WEC-Eng,
uCDCR), Cattan's token CoNLL, SciCo's topics; chain IDs as names; the ID map of a conversion to
CoNLL-2012. Every file here is written by the tests; field names and layouts follow
``shanybar/event_entity_coref_ecb_plus`` (data/interim/cybulska_setup/*_gold_mentions.json),
``anastasia-zhukova/uCDCR`` (README, ``*_mentions.json``), ``ariecattan/coref`` (conll.py) and
``ariecattan/SciCo`` (README, utils/conll.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import anascore
from anascore.cli.main import main
from anascore.core.errors import FormatError
from anascore.formats import detect_format, read_documents
from anascore.formats.cattan import read_cattan, write_cattan
from anascore.formats.conll2012 import read_conll2012
from anascore.formats.io.conversion import convert
from anascore.formats.mentionjson import read_mentionjson, write_mentionjson
from anascore.formats.scico import read_scico, write_scico
from tests.support.paths import CORPORA
from tests.support.perl_scorer import differences, requires_perl, run_perl


def mention(chain, doc, sentence, tokens, **extra) -> dict:
    return {"coref_chain": chain, "doc_id": doc, "sent_id": sentence, "tokens_number": tokens,
            **extra}


def write_json(path: Path, records: list) -> Path:
    path.write_text(json.dumps(records, indent=1), encoding="utf-8")
    return path


def chains(document) -> dict[str, list[tuple[int, ...]]]:
    return {entity.id: [m.tokens for m in entity.mentions] for entity in document.entities}


def f1s(report) -> dict[str, tuple[float, float]]:
    return {name: (score.recall, score.precision) for name, score in report.metrics.items()
            if hasattr(score, "recall")}


# --- mention records in JSON ---------------------------------------------------------------

def test_mention_records_lay_tokens_out_by_sentence_id_and_keep_topics(tmp_path: Path) -> None:
    path = write_json(tmp_path / "m.json", [
        mention("ACT1", "36_1ecb", 2, [1], tokens_str="said", topic_id="36",
                subtopic_id="36ecb", mention_type="ACT"),
        mention("HUM7", "36_1ecb", 0, [3, 4], tokens_str="the leaders", topic_id="36",
                subtopic_id="36ecb", mention_type="HUM"),
        mention("ACT1", "36_1ecb", 0, [0], topic_id="36", subtopic_id="36ecb"),
        mention(5, "37_2ecb", 1, [2, 6], topic_id=37),
    ])
    first, second = read_mentionjson(path)
    # sentence 0 is 5 tokens wide (highest number 4), sentence 2 two: 0..4 then 5..6
    assert first.name == "36_1ecb" and first.topic == "36" and first.subtopic == "36ecb"
    assert first.tokens == ("_", "_", "_", "the", "leaders", "_", "said")
    assert first.sentence_starts == (0, 5)
    assert chains(first) == {"ACT1": [(6,), (0,)], "HUM7": [(3, 4)]}
    assert first.entities[0].mentions[0].attributes["mention_type"] == "ACT"
    assert first.entities[0].mentions[0].line == 2
    # an integer chain ID is the name "5"; a discontinuous mention is an ordinary mention
    assert second.topic == "37" and second.subtopic is None
    assert chains(second) == {"5": [(2, 6)]}
    assert detect_format(path) == "mentionjson"


def test_mention_records_positions_do_not_depend_on_record_order(tmp_path: Path) -> None:
    records = [mention("a", "d", 3, [2]), mention("b", "d", 1, [0, 1]),
               mention("a", "d", 10, [4]), mention("b", "d", 1, [5])]
    one = list(read_mentionjson(write_json(tmp_path / "one.json", records)))
    other = list(read_mentionjson(write_json(tmp_path / "other.json", records[::-1])))
    assert [(d.name, d.tokens) for d in one] == [(d.name, d.tokens) for d in other]
    assert {e.id: set(m.tokens for m in e.mentions) for e in one[0].entities} == \
        {e.id: set(m.tokens for m in e.mentions) for e in other[0].entities}
    # sentences 1 (6 wide), 3 (3 wide), 10 (5 wide): by value, not as text ("10" < "3")
    assert one[0].sentence_starts == (0, 6, 9)


def test_ucdcr_documents_are_named_by_conll_doc_key(tmp_path: Path) -> None:
    # uCDCR's doc_id "1" repeats across topics; its conll_doc_key is unique
    path = write_json(tmp_path / "u.json", [
        mention("c", "1", 0, [0], topic_id="36", subtopic_id="36ecb", conll_doc_key="36/36ecb/1"),
        mention("c", "1", 0, [0], topic_id="37", subtopic_id="37ecb", conll_doc_key="37/37ecb/1"),
    ])
    assert [(d.name, d.topic) for d in read_mentionjson(path)] == [("36/36ecb/1", "36"),
                                                                  ("37/37ecb/1", "37")]
    clash = write_json(tmp_path / "clash.json", [
        mention("c", "1", 0, [0], topic_id="36"), mention("c", "1", 0, [1], topic_id="37")])
    with pytest.raises(FormatError, match=r"record 1: document '1' is in topic '37'.*expected "
                                          r"one topic per document") as error:
        list(read_mentionjson(clash))
    assert error.value.line == 11  # record 0 spans lines 2-10


def test_gold_mention_response_pairs_mention_for_mention(tmp_path: Path) -> None:
    # key A = {m1, m2, m3}, B = {m4}; response X = {m1, m2}, Y = {m3, m4}
    spots = [("d", 0, [1]), ("d", 0, [4]), ("d", 2, [0, 1]), ("d", 1, [3])]
    key = write_json(tmp_path / "key.json", [mention(chain, *spot) for chain, spot in
                                             zip("AAAB", spots, strict=True)])
    response = write_json(tmp_path / "response.json", [
        mention(chain, *spot) for chain, spot in reversed(list(zip("XXYY", spots,
                                                                   strict=True)))])
    report = anascore.score(key, response, metrics=["muc", "mentions"])
    # MUC recall: A split in 2 → (3-2)/2; precision: X whole 1/1, Y split 0/1 → 1/2
    assert f1s(report) == {"mentions": (1.0, 1.0), "muc": (0.5, 0.5)}


@pytest.mark.parametrize(("record", "expected"), [
    ([], "record 1 is not an object"),
    (mention(None, "d", 0, [0]), "record 1: coref_chain is null; expected the chain's ID"),
    (mention("-", "d", 0, [0]), "coref_chain '-' names no chain"),
    (mention("c", ["d"], 0, [0]), "record 1: doc_id is \\[\"d\"\\]"),
    (mention("c", "d", 1.5, [0]), "record 1: sent_id is 1.5"),
    (mention("c", "d", 0, []), "record 1: tokens_number is \\[\\]; expected a non-empty list"),
    (mention("c", "d", 0, [2, 2]), "tokens_number is \\[2, 2\\]; expected a non-empty list of "
                                   "distinct"),
    (mention("c", "d", 0, [-1]), "tokens_number is \\[-1\\]"),
    (mention("c", "d", 0, [0], topic_id=[1]), "record 1: topic_id is \\[1\\]"),
])
def test_mention_record_errors_name_the_record_and_its_line(tmp_path: Path, record,
                                                              expected: str) -> None:
    path = write_json(tmp_path / "bad.json", [mention("c", "d", 0, [0]), record])
    with pytest.raises(FormatError, match=expected) as error:
        list(read_mentionjson(path))
    assert error.value.path == str(path)
    # json.dumps(indent=1): record 0 spans lines 2-9, record 1 starts on line 10
    assert error.value.line == 10


def test_mention_record_file_errors(tmp_path: Path) -> None:
    for text, expected, line in (("[]", "no mention found", 1),
                                 ('[{"coref_chain": "a", "doc_id": "d", "sent_id": 0, '
                                  '"tokens_number": [0]}\n {"b": 1}]', "expected ',' or ']' "
                                  "after record 0", 2),
                                 ('[\n{"coref_chain": tru}]', "not JSON", 2),
                                 ('[{"coref_chain": "a", "doc_id": "d", "sent_id": 0, '
                                  '"tokens_number": [0]}', "ends inside the JSON array", 1)):
        path = tmp_path / "bad.json"
        path.write_text(text)
        with pytest.raises(FormatError, match=expected) as error:
            list(read_documents(path, "mentionjson"))
        assert error.value.line == line, text


def test_mention_records_one_per_line_are_read_too(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    path.write_text("\n".join(json.dumps(mention("c", "d", 0, [n])) for n in range(3)) + "\n")
    assert detect_format(path) == "mentionjson"
    (document,) = read_documents(path)
    assert chains(document) == {"c": [(0,), (1,), (2,)]}


def test_cli_scores_mention_records_and_refuses_bad_ones_in_one_line(tmp_path: Path,
                                                                       capsys) -> None:
    key = write_json(tmp_path / "key.json", [mention("c", "d", 0, [0]),
                                             mention("c", "d", 0, [1])])
    bad = write_json(tmp_path / "bad.json", [mention("c", "d", 0, "x")])
    assert main(["score", str(key), str(key), "--format", "mentionjson"]) == 0
    assert main(["score", str(key), str(bad)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"anascore: error: {bad}:2: record 0: tokens_number is \"x\"; expected a "
                   "non-empty list of distinct token numbers (integers from 0) within the "
                   "sentence"]


# --- Cattan's token CoNLL -----------------------------------------------------------------

CATTAN = """#begin document 36
36\t36_0\t36_1ecb\t0\t1\tPolice\tTrue\t(7)
36\t36_0\t36_1ecb\t0\t2\tarrested\tTrue\t(ACT16)
36\t36_0\t36_1ecb\t1\t9\tthe\tTrue\t(HUM3
36\t36_0\t36_1ecb\t1\t10\tleader\tTrue\tHUM3)
36\t36_1\t36_2ecbplus\t0\t0\tarrest\tTrue\t(ACT16)
36\t36_1\t36_2ecbplus\t0\t1\tfollowed\tTrue\t(NEG16)
#end document
#begin document 37
37\t37_0\t37_1ecb\t3\t4\tx\tFalse\t-
#end document
"""


def test_cattan_documents_come_from_the_document_column(tmp_path: Path) -> None:
    path = tmp_path / "topic_level.conll"
    path.write_text(CATTAN)
    assert detect_format(path) == "cattan"
    first, second, third = read_cattan(path)
    assert (first.name, first.topic, first.subtopic) == ("36_1ecb", "36", "36_0")
    assert first.tokens == ("Police", "arrested", "the", "leader")
    assert first.sentence_starts == (0, 2)
    assert chains(first) == {"7": [(0,)], "ACT16": [(1,)], "HUM3": [(2, 3)]}
    assert (second.name, second.subtopic) == ("36_2ecbplus", "36_1")
    assert chains(second) == {"ACT16": [(0,)], "NEG16": [(1,)]}
    assert (third.name, third.topic, chains(third)) == ("37_1ecb", "37", {})
    # read as CoNLL-2012, a block is one document, as the Perl scorer reads it
    assert [d.name for d in read_conll2012(path)] == ["36", "37"]


@pytest.mark.parametrize(("line", "expected"), [
    ("36\t36_0\t36_1ecb\t0\t1\tPolice\t(7)", "7 tab-separated columns; expected 8"),
    ("36\t36_0\t36_1ecb\t0\t1\tPolice\tyes\t(7)", "flag 'yes'; expected True or False"),
    ("36\t36_0\t36_1ecb\t0\t1\tPolice\tTrue\t(7", "mention of chain 7 opened here in document "
                                                 "'36_1ecb' is never closed"),
    ("36\t36_0\t36_1ecb\t0\t1\tPolice\tTrue\t7)", "closing bracket '7\\)' without an open"),
    ("37\t37_0\t36_1ecb\t0\t1\tPolice\tTrue\t-", "document '36_1ecb' is in topic '37'"),
])
def test_cattan_errors_name_the_line(tmp_path: Path, line: str, expected: str) -> None:
    path = tmp_path / "bad.conll"
    path.write_text("#begin document 36\n36\t36_0\t36_1ecb\t0\t0\tThe\tTrue\t-\n"
                    f"{line}\n#end document\n")
    with pytest.raises(FormatError, match=expected) as error:
        list(read_cattan(path))
    assert (error.value.path, error.value.line) == (str(path), 3)


# --- SciCo --------------------------------------------------------------------------------

def test_scico_paragraphs_are_documents_of_their_topic(tmp_path: Path) -> None:
    topic = {"id": 12, "tokens": [["Deep", "learning", "works"], ["deep", "nets", "and", "CNN"]],
             "mentions": [[0, 0, 1, 3], [1, 0, 1, 3], [1, 3, 3, 4]],
             "flatten_tokens": ["Deep", "learning", "works", "deep", "nets", "and", "CNN"],
             "flatten_mentions": [[0, 1, 3], [3, 4, 3], [6, 6, 4]],
             "doc_ids": [401, 402], "sentences": [[[0, 3]], [[0, 2], [2, 4]]],
             "relations": [[3, 4]], "source": "pwc"}
    path = tmp_path / "test.jsonl"
    path.write_text(json.dumps(topic) + "\n")
    assert detect_format(path) == "scico"
    first, second = read_scico(path)
    assert (first.name, first.topic, first.tokens) == ("12/0", "12",
                                                       ("Deep", "learning", "works"))
    assert chains(first) == {"3": [(0, 1)]}
    assert chains(second) == {"3": [(0, 1)], "4": [(3,)]}
    assert second.sentence_starts == (0, 2)
    # without "mentions", the flattened mentions are placed in their paragraph
    del topic["mentions"]
    path.write_text(json.dumps(topic) + "\n")
    assert [chains(d) for d in read_scico(path)] == [chains(first), chains(second)]
    # only the flattened layout: the topic is one document
    path.write_text(json.dumps({"id": "t", "flatten_tokens": topic["flatten_tokens"],
                                "flatten_mentions": topic["flatten_mentions"]}) + "\n")
    (whole,) = read_scico(path)
    assert (whole.name, whole.topic) == ("t", "t")
    assert chains(whole) == {"3": [(0, 1), (3, 4)], "4": [(6,)]}


@pytest.mark.parametrize(("topic", "expected"), [
    ({"tokens": [["a"]], "mentions": []}, "missing or invalid \"id\""),
    ({"id": 1, "tokens": [["a"]], "mentions": [[0, 0, 1, 5]]}, "ends past its 1 tokens"),
    ({"id": 1, "tokens": [["a"]], "mentions": [[1, 0, 0, 5]]}, "names paragraph 1"),
    ({"id": 1, "tokens": [["a"]], "mentions": [[0, 0, 5]]}, "mentions\\[0\\] is \\[0, 0, 5\\]"),
    ({"id": 1, "tokens": [["a"], ["b"]], "flatten_mentions": [[0, 1, 5]]},
     "is not within one paragraph"),
    ({"id": 1, "tokens": "a b"}, "\"tokens\" must be a list of token strings per paragraph"),
    ({"id": 1}, "neither \"tokens\" nor \"flatten_tokens\""),
])
def test_scico_errors_name_the_line(tmp_path: Path, topic: dict, expected: str) -> None:
    path = tmp_path / "bad.jsonl"
    good = {"id": 0, "tokens": [["x"]], "mentions": [[0, 0, 0, 1]]}
    path.write_text(json.dumps(good) + "\n\n" + json.dumps(topic) + "\n")
    with pytest.raises(FormatError, match=expected) as error:
        list(read_scico(path))
    assert (error.value.path, error.value.line) == (str(path), 3)


# --- IDs are names ------------------------------------------------------------------------

def _act_neg_files(tmp_path: Path, format: str) -> tuple[Path, Path]:
    """A key with chains ACT16 = {0, 1} and NEG16 = {2, 3}, and a response with all four in
    one chain, in ``format``."""
    def files(ids: list[str], name: str) -> Path:
        path = tmp_path / f"{name}.{format}"
        if format == "mentionjson":
            write_json(path, [mention(chain, "d", 0, [n]) for n, chain in enumerate(ids)])
        elif format == "cattan":
            path.write_text("#begin document t\n" + "".join(
                f"t\tt\td\t0\t{n}\tw{n}\tTrue\t({chain})\n" for n, chain in enumerate(ids))
                + "#end document\n")
        elif format == "scico":
            path.write_text(json.dumps({"id": "t", "tokens": [[f"w{n}" for n in range(4)]],
                                        "mentions": [[0, n, n, chain]
                                                     for n, chain in enumerate(ids)]}) + "\n")
        else:
            path.write_text("#begin document d\n" + "".join(
                f"d\t0\t{n}\tw{n}\t({chain})\n" for n, chain in enumerate(ids))
                + "#end document\n")
        return path
    return (files(["ACT16", "ACT16", "NEG16", "NEG16"], "key"),
            files(["ACT16"] * 4, "response"))


@pytest.mark.parametrize("format", ["mentionjson", "cattan", "scico", "conll2012"])
def test_act16_and_neg16_stay_two_chains(tmp_path: Path, format: str) -> None:
    key, response = _act_neg_files(tmp_path, format)
    assert detect_format(key) == format
    (document,) = read_documents(key)
    assert sorted(chains(document)) == ["ACT16", "NEG16"]
    report = anascore.score(key, response, metrics=["muc"])
    # two chains of two against one of four: recall (1+1)/2, precision (4-2)/3
    assert f1s(report)["muc"] == (1.0, 2 / 3)


@pytest.mark.parametrize("format", ["mentionjson", "cattan", "scico"])
def test_ids_coval_would_merge_are_warned_about_with_their_count(tmp_path: Path,
                                                                 format: str) -> None:
    key, _ = _act_neg_files(tmp_path, format)
    report = anascore.score(key, key, metrics=["muc"])
    expected = ("key document {}: 2 chain IDs share their digits with another (1 group; first: "
                "'ACT16', 'NEG16' → 16): anascore keeps them apart, CoVal reads only the digits "
                "and would merge each group into one chain")
    name = "'t/0'" if format == "scico" else "'d'"
    assert f"{key}: {expected.format(name)}" in report.warnings
    assert f"{key}: {expected.format(name).replace('key', 'response', 1)}" in report.warnings


def test_one_id_on_event_and_entity_mentions_is_warned_about(tmp_path: Path) -> None:
    key = write_json(tmp_path / "mixed.json", [
        mention("16", "d", 0, [0], mention_type="ACT"),
        mention("16", "d", 0, [1], mention_type="HUM"),
        mention("17", "d", 0, [2], mention_type="NEG"), mention("17", "d", 0, [3])])
    report = anascore.score(key, key, metrics=["muc"])
    assert (f"{key}: key document 'd': 1 chain ID on both event and entity mentions (first: "
            "'16'), each read as one chain, as written; give event and entity chains distinct "
            "IDs if they are not one chain") in report.warnings
    assert not any("share their digits" in warning for warning in report.warnings)


def test_integer_ids_give_no_warning(tmp_path: Path) -> None:
    key = write_json(tmp_path / "k.json", [mention(n, "d", 0, [n]) for n in range(3)])
    assert anascore.score(key, key, metrics=["muc"]).warnings == ()


# --- conversion ---------------------------------------------------------------------------

def test_convert_to_conll2012_maps_string_ids_to_integers_beside_it(tmp_path: Path) -> None:
    key, response = _act_neg_files(tmp_path, "mentionjson")
    out_key, out_response = tmp_path / "key.conll", tmp_path / "response.conll"
    assert convert(key, out_key, to="conll2012") == []
    assert convert(response, out_response, to="conll2012") == []
    assert (tmp_path / "key.conll.ids.tsv").read_text() == "integer\tid\n1\tACT16\n2\tNEG16\n"
    assert (tmp_path / "response.conll.ids.tsv").read_text() == "integer\tid\n1\tACT16\n"
    assert "(1)" in out_key.read_text() and "ACT" not in out_key.read_text()
    assert f1s(anascore.score(out_key, out_response)) == f1s(anascore.score(key, response))


def test_convert_keeps_integer_ids_and_writes_no_map(tmp_path: Path) -> None:
    key = write_json(tmp_path / "k.json", [mention(n + 5, "d", 0, [n]) for n in range(2)])
    assert convert(key, tmp_path / "k.conll", to="conll2012") == []
    assert "(5)" in (tmp_path / "k.conll").read_text()
    assert not (tmp_path / "k.conll.ids.tsv").exists()


def test_convert_escapes_ids_in_the_map_and_refuses_stdout(tmp_path: Path, capsys) -> None:
    key = write_json(tmp_path / "k.json", [mention("a\tb\nc", "d", 0, [0])])
    assert convert(key, tmp_path / "k.conll", to="conll2012") == []
    assert (tmp_path / "k.conll.ids.tsv").read_text() == "integer\tid\n1\ta\\tb\\nc\n"
    assert main(["convert", str(key), "-", "--to", "conll2012"]) == 1
    assert "name an output file instead of '-'" in capsys.readouterr().err


def test_convert_between_the_cross_document_formats(tmp_path: Path) -> None:
    source = tmp_path / "topic_level.conll"
    source.write_text(CATTAN)
    original = list(read_cattan(source))
    for target in ("mentionjson", "scico", "cattan"):
        out = tmp_path / f"out.{target}"
        assert convert(source, out, to=target) == []
        again = list(read_documents(out))
        # mention records hold no document without mentions (37_1ecb has none)
        kept = original[:2] if target == "mentionjson" else original
        assert [chains(d) for d in again] == [chains(d) for d in kept]
        assert [d.topic for d in again] == [d.topic for d in kept]


# --- header dialects of the mention-based CoNLL -------------------------------------------

@pytest.mark.parametrize("header", ["#begin document (ECB+/ecbplus_all); part 000",
                                    "#begin document(ECB+/ecbplus_all);",
                                    "#begin document\t(ECB+/ecbplus_all);"])
def test_mention_based_conll_is_read_in_every_header_dialect(tmp_path: Path,
                                                             header: str) -> None:
    path = tmp_path / "key_conll"
    path.write_text(f"{header}\nECB+/ecbplus_all\t(1)\nECB+/ecbplus_all\t(2)\n"
                    "ECB+/ecbplus_all\t(1)\n#end document\n")
    assert detect_format(path) == "conll2012"
    (document,) = read_documents(path)
    assert document.name == header.split("document", 1)[1].strip()
    assert chains(document) == {"1": [(0,), (2,)], "2": [(1,)]}


# --- properties ---------------------------------------------------------------------------

_NAMES = st.text(alphabet="abcXYZ019_-/", min_size=1, max_size=6).filter(
    lambda name: name not in ("-", "_"))
_WORDS = st.text(alphabet="abcdefgh", min_size=1, max_size=5)


@st.composite
def mention_records(draw) -> list[dict]:
    records = []
    for _ in range(draw(st.integers(1, 12))):
        doc = draw(st.sampled_from(["d1", "d2", "d3"]))
        tokens = sorted(draw(st.sets(st.integers(0, 9), min_size=1, max_size=3)))
        record = mention(draw(_NAMES | st.integers(0, 99)), doc,
                         draw(st.integers(0, 4) | st.sampled_from(["s1", "2", "10"])), tokens,
                         topic_id=f"t{doc}", subtopic_id=f"s{doc}")
        if draw(st.booleans()):
            record["tokens_str"] = " ".join(draw(_WORDS) for _ in tokens)
        if draw(st.booleans()):
            record["mention_type"] = draw(st.sampled_from(["ACT", "HUM"]))
        records.append(record)
    return records


def _same(one: list, other: list) -> bool:
    """The same documents, entities in any order (their order is no content)."""
    def content(documents: list) -> list:
        return [(d.name, d.tokens, sorted(chains(d).items()), d.topic, d.subtopic)
                for d in documents]
    return content(one) == content(other)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(records=mention_records())
def test_mention_records_read_write_read_is_the_same(tmp_path: Path, records: list) -> None:
    path = write_json(tmp_path / "in.json", records)
    documents = list(read_mentionjson(path))
    assert sum(len(list(d.mentions())) for d in documents) == len(records)
    write_mentionjson(documents, tmp_path / "out.json")
    assert _same(list(read_mentionjson(tmp_path / "out.json")), documents)


@st.composite
def cattan_files(draw) -> str:
    lines = []
    for topic in range(draw(st.integers(1, 2))):
        lines.append(f"#begin document {topic}")
        for doc in range(draw(st.integers(1, 2))):
            length = draw(st.integers(1, 6))
            cells = {n: [] for n in range(length)}
            for _ in range(draw(st.integers(0, 3))):
                start = draw(st.integers(0, length - 1))
                end = draw(st.integers(start, length - 1))
                chain = draw(_NAMES)
                if start == end:
                    cells[start].append(f"({chain})")
                else:
                    cells[start].append(f"({chain}")
                    cells[end].insert(0, f"{chain})")
            for n in range(length):
                lines.append(f"{topic}\t{topic}_0\t{topic}_{doc}doc\t{n // 3}\t{n}\t"
                             f"{draw(_WORDS)}\tTrue\t{'|'.join(cells[n]) or '-'}")
        lines.append("#end document")
    return "\n".join(lines) + "\n"


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=cattan_files())
def test_cattan_read_write_read_is_the_same(tmp_path: Path, text: str) -> None:
    path = tmp_path / "in.conll"
    path.write_text(text)
    try:
        documents = list(read_cattan(path))
    except FormatError as error:  # a chain's mentions that cross cannot be bracketed
        assert "closing bracket" in error.message or "never closed" in error.message
        return
    try:
        write_cattan(documents, tmp_path / "out.conll")
    except FormatError as error:
        assert "crossing mentions" in error.message
        return
    assert _same(list(read_cattan(tmp_path / "out.conll")), documents)


@st.composite
def scico_files(draw) -> str:
    topics = []
    for topic in range(draw(st.integers(1, 3))):
        paragraphs = draw(st.lists(st.lists(_WORDS, min_size=1, max_size=6), min_size=1,
                                   max_size=3))
        mentions = []
        for _ in range(draw(st.integers(0, 5))):
            paragraph = draw(st.integers(0, len(paragraphs) - 1))
            start = draw(st.integers(0, len(paragraphs[paragraph]) - 1))
            end = draw(st.integers(start, len(paragraphs[paragraph]) - 1))
            mentions.append([paragraph, start, end, draw(st.integers(0, 4) | _NAMES)])
        topics.append(json.dumps({"id": topic, "tokens": paragraphs, "mentions": mentions}))
    return "\n".join(topics) + "\n"


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=scico_files())
def test_scico_read_write_read_is_the_same(tmp_path: Path, text: str) -> None:
    path = tmp_path / "in.jsonl"
    path.write_text(text)
    documents = list(read_scico(path))
    write_scico(documents, tmp_path / "out.jsonl")
    assert _same(list(read_scico(tmp_path / "out.jsonl")), documents)


def test_a_response_with_other_mentions_than_the_key_is_refused_saying_why(
        tmp_path: Path) -> None:
    key = write_json(tmp_path / "key.json", [mention("a", "d", 0, [5])])
    response = write_json(tmp_path / "response.json", [mention("a", "d", 0, [3])])
    with pytest.raises(anascore.AnascoreError, match=(
            r"has 6 tokens in the key .* but 4 in the response .*; expected the same tokens; "
            r"mention records lay a document's tokens out from its mentions, so a response "
            r"must hold the key's mentions \(score predicted mentions in a token format\)")):
        anascore.score(key, response)


def test_mention_based_conll_holds_discontinuous_mentions_for_the_perl_scorer(
        tmp_path: Path) -> None:
    # ECB+ has discontinuous mentions ("from … home", tokens [2, 6]): the token layout of
    # CoNLL-2012 cannot hold them, one line per mention can
    spots = [("d", 0, [2, 6]), ("d", 0, [4]), ("d", 1, [0]), ("e", 0, [1])]
    key = write_json(tmp_path / "key.json", [mention(chain, *spot) for chain, spot in
                                             zip(["L1", "L1", "H2", "H2"], spots, strict=True)])
    response = write_json(tmp_path / "response.json", [
        mention(chain, *spot) for chain, spot in zip(["x", "y", "y", "x"], spots, strict=True)])
    for source in (key, response):
        assert convert(source, tmp_path / f"{source.stem}.mconll", to="mentionconll") == []
    assert (tmp_path / "key.mconll").read_text() == (
        "#begin document d\nd\t(1)\nd\t(1)\nd\t(2)\n#end document\n"
        "#begin document e\ne\t(2)\n#end document\n")
    assert (tmp_path / "key.mconll.ids.tsv").read_text() == "integer\tid\n1\tL1\n2\tH2\n"
    assert detect_format(tmp_path / "key.mconll") == "conll2012"
    converted = anascore.score(tmp_path / "key.mconll", tmp_path / "response.mconll")
    assert f1s(converted) == f1s(anascore.score(key, response))
    # document d: key {0,1} {2}, response {0} {1,2}: MUC recall 0/1, precision 0/1
    assert f1s(converted)["muc"] == (0.0, 0.0)


def test_cattan_keeps_spaces_in_names_and_refuses_tabs(tmp_path: Path) -> None:
    source = tmp_path / "key.conll"
    source.write_text("#begin document (a b); part 0\nx\t0\t0\tHe\t(1)\n#end document\n")
    convert(source, tmp_path / "out.cattan", to="cattan")
    (document,) = read_cattan(tmp_path / "out.cattan")
    assert (document.name, document.topic) == ("(a b); part 0", "(a b); part 0")
    assert f1s(anascore.score(source, tmp_path / "out.cattan"))["muc"] == (0.0, 0.0)
    tabbed = write_json(tmp_path / "t.json", [mention("c", "a\tb", 0, [0])])
    with pytest.raises(FormatError, match="a name with a tab"):
        convert(tabbed, tmp_path / "t.cattan", to="cattan")


def test_scico_writes_a_document_without_topic_under_its_name(tmp_path: Path) -> None:
    source = tmp_path / "key.conll"
    source.write_text("#begin document doc 1\nx\t0\t0\tHe\t(1)\n\nx\t0\t0\tran\t(1)\n"
                      "#end document\n")
    convert(source, tmp_path / "out.jsonl", to="scico")
    (document,) = read_scico(tmp_path / "out.jsonl")
    assert (document.name, document.sentence_starts, chains(document)) == (
        "doc 1", (0, 1), {"1": [(0,), (1,)]})


LITBANK = sorted((CORPORA / "litbank"
                  / "coref-conll").glob("*.conll"))[:2]


@pytest.mark.skipif(not LITBANK, reason="../shared/corpora is absent")
@pytest.mark.parametrize("source", LITBANK, ids=lambda path: path.name)
def test_a_corpus_as_mention_records_keeps_every_mention_at_its_place(source: Path,
                                                                       tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    assert convert(source, out, to="mentionjson") == []
    (original,) = read_documents(source)
    (written,) = read_documents(out)
    starts = [*original.sentence_starts]
    place = [starts[int(sentence)] + int(number) for sentence, number in
             zip(written.token_columns["sent_id"], written.token_columns["token_number"],
                 strict=True)]
    assert {entity.id: sorted(tuple(place[token] for token in m.tokens)
                              for m in entity.mentions) for entity in written.entities} == \
        {entity.id: sorted(m.tokens for m in entity.mentions) for entity in original.entities
         if entity.mentions}


# --- the Perl scorer over mention records -------------------------------------------------

def _random_records(rng, chains: list[str]) -> list[dict]:
    """Mentions of 2-4 documents in two topics (distinct identities; some discontinuous),
    each given one of ``chains``."""
    records, seen = [], set()
    for doc in range(rng.randint(2, 4)):
        for _ in range(rng.randint(1, 12)):
            sentence = rng.randint(0, 3)
            tokens = sorted(rng.sample(range(12), rng.choice([1, 1, 2, 3])))
            if rng.random() < 0.7:
                tokens = list(range(tokens[0], tokens[0] + len(tokens)))
            if (doc, sentence, tuple(tokens)) not in seen:
                seen.add((doc, sentence, tuple(tokens)))
                records.append(mention(rng.choice(chains), f"{doc % 2}_{doc}ecb", sentence,
                                       tokens, topic_id=str(doc % 2)))
    return records


@requires_perl
@pytest.mark.parametrize("seed", range(20))
def test_mention_records_score_as_the_perl_scorer_on_their_mention_based_files(
        seed: int, tmp_path: Path) -> None:
    import random

    rng = random.Random(seed)
    key_records = _random_records(rng, ["ACT16", "NEG16", "HUM3", "Singleton_7", "8"])
    response_records = [dict(record, coref_chain=rng.choice(["a", "b16", "ACT16", "c", "d"]))
                        for record in key_records]
    rng.shuffle(response_records)
    key = write_json(tmp_path / "key.json", key_records)
    response = write_json(tmp_path / "response.json", response_records)
    for source in (key, response):
        convert(source, tmp_path / f"{source.stem}.conll", to="mentionconll")
    perl = run_perl(tmp_path / "key.conll", tmp_path / "response.conll")
    assert differences(anascore.score(key, response), perl) == []


def test_marked_up_text_starting_with_a_mention_is_not_taken_for_json(tmp_path: Path) -> None:
    path = tmp_path / "response.txt"
    path.write_text("[Anna|1] met [her|1] friend.\n")
    assert detect_format(path) == "markup"
    path.write_text("  [\n  ]\n")
    assert detect_format(path) == "mentionjson"


@pytest.mark.parametrize("format", ["corefud", "ua"])
def test_act16_and_neg16_stay_two_chains_in_conllu_formats(tmp_path: Path, format: str) -> None:
    from anascore.core.model import Document, Entity, Mention
    from anascore.formats import writer

    def document(ids: list[str]) -> Document:
        entities: dict[str, list[Mention]] = {}
        for position, chain in enumerate(ids):
            entities.setdefault(chain, []).append(Mention.span(position, position))
        return Document(name="d", tokens=("a", "b", "c", "d"), sentence_starts=(0,),
                        entities=tuple(Entity(chain, tuple(found))
                                       for chain, found in entities.items()))

    key, response = tmp_path / f"key.{format}", tmp_path / f"response.{format}"
    writer(format)([document(["ACT16", "ACT16", "NEG16", "NEG16"])], key)
    writer(format)([document(["ACT16"] * 4)], response)
    (read,) = read_documents(key, format)
    assert sorted(chains(read)) == ["ACT16", "NEG16"]
    assert f1s(anascore.score(key, response, metrics=["muc"], format=format))["muc"] == \
        (1.0, 2 / 3)
