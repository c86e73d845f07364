"""Synthetic CoNLL-2012 corpora for anascore's speed benchmarks.

Why synthetic: the OntoNotes test set is licensed and cannot be shipped or downloaded in CI, but
a scorer's running time depends only on the shape of its input — how many documents, tokens,
mentions and entities, how long the documents are, how mentions nest, and how a response
differs from its key. This module writes files with the shape of the OntoNotes English test
set (348 document parts, about 170k tokens, 19.7k key mentions in 4.5k entities, no key
singletons), and one very large document (20,000 key mentions) that stresses a scorer's
per-document algorithms.

Every file is OntoNotes-like CoNLL-2012: ``#begin document (genre/source/00/name_0001); part
000`` … ``#end document``, one token per line, tab-separated columns (document id, part, word
index, word, POS, parse bit, lemma, frameset, sense, speaker, named entity, zero to three
predicate-argument columns, coreference), a blank line between sentences. The coreference
column holds ``(12``, ``12)``, ``(12)`` or ``-``, several joined by ``|``.

Guarantees, checked by :func:`check_document`: mentions lie inside one sentence; the mentions
of one side never cross (any two are disjoint or nested) and no span is annotated twice, so
every bracket is balanced and unambiguous; key and response have identical tokens; entity ids
are integers. The response is a perturbation of the key: missed mentions, boundary errors,
spurious mentions (mostly singletons), split and merged entities, wrongly linked mentions.

The output is a pure function of the arguments (``--seed``). Files are written to ``--output``
or to a fresh temporary folder, never into the repository.

Usage::

    python benchmarks/generate_corpus.py --output /tmp/anascore-bench --seed 1
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
import sys
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

# The OntoNotes English test set (CoNLL-2012), approximately.
ONTONOTES_PARTS = 348
ONTONOTES_TOKENS = 170_000
ONTONOTES_MENTIONS = 19_700
ONTONOTES_ENTITIES = 4_500
SINGLE_DOCUMENT_MENTIONS = 20_000
MANIFEST = "manifest.json"
"""The file beside the corpora recording the seed and settings that produced them."""

MIN_DOCUMENT_TOKENS = 150
MAX_DOCUMENT_TOKENS = 2_000
MIN_SENTENCE_TOKENS = 10
MAX_SENTENCE_TOKENS = 40

GENRES = {
    "bc": ("cctv", "cnn", "msnbc", "phoenix"),
    "bn": ("abc", "cnn", "mnb", "nbc", "pri", "voa"),
    "mz": ("sinorama",),
    "nw": ("wsj", "xinhua"),
    "pt": ("nt",),
    "tc": ("ch",),
    "wb": ("eng", "a2e", "c2e"),
}
WORDS = (
    "the", "a", "of", "to", "and", "in", "that", "is", "was", "he", "she", "it", "they", "for",
    "on", "with", "as", "his", "her", "at", "by", "this", "from", "said", "government",
    "president", "company", "market", "year", "people", "city", "report", "officials", "police",
    "state", "country", "minister", "week", "two", "three", "new", "first", "last", "would",
    "could", "will", "has", "have", "had", "not", "but", "which", "who", "after", "before",
    "over", "about", "more", "than", "also", "its", "their", "there", "been", "were"
)
POS_TAGS = ("DT", "NN", "NNS", "NNP", "VBD", "VBZ", "IN", "JJ", "PRP", "RB", "CC", "CD")
NAMED_ENTITIES = ("PERSON", "ORG", "GPE", "DATE", "CARDINAL", "NORP")

Span = tuple[int, int]
"""A mention's first and last token (inclusive), counted from the start of its document."""


@dataclass(frozen=True)
class ResponseErrors:
    """How often each kind of error is made when a response is derived from a key.

    Rates are per key mention (``missing``, ``boundary``, ``wrong_link``, ``spurious``) or per
    key entity (``split``, ``merge``); the defaults give scores near those of a reasonable
    OntoNotes system (mention F1 in the 80s, CoNLL F1 around 60-70).
    """

    missing: float = 0.10
    boundary: float = 0.07
    wrong_link: float = 0.05
    split: float = 0.15
    merge: float = 0.06
    spurious: float = 0.15


