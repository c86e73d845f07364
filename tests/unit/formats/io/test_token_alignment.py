"""Responses on other tokens are mapped onto the key's tokens through their characters."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anascore.core.errors import DocumentMismatchError, FormatError
from anascore.core.model import Document, Entity, Mention
from anascore.formats.io.token_alignment import normalized, project_onto_key
from anascore.formats.markup import UNNAMED, read_markup
from tests.support.paths import corpus_files


def document(tokens: list[str], clusters: list[list[tuple[int, int]]], name: str = "d"
             ) -> Document:
    return Document(name=name, tokens=tuple(tokens), entities=tuple(
        Entity(str(number), tuple(Mention.span(start, end) for start, end in cluster))
        for number, cluster in enumerate(clusters)))


def spans(document: Document) -> list[list[tuple[int, ...]]]:
    return [[mention.tokens for mention in entity.mentions] for entity in document.entities]


KEY = document(["I", "do", "n't", "know", "the", "well", "-", "known", "man", "."],
               [[(0, 0)], [(4, 8)], [(5, 7)]])


def test_a_response_on_merged_tokens_maps_onto_the_key_tokens():
    # "don't" and "well-known" are one token each in the response.
    response = document(["I", "don't", "know", "the", "well-known", "man", "."],
                        [[(0, 0)], [(3, 5)], [(4, 4)]])
    projected = project_onto_key(KEY, response)
    assert spans(projected) == spans(KEY)
    assert projected.tokens == KEY.tokens
    # "man." is one response token: a mention ending on it takes the key's "." too.
    merged = document(["I", "don't", "know", "the", "well-known", "man."], [[(3, 5)]])
    assert spans(project_onto_key(KEY, merged)) == [[(4, 5, 6, 7, 8, 9)]]


def test_a_mention_that_cuts_a_key_token_follows_the_policy():
    # The response splits "known" into "kno" "wn"; its mention "well-kno" cuts key "known".
    response = document(["I", "do", "n't", "know", "the", "well", "-", "kno", "wn", "man",
                         "."], [[(5, 7)]])
    warnings: list[str] = []
    assert spans(project_onto_key(KEY, response, "extend", warnings)) == [[(5, 6, 7)]]
    assert "1 mention on other tokens extended to the whole key tokens" in warnings[0]
    assert spans(project_onto_key(KEY, response, "shrink")) == [[(5, 6)]]
    with pytest.raises(DocumentMismatchError, match="'well - kno' covers part of a key token"):
        project_onto_key(KEY, response, "refuse")


def test_shrinking_a_mention_to_nothing_drops_it_with_a_warning():
    response = document(["I", "do", "n't", "know", "the", "well", "-", "kno", "wn", "man",
                         "."], [[(7, 7)], [(0, 0)]])
    warnings: list[str] = []
    assert spans(project_onto_key(KEY, response, "shrink", warnings)) == [[(0,)]]
    # The dropped mention is not also counted as shrunk.
    assert warnings == ["response: document 'd': 1 mention on other tokens covering no whole "
                        "key token dropped"]


def test_sub_word_pieces_and_treebank_escapes_are_the_same_text():
    key = document(["-LRB-", "Anna", "``", "walked", "''", "-RRB-"], [[(1, 1)], [(3, 3)]])
    response = document(["(", "An", "##na", '"', "walk", "##ed", '"', ")"],
                        [[(1, 2)], [(4, 5)]])
    assert spans(project_onto_key(key, response)) == [[(1,)], [(3,)]]
    assert normalized("▁Anna") == "Anna" and normalized("##") == "##"


def test_other_text_is_an_error_naming_both_tokens():
    response = document(["I", "do", "not", "know", "the", "well-known", "man", "."], [])
    with pytest.raises(DocumentMismatchError) as caught:
        project_onto_key(KEY, response)
    assert "key token 3 \"n't\", response token 3 'not'" in caught.value.message


def retokenized(key: Document, rng: random.Random) -> tuple[Document, list[int]]:
    """The key on other tokens: each token split into pieces (sub-words: '##' marks the
    continuation) or merged with the next one; with, for each key token, its first and last
    new token."""
    tokens: list[str] = []
    first: list[int] = []
    last: list[int] = []
    index = 0
    while index < len(key.tokens):
        token = key.tokens[index]
        choice = rng.random()
        if choice < 0.3 and len(token) > 1:
            cut = rng.randrange(1, len(token))
            first.append(len(tokens))
            tokens += [token[:cut], "##" + token[cut:]]
            last.append(len(tokens) - 1)
            index += 1
        elif choice < 0.5 and index + 1 < len(key.tokens):
            first += [len(tokens)] * 2
            last += [len(tokens)] * 2
            tokens.append(token + key.tokens[index + 1])
            index += 2
        else:
            first.append(len(tokens))
            last.append(len(tokens))
            tokens.append(token)
            index += 1
    return replace(key, tokens=tuple(tokens)), [*zip(first, last, strict=True)]


def on_new_tokens(key: Document, bounds) -> Document:
    """The key's mentions on the new tokens (a merged token can make two mentions one)."""
    entities = []
    for entity in key.entities:
        mentions = {Mention(tuple(range(bounds[mention.tokens[0]][0],
                                        bounds[mention.tokens[-1]][1] + 1)))
                    for mention in entity.mentions}
        entities.append(Entity(entity.id, tuple(sorted(mentions, key=lambda m: m.tokens))))
    return replace(key, entities=tuple(entities))


