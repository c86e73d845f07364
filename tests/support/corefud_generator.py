"""Random CorefUD documents for differential tests: a key and a response over the same words,
with empty nodes that differ between the two, nested, crossing and discontinuous mentions,
heads anywhere in a mention, zero mentions with DEPS, singletons and several documents.

Mentions are drawn as abstract ranges over (sentence, CoNLL-U ID) nodes, the way CorefUD
writes them: a range covers every node of *its own file* between its first and last node, so
a key and a response range over the same words differ when their empty nodes differ, as in
real system output.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from anascore.core.model import ConlluNodes, Document, Entity, Mention

Node = tuple[int, int, int]  # sentence, word, empty-node decimal (0 for words)
RELATIONS = ("nsubj", "obj", "obl", "iobj", "dep")


@dataclass(frozen=True)
class AbstractMention:
    parts: tuple[tuple[Node, Node], ...]  # (first node, last node) of each part
    head: Node


def _node_id(node: Node) -> str:
    return f"{node[1]}.{node[2]}" if node[2] else str(node[1])


def _side_document(name: str, words: list[int], empties: set[Node], deps: dict[Node, str],
                   entities: list[list[AbstractMention]]) -> Document:
    nodes: list[Node] = []
    for sentence, count in enumerate(words):
        for word in range(count + 1):
            if word:
                nodes.append((sentence, word, 0))
            nodes.extend(sorted(node for node in empties
                                if node[0] == sentence and node[1] == word))
    position = {node: index for index, node in enumerate(nodes)}
    built: list[Entity] = []
    for number, mentions in enumerate(entities):
        kept = []
        for mention in mentions:
            tokens: set[int] = set()
            for first, last in mention.parts:
                if first not in position or last not in position:
                    break
                tokens.update(range(position[first], position[last] + 1))
            else:
                if mention.head in position and position[mention.head] in tokens:
                    kept.append(Mention(tuple(sorted(tokens)), head=position[mention.head]))
        if kept:
            built.append(Entity(f"e{number}", tuple(kept)))
    starts, sentence_lines = [], []
    for sentence in range(len(words)):
        starts.append(next(index for index, node in enumerate(nodes) if node[0] == sentence))
        sentence_lines.append(0)
    node_data = ConlluNodes(
        ids=tuple(_node_id(node) for node in nodes),
        sentence_of=tuple(node[0] for node in nodes),
        empty=tuple(node[2] > 0 for node in nodes),
        deps=tuple(deps.get(node, "_") if node[2] else "_" for node in nodes),
        lines=(0,) * len(nodes),
        sentence_ids=tuple(f"{name}-{sentence + 1}" for sentence in range(len(words))),
        sentence_lines=tuple(sentence_lines))
    forms = tuple("_" if node[2] else f"w{node[0]}x{node[1]}" for node in nodes)
    return Document(name, forms, tuple(built), sentence_starts=tuple(starts), nodes=node_data)


def _random_range(rng: random.Random, sentence: int, count: int, empties: list[Node]
                  ) -> tuple[Node, Node]:
    first = rng.randint(1, count)
    last = min(count, first + rng.choice((0, 0, 1, 1, 2, 3, 5)))
    return (sentence, first, 0), (sentence, last, 0)


def _random_mention(rng: random.Random, words: list[int], empties: list[Node]
                    ) -> AbstractMention:
    sentence = rng.randrange(len(words))
    here = [node for node in empties if node[0] == sentence]
    if here and rng.random() < 0.25:
        node = rng.choice(here)
        return AbstractMention(((node, node),), node)
    count = words[sentence]
    if rng.random() < 0.15 and count >= 5:
        cut = rng.randint(2, count - 2)
        first = (sentence, rng.randint(1, cut - 1), 0)
        second = (sentence, rng.randint(cut + 1, count), 0)
        parts = ((first, (sentence, min(cut - 1, first[1] + 1), 0)),
                 (second, (sentence, min(count, second[1] + rng.randint(0, 2)), 0)))
        nodes = [(sentence, word, 0) for first_, last in parts
                 for word in range(first_[1], last[1] + 1)]
        return AbstractMention(parts, rng.choice(nodes))
    first, last = _random_range(rng, sentence, count, empties)
    nodes = [(sentence, word, 0) for word in range(first[1], last[1] + 1)]
    nodes += [node for node in here if first[1] <= node[1] < last[1]]
    return AbstractMention(((first, last),), rng.choice(nodes))


def _random_deps(rng: random.Random, node: Node, words: list[int]) -> str:
    parents = rng.sample(range(1, words[node[0]] + 1), k=min(words[node[0]], rng.randint(1, 2)))
    return "|".join(f"{parent}:{rng.choice(RELATIONS)}" for parent in sorted(parents))


def _cluster(rng: random.Random, mentions: list[AbstractMention], entity_count: int
             ) -> list[list[AbstractMention]]:
    entities: list[list[AbstractMention]] = [[] for _ in range(entity_count)]
    for mention in mentions:
        entities[rng.randrange(entity_count)].append(mention)
    return [entity for entity in entities if entity]


def _same_entity_crossing_free(entities: list[list[AbstractMention]]
                               ) -> list[list[AbstractMention]]:
    """Drop mentions whose parts cross a part of another mention of their entity (CorefUD
    cannot write those), and repeated mentions."""
    result = []
    seen: set[tuple] = set()
    for entity in entities:
        kept: list[AbstractMention] = []
        for mention in entity:
            if mention.parts in seen:
                continue
            if all(not _crossing(part, other) for other_mention in kept
                   for other in other_mention.parts for part in mention.parts) and not (
                       len(mention.parts) > 1 and any(
                           len(other.parts) > 1 and _overlapping(mention, other)
                           for other in kept)):
                kept.append(mention)
                seen.add(mention.parts)
        if kept:
            result.append(kept)
    return result


def _overlapping(one: AbstractMention, other: AbstractMention) -> bool:
    return not (one.parts[-1][1] < other.parts[0][0] or other.parts[-1][1] < one.parts[0][0])


def _crossing(one: tuple[Node, Node], other: tuple[Node, Node]) -> bool:
    (a, b), (c, d) = one, other
    if a[0] != c[0]:
        return False
    return (a < c <= b < d) or (c < a <= d < b)


def document_pair(rng: random.Random, name: str) -> tuple[Document, Document]:
    """A random key and response of one document."""
    words = [rng.randint(3, 12) for _ in range(rng.randint(1, 5))]
    key_empties = {(sentence, rng.randint(0, words[sentence]), 1)
                   for sentence in range(len(words)) for _ in range(rng.randint(0, 2))}
    response_empties = {node for node in key_empties if rng.random() < 0.7}
    response_empties |= {(sentence, rng.randint(0, words[sentence]), rng.randint(1, 2))
                         for sentence in range(len(words)) if rng.random() < 0.4}
    all_empties = sorted(key_empties | response_empties)
    key_deps = {node: _random_deps(rng, node, words) for node in all_empties}
    response_deps = {node: (deps if rng.random() < 0.6 else _random_deps(rng, node, words))
                     for node, deps in key_deps.items()}
    pool = [_random_mention(rng, words, all_empties) for _ in range(rng.randint(2, 14))]
    key_mentions = [mention for mention in pool if rng.random() < 0.8]
    key_entities = _same_entity_crossing_free(_cluster(rng, key_mentions, rng.randint(1, 5)))
    response_mentions = []
    for mention in pool:
        roll = rng.random()
        if roll < 0.55:
            response_mentions.append(mention)
        elif roll < 0.75:
            nodes = [(first[0], word, 0) for first, last in mention.parts
                     for word in range(first[1], last[1] + 1)]
            response_mentions.append(AbstractMention(mention.parts, rng.choice(nodes)))
        elif roll < 0.9:
            response_mentions.append(_random_mention(rng, words, all_empties))
    response_entities = _same_entity_crossing_free(
        _cluster(rng, response_mentions, rng.randint(1, 5)))
    return (_side_document(name, words, key_empties, key_deps, key_entities),
            _side_document(name, words, response_empties, response_deps, response_entities))
