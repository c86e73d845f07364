"""Responses on other tokens, scored end to end: a key re-tokenized (contractions split,
hyphenated words merged, sub-word pieces) scores 1 when perfect and, when perturbed, what the
same perturbation scores on the key's own tokens; marked-up text and jsonlines with a
subtoken_map are responses like any other."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest

import anascore
from anascore.core.errors import DocumentMismatchError
from anascore.core.model import Document, Entity, Mention
from anascore.formats import read_documents
from anascore.formats.jsonlines import write_jsonlines
from tests.support.paths import EXAMPLES, corpus_files

METRICS = "mentions,muc,bcub,ceafm,ceafe,blanc,lea,conll"


def retokenized(document: Document, rng: random.Random) -> Document:
    """``document`` on other tokens: some tokens split in two (sub-word pieces), some merged
    with the next one when no mention boundary falls between them (a hyphenated word, a
    contraction); each mention keeps exactly its characters."""
    boundaries = {token for entity in document.entities for mention in entity.mentions
                  for token in (mention.tokens[0], mention.tokens[-1] + 1)}
    tokens: list[str] = []
    first: list[int] = []
    last: list[int] = []
    index = 0
    while index < len(document.tokens):
        word = document.tokens[index]
        draw = rng.random()
        if draw < 0.3 and len(word) > 2:
            cut = rng.randrange(1, len(word))
            first.append(len(tokens))
            tokens += [word[:cut], "##" + word[cut:]]
            last.append(len(tokens) - 1)
            index += 1
        elif draw < 0.5 and index + 1 < len(document.tokens) and index + 1 not in boundaries:
            first += [len(tokens)] * 2
            last += [len(tokens)] * 2
            tokens.append(word + document.tokens[index + 1])
            index += 2
        else:
            first.append(len(tokens))
            last.append(len(tokens))
            tokens.append(word)
            index += 1
    entities = tuple(Entity(entity.id, tuple(
        Mention(tuple(range(first[mention.tokens[0]], last[mention.tokens[-1]] + 1)))
        for mention in entity.mentions)) for entity in document.entities)
    return Document(document.name, tuple(tokens), entities, sentence_starts=(0,))


def perturbed(document: Document, rng: random.Random) -> Document:
    """Some mentions dropped, some moved to another entity."""
    groups = [list(entity.mentions) for entity in document.entities]
    for group in groups:
        for mention in list(group):
            draw = rng.random()
            if draw < 0.1:
                group.remove(mention)
            elif draw < 0.2 and len(groups) > 1:
                group.remove(mention)
                rng.choice(groups).append(mention)
    return replace(document, entities=tuple(Entity(str(number), tuple(group))
                                            for number, group in enumerate(groups) if group))


def contiguous(document: Document) -> Document:
    def whole(mention: Mention) -> bool:
        return mention.tokens == tuple(range(mention.tokens[0], mention.tokens[-1] + 1))

    return replace(document, entities=tuple(
        replace(entity, mentions=tuple(filter(whole, entity.mentions)))
        for entity in document.entities))


def scores(key: Path, response: Path, **options) -> dict:
    report = anascore.score(key, response, metrics=METRICS, **options)
    return {name: score.to_dict() for name, score in report.metrics.items()}


def litbank_documents() -> list[Document]:
    files = corpus_files("litbank", "coref-conll", pattern="*.conll", limit=3)
    return [contiguous(document) for path in files for document in read_documents(path)]


def test_litbank_on_other_tokens_perfect_scores_one_and_errors_cost_the_same(tmp_path):
    rng = random.Random(7)
    documents = litbank_documents()
    key = tmp_path / "key.jsonl"
    write_jsonlines(documents, key)
    other = tmp_path / "other.jsonl"
    write_jsonlines([retokenized(document, rng) for document in documents], other)
    perfect = scores(key, other, align_tokens=True)
    assert all(value["f1"] == 1.0 for value in perfect.values()), perfect
    wrong = [perturbed(document, rng) for document in documents]
    same_tokens, other_tokens = tmp_path / "wrong.jsonl", tmp_path / "wrong-other.jsonl"
    write_jsonlines(wrong, same_tokens)
    write_jsonlines([retokenized(document, random.Random(3)) for document in wrong],
                    other_tokens)
    assert scores(key, other_tokens, align_tokens=True) == scores(key, same_tokens)


def test_text_that_differs_is_an_error_not_a_guess(tmp_path):
    key = tmp_path / "key.jsonl"
    key.write_text(json.dumps({"doc_key": "d", "sentences": [["Anna", "left", "."]],
                               "clusters": [[[0, 0]]]}) + "\n")
    response = tmp_path / "response.jsonl"
    response.write_text(json.dumps({"doc_key": "d", "sentences": [["Anne", "left."]],
                                    "clusters": [[[0, 0]]]}) + "\n")
    with pytest.raises(DocumentMismatchError, match="the texts differ at character 4"):
        anascore.score(key, response, align_tokens=True)


def test_a_marked_up_response_scores_against_any_key(tmp_path):
    key = EXAMPLES / "key.conll"
    [document, *_] = read_documents(key)
    one = tmp_path / "key.conll"
    one.write_text(key.read_text().split("#end document")[0] + "#end document\n")
    # Write the key's own mentions as marked-up text: a perfect response.
    opens: dict[int, list[str]] = {}
    closes: dict[int, list[str]] = {}
    for entity in document.entities:
        for mention in sorted(entity.mentions, key=lambda m: -len(m.tokens)):
            opens.setdefault(mention.tokens[0], []).append("[")
            closes.setdefault(mention.tokens[-1], []).append(f"|{entity.id}]")
    words = []
    for position, word in enumerate(document.tokens):
        text = "".join(opens.get(position, [])) + word.replace("[", "\\\\[").replace("]", "\\\\]")
        text += "".join(closes.get(position, []))
        words.append(text)
    response = tmp_path / "response.txt"
    response.write_text(" ".join(words) + "\n")
    report = anascore.score(one, response, metrics=METRICS)
    assert all(score.f1 == 1.0 for score in report.metrics.values())


def test_sub_word_jsonlines_with_a_subtoken_map(tmp_path):
    key = tmp_path / "key.jsonl"
    key.write_text(json.dumps({"doc_key": "d", "sentences": [["Unbelievable", "news", ",",
                                                              "Anna", "said", "."]],
                               "clusters": [[[0, 1]], [[3, 3]]]}) + "\n")
    response = tmp_path / "response.jsonl"
    response.write_text(json.dumps({
        "doc_key": "d", "sentences": [["[CLS]", "Un", "##believ", "##able", "news", ",",
                                       "Anna", "said", ".", "[SEP]"]],
        "subtoken_map": [0, 0, 0, 0, 1, 2, 3, 4, 5, 5],
        "clusters": [[[1, 4]], [[6, 6]]]}) + "\n")
    report = anascore.score(key, response, metrics="muc,bcub,mentions")
    assert report.metrics["mentions"].f1 == 1.0


CONLLU_KEY = """\
# newdoc id = d
# global.Entity = eid-etype-head
# sent_id = 1
# text = Anna came and to the east.
1	Anna	_	_	_	_	2	nsubj	2:nsubj|3.1:nsubj	Entity=(e1--1)
2	came	_	_	_	_	0	root	0:root	_
3	and	_	_	_	_	5	cc	3.1:cc	_
3.1	went	_	_	_	_	_	_	2:conj	Entity=(e1--1)
4	to	_	_	_	_	6	case	6:case	_
5	the	_	_	_	_	6	det	6:det	Entity=(e2--2
6	east	_	_	_	_	2	obl	3.1:obl	Entity=e2)
7	.	_	_	_	_	2	punct	2:punct	_

