"""Conversion between formats: refused when the target cannot hold something, unless asked to
drop it, and round trips that keep every score identical."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest

import anascore
from anascore.cli.main import main
from anascore.config.options import ALL_METRICS
from anascore.core.errors import FormatError
from anascore.core.model import Document, Entity, Mention
from anascore.formats import read_documents
from anascore.formats.conll2012 import write_conll2012
from anascore.formats.io.conversion import convert, unsupported_content
from anascore.formats.ua import write_ua
from tests.support.paths import CORPORA, EXAMPLES, FIXTURES

RICH = FIXTURES / "corefud" / "two_documents.conllu"


def test_what_a_target_cannot_hold_is_refused_with_a_list(tmp_path: Path) -> None:
    with pytest.raises(FormatError) as error:
        convert(RICH, tmp_path / "out.conll", to="conll2012")
    message = str(error.value)
    for part in ("1 empty node", "1 discontinuous mention",
                 "3 heads not on their mention's first token",
                 "1 split-antecedent plural", "1 bridging link", "--drop-unsupported"):
        assert part in message
    assert not (tmp_path / "out.conll").exists()


def test_dropping_what_cannot_be_held(tmp_path: Path) -> None:
    warnings = convert(RICH, tmp_path / "out.jsonlines", to="jsonlines", drop_unsupported=True)
    # One warning per kind of content over the whole file, with counts.
    assert [warning.split(": dropped ")[1] for warning in warnings] == [
        "1 empty node (1 of 2 documents), which jsonlines cannot hold",
        "3 heads not on their mention's first token (1 of 2 documents), which jsonlines cannot "
        "hold",
        "1 discontinuous mention (1 of 2 documents), which jsonlines cannot hold",
        "1 split-antecedent plural (1 of 2 documents), which jsonlines cannot hold",
        "1 bridging link (1 of 2 documents), which jsonlines cannot hold"]
    first, _ = read_documents(tmp_path / "out.jsonlines")
    # The zero (only an empty node) goes; "The house … old" (discontinuous) goes.
    assert len(first.tokens) == 22
    assert sorted(mention.tokens for entity in first.entities for mention in entity.mentions) \
        == [(0,), (2, 3, 4), (7,), (9, 10), (14, 15)]
    assert [entity.elements for entity in first.entities] == [(), (), (), ()]
    assert first.bridging == ()


def test_corefud_holds_everything_the_corefud_reader_reads(tmp_path: Path) -> None:
    assert convert(RICH, tmp_path / "out.conllu", to="corefud") == []
    before = anascore.score(RICH, RICH, metrics="all")
    after = anascore.score(RICH, tmp_path / "out.conllu", metrics="all", match="head")
    assert after.metrics["conll"].f1 == before.metrics["conll"].f1 == 1.0


def test_ua_holds_all_but_heads(tmp_path: Path) -> None:
    with pytest.raises(FormatError) as error:
        convert(RICH, tmp_path / "out.conllua", to="ua")
    assert "heads" in str(error.value)
    assert "empty node" not in str(error.value) and "discontinuous" not in str(error.value)
    warnings = convert(RICH, tmp_path / "out.conllua", to="ua", drop_unsupported=True)
    assert [warning.split(": dropped ")[1].split(" (")[0] for warning in warnings] == [
        "4 heads that their dependency tree does not give"]  # the multi-word mentions
    original = {document.name: document for document in read_documents(RICH)}
    for document in read_documents(tmp_path / "out.conllua"):
        before = original[document.name]
        # the text, empty nodes included, every mention (zeros too), plurals and bridging
        assert document.tokens == before.tokens
        assert [[mention.tokens for mention in entity.mentions]
                for entity in document.entities] == [
            [mention.tokens for mention in entity.mentions] for entity in before.entities]
        assert [entity.elements for entity in document.entities] == [
            entity.elements for entity in before.entities]
        assert len(document.bridging) == len(before.bridging)


def test_ua_keeps_the_ids_columns_sentences_and_empty_nodes_of_conllu(
        tmp_path: Path) -> None:
    # Before, a document that lost an empty node (or a head) lost every CoNLL-U column and
    # sentence ID with it, and its words were renumbered over the document; empty nodes
    # (and the zeros on them) could not be written at all.
    convert(RICH, tmp_path / "out.conllua", to="ua", drop_unsupported=True)
    original = {document.name: document
                for document in read_documents(RICH, all_columns=True)}
    for document in read_documents(tmp_path / "out.conllua", all_columns=True):
        before = original[document.name]
        assert before.nodes is not None and document.nodes is not None
        assert document.nodes.ids == before.nodes.ids
        assert document.nodes.empty == before.nodes.empty
        assert document.nodes.deps == before.nodes.deps
        assert document.nodes.sentence_ids == before.nodes.sentence_ids
        for column in ("lemma", "upos", "head", "deprel"):
            assert document.token_columns[column] == before.token_columns[column]
    # and every score, zeros included, is the original's
    for match in ("exact", "partial"):
        before = anascore.score(RICH, RICH, metrics="all", match=match)
        after = anascore.score(RICH, tmp_path / "out.conllua", metrics="all", match=match)
        assert after.metrics["zero"].f1 == before.metrics["zero"].f1 == 1.0
        assert after.metrics["conll"].f1 == before.metrics["conll"].f1 == 1.0


def test_round_trip_through_ua_keeps_scores(tmp_path: Path) -> None:
    key = FIXTURES / "jsonlines" / "key.jsonlines"
    convert(key, tmp_path / "key.ua", to="ua")
    convert(tmp_path / "key.ua", tmp_path / "back.jsonlines", to="jsonlines")
    assert anascore.score(key, tmp_path / "back.jsonlines").metrics["conll"].f1 == 1.0


@pytest.mark.parametrize("response", ["response_a.conll", "response_d.conll"])
def test_chain_conll2012_ua_corefud_jsonlines_conll2012_keeps_every_score(
        tmp_path: Path, response: str) -> None:
    originals = {"key": FIXTURES / "chen_ng_2013" / "key.conll",
                 "response": FIXTURES / "chen_ng_2013" / response}
    before = anascore.score(originals["key"], originals["response"], metrics="all")
    for role, path in originals.items():
        for target, suffix in (("ua", "conllua"), ("corefud", "conllu"),
                               ("jsonlines", "jsonlines"), ("conll2012", "conll")):
            converted = tmp_path / f"{role}.{suffix}"
            assert convert(path, converted, to=target) == []
            path = converted
    for suffix in ("conllua", "conllu", "jsonlines", "conll"):
        after = anascore.score(tmp_path / f"key.{suffix}", tmp_path / f"response.{suffix}",
                               metrics="all")
        for name in before.metrics:
            assert after.metrics[name] == before.metrics[name], (suffix, name)


def test_convert_command(tmp_path: Path, capsys) -> None:
    out = tmp_path / "out.conll"
    assert main(["convert", str(RICH), str(out), "--to", "conll2012"]) == 1
    assert "--drop-unsupported" in capsys.readouterr().err
    assert main(["convert", str(RICH), str(out), "--to", "conll2012",
                 "--drop-unsupported"]) == 0
    assert "dropped" in capsys.readouterr().err
    assert [document.name for document in read_documents(out)] == ["d1", "d2"]


def _perturbed(document: Document, rng: random.Random) -> Document:
    """A response: some mentions dropped, some entities merged, never two crossing mentions
    in one entity nor a span twice."""
    entities: list[list[Mention]] = []
    for entity in document.entities:
        kept = [mention for mention in entity.mentions if rng.random() > 0.15]
        if kept:
            if entities and rng.random() < 0.1:
                entities[rng.randrange(len(entities))].extend(kept)
            else:
                entities.append(kept)
    cleaned = []
    for mentions in entities:
        chosen: list[Mention] = []
        for mention in sorted(mentions, key=lambda m: (m.start, -m.end)):
            if all(not (other.start < mention.start <= other.end < mention.end)
                   and other.tokens != mention.tokens for other in chosen):
                chosen.append(mention)
        cleaned.append(chosen)
    return replace(document, entities=tuple(Entity(f"r{number}", tuple(mentions))
                                            for number, mentions in enumerate(cleaned)))


def _corpus_files() -> list[Path]:
    gum = sorted((CORPORA / "gum" / "coref-conll").glob("GUM_*.conll"))[:6]
    litbank = sorted((CORPORA / "litbank" / "coref-conll").glob("*.conll"))[:2]
    return gum + litbank


def _scores(key: Path, response: Path, match: str) -> dict:
    report = anascore.score(key, response, match=match, metrics="all")
    return {name: report.metrics[name].to_dict() for name in ALL_METRICS}


@pytest.mark.skipif(not CORPORA.exists(), reason="../shared/corpora is absent")
@pytest.mark.parametrize("source", _corpus_files() if CORPORA.exists() else [],
                         ids=lambda path: path.stem)
def test_round_trip_conll2012_corefud_jsonlines_conll2012_keeps_every_score(
        tmp_path: Path, source: Path) -> None:
    key_documents = list(read_documents(source))
    rng = random.Random(source.stem)
    start_key, start_response = tmp_path / "key.conll", tmp_path / "response.conll"
    write_conll2012(key_documents, start_key)
    write_conll2012([_perturbed(document, rng) for document in key_documents], start_response)
    chain = [(start_key, start_response)]
    for step, (target, suffix) in enumerate((("corefud", "conllu"), ("jsonlines", "jsonlines"),
                                             ("conll2012", "conll"))):
        pair = []
        for side, previous in zip(("key", "response"), chain[-1], strict=True):
            path = tmp_path / f"{step}-{side}.{suffix}"
            assert convert(previous, path, to=target) == []
            pair.append(path)
        chain.append((pair[0], pair[1]))
    # The matching methods CoNLL-2012 and jsonlines support (head and partial need heads).
    for match in ("exact", "craft"):
        expected = _scores(*chain[0], match)
        assert expected["muc"]["recall"] < 1.0  # the response differs from the key
        for key, response in chain[1:]:
            assert _scores(key, response, match) == expected, (key.suffix, match)
    back = list(read_documents(chain[-1][0]))
    assert [sorted(mention.tokens for entity in document.entities for mention in entity.mentions)
            for document in back] == \
        [sorted(mention.tokens for entity in document.entities for mention in entity.mentions)
         for document in key_documents]


def test_unsupported_content_names_nothing_for_a_plain_document() -> None:
    document = next(iter(read_documents(FIXTURES / "jsonlines" / "key.jsonlines")))
    for target in ("conll2012", "corefud", "jsonlines"):
        assert not unsupported_content(document, target)


def test_conll2012_to_corefud_writes_sent_ids_without_spaces(tmp_path: Path) -> None:
    # OntoNotes names hold spaces ("(news/ex/00/ex_0001); part 000"): a sent_id cannot; nor
    # '/', which Udapi reads as the start of a zone name.
    key = EXAMPLES / "key.conll"
    out = tmp_path / "key.conllu"
    assert convert(key, out, to="corefud") == []
    sent_ids = [line.split("=", 1)[1].strip() for line in out.read_text().splitlines()
                if line.startswith("# sent_id")]
    assert sent_ids and not [name for name in sent_ids if " " in name]
    assert sent_ids[0] == "(news_ex_00_ex_0001);_part_000-1"


def test_corefud_to_ua_keeps_the_token_ids_that_dependency_heads_name(tmp_path: Path) -> None:
    # A CoNLL-U file numbers each sentence from 1, and its HEAD cells name those IDs. The UA
    # file keeps the IDs (the UA reader reads them within their sentence), so every word's
    # governor is the same word after the conversion. Before, the IDs were renumbered over
    # the document while the HEAD cells stayed as written: from the second sentence on, every
    # HEAD named another word.
    source = tmp_path / "two.conllu"
    source.write_text(
        "# global.Entity = eid-etype-head\n# newdoc id = d\n# sent_id = s1\n"
        "1\tAnna\tAnna\tPROPN\t_\t_\t2\tnsubj\t2:nsubj\tEntity=(e1-person-1)\n"
        "2\tslept\tsleep\tVERB\t_\t_\t0\troot\t0:root\t_\n\n"
        "# sent_id = s2\n"
        "1\tThe\tthe\tDET\t_\t_\t2\tdet\t2:det\tEntity=(e2-animal-2\n"
        "2\tdog\tdog\tNOUN\t_\t_\t3\tnsubj\t3:nsubj\tEntity=e2)\n"
        "3\tbarked\tbark\tVERB\t_\t_\t0\troot\t0:root\t_\n\n", encoding="utf-8")
    target = tmp_path / "two.conllua"
    # CorefUD's head of "The dog" is given, UA's comes from the dependencies: the same word,
    # so nothing is lost
    assert convert(source, target, to="ua") == []
    written = [line.split("\t") for line in target.read_text(encoding="utf-8").splitlines()
               if line and not line.startswith("#")]
    assert [(cells[0], cells[6], cells[8]) for cells in written] == [
        ("1", "2", "2:nsubj"), ("2", "0", "0:root"),
        ("1", "2", "2:det"), ("2", "3", "3:nsubj"), ("3", "0", "0:root")]
    (document,) = read_documents(target, token_columns=True)
    assert [(mention.tokens, mention.head) for entity in document.entities
            for mention in entity.mentions] == [((0,), 0), ((2, 3), 3)]
    assert document.nodes is not None and document.nodes.sentence_ids == ("s1", "s2")


def test_ids_numbered_otherwise_on_the_same_words_need_no_alignment(tmp_path: Path) -> None:
    # The key numbers each sentence from 1 (a CoNLL-U source), the response numbers the
    # document through (written from positions): with no empty node on either side the
    # positions coincide, so the pair is scored as it is (before, it was rebuilt on the
    # union of both sides' IDs: a third of a GUM UA run) and scores as the key against itself
    # where the annotation is the same.
    from anascore.formats.io.conllu_alignment import common_positions

    source = tmp_path / "two.conllu"
    source.write_text(
        "# newdoc id = d\n# sent_id = s1\n"
        "1\tAnna\t_\t_\t_\t_\t2\t_\t_\tEntity=(e1-person-1)\n"
        "2\tslept\t_\t_\t_\t_\t0\t_\t_\t_\n\n# sent_id = s2\n"
        "1\tShe\t_\t_\t_\t_\t2\t_\t_\tEntity=(e1-person-1)\n"
        "2\twoke\t_\t_\t_\t_\t0\t_\t_\t_\n\n", encoding="utf-8")
    key = tmp_path / "key.conllua"
    convert(source, key, to="ua")
    (document,) = read_documents(key)
    response = tmp_path / "response.conllua"
    write_ua([replace(document, token_columns={})], response)
    (key_document,), (response_document,) = read_documents(key), read_documents(response)
    assert key_document.nodes.ids == ("1", "2", "1", "2")
    assert response_document.nodes.ids == ("1", "2", "3", "4")
    aligned = common_positions(key_document, response_document)
    assert aligned[0] is key_document and aligned[1] is response_document
    assert anascore.score(key, response, metrics="all").metrics["conll"].f1 == 1.0


def test_ua_writes_empty_nodes_as_empty_nodes_without_their_own_ids(tmp_path: Path) -> None:
    # a CorefUD document read without all its columns has no IDs to keep: the UA file numbers
    # the document through, an empty node as W.k after word W, so it stays an empty node (it
    # was written as a word, and the pair no longer had the same words)
    (document,) = [document for document in read_documents(RICH)
                   if document.nodes is not None and document.nodes.has_empty_nodes]
    path = tmp_path / "out.conllua"
    write_ua([document], path)
    (again,) = read_documents(path)
    assert again.tokens == document.tokens
    assert again.nodes is not None
    assert again.nodes.empty == document.nodes.empty
    assert [id_ for id_, empty in zip(again.nodes.ids, again.nodes.empty, strict=True)
            if empty] == ["6.1"]
    assert anascore.score(RICH, path, metrics="all", keep_zeros=True).metrics["zero"].f1 == 1.0


def test_heads_the_file_does_not_give_are_not_lost_by_a_conversion(tmp_path: Path) -> None:
    # GUM-style CorefUD: no head field, heads worked out of the tree; CoNLL-2012 keeps no
    # tree, but the file gave no heads to lose (the conversion needs no --drop-unsupported)
    source = tmp_path / "gum.conllu"
    source.write_text("# newdoc id = g\n# global.Entity = GRP-etype\n# sent_id = g-1\n"
                      "1\tThe\t_\t_\t_\t_\t2\t_\t_\tEntity=(7-person\n"
                      "2\tman\t_\t_\t_\t_\t3\t_\t_\tEntity=7)\n"
                      "3\tslept\t_\t_\t_\t_\t0\t_\t_\t_\n\n", encoding="utf-8")
    (document,) = read_documents(source)
    assert [mention.head for mention in document.mentions()] == [1]  # "man"
    for target, suffix in (("conll2012", "conll"), ("jsonlines", "jsonlines")):
        assert convert(source, tmp_path / f"out.{suffix}", to=target) == []
    # UA heads the mention by its tree too, and says that compat="ua" heads the original by
    # its first word (test_a_corefud_file_without_heads_converted_to_ua_says_…)
    [said] = convert(source, tmp_path / "out.conllua", to="ua")
    assert "1 mention (1 of 1 documents) has no head in the file" in said


def test_exclusive_ends_between_formats_without_spans_is_refused(tmp_path: Path, capsys) -> None:
    # CorefUD to UA: --exclusive-ends has no jsonlines ends to read or write, and was ignored.
    out = tmp_path / "out.conllua"
    assert main(["convert", str(RICH), str(out), "--to", "ua", "--exclusive-ends"]) == 1
    assert capsys.readouterr().err == (
        f"anascore: error: {RICH}:1: --exclusive-ends reads and writes "
        "the span ends of jsonlines files, and neither corefud nor ua is jsonlines; leave out "
        "--exclusive-ends\n")
    assert not out.exists()
    assert main(["convert", str(RICH), str(tmp_path / "out.jsonlines"), "--to", "jsonlines",
                 "--exclusive-ends", "--drop-unsupported", "--quiet"]) == 0


@pytest.mark.parametrize(("name", "to"), [
    ("", "corefud"), ("", "ua"), (" a ", "conll2012"), (" a ", "corefud"), (" a ", "ua"),
    ("a\nb", "conll2012"), ("a\nb", "corefud"), ("a\nb", "ua")])
def test_a_document_name_the_target_cannot_write_back_is_refused(
        tmp_path: Path, capsys, name: str, to: str) -> None:
    # Written anyway, '' came back from CorefUD as '1' and was unreadable in UA ('# newdoc'
    # without a document id), ' a ' came back as 'a', and a line break cut the file in two.
    source = tmp_path / "in.jsonlines"
    source.write_text(json.dumps({"doc_key": name, "sentences": [["A", "b", "c"]],
                                  "clusters": [[[0, 0], [2, 2]]]}) + "\n")
    output = tmp_path / "out"
    output.write_text("old\n")
    assert main(["convert", str(source), str(output), "--to", to]) == 1
    reason = ("an empty name" if not name else "a name with a line break" if "\n" in name
              else "a name with white space at its ends")
    assert capsys.readouterr().err == (
        f"anascore: error: {source}:1: document {name!r}: {to} cannot write back {reason}; "
        "name the document otherwise (marked-up text: '# newdoc id = NAME'), or convert to "
        "jsonlines\n")
    assert output.read_text() == "old\n"


def test_names_every_target_writes_back_are_converted(tmp_path: Path) -> None:
    for name, targets in (("", ("conll2012", "jsonlines")), (" a ", ("jsonlines",)),
                          ("a\tb; part 001", ("conll2012", "corefud", "jsonlines", "ua"))):
        source = tmp_path / "in.jsonlines"
        source.write_text(json.dumps({"doc_key": name, "sentences": [["A", "b"]],
                                      "clusters": [[[0, 0], [1, 1]]]}) + "\n")
        for to in targets:
            convert(source, tmp_path / f"out.{to}", to=to)
            assert [document.name for document in read_documents(tmp_path / f"out.{to}",
                                                                 "auto")] == [name]


def test_marked_up_text_without_a_name_converts_to_conll2012_not_ua(tmp_path: Path,
                                                                      capsys) -> None:
    source = tmp_path / "in.txt"
    source.write_text("Anna met [her|1] and [Anna|1] left.\n")
    assert main(["convert", str(source), str(tmp_path / "out.conll"), "--to", "conll2012"]) == 0
    assert main(["convert", str(source), str(tmp_path / "out.ua"), "--to", "ua"]) == 1
    assert "document '': ua cannot write back an empty name; " in capsys.readouterr().err
    assert not (tmp_path / "out.ua").exists()


def test_a_corefud_file_without_heads_converted_to_ua_says_compat_ua_scores_it_otherwise(
        tmp_path):
    # GUM-style CorefUD: the header names a head field, the mentions leave it empty. anascore
    # heads them by the tree in both files; compat="ua" (the CorefUD scorer) heads the
    # CorefUD file's by their first words, and a UA file cannot say "no head given".
    source = tmp_path / "gum_like.conllu"
    source.write_text(
        "# newdoc id = d\n# global.Entity = eid-etype-head-other\n# sent_id = d-1\n"
        "# text = The old man slept . He woke .\n"
        "1\tThe\tthe\tDET\t_\t_\t3\tdet\t_\tEntity=(e1-person-\n"
        "2\told\told\tADJ\t_\t_\t3\tamod\t_\t_\n"
        "3\tman\tman\tNOUN\t_\t_\t4\tnsubj\t_\tEntity=e1)\n"
        "4\tslept\tsleep\tVERB\t_\t_\t0\troot\t_\t_\n"
        "5\t.\t.\tPUNCT\t_\t_\t4\tpunct\t_\t_\n"
        "6\tHe\the\tPRON\t_\t_\t7\tnsubj\t_\tEntity=(e1-person-)\n"
        "7\twoke\twake\tVERB\t_\t_\t4\tconj\t_\t_\n"
        "8\t.\t.\tPUNCT\t_\t_\t4\tpunct\t_\t_\n\n", encoding="utf-8")
    out = tmp_path / "out.conllua"
    [warning] = convert(source, out, to="ua")
    assert warning == (
        f"{source}: 2 mentions (1 of 1 documents) have no head in the file, which UA cannot "
        "say: the UA file heads them by its tree, as anascore reads the original, but "
        "--compat ua (the CorefUD scorer) heads the original's by their first words, so head "
        "and partial matching under --compat ua score the two files differently")
    assert anascore.score(source, out, match="head").metrics["muc"].f1 == 1.0
    # the response heads "The old man" on "man" (its tree), the key on "The": MUC 0
    under_ua = anascore.score(source, out, match="head", compat="ua")
    assert under_ua.metrics["muc"].f1 == 0.0
