"""A mention's head from the basic dependency tree (CoNLL-U's ID and HEAD columns).

The UA reader (every markable) and the CorefUD reader (mentions whose ``Entity`` annotation
gives no head) both head a mention (:func:`mention_head`) by its first token whose syntactic
head lies outside it, the sentence's root counting as outside — the highest node of the
mention, as Udapi's ``corefud.MoveHead`` makes the CorefUD data's heads where the mention is
a treelet. Tokens whose head the file does not give (an empty node, a ``_`` HEAD) are no
candidates, and a sentence with no root or several (the ``0`` that writers without a parser
put in every HEAD cell) is no tree: its tokens' heads are unknown.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import compress
from operator import itemgetter

#: The governor of a sentence's root (HEAD ``0``): outside every mention.
ROOT = -2
#: What :func:`tree_head` says of a mention whose tokens all govern each other.
CYCLE = -1

_NO_HEAD = frozenset({"_", ""})
_FIRST = itemgetter(0)
_SECOND = itemgetter(1)


def id_positions(ids: Sequence[tuple[str, int]]) -> tuple[Mapping, bool]:
    """Token ID → position for ``(ID, sentence)`` pairs: over the document when the IDs are
    unique in it (the UA format's rule), else per sentence (keys ``(ID, sentence)``, as
    CoNLL-U numbers tokens); and whether they are unique. (Built by ``dict(zip(…))``: the
    same mapping as a loop over the pairs, the last position of a repeated key winning.)"""
    by_id = dict(zip(map(_FIRST, ids), range(len(ids)), strict=True))
    if len(by_id) == len(ids):
        return by_id, True
    return dict(zip(ids, range(len(ids)), strict=True)), False


def governors(ids: Sequence[tuple[str, int]], heads: Sequence[str],
              lookup: tuple[Mapping, bool]) -> list[int | None]:
    """Each token's syntactic head (its HEAD cell, ``heads``) as a position: :data:`ROOT` for
    the root of its sentence, ``None`` where it is not known (no HEAD, a HEAD naming no
    token, a sentence that is no tree). ``ids`` are the tokens' ``(ID, sentence)``,
    ``lookup`` their :func:`id_positions`.

    Worked out a column at a time (a reader calls this for every document): every HEAD
    looked up at once, then the few exceptions set — the roots, the cells without a HEAD,
    the tokens of a sentence with no root or several."""
    positions, unique = lookup
    heads = list(heads)
    if len(heads) != len(ids):
        raise ValueError("governors: as many HEAD cells as tokens expected")
    sentences = list(map(_SECOND, ids))
    everyone = range(len(heads))
    root_positions = list(compress(everyone, map("0".__eq__, heads)))
    if not root_positions:  # no sentence is a tree (a file without HEADs)
        return [None] * len(heads)
    roots = Counter(sentences[position] for position in root_positions)
    found: list[int | None] = list(map(positions.get, heads if unique
                                       else zip(heads, sentences, strict=True)))
    for position in root_positions:
        found[position] = ROOT
    for position in compress(everyone, map(_NO_HEAD.__contains__, heads)):
        found[position] = None
    no_tree = {sentence for sentence in set(sentences) if roots.get(sentence) != 1}
    if no_tree:
        for position in compress(everyone, map(no_tree.__contains__, sentences)):
            found[position] = None
    return found


class _SomeGovernors(dict[int, int | None]):
    """Governors by position where some are left out: those read as unknown (``None``)."""

    def __missing__(self, position: int) -> None:
        return None


def sentence_governors(ids: Sequence[str], sentence_starts: Sequence[int], heads: Sequence[str],
                       sentences: Iterable[int]) -> dict[int, int | None]:
    """:func:`governors` of the tokens of ``sentences`` alone, by position, for tokens
    numbered sentence by sentence (``sentence_starts``: each sentence's first position; a
    sentence's tokens follow each other), as CoNLL-U numbers them: what a reader that heads
    only some mentions needs, without working out every token's governor (the same values,
    :func:`governors` of the ``(ID, sentence)`` pairs with their :func:`id_positions`).
    The tokens of a sentence that is no tree (no root or several), whose governors are all
    unknown, are left out of the mapping's keys (looked up, they read as ``None``)."""
    by_id: dict[str, int] | None = None
    if len(set(ids)) == len(ids):  # unique in the document: looked up over it
        by_id = {token_id: position for position, token_id in enumerate(ids)}
    found = _SomeGovernors()
    last = len(sentence_starts) - 1
    for sentence in sentences:
        start = sentence_starts[sentence]
        end = sentence_starts[sentence + 1] if sentence < last else len(ids)
        cells = heads[start:end]
        if cells.count("0") != 1:  # no tree (no root, or several): every governor unknown
            continue
        lookup = by_id if by_id is not None else dict(zip(ids[start:end], range(start, end),
                                                          strict=True))
        for position, head in zip(range(start, end), cells, strict=True):
            found[position] = (None if head in _NO_HEAD else ROOT if head == "0"
                               else lookup.get(head))
    return found


#: Each token's governor, by position: a list of every token's (:func:`governors`), or a
#: mapping of those of some sentences (:func:`sentence_governors`).
Governors = Sequence[int | None] | Mapping[int, int | None]


def tree_head(tokens: Sequence[int], governor: Governors) -> int | None:
    """The first of ``tokens`` whose known governor lies outside them; :data:`CYCLE` when
    every known governor lies inside; ``None`` when no token's governor is known."""
    known = [token for token in tokens if governor[token] is not None]
    if not known:
        return None
    inside = set(tokens)
    return next((token for token in known if governor[token] not in inside), CYCLE)


def mention_head(tokens: Sequence[int], min_tokens: Sequence[int] | None,
                 governor: Governors) -> int | None:
    """The head of a mention whose file does not name it, the one rule of every reader (so
    that a mention is a zero, headed by an empty node, whatever format it was read from):
    from the dependency tree (:func:`tree_head`; :data:`CYCLE` when its tokens govern each
    other); where the tree says nothing of its tokens, its MIN when MIN is one of its tokens
    (a MIN outside the mention, found in CODI-CRAC files, heads nothing), or its token when it
    has one; else unknown (``None``: matching and the zero test then take its first position,
    as Udapi does)."""
    head = tree_head(tokens, governor)
    if head is not None:
        return head
    return untreed_head(tokens, min_tokens)


def untreed_head(tokens: Sequence[int], min_tokens: Sequence[int] | None) -> int | None:
    """:func:`mention_head` of a mention where the tree says nothing of its tokens (their
    sentences are no tree: :func:`sentence_governors` gives them no governor): its MIN when
    MIN is one of its tokens, or its token when it has one; else unknown."""
    if min_tokens is not None and len(min_tokens) == 1 and min_tokens[0] in tokens:
        return min_tokens[0]
    if len(tokens) == 1:
        return tokens[0]
    return None