@dataclass
class Document:
    """One document part: its sentences and the mentions (span → entity id) of each side."""

    name: str
    part: int
    sentence_lengths: list[int]
    key: dict[Span, int] = field(default_factory=dict)
    response: dict[Span, int] = field(default_factory=dict)

    @property
    def tokens(self) -> int:
        """The number of tokens of the document."""
        return sum(self.sentence_lengths)

    @property
    def header(self) -> str:
        """The ``#begin document`` line's name, as OntoNotes writes it."""
        return f"({self.name}); part {self.part:03d}"


def crosses(a: Span, b: Span) -> bool:
    """Whether two spans overlap without one containing the other (or are equal).

    Such a pair cannot be told apart in bracket notation when both belong to one entity, and
    OntoNotes has none; the generator rejects it.
    """
    if a == b:
        return True
    overlap = a[0] <= b[1] and b[0] <= a[1]
    nested = (a[0] <= b[0] and b[1] <= a[1]) or (b[0] <= a[0] and a[1] <= b[1])
    return overlap and not nested


def fits(span: Span, others: Sequence[Span]) -> bool:
    """Whether ``span`` may join ``others`` (one sentence's spans) without crossing any."""
    return not any(crosses(span, other) for other in others)


def split_total(total: int, weights: Sequence[float]) -> list[int]:
    """``total`` split into integers proportional to ``weights`` (largest remainders)."""
    weight_sum = sum(weights)
    shares = [total * weight / weight_sum for weight in weights]
    counts = [math.floor(share) for share in shares]
    by_remainder = sorted(range(len(shares)), key=lambda i: counts[i] - shares[i])
    for i in by_remainder[: total - sum(counts)]:
        counts[i] += 1
    return counts


def document_lengths(rng: random.Random, parts: int, tokens: int) -> list[int]:
    """Token counts of ``parts`` documents summing to ``tokens``: log-normal, most a few hundred
    tokens long, a few near :data:`MAX_DOCUMENT_TOKENS` (as in OntoNotes)."""
    lengths = [rng.lognormvariate(math.log(380), 0.65) for _ in range(parts)]
    for _ in range(50):
        lengths = split_total(tokens, lengths)
        lengths = [min(max(n, MIN_DOCUMENT_TOKENS), MAX_DOCUMENT_TOKENS) for n in lengths]
        if sum(lengths) == tokens:
            break
    surplus = tokens - sum(lengths)
    while surplus:
        i = rng.randrange(parts)
        step = 1 if surplus > 0 else -1
        if MIN_DOCUMENT_TOKENS <= lengths[i] + step <= MAX_DOCUMENT_TOKENS:
            lengths[i] += step
            surplus -= step
    return lengths


