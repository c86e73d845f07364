"""Governors from the dependency tree (formats/dependencies.py): the governors of some
sentences (what the CorefUD reader works out) are those of the whole document."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from anascore.formats.dependencies import (
    ROOT,
    governors,
    id_positions,
    mention_head,
    sentence_governors,
    untreed_head,
)


@st.composite
def documents(draw: st.DrawFn) -> tuple[list[str], list[int], list[int], list[str]]:
    """Token IDs (1, 2 … per sentence, some with empty nodes or a gap), each token's
    sentence, each sentence's first position, and HEAD cells (roots, none, several, IDs of
    the sentence, of no token)."""
    ids: list[str] = []
    sentence_of: list[int] = []
    starts: list[int] = []
    for sentence in range(draw(st.integers(1, 4))):
        starts.append(len(ids))
        first = draw(st.sampled_from([1, 1, 1, 3]))  # a gap now and then
        for word in range(first, first + draw(st.integers(1, 6))):
            ids.append(str(word))
            sentence_of.append(sentence)
            if draw(st.integers(0, 5)) == 0:
                ids.append(f"{word}.1")
                sentence_of.append(sentence)
    cells = st.sampled_from(["0", "0", "1", "2", "3", "4", "2.1", "_", "", "9", "01"])
    heads = [draw(cells) for _ in ids]
    return ids, sentence_of, starts, heads


@settings(max_examples=300, deadline=None)
@given(document=documents(), chosen=st.sets(st.integers(0, 3)))
def test_governors_of_some_sentences_are_the_documents(
        document: tuple[list[str], list[int], list[int], list[str]], chosen: set[int]) -> None:
    ids, sentence_of, starts, heads = document
    numbered = list(zip(ids, sentence_of, strict=True))
    everyone = governors(numbered, heads, id_positions(numbered))
    sentences = sorted(sentence for sentence in chosen if sentence < len(starts))
    some = sentence_governors(ids, starts, heads, sentences)
    for position, sentence in enumerate(sentence_of):
        if sentence in sentences:
            assert some[position] == everyone[position]
    # Left out: exactly the tokens of the chosen sentences that are no tree.
    for position in some:
        assert sentence_of[position] in sentences


def _governors_token_by_token(ids: list[tuple[str, int]],
                              heads: list[str]) -> list[int | None]:
    """The governors as the rule says them, a token at a time (the oracle of the column-wise
    :func:`governors`): IDs unique in the document looked up over it, else per sentence."""
    unique = len({token_id for token_id, _ in ids}) == len(ids)
    positions: dict = {}
    for position, (token_id, sentence) in enumerate(ids):
        positions[token_id if unique else (token_id, sentence)] = position
    roots: dict[int, int] = {}
    for (_, sentence), head in zip(ids, heads, strict=True):
        if head == "0":
            roots[sentence] = roots.get(sentence, 0) + 1
    found: list[int | None] = []
    for (_, sentence), head in zip(ids, heads, strict=True):
        if roots.get(sentence) != 1 or head in ("_", ""):
            found.append(None)
        elif head == "0":
            found.append(ROOT)
        else:
            found.append(positions.get(head if unique else (head, sentence)))
    return found


@settings(max_examples=300, deadline=None)
@given(document=documents(), odd_ids=st.lists(st.sampled_from(["_", "", "0", "1", "2"]),
                                              max_size=3))
def test_governors_are_those_of_the_token_by_token_rule(
        document: tuple[list[str], list[int], list[int], list[str]],
        odd_ids: list[str]) -> None:
    ids, sentence_of, _, heads = document
    # IDs a careful reader may hand over too ('_' where there is no ID column, a repeat).
    for index, odd in enumerate(odd_ids):
        ids[index % len(ids)] = odd
    numbered = list(zip(ids, sentence_of, strict=True))
    lookup = id_positions(numbered)
    assert lookup[1] == (len(set(ids)) == len(ids))
    assert governors(numbered, heads, lookup) == _governors_token_by_token(numbered, heads)


def test_governors_of_a_small_document() -> None:
    numbered = [("1", 0), ("2", 0), ("3", 0), ("1", 1), ("2", 1), ("1", 2), ("2", 2)]
    heads = ["0", "1", "9", "2", "0", "0", "0"]  # sentence 2 has two roots: no tree
    assert governors(numbered, heads, id_positions(numbered)) == [
        ROOT, 0, None, 4, ROOT, None, None]


def test_a_sentence_with_one_root_has_a_tree_and_others_none() -> None:
    ids = ["1", "2", "3", "1", "2"]
    heads = ["0", "1", "2", "0", "0"]  # sentence 2 has two roots: no tree
    found = sentence_governors(ids, [0, 3], heads, [0, 1])
    assert [found[position] for position in range(5)] == [ROOT, 0, 1, None, None]
    assert set(found) == {0, 1, 2}


def test_a_mention_without_a_tree_is_headed_by_its_min_or_its_one_token() -> None:
    assert untreed_head((4, 5), (5,)) == 5
    assert untreed_head((4, 5), (7,)) is None  # a MIN outside the mention heads nothing
    assert untreed_head((4,), None) == 4
    assert untreed_head((4, 5), None) is None
    assert mention_head((4, 5), (5,), [None] * 6) == untreed_head((4, 5), (5,))
