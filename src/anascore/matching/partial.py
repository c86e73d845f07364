"""Head, partial (CorefUD) and CRAFT matching: a response mention may match a key mention
that it does not cover exactly.

All three first align identical mentions (for head matching: the same positions *and* the
same head), then score the remaining key × response pairs and keep a one-to-one pairing, as
the CorefUD scorer 1.2 / UA scorer 2.0 do (``scorer/base/reader.py``,
``find_mention_alignment``). A mention without a head (CoNLL-2012, jsonlines) is headed by
its first position, the convention of Udapi and of the CorefUD scorer.

* ``head`` (CRAC 2023 and later): a response mention matches a key mention with the same
  head; among several, the one covering the largest share of the key mention,
  score ``|K ∩ R| / |K|``, best pairing by :mod:`anascore.matching.optimal`.
* ``partial`` (CorefUD, CRAC 2022): the response lies inside the key (``R ⊆ K``) and contains
  the key's head; score ``|R| / |K|``, best pairing likewise.
* ``craft`` (CRAFT 2019 shared task, Cohen et al. 2017; the UA scorer's ``partial-craft``):
  the key's first contiguous run of positions is its minimal span; a response matches when
  one of its runs lies inside it, score ``|K ∩ R| / |K|``; zero mentions never match this
  way. Greedy, as the UA scorer does: response mentions in mention order each take the first
  key mention (in mention order) with a positive score, if that one is still free.

Discontinuous mentions are sets of positions throughout.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence

from anascore.core.model import Mention
from anascore.matching.optimal import Pairing, best_pairs, mention_order, ranks

Pairs = list[tuple[int, int]]


def head_of(mention: Mention) -> int:
    """The head position; the first position when the file gives none."""
    return mention.tokens[0] if mention.head is None else mention.head


def exact_pairs(key: Sequence[Mention], response: Sequence[Mention], *,
                with_heads: bool) -> tuple[Pairs, list[int], list[int]]:
    """Pairs of identical mentions, and the key and response indices left unpaired."""
    def identity(mention: Mention) -> tuple:
        return (mention.tokens, head_of(mention)) if with_heads else (mention.tokens,)

    index_of: dict[tuple, int] = {}
    for index, mention in enumerate(key):
        index_of.setdefault(identity(mention), index)
    pairs: Pairs = []
    matched_keys: set[int] = set()
    rest_response: list[int] = []
    for index, mention in enumerate(response):
        key_index = index_of.get(identity(mention))
        if key_index is not None and key_index not in matched_keys:
            pairs.append((key_index, index))
            matched_keys.add(key_index)
        else:
            rest_response.append(index)
    rest_key = [index for index in range(len(key)) if index not in matched_keys]
    return pairs, rest_key, rest_response


def _scored_alignment(key: Sequence[Mention], response: Sequence[Mention], *, with_heads: bool,
                      score: Callable[[Sequence[Mention], Sequence[Mention], list[int],
                                       list[int]], dict[tuple[int, int], float]],
                      pairing: Pairing) -> Pairs:
    pairs, rest_key, rest_response = exact_pairs(key, response, with_heads=with_heads)
    if rest_key and rest_response:
        scores = score(key, response, rest_key, rest_response)
        pairs += pairing(scores, ranks(key, rest_key), ranks(response, rest_response))
    return pairs


def _head_scores(key: Sequence[Mention], response: Sequence[Mention], rest_key: list[int],
                 rest_response: list[int]) -> dict[tuple[int, int], float]:
    by_head: dict[int, list[int]] = defaultdict(list)
    for index in rest_response:
        by_head[head_of(response[index])].append(index)
    scores: dict[tuple[int, int], float] = {}
    for key_index in rest_key:
        mention = key[key_index]
        candidates = by_head.get(head_of(mention))
        if not candidates:
            continue
        tokens = set(mention.tokens)
        for response_index in candidates:
            common = len(tokens.intersection(response[response_index].tokens))
            scores[key_index, response_index] = common / len(tokens)
    return scores


def _partial_scores(key: Sequence[Mention], response: Sequence[Mention], rest_key: list[int],
                    rest_response: list[int]) -> dict[tuple[int, int], float]:
    by_token: dict[int, list[int]] = defaultdict(list)
    for index in rest_response:
        for token in response[index].tokens:
            by_token[token].append(index)
    scores: dict[tuple[int, int], float] = {}
    for key_index in rest_key:
        mention = key[key_index]
        candidates = by_token.get(head_of(mention))
        if not candidates:
            continue
        tokens = set(mention.tokens)
        for response_index in candidates:
            inner = response[response_index].tokens
            if tokens.issuperset(inner):
                scores[key_index, response_index] = len(inner) / len(tokens)
    return scores


def runs(tokens: Sequence[int]) -> list[tuple[int, int]]:
    """Maximal runs of consecutive positions, as ``(first, last)``."""
    result: list[tuple[int, int]] = []
    start = previous = tokens[0]
    for token in tokens[1:]:
        if token != previous + 1:
            result.append((start, previous))
            start = token
        previous = token
    result.append((start, previous))
    return result


def _craft_pairs(key: Sequence[Mention], response: Sequence[Mention],
                 key_zero: Sequence[bool], response_zero: Sequence[bool]) -> Pairs:
    pairs, rest_key, rest_response = exact_pairs(key, response, with_heads=False)
    if not rest_key or not rest_response:
        return pairs
    key_order = sorted(rest_key, key=lambda index: mention_order(key[index]))
    response_order = sorted(rest_response, key=lambda index: mention_order(response[index]))
    rank = {index: number for number, index in enumerate(key_order)}
    covering: dict[int, list[int]] = defaultdict(list)
    minimal: dict[int, tuple[int, int]] = {}
    for index in key_order:
        if key_zero[index]:
            continue
        minimal[index] = runs(key[index].tokens)[0]
        for token in range(minimal[index][0], minimal[index][1] + 1):
            covering[token].append(index)
    used: set[int] = set()
    for response_index in response_order:
        if response_zero[response_index]:
            continue
        first: int | None = None
        for start, end in runs(response[response_index].tokens):
            inside = next((key_index for key_index in covering.get(start, ())
                           if minimal[key_index][1] >= end), None)
            if inside is not None and (first is None or rank[inside] < rank[first]):
                first = inside
        if first is not None and first not in used:
            used.add(first)
            pairs.append((first, response_index))
    return pairs


def align_head(key: Sequence[Mention], response: Sequence[Mention], *,
               pairing: Pairing = best_pairs) -> Pairs:
    """Head matching (see the module docstring; ``pairing`` chooses among scored pairs,
    :meth:`anascore.matching.MatchingRules.mention_pairing`)."""
    return _scored_alignment(key, response, with_heads=True, score=_head_scores,
                             pairing=pairing)


def align_partial(key: Sequence[Mention], response: Sequence[Mention], *,
                  pairing: Pairing = best_pairs) -> Pairs:
    """CorefUD partial matching (see the module docstring; ``pairing`` as for
    :func:`align_head`)."""
    return _scored_alignment(key, response, with_heads=False, score=_partial_scores,
                             pairing=pairing)


def align_craft(key: Sequence[Mention], response: Sequence[Mention],
                key_zero: Sequence[bool] | None = None,
                response_zero: Sequence[bool] | None = None) -> Pairs:
    """CRAFT 2019 partial matching (see the module docstring); ``*_zero`` flag zero
    mentions, which never match this way."""
    if key_zero is None:
        key_zero = [False] * len(key)
    if response_zero is None:
        response_zero = [False] * len(response)
    return _craft_pairs(key, response, key_zero, response_zero)