def sentence_lengths(rng: random.Random, tokens: int) -> list[int]:
    """Sentences of :data:`MIN_SENTENCE_TOKENS` to :data:`MAX_SENTENCE_TOKENS` tokens summing
    to ``tokens``."""
    lengths: list[int] = []
    left = tokens
    while left > MAX_SENTENCE_TOKENS + MIN_SENTENCE_TOKENS:
        n = min(max(round(rng.gauss(22, 8)), MIN_SENTENCE_TOKENS), MAX_SENTENCE_TOKENS)
        lengths.append(n)
        left -= n
    if left > MAX_SENTENCE_TOKENS:
        lengths.append(left // 2)
        left -= left // 2
    lengths.append(left)
    return lengths


def mention_length(rng: random.Random, limit: int) -> int:
    """A mention's token count: mostly one to three tokens (pronouns, names, short NPs), up to
    a dozen."""
    n = min(1 + int(rng.expovariate(0.55)), 12)
    return min(n, limit)


def random_span(rng: random.Random, start: int, length: int, spans: Sequence[Span]) -> Span:
    """A candidate mention in the sentence ``[start, start + length)``: half the time inside an
    existing mention (nesting), otherwise anywhere."""
    wide = [span for span in spans if span[1] > span[0]]
    if wide and rng.random() < 0.5:
        outer = rng.choice(wide)
        first = rng.randint(outer[0], outer[1])
        last = rng.randint(first, outer[1])
        return first, last
    n = mention_length(rng, length)
    first = start + rng.randrange(length - n + 1)
    return first, first + n - 1


def sentence_mentions(rng: random.Random, start: int, length: int, count: int,
                      taken: Sequence[Span] = ()) -> list[Span]:
    """Up to ``count`` new spans in one sentence, crossing neither each other nor ``taken``."""
    spans = list(taken)
    new: list[Span] = []
    attempts = 0
    while len(new) < count and attempts < 40 * count:
        attempts += 1
        span = random_span(rng, start, length, spans)
        if fits(span, spans):
            spans.append(span)
            new.append(span)
    return new


def entity_sizes(rng: random.Random, mentions: int, entities: int) -> list[int]:
    """Sizes (≥ 2) of ``entities`` entities holding ``mentions`` mentions: every entity starts
    with two, the rest go to an entity chosen in proportion to its size, which gives the long
    tail of OntoNotes (many pairs, a few entities with dozens of mentions)."""
    sizes = [2] * entities
    chosen = list(range(entities)) * 2
    for _ in range(mentions - 2 * entities):
        i = rng.choice(chosen)
        sizes[i] += 1
        chosen.append(i)
    return sizes


def entity_ids(rng: random.Random, count: int) -> list[int]:
    """``count`` distinct, non-contiguous entity ids (annotators' ids are not 0, 1, 2, …)."""
    return rng.sample(range(3 * count + 10), count)


def sentence_starts(lengths: Sequence[int]) -> list[int]:
    """The first token of every sentence."""
    starts = []
    position = 0
    for n in lengths:
        starts.append(position)
        position += n
    return starts


def make_key(rng: random.Random, document: Document, mentions: int, entities: int) -> None:
    """Fill ``document.key`` with about ``mentions`` nested mentions in ``entities`` entities
    (no singletons, as in OntoNotes)."""
    lengths = document.sentence_lengths
    starts = sentence_starts(lengths)
    quotas = split_total(mentions, lengths)
    spans: list[Span] = []
    carry = 0
    for start, length, quota in zip(starts, lengths, quotas, strict=True):
        wanted = min(quota + carry, length)
        found = sentence_mentions(rng, start, length, wanted)
        carry = quota + carry - len(found)
        spans.extend(sorted(found))
    if len(spans) < 2:
        document.key = {}
        return
    entities = max(1, min(entities, len(spans) // 2))
    labels = [i for i, size in enumerate(entity_sizes(rng, len(spans), entities))
              for _ in range(size)]
    rng.shuffle(labels)
    ids = entity_ids(rng, entities)
    document.key = {span: ids[label] for span, label in zip(spans, labels, strict=True)}


def sentence_of(starts: Sequence[int], token: int) -> int:
    """The index of the sentence holding ``token`` (binary search over sentence starts)."""
    low, high = 0, len(starts) - 1
    while low < high:
        middle = (low + high + 1) // 2
        if starts[middle] <= token:
            low = middle
        else:
            high = middle - 1
    return low


def boundary_error(rng: random.Random, span: Span, first: int, last: int) -> Span:
    """``span`` with one boundary moved by one or two tokens, inside ``[first, last]``."""
    start, end = span
    step = rng.choice((1, 1, 2))
    match rng.randrange(4):
        case 0:
            start = max(first, start - step)
        case 1:
            end = min(last, end + step)
        case 2:
            start = min(end, start + step)
        case _:
            end = max(start, end - step)
    return start, end


def make_response(rng: random.Random, document: Document, errors: ResponseErrors) -> None:
    """Fill ``document.response`` with a perturbation of the key (see :class:`ResponseErrors`)."""
    lengths = document.sentence_lengths
    starts = sentence_starts(lengths)
    by_entity: dict[int, list[Span]] = {}
    for span, entity in sorted(document.key.items()):
        by_entity.setdefault(entity, []).append(span)

    # Entity structure: split some key entities, merge others, relink single mentions.
    next_id = max(document.key.values(), default=0) + 1
    label: dict[Span, int] = {}
    entities = list(by_entity)
    for entity in entities:
        spans = by_entity[entity]
        if len(spans) >= 3 and rng.random() < errors.split:
            cut = rng.randint(1, len(spans) - 1)
            moved = set(rng.sample(range(len(spans)), len(spans) - cut))
            for i, span in enumerate(spans):
                label[span] = next_id if i in moved else entity
            next_id += 1
        else:
            for span in spans:
                label[span] = entity
    for entity in entities:
        if len(entities) > 1 and rng.random() < errors.merge:
            target = rng.choice([other for other in entities if other != entity])
            for span in by_entity[entity]:
                if label[span] == entity:
                    label[span] = target
    for span in label:
        if rng.random() < errors.wrong_link:
            if rng.random() < 0.5:
                label[span] = rng.choice(entities)
            else:
                label[span] = next_id
                next_id += 1

    # Mentions: drop some, move boundaries of others, keep no span twice and none crossing.
    per_sentence: dict[int, list[Span]] = {}
    kept = [span for span in sorted(label) if rng.random() >= errors.missing]
    for span in kept:
        per_sentence.setdefault(sentence_of(starts, span[0]), []).append(span)
    response: dict[Span, int] = {}
    for span in kept:
        sentence = sentence_of(starts, span[0])
        if rng.random() < errors.boundary:
            first = starts[sentence]
            moved = boundary_error(rng, span, first, first + lengths[sentence] - 1)
            others = [other for other in per_sentence[sentence] if other != span]
            if moved != span and fits(moved, others):
                per_sentence[sentence] = [*others, moved]
                response[moved] = label[span]
                continue
        response[span] = label[span]

    # Spurious mentions: mostly singletons, some linked to a response entity, some in pairs.
    spurious = round(errors.spurious * len(document.key))
    response_entities = sorted(set(response.values()))
    pending: int | None = None
    for _ in range(spurious):
        sentence = rng.randrange(len(lengths))
        found = sentence_mentions(rng, starts[sentence], lengths[sentence], 1,
                                  per_sentence.get(sentence, []))
        if not found:
            continue
        span = found[0]
        per_sentence.setdefault(sentence, []).append(span)
        draw = rng.random()
        if draw < 0.25 and response_entities:
            response[span] = rng.choice(response_entities)
        elif draw < 0.4:
            if pending is None:
                pending = next_id
                next_id += 1
                response[span] = pending
            else:
                response[span] = pending
                pending = None
        else:
            response[span] = next_id
            next_id += 1

    # Response ids are the system's own numbering.
    used = sorted(set(response.values()))
    renumber = dict(zip(used, entity_ids(rng, len(used)), strict=True))
    document.response = {span: renumber[entity] for span, entity in sorted(response.items())}


def check_document(document: Document) -> None:
    """Raise ``ValueError`` unless both sides of ``document`` keep the guarantees of this
    module: every mention inside one sentence, no span twice, no two mentions crossing."""
    starts = sentence_starts(document.sentence_lengths)
    for side_name, side in (("key", document.key), ("response", document.response)):
        per_sentence: dict[int, list[Span]] = {}
        for span in side:
            sentence = sentence_of(starts, span[0])
            if sentence != sentence_of(starts, span[1]) or span[0] > span[1]:
                raise ValueError(f"{document.header} {side_name}: {span} leaves its sentence")
            if not fits(span, per_sentence.get(sentence, [])):
                raise ValueError(f"{document.header} {side_name}: {span} crosses a mention")
            per_sentence.setdefault(sentence, []).append(span)


def coreference_column(mentions: dict[Span, int], tokens: int) -> list[str]:
    """The last column of every token: opening brackets (outer mentions first), one-token
    mentions, closing brackets (inner mentions first), joined by ``|``; ``-`` when empty."""
    opening: list[list[tuple[int, str]]] = [[] for _ in range(tokens)]
    single: list[list[str]] = [[] for _ in range(tokens)]
    closing: list[list[tuple[int, str]]] = [[] for _ in range(tokens)]
    for (start, end), entity in mentions.items():
        if start == end:
            single[start].append(f"({entity})")
        else:
            opening[start].append((-end, f"({entity}"))
            closing[end].append((-start, f"{entity})"))
    column = []
    for i in range(tokens):
        parts = [text for _, text in sorted(opening[i])] + single[i]
        parts += [text for _, text in sorted(closing[i])]
        column.append("|".join(parts) if parts else "-")
    return column


@dataclass(frozen=True)
class TokenLine:
    """The columns of one token that do not depend on the side (everything but coreference)."""

    sentence: int
    columns: str


def token_lines(rng: random.Random, document: Document) -> list[TokenLine]:
    """Plausible OntoNotes columns 1-11 and predicate arguments for every token.

    The parse bit brackets the key mentions as NPs inside one ``(TOP(S …))`` per sentence; no
    scorer reads it, but it keeps the lines as long and as varied as real ones.
    """
    starts = sentence_starts(document.sentence_lengths)
    opens = [0] * document.tokens
    closes = [0] * document.tokens
    for start, end in document.key:
        opens[start] += 1
        closes[end] += 1
    speakers = [f"Speaker#{i}" for i in range(1, 4)] if document.name[:2] in ("bc", "tc") \
        else ["-"]
    lines = []
    for sentence, (first, length) in enumerate(zip(starts, document.sentence_lengths,
                                                   strict=True)):
        arguments = rng.randrange(4)
        speaker = rng.choice(speakers)
        for index in range(length):
            token = first + index
            word = rng.choice(WORDS)
            pos = rng.choice(POS_TAGS)
            parse = "(NP" * opens[token] + "*" + ")" * closes[token]
            if index == 0:
                parse = "(TOP(S" + parse
            if index == length - 1:
                parse += "))"
            is_verb = pos.startswith("VB")
            lemma = word if is_verb else "-"
            frameset = "01" if is_verb else "-"
            sense = "1" if is_verb and rng.random() < 0.5 else "-"
            entity = f"({rng.choice(NAMED_ENTITIES)})" if rng.random() < 0.05 else "*"
            args = ["(V*)" if is_verb and rng.random() < 0.3 else "*"] * arguments
            columns = [document.name, str(document.part), str(index), word, pos, parse,
                       lemma, frameset, sense, speaker, entity, *args]
            lines.append(TokenLine(sentence, "\t".join(columns)))
    return lines


def render(document: Document, lines: Sequence[TokenLine], mentions: dict[Span, int]
           ) -> Iterator[str]:
    """The CoNLL-2012 text of one side of ``document``, line by line."""
    yield f"#begin document {document.header}\n"
    column = coreference_column(mentions, document.tokens)
    previous = 0
    for line, coreference in zip(lines, column, strict=True):
        if line.sentence != previous:
            yield "\n"
            previous = line.sentence
        yield f"{line.columns}\t{coreference}\n"
    yield "\n#end document\n"


def write_pair(rng: random.Random, documents: Sequence[Document], key_path: Path,
               response_path: Path) -> None:
    """Write the key and response files of ``documents`` (identical tokens on both sides)."""
    with key_path.open("w", encoding="utf-8") as key, \
            response_path.open("w", encoding="utf-8") as response:
        for document in documents:
            check_document(document)
            lines = token_lines(rng, document)
            key.writelines(render(document, lines, document.key))
            response.writelines(render(document, lines, document.response))


def document_names(rng: random.Random, parts: int) -> list[tuple[str, int]]:
    """``parts`` (name, part number) pairs: OntoNotes-style names, one to four parts each."""
    names: list[tuple[str, int]] = []
    number = 1
    while len(names) < parts:
        genre = rng.choice(sorted(GENRES))
        source = rng.choice(GENRES[genre])
        name = f"{genre}/{source}/{number // 100:02d}/{source}_{number:04d}"
        number += 1
        for part in range(min(rng.choice((1, 1, 1, 2, 3, 4)), parts - len(names))):
            names.append((name, part))
    return names


def ontonotes_corpus(rng: random.Random, errors: ResponseErrors, parts: int = ONTONOTES_PARTS,
                     tokens: int = ONTONOTES_TOKENS, mentions: int = ONTONOTES_MENTIONS,
                     entities: int = ONTONOTES_ENTITIES) -> list[Document]:
    """Documents with the shape of the OntoNotes English test set."""
    lengths = document_lengths(rng, parts, tokens)
    mention_counts = split_total(mentions, lengths)
    entity_counts = split_total(entities, mention_counts)
    documents = []
    for (name, part), length, m, e in zip(document_names(rng, parts), lengths, mention_counts,
                                         entity_counts, strict=True):
        document = Document(name, part, sentence_lengths(rng, length))
        make_key(rng, document, m, e)
        make_response(rng, document, errors)
        documents.append(document)
    return documents


def single_document(rng: random.Random, errors: ResponseErrors,
                    mentions: int = SINGLE_DOCUMENT_MENTIONS) -> Document:
    """One document with ``mentions`` key mentions, at OntoNotes' mention density and entity
    size."""
    tokens = round(mentions * ONTONOTES_TOKENS / ONTONOTES_MENTIONS)
    document = Document("nw/wsj/99/wsj_9999", 0, sentence_lengths(rng, tokens))
    make_key(rng, document, mentions,
             round(mentions * ONTONOTES_ENTITIES / ONTONOTES_MENTIONS))
    make_response(rng, document, errors)
    return document


def describe(documents: Sequence[Document]) -> str:
    """One line of corpus statistics (to check the shape against the targets)."""
    tokens = sum(document.tokens for document in documents)
    key = sum(len(document.key) for document in documents)
    key_entities = sum(len(set(document.key.values())) for document in documents)
    response = sum(len(document.response) for document in documents)
    response_entities = sum(len(set(document.response.values())) for document in documents)
    return (f"{len(documents)} documents, {tokens} tokens, key {key} mentions in "
            f"{key_entities} entities, response {response} mentions in "
            f"{response_entities} entities")


def generate(output: Path, seed: int, single_mentions: int = SINGLE_DOCUMENT_MENTIONS,
             errors: ResponseErrors | None = None, scale: float = 1) -> dict[str, Path]:
    """Write both corpora into ``output`` and return their paths by name.

    Names: ``ontonotes_key``, ``ontonotes_response``, ``single_key``, ``single_response``
    (the single document only when ``single_mentions`` is above 0). ``scale`` multiplies the
    OntoNotes-sized corpus's documents, tokens, mentions and entities (10: the synthetic corpus
    ten times OntoNotes-test size that the speed targets are set on). Beside them,
    :data:`MANIFEST` records the seed, the settings and the corpus statistics.
    """
    errors = errors or ResponseErrors()
    output.mkdir(parents=True, exist_ok=True)
    names = ["ontonotes_key", "ontonotes_response"]
    if single_mentions > 0:
        names += ["single_key", "single_response"]
    paths = {name: output / f"{name}.conll" for name in names}
    rng = random.Random(seed)
    parts, tokens, mentions, entities = (round(size * scale) for size in (
        ONTONOTES_PARTS, ONTONOTES_TOKENS, ONTONOTES_MENTIONS, ONTONOTES_ENTITIES))
    corpus = ontonotes_corpus(rng, errors, parts, tokens, mentions, entities)
    write_pair(rng, corpus, paths["ontonotes_key"], paths["ontonotes_response"])
    manifest = {"seed": seed, "scale": scale, "single_mentions": single_mentions,
                "errors": dataclasses.asdict(errors), "ontonotes": describe(corpus)}
    if single_mentions > 0:
        document = single_document(rng, errors, single_mentions)
        write_pair(rng, [document], paths["single_key"], paths["single_response"])
        manifest["single"] = describe([document])
    (output / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    print(f"ontonotes: {manifest['ontonotes']}\nsingle: {manifest.get('single', '-')}",
          file=sys.stderr)
    return paths


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: generate the corpora and print the folder holding them."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", type=Path, default=None,
                        help="folder to write into (default: a new temporary folder)")
    parser.add_argument("--seed", type=int, default=2012, help="random seed (default: 2012)")
    parser.add_argument("--single-mentions", type=int, default=SINGLE_DOCUMENT_MENTIONS,
                        help="key mentions of the single large document (default: 20000; "
                             "0: none)")
    parser.add_argument("--scale", type=float, default=1,
                        help="the OntoNotes-sized corpus this many times over (default: 1; "
                             "0.1: a tenth)")
    args = parser.parse_args(argv)
    output = args.output or Path(tempfile.mkdtemp(prefix="anascore-bench-"))
    generate(output, args.seed, args.single_mentions, scale=args.scale)
    print(output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