@settings(max_examples=50, deadline=None)
@given(st.randoms(use_true_random=False))
def test_retokenizing_and_mapping_back_gives_the_key(rng):
    words = ["Mr.", "Darcy", "'s", "sister", ",", "Georgiana", ",", "did", "n't", "come", "."]
    key = document(words, [[(0, 1), (5, 5)], [(0, 3)], [(7, 8)]])
    response, bounds = retokenized(key, rng)
    response = on_new_tokens(response, bounds)
    projected = project_onto_key(key, response, "extend")
    # Extending to whole key tokens gives back every key mention whose tokens the response
    # could tell apart (a merged token may widen one: then it contains the key's).
    for key_entity, entity in zip(key.entities, projected.entities, strict=True):
        for key_mention, mention in zip(key_entity.mentions, entity.mentions, strict=False):
            assert set(key_mention.tokens) <= set(mention.tokens)


def test_marked_up_text_reads_nested_mentions_and_escapes(tmp_path):
    path = tmp_path / "response.txt"
    path.write_text("# newdoc id = walk\n[Anna|1] met [her|1] friend [[Bob|2]'s sister|3]\\]\n"
                    "at [the \\[old\\] station|4].\n")
    [walk] = read_markup(path)
    assert walk.name == "walk"
    assert walk.tokens == ("Anna", "met", "her", "friend", "Bob", "'s", "sister", "]", "at",
                           "the", "[old]", "station", ".")
    assert {entity.id: [mention.tokens for mention in entity.mentions]
            for entity in walk.entities} == {"1": [(0,), (2,)], "2": [(4,)], "3": [(4, 5, 6)],
                                             "4": [(9, 10, 11)]}


def test_marked_up_text_without_a_name_is_one_unnamed_document(tmp_path):
    path = tmp_path / "response.txt"
    path.write_text("[Anna|a] walked.\n")
    [only] = read_markup(path)
    assert only.name == UNNAMED and only.tokens == ("Anna", "walked.")


@pytest.mark.parametrize(("text", "message", "line"), [
    ("[Anna|1] met] her\n", "']' at column 13 closes no mention", 1),
    ("fine\n[Anna met her\n", "is never closed", 2),
    ("[|1] x\n", "empty mention of entity '1'", 1),
])
def test_marked_up_text_errors_name_the_line(tmp_path, text, message, line):
    path = tmp_path / "response.txt"
    path.write_text(text)
    with pytest.raises(FormatError, match=message) as caught:
        list(read_markup(path))
    assert caught.value.line == line


def test_litbank_on_other_tokens_maps_back_exactly():
    files = corpus_files("litbank", "coref-conll", pattern="*.conll")
    from anascore.formats import read_documents

    rng = random.Random(4)
    for path in files[:5]:
        for key in read_documents(path):
            # Split tokens into sub-word pieces only (no merges): every key mention comes back.
            tokens: list[str] = []
            bounds = []
            for token in key.tokens:
                start = len(tokens)
                if len(token) > 3 and rng.random() < 0.5:
                    tokens += [token[:2], "##" + token[2:]]
                else:
                    tokens.append(token)
                bounds.append((start, len(tokens) - 1))
            response = on_new_tokens(replace(key, tokens=tuple(tokens)), bounds)
            projected = project_onto_key(key, response, "refuse")
            assert ([sorted(set(entity)) for entity in spans(projected)]
                    == [sorted(set(entity)) for entity in spans(key)])


def test_a_mention_marked_twice_in_one_entity_gets_the_warning_of_other_formats(tmp_path):
    # '[[Anna|1]|1]' was merged into one mention without a word; a CoNLL-2012 '(1|(1)' gets
    # "repeated response mention …, annotated twice in entity 1; scored once".
    import anascore

    key = tmp_path / "key.conll"
    key.write_text("#begin document (d); part 000\nd 0 0 Anna (1)\nd 0 1 met -\n"
                   "d 0 2 her (1)\n#end document\n")
    response = tmp_path / "response.txt"
    response.write_text("# newdoc id = (d); part 000\n[[Anna|1]|1] met [her|1]\n")
    [document] = read_markup(response)
    assert spans(document) == [[(0,), (0,), (2,)]]
    conll = tmp_path / "response.conll"
    conll.write_text("#begin document (d); part 000\nd 0 0 Anna (1)|(1)\nd 0 1 met -\n"
                     "d 0 2 her (1)\n#end document\n")
    expected = anascore.score(key, conll)
    report = anascore.score(key, response)
    assert [warning.replace(str(response), "R") for warning in report.warnings] == [
        warning.replace(str(conll), "R") for warning in expected.warnings] == [
        "R: document '(d); part 000': repeated response mention [0, 0], annotated twice in "
        "entity 1; scored once, in entity 1"]
    assert report.metrics["muc"].f1 == expected.metrics["muc"].f1 == 1.0