"""


def test_a_key_with_empty_nodes_takes_a_response_on_other_tokens(tmp_path):
    # An empty node is no text: a response on other tokens has none of the key's, and is
    # scored as the same response on the key's words is (the zero counts as missed).
    key = tmp_path / "key.conllu"
    key.write_text(CONLLU_KEY)
    same = tmp_path / "same.jsonl"
    same.write_text(json.dumps({"doc_key": "d", "sentences": [["Anna", "came", "and", "to",
                                                               "the", "east", "."]],
                                "clusters": [[[0, 0]], [[4, 5]]]}) + "\n")
    other = tmp_path / "other.jsonl"
    other.write_text(json.dumps({"doc_key": "d", "sentences": [["Anna", "came", "and", "to",
                                                                "the", "ea", "##st", "."]],
                                 "clusters": [[[0, 0]], [[4, 6]]]}) + "\n")
    expected = scores(key, same)
    assert expected["mentions"]["recall"] == pytest.approx(2 / 3)
    assert scores(key, other, align_tokens=True) == expected


def test_a_response_empty_node_maps_onto_the_key_empty_node_at_its_place(tmp_path):
    # A CorefUD response on other tokens with its own empty node: the node stands after the
    # same word as the key's, so its zero mention is the key's, whatever its form.
    key = tmp_path / "key.conllu"
    key.write_text(CONLLU_KEY)
    other = tmp_path / "other.conllu"
    other.write_text(CONLLU_KEY.replace("3.1\twent", "3.1\t_").replace(
        "6\teast\t_\t_\t_\t_\t2\tobl\t3.1:obl\tEntity=e2)\n7\t.\t_\t_\t_\t_\t2\tpunct",
        "6\tea\t_\t_\t_\t_\t2\tobl\t3.1:obl\t_\n7\tst\t_\t_\t_\t_\t6\tflat\t6:flat\t"
        "Entity=e2)\n8\t.\t_\t_\t_\t_\t2\tpunct"))
    assert all(value["f1"] == 1.0
               for value in scores(key, other, align_tokens=True).values())


def test_a_response_zero_without_a_key_empty_node_is_refused(tmp_path):
    key = tmp_path / "key.conllu"
    key.write_text(CONLLU_KEY.replace("3.1\twent\t_\t_\t_\t_\t_\t_\t2:conj\tEntity=(e1--1)\n",
                                      "").replace("|3.1:nsubj", "").replace("3.1:", "2:"))
    other = tmp_path / "other.conllu"
    other.write_text(CONLLU_KEY)
    with pytest.raises(DocumentMismatchError,
                       match=r"the response's empty node 3\.1 \(line 8\) stands where the "
                             "key has none"):
        anascore.score(key, other, align_tokens=True)


def test_marked_up_text_with_long_lines_is_not_taken_for_ua(tmp_path):
    # '# newdoc id' then a line of more than ten words looked like the UA exploded format.
    from anascore.formats import detect_format

    response = tmp_path / "response.txt"
    response.write_text("# newdoc id = d\n[Anna|1] met [her|1] friend at the old station on "
                        "a cold and rainy day in May .\n")
    assert detect_format(response) == "markup"
    key = tmp_path / "key.jsonl"
    words = "Anna met her friend at the old station on a cold and rainy day in May ."
    key.write_text(json.dumps({"doc_key": "d", "sentences": [words.split(" ")],
                               "clusters": [[[0, 0], [2, 2]]]}) + "\n")
    assert anascore.score(key, response, metrics="muc").metrics["muc"].f1 == 1.0


def marked_up_pair(tmp_path: Path) -> tuple[Path, Path]:
    """A key and a marked-up response on other tokens ('didn't' one token, 'friend's' two),
    with one extra mention ('did' of 'didn't', extended to 'did n't')."""
    key = tmp_path / "key.jsonl"
    key.write_text(json.dumps({"doc_key": "d", "sentences": [[
        "Anna", "did", "n't", "see", "her", "friend", "'s", "dog", "."]],
        "clusters": [[[0, 0], [4, 4]], [[4, 6], [7, 7]]]}) + "\n")
    response = tmp_path / "response.txt"
    response.write_text("# newdoc id = d\n[Anna|1] [di|3]dn't see [[her|1] friend's|2] "
                        "[dog|2].\n")
    return key, response


def test_error_analysis_and_report_read_a_marked_up_response_on_the_key_tokens(tmp_path):
    key, response = marked_up_pair(tmp_path)
    report = anascore.score(key, response, metrics=METRICS)
    assert report.metrics["mentions"].precision == pytest.approx(4 / 5)
    analysis = anascore.analyse_errors(key, response, metrics=METRICS)
    assert analysis.counts()["extra_mention"] == 1
    assert {name: score.f1 for name, score in analysis.report.metrics.items()} == {
        name: score.f1 for name, score in report.metrics.items()}
    from anascore.cli.main import main

    page = tmp_path / "report.html"
    assert main(["report", str(key), str(response), "-o", str(page), "--quiet"]) == 0
    assert "in the response but" not in page.read_text()


def test_error_analysis_honours_align_tokens(tmp_path):
    key, _ = marked_up_pair(tmp_path)
    other = tmp_path / "other.jsonl"
    other.write_text(json.dumps({"doc_key": "d", "sentences": [[
        "Anna", "didn't", "see", "her", "friend", "'", "s", "dog."]],
        "clusters": [[[0, 0], [3, 3]], [[3, 6]]]}) + "\n")
    analysis = anascore.analyse_errors(key, other, metrics=METRICS, align_tokens=True)
    report = anascore.score(key, other, metrics=METRICS, align_tokens=True)
    assert report.metrics["mentions"].recall == pytest.approx(3 / 4)
    assert {name: score.f1 for name, score in analysis.report.metrics.items()} == {
        name: score.f1 for name, score in report.metrics.items()}


@pytest.mark.parametrize("policy", ["shrink", "refuse"])
def test_cut_tokens_without_align_tokens_is_refused(tmp_path, capsys, policy):
    # It changed nothing on a response on the key's tokens, and on marked-up text it changed
    # the scores with nothing in the signature to say so.
    from anascore.cli.main import main
    from anascore.core.errors import OptionsError

    key, response = marked_up_pair(tmp_path)
    with pytest.raises(OptionsError, match=f"cut_tokens={policy!r} needs align_tokens=True"):
        anascore.score(key, response, cut_tokens=policy)
    with pytest.raises(SystemExit) as caught:
        main(["score", str(EXAMPLES / "key.conll"), str(EXAMPLES / "response.conll"),
              "--cut-tokens", policy])
    assert caught.value.code == 2
    assert (f"--cut-tokens={policy!r} needs --align-tokens"
            in capsys.readouterr().err)
    if policy == "shrink":
        shrunk = anascore.score(key, response, cut_tokens=policy, align_tokens=True)
        assert "tokens:aligned(shrink)" in shrunk.signature


def test_white_space_before_the_first_newdoc_is_no_document(tmp_path):
    # A blank line before '# newdoc id' made an unnamed document of no tokens, paired with
    # a one-document key: 'the response text ends after 0 characters'.
    response = tmp_path / "response.txt"
    response.write_text("\n  \n# newdoc id = d1\n[Anna|1] met [her|1].\n")
    [document] = read_documents(response, "markup")
    assert document.name == "d1" and len(document.tokens) == 4
    key = tmp_path / "key.conll"
    key.write_text("#begin document d1\nAnna (1)\nmet -\nher (1)\n. -\n\n#end document\n")
    report = anascore.score(key, response, metrics=("muc",))
    assert report.metrics["muc"].f1 == 1.0
    # Text before it is still a document of its own.
    response.write_text("Anna\n# newdoc id = d1\n[Anna|1] met [her|1].\n")
    assert [d.name for d in read_documents(response, "markup")] == ["", "d1"]
