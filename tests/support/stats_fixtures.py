"""Corpora whose comparisons are known by construction, for the statistics tests.

Documents are made in memory: a key of a few entities of one-token mentions, and responses
made from it with chosen errors (a missed mention, a split entity, a wrong link). Everything
is a function of a seed.
"""

from __future__ import annotations

import random

from anascore.core.model import Document, Entity, Mention


def key_document(rng: random.Random, name: str) -> Document:
    """4 to 7 entities of 2 to 6 one-token mentions, tokens shuffled."""
    sizes = [rng.randint(2, 6) for _ in range(rng.randint(4, 7))]
    positions = list(range(sum(sizes) + 5))
    rng.shuffle(positions)
    entities, start = [], 0
    for number, size in enumerate(sizes):
        mentions = tuple(Mention.span(position, position)
                         for position in sorted(positions[start:start + size]))
        entities.append(Entity(str(number), mentions))
        start += size
    return Document(name, tuple(f"w{index}" for index in range(len(positions))),
                    tuple(entities))


def with_errors(key: Document, rng: random.Random, errors: int) -> Document:
    """``key`` with ``errors`` random errors: a mention dropped, an entity split in two, or a
    mention moved to another entity."""
    clusters = [list(entity.mentions) for entity in key.entities]
    for _ in range(errors):
        kind = rng.choice(("drop", "split", "move"))
        candidates = [cluster for cluster in clusters if len(cluster) >= 2]
        if not candidates:
            break
        cluster = rng.choice(candidates)
        if kind == "drop":
            cluster.pop(rng.randrange(len(cluster)))
        elif kind == "split":
            cut = rng.randrange(1, len(cluster))
            clusters.append(cluster[cut:])
            del cluster[cut:]
        else:
            mention = cluster.pop(rng.randrange(len(cluster)))
            rng.choice([other for other in clusters if other is not cluster]).append(mention)
    return Document(key.name, key.tokens,
                    tuple(Entity(str(number), tuple(cluster))
                          for number, cluster in enumerate(clusters) if cluster))


def corpus(documents: int, seed: int = 0) -> list[Document]:
    rng = random.Random(seed)
    return [key_document(rng, f"doc{index:03d}") for index in range(documents)]


def system(keys: list[Document], seed: int, errors: tuple[int, int]) -> list[Document]:
    """A response per key document with between ``errors[0]`` and ``errors[1]`` errors."""
    rng = random.Random(seed)
    return [with_errors(key, rng, rng.randint(*errors)) for key in keys]
