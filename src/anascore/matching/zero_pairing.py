"""Zero mentions aligned by their dependencies (``zero_match="dependent"``).

A zero mention is a mention headed by a CoNLL-U empty node (a dropped pronoun, an elided
verb). Where a system puts its empty nodes is arbitrary — a subject and an object pronoun
restored in the other order, or only one of them, get other IDs than in the key — so the
CorefUD scorer 1.2 (CRAC 2024) aligns zeros by what they depend on, before any other
matching: key and response zeros of the same sentence are paired one to one so as to
maximize the total of

    10 · F(deps_K, deps_R) + F(parents_K, parents_R)

where ``deps`` are the (parent, relation) pairs of the empty node's DEPS column, ``parents``
the parents alone, and F the F-score of one set predicting the other (0 when they share
nothing). Getting parent and relation right counts ten times more than the parent alone,
which only breaks ties. Zeros left unpaired go through the ordinary matching with every
other mention. (``linear``: no such step, zeros are matched by their positions.)

Parents are compared by sentence and CoNLL-U ID, as the scorer compares them. Where an empty
node has no DEPS at all the pair scores 0 (the CorefUD scorer divides by zero there; see
``docs/differences-corefud.md``).
"""

from __future__ import annotations

from anascore.matching.optimal import Pairing, best_pairs, ranks
from anascore.matching.partial import head_of
from anascore.selection.sides import Side, zero_flags

Pairs = list[tuple[int, int]]


def parse_deps(deps: str) -> frozenset[tuple[str, str]]:
    """The (parent ID, relation) pairs of a DEPS cell (``"15:nsubj|16:obl:in"``)."""
    if deps in ("_", ""):
        return frozenset()
    pairs = set()
    for item in deps.split("|"):
        parent, _, relation = item.partition(":")
        pairs.add((parent, relation))
    return frozenset(pairs)


def _f_score(predicted: frozenset, gold: frozenset) -> float:
    common = len(predicted & gold)
    if not common:
        return 0.0
    precision, recall = common / len(predicted), common / len(gold)
    return 2 * precision * recall / (precision + recall)


def dependency_score(key_deps: frozenset[tuple[str, str]],
                     response_deps: frozenset[tuple[str, str]]) -> float:
    """10 · F over (parent, relation) pairs + F over parents (the module docstring)."""
    score = 10 * _f_score(key_deps, response_deps)
    return score + _f_score(frozenset(parent for parent, _ in key_deps),
                            frozenset(parent for parent, _ in response_deps))


def align_zeros_by_dependencies(key: Side, response: Side, *,
                                pairing: Pairing = best_pairs) -> Pairs:
    """The dependency-based pairing of the zero mentions of ``key`` and ``response``
    (indices into their mention lists); ``pairing`` chooses among scored pairs
    (:meth:`anascore.matching.MatchingRules.mention_pairing`)."""
    if key.nodes is None or response.nodes is None:
        return []
    key_zeros = [index for index, zero in enumerate(zero_flags(key).tolist()) if zero]
    response_zeros = [index for index, zero in enumerate(zero_flags(response).tolist()) if zero]
    if not key_zeros or not response_zeros:
        return []
    by_sentence: dict[int, list[tuple[int, frozenset[tuple[str, str]]]]] = {}
    for index in response_zeros:
        head = head_of(response.mentions[index])
        by_sentence.setdefault(response.nodes.sentence_of[head], []).append(
            (index, parse_deps(response.nodes.deps[head])))
    scores: dict[tuple[int, int], float] = {}
    for key_index in key_zeros:
        head = head_of(key.mentions[key_index])
        deps = parse_deps(key.nodes.deps[head])
        for response_index, response_deps in by_sentence.get(key.nodes.sentence_of[head], ()):
            score = dependency_score(deps, response_deps)
            if score > 0:
                scores[key_index, response_index] = score
    return pairing(scores, ranks(key.mentions, key_zeros),
                   ranks(response.mentions, response_zeros))
