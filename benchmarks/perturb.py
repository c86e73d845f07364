"""Systems made from a real key: its documents with some coreference errors added.

Shared by the leaderboard benchmark and the worked example of ``docs/shared-task.md``:
``perturb_file(KEY, OUT, rate=0.1, seed=1)`` reads every document of KEY, and for each
identity entity and mention, with probability ``rate`` each: drops the mention, moves it to
another entity (a wrong link), or splits the entity in two. Other layers (bridging,
non-referring, discourse deixis, split antecedents) are left out of the response: a
leaderboard of identity coreference does not read them.
"""

from __future__ import annotations

import argparse
import random
from dataclasses import replace
from pathlib import Path

from anascore.core.model import Document, Entity, Mention
from anascore.formats import detect_format, read_documents, writer


def perturb_document(document: Document, rate: float, rng: random.Random) -> Document:
    """``document`` with mentions dropped, moved and entities split, each at ``rate``."""
    groups: list[list[Mention]] = []
    for entity in document.entities:
        kept = [mention for mention in entity.mentions if rng.random() >= rate]
        if len(kept) > 1 and rng.random() < rate:
            cut = rng.randrange(1, len(kept))
            groups += [kept[:cut], kept[cut:]]
        else:
            groups.append(kept)
    for group in groups:
        for mention in list(group):
            if len(groups) > 1 and rng.random() < rate:
                group.remove(mention)
                rng.choice(groups).append(mention)
    entities = tuple(Entity(f"p{number}", tuple(sorted(set(group), key=lambda m: m.tokens)))
                     for number, group in enumerate(groups) if group)
    return replace(document, entities=entities, non_referring=(), bridging=(),
                   discourse_deixis=())


def perturb_file(key: Path, output: Path, *, rate: float, seed: int) -> None:
    """Write a perturbed copy of every document of ``key`` to ``output``, in its format."""
    rng = random.Random(seed)
    format = detect_format(key)
    documents = [perturb_document(document, rate, rng)
                 for document in read_documents(key, format)]
    writer(format)(documents, output)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("key", type=Path)
    parser.add_argument("output", type=Path)
    parser.add_argument("--rate", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()
    perturb_file(arguments.key, arguments.output, rate=arguments.rate, seed=arguments.seed)


if __name__ == "__main__":
    main()
