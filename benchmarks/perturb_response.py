"""Make a plausible system response from a key file: drop, shift, move and add mentions, and
merge or split entities, with a fixed seed — the input of the error-analysis benchmark
(``anascore errors`` against ``anascore score`` on the same files).

    python benchmarks/perturb_response.py KEY RESPONSE [--rate 0.1] [--seed 1]

Spans are shifted only within a sentence and only for contiguous mentions of non-empty
tokens; everything else of the document is kept as it is.
"""

from __future__ import annotations

import argparse
import bisect
import random
from dataclasses import replace

from anascore.core.model import Document, Entity, Mention
from anascore.formats import detect_format, read_documents, writer


def _crossing(first: list[Mention], second: list[Mention]) -> bool:
    """Whether a mention of ``first`` and one of ``second`` overlap without one holding the
    other (CorefUD brackets cannot write them in one entity)."""
    for one in first:
        for other in second:
            shared = set(one.tokens) & set(other.tokens)
            if shared and shared != set(one.tokens) and shared != set(other.tokens):
                return True
    return False


def perturb(document: Document, rate: float, rng: random.Random) -> Document:
    starts = document.sentence_starts or (0,)
    bounds = [*starts[1:], len(document.tokens)]

    def sentence_end(position: int) -> int:
        return bounds[bisect.bisect_right(starts, position) - 1] - 1

    empty: set[int] = set()
    if document.nodes is not None:
        empty = {position for position, flag in enumerate(document.nodes.empty) if flag}
    covered = {position for mention in document.mentions() for position in mention.tokens}
    clusters: list[list[Mention]] = []
    for entity in document.entities:
        kept: list[Mention] = []
        for mention in entity.mentions:
            roll = rng.random()
            tokens = mention.tokens
            if roll < rate:
                continue  # missing mention
            contiguous = tokens == tuple(range(tokens[0], tokens[-1] + 1))
            if roll < 2 * rate and contiguous and tokens[-1] < sentence_end(tokens[0]) \
                    and tokens[-1] + 1 not in empty | covered:
                longer = Mention((*tokens, tokens[-1] + 1), head=mention.head)
                if not _crossing([longer], list(entity.mentions)):
                    mention = longer
            kept.append(mention)
        if kept:
            clusters.append(kept)
    result: list[list[Mention]] = []
    for cluster in clusters:
        if len(cluster) > 2 and rng.random() < rate:  # divided entity
            cut = rng.randrange(1, len(cluster))
            result += [cluster[:cut], cluster[cut:]]
        elif (result and rng.random() < rate / 2  # conflated entities
              and not _crossing(target := result[rng.randrange(len(result))], cluster)):
            target.extend(cluster)
        else:
            result.append(cluster)
    taken = {mention.tokens for cluster in result for mention in cluster}
    for _ in range(int(rate * len(taken))):  # extra mentions and entities
        position = rng.randrange(len(document.tokens))
        if position in empty or position in covered:
            continue
        covered.add(position)
        extra = Mention((position,), head=position)
        if result and rng.random() < 0.5:
            result[rng.randrange(len(result))].append(extra)
        else:
            result.append([extra])
    entities = tuple(Entity(f"p{index}", tuple(sorted(cluster, key=lambda m: m.tokens)))
                     for index, cluster in enumerate(result))
    return replace(document, entities=entities, bridging=(), discourse_deixis=(),
                   non_referring=())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("key")
    parser.add_argument("response")
    parser.add_argument("--rate", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()
    rng = random.Random(arguments.seed)
    format = detect_format(arguments.key)
    documents = [perturb(document, arguments.rate, rng)
                 for document in read_documents(arguments.key, format)]
    writer(format)(documents, arguments.response)


if __name__ == "__main__":
    main()
