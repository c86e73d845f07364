"""Classifying a response's errors as Kummerfeld & Klein (2013, §3) do.

The response is turned into the key by five operations — alter span, split, remove,
introduce, merge — and each operation (or group of them) is one error of seven types. Here
the operations are read off anascore's own alignment (every matching method) and the
contingency table between key and response entities, so the counts are:

* ``span_error``: aligned mentions whose tokens differ, plus unaligned key and response
  mentions paired as the paper's analyser pairs them (same span but for punctuation at its
  ends, or the same head) — the paper's boundary repair;
* ``conflated_entities``: per response entity, the key entities among its aligned mentions
  minus one (the splits that separate them);
* ``divided_entity``: per key entity, the response entities among its aligned mentions minus
  one (the merges);
* ``extra_mention`` / ``missing_mention``: unaligned mentions of an entity that has aligned
  mentions, and unaligned entities of one mention;
* ``extra_entity`` / ``missing_entity``: entities of two or more mentions none of which is
  aligned (one error per entity).

The definitions are symmetric: the errors of the key against the response mirror those of
the response against the key.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from anascore.comparison.contingency import Comparison
from anascore.comparison.mention_types import ptb_head
from anascore.core.model import Mention

ERROR_TYPES = ("span_error", "conflated_entities", "divided_entity", "extra_mention",
               "missing_mention", "extra_entity", "missing_entity")


@dataclass(frozen=True)
class ClassifiedError:
    """One error: its document, its type, its layer of entities (``identity`` or
    ``discourse_deixis``), the mentions involved (token positions; ``key`` and
    ``response`` sides) and the entities involved (entity ids of each side)."""

    document: str
    type: str
    layer: str
    key_mentions: tuple[tuple[int, ...], ...]
    response_mentions: tuple[tuple[int, ...], ...]
    key_entities: tuple[str, ...]
    response_entities: tuple[str, ...]


@dataclass(frozen=True)
class DocumentAnalysis:
    """One document's classification: the extended alignment (``pairs``: key mention index →
    response mention index, the metric alignment plus the span-error pairs of unaligned
    overlapping mentions) and its errors."""

    name: str
    pairs: tuple[tuple[int, int], ...]
    errors: tuple[ClassifiedError, ...]
    layer: str = "identity"

    def counts(self) -> dict[str, int]:
        found = Counter(error.type for error in self.errors)
        if self.layer in ("non_referring", "bridging"):  # anascore.analysis.non_entity_layers
            return dict(found)
        return {kind: found.get(kind, 0) for kind in ERROR_TYPES}


def _core(tokens: tuple[int, ...], words: tuple[str, ...]) -> tuple[int, ...]:
    """A span without its leading and trailing punctuation tokens (words with no letter or
    digit), keeping at least one token."""
    def punctuation(position: int) -> bool:
        return position < len(words) and not any(c.isalnum() for c in words[position])

    start, end = 0, len(tokens)
    while end - start > 1 and punctuation(tokens[start]):
        start += 1
    while end - start > 1 and punctuation(tokens[end - 1]):
        end -= 1
    return tokens[start:end]


def extended_pairs(comparison: Comparison) -> list[tuple[int, int]]:
    """The alignment's pairs, then the span-error pairs among the mentions it left unaligned,
    found as the analyser of Kummerfeld & Klein finds them: first a key and a response mention
    that are the same span once leading and trailing punctuation is set aside; then a key and a
    response mention with the same head (the format's head, else the head by part-of-speech
    tags where the file has them, else the last token) when each is the only unaligned mention
    of its side with that head."""
    key, response = comparison.key, comparison.response
    pairs = list(zip(comparison.alignment.key.tolist(), comparison.alignment.response.tolist(),
                     strict=True))
    used_key = {k for k, _ in pairs}
    used_response = {r for _, r in pairs}
    free_key = [k for k in range(len(key.mentions)) if k not in used_key]
    free_response = [r for r in range(len(response.mentions)) if r not in used_response]
    if not free_key or not free_response:
        return pairs
    source = key.document or response.document
    words = source.tokens if source is not None else ()
    by_core: dict[tuple[int, ...], list[int]] = {}
    for r in free_response:
        by_core.setdefault(_core(response.mentions[r].tokens, words), []).append(r)
    for k in free_key:
        found = by_core.get(_core(key.mentions[k].tokens, words))
        if found:
            r = min(found, key=lambda index: response.mentions[index].tokens)
            found.remove(r)
            pairs.append((k, r))
            used_key.add(k)
            used_response.add(r)

    # The head: the format's (CorefUD, UA), else by the part-of-speech tags where the file
    # has them (OntoNotes: the analyser uses the parse tree), else the last token.
    tags = source.token_columns.get("pos") if source is not None else None

    def head(mention: Mention) -> int:
        if mention.head is not None:
            return mention.head
        if tags is not None and mention.tokens[-1] < len(tags):
            return mention.tokens[ptb_head([tags[token] for token in mention.tokens])]
        return mention.tokens[-1]

    heads: dict[int, tuple[list[int], list[int]]] = {}
    for k in free_key:
        if k not in used_key:
            heads.setdefault(head(key.mentions[k]), ([], []))[0].append(k)
    for r in free_response:
        if r not in used_response:
            heads.setdefault(head(response.mentions[r]), ([], []))[1].append(r)
    for key_side, response_side in heads.values():
        if len(key_side) == 1 and len(response_side) == 1:
            pairs.append((key_side[0], response_side[0]))
    return pairs


def classify(name: str, comparison: Comparison, layer: str = "identity") -> DocumentAnalysis:
    """Classify the errors of one layer of one document from its comparison."""
    key, response = comparison.key, comparison.response
    pairs = extended_pairs(comparison)
    key_entity = key.entity_of.tolist()
    response_entity = response.entity_of.tolist()
    errors: list[ClassifiedError] = []

    def error(kind: str, key_mentions: list[int], response_mentions: list[int],
              key_entities: list[int], response_entities: list[int]) -> None:
        errors.append(ClassifiedError(
            name, kind, layer,
            tuple(sorted(key.mentions[k].tokens for k in key_mentions)),
            tuple(sorted(response.mentions[r].tokens for r in response_mentions)),
            tuple(key.entity_ids[e] for e in sorted(set(key_entities))),
            tuple(response.entity_ids[e] for e in sorted(set(response_entities)))))

    for k, r in pairs:
        if key.mentions[k].tokens != response.mentions[r].tokens:
            error("span_error", [k], [r], [key_entity[k]], [response_entity[r]])
    key_tokens = [mention.tokens for mention in key.mentions]
    response_tokens = [mention.tokens for mention in response.mentions]
    _entity_errors(pairs, key_entity, response_entity, len(key.entity_ids),
                   len(response.entity_ids), error, ("conflated_entities", "extra_mention",
                                                     "extra_entity"), key_tokens,
                   response_side=True)
    _entity_errors(pairs, key_entity, response_entity, len(key.entity_ids),
                   len(response.entity_ids), error, ("divided_entity", "missing_mention",
                                                     "missing_entity"), response_tokens,
                   response_side=False)
    errors.sort(key=lambda found: (ERROR_TYPES.index(found.type), found.key_mentions,
                                   found.response_mentions))
    return DocumentAnalysis(name, tuple(sorted(pairs)), tuple(errors), layer)


Report = Callable[[str, list[int], list[int], list[int], list[int]], None]


def _entity_errors(pairs: list[tuple[int, int]], key_entity: list[int],
                   response_entity: list[int], key_count: int, response_count: int,
                   error: Report, kinds: tuple[str, str, str],
                   other_tokens: list[tuple[int, ...]], *, response_side: bool) -> None:
    """The errors of one side's entities: ``response_side`` True gives conflated entities,
    extra mentions and extra entities (the response's entities against the key's); False
    their mirror images (divided entity, missing mention, missing entity). ``error(kind,
    key mentions, response mentions, key entities, response entities)`` records one.
    ``other_tokens``: the tokens of the other side's mentions, which order the pieces of a
    split entity as :mod:`anascore.analysis.impact` orders them."""
    together, unaligned_one, unaligned_all = kinds
    if response_side:
        own_of, other_of, own_count = response_entity, key_entity, response_count
        partner = {r: k for k, r in pairs}
    else:
        own_of, other_of, own_count = key_entity, response_entity, key_count
        partner = {k: r for k, r in pairs}

    def report(kind: str, entity: int, own: list[int], others: list[int],
               other_entities: list[int]) -> None:
        if response_side:
            error(kind, others, own, other_entities, [entity])
        else:
            error(kind, own, others, [entity], other_entities)

    members: list[list[int]] = [[] for _ in range(own_count)]
    for mention, entity in enumerate(own_of):
        members[entity].append(mention)
    for entity, mentions in enumerate(members):
        aligned = [m for m in mentions if m in partner]
        unaligned = [m for m in mentions if m not in partner]
        groups: dict[int, list[int]] = {}
        for m in aligned:
            groups.setdefault(other_of[partner[m]], []).append(m)
        if len(groups) > 1:
            # The largest group stays (ties: the one with the earliest mention in token
            # order, the other side's, as the impact fix keeps it; not the earliest index,
            # which follows the file's order of entities); each other group is one split
            # (conflated) or one merge (divided).
            ordered = sorted(groups.items(), key=lambda item: (
                -len(item[1]), min(other_tokens[partner[m]] for m in item[1])))
            anchor = ordered[0][0]
            for other, group in ordered[1:]:
                report(together, entity, group, [partner[m] for m in group], [anchor, other])
        if not aligned and len(mentions) > 1:
            report(unaligned_all, entity, mentions, [], [])
        else:
            for m in unaligned:
                report(unaligned_one, entity, [m], [], [])
