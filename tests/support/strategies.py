"""Hypothesis strategies for documents with a key and a response side."""

from __future__ import annotations

from hypothesis import strategies as st

from anascore.core.model import BridgingLink, Document, Entity, Mention

Span = tuple[int, int]


@st.composite
def spans(draw: st.DrawFn, tokens: int) -> tuple[int, int]:
    start = draw(st.integers(0, tokens - 1))
    end = draw(st.integers(start, min(tokens - 1, start + 3)))
    return start, end


@st.composite
def clusters(draw: st.DrawFn, tokens: int, pool: list[Span]) -> list[list[Span]]:
    """Entities over spans mostly drawn from a shared pool (so key and response overlap)."""
    chosen = draw(st.lists(st.one_of(st.sampled_from(pool), spans(tokens)), max_size=12))
    entity_count = draw(st.integers(1, 5))
    labels = draw(st.lists(st.integers(0, entity_count - 1), min_size=len(chosen),
                           max_size=len(chosen)))
    grouped: dict[int, list[tuple[int, int]]] = {}
    for span, label in zip(chosen, labels, strict=True):
        grouped.setdefault(label, []).append(span)
    return list(grouped.values())


@st.composite
def document_pairs(draw: st.DrawFn) -> tuple[list[list[Span]], list[list[Span]], int]:
    """(key clusters, response clusters, token count) of one document."""
    tokens = draw(st.integers(1, 25))
    pool = draw(st.lists(spans(tokens), min_size=1, max_size=10))
    return draw(clusters(tokens, pool)), draw(clusters(tokens, pool)), tokens


_MENTION_TYPES = ("name", "nominal", "pronoun", "zero")


def typed_span(start: int, end: int) -> Mention:
    """The mention from ``start`` to ``end`` with a mention type and a coreference type code
    (Žitkus et al. 2023's first levels p, g, d, a, e) that depend on its span only (so a key
    and a response mention of one span agree, as in real data)."""
    kind = _MENTION_TYPES[(3 * start + 5 * end) % len(_MENTION_TYPES)]
    code = "pgdae"[(start + 2 * end) % 5] + "tas"
    return Mention(tuple(range(start, end + 1)),
                   attributes={"mention_type": kind, "coreference_type": code})


def to_document(clusters: list[list[tuple[int, int]]], tokens: int, name: str = "doc") -> Document:
    return Document(
        name=name,
        tokens=tuple(f"w{index}" for index in range(tokens)),
        entities=tuple(
            Entity(str(number), tuple(typed_span(start, end) for start, end in cluster))
            for number, cluster in enumerate(clusters)),
    )


def without_crossing(clusters: list[list[tuple[int, int]]]) -> list[list[tuple[int, int]]]:
    """Drop mentions that cross another mention of their entity (CoNLL-2012 brackets cannot
    hold them), so that a document can be written and read back."""
    result = []
    for cluster in clusters:
        kept: list[tuple[int, int]] = []
        for start, end in cluster:
            if all(not (s < start <= e < end or start < s <= end < e) for s, e in kept):
                kept.append((start, end))
        result.append(kept)
    return [cluster for cluster in result if cluster]


@st.composite
def ua_mentions(draw: st.DrawFn, tokens: int) -> Mention:
    """A mention of one or two chunks, with a MIN span or none."""
    start, end = draw(spans(tokens))
    positions = set(range(start, end + 1))
    if draw(st.booleans()) and end + 2 < tokens:
        second_start, second_end = draw(spans(tokens).filter(lambda span: span[0] > end + 1))
        positions.update(range(second_start, second_end + 1))
    chosen = tuple(sorted(positions))
    min_tokens = None
    if draw(st.booleans()):
        min_tokens = tuple(sorted(set(draw(st.lists(st.sampled_from(chosen), min_size=1,
                                                    max_size=3)))))
    return Mention(chosen, min_tokens=min_tokens)


@st.composite
def ua_entities(draw: st.DrawFn, tokens: int, suffix: str = "") -> tuple[Entity, ...]:
    count = draw(st.integers(0, 4))
    entities = []
    for number in range(count):
        mentions = tuple(draw(st.lists(ua_mentions(tokens), min_size=1, max_size=3)))
        others = [f"{other}{suffix}" for other in range(count) if other != number]
        elements = tuple(draw(st.lists(st.sampled_from(others), unique=True, max_size=2))
                         if others and draw(st.booleans()) else ())
        entities.append(Entity(f"{number}{suffix}", mentions, elements))
    return tuple(entities)


@st.composite
def ua_documents(draw: st.DrawFn, tokens: int | None = None) -> Document:
    """Documents with every layer of the UA exploded format: identity entities (split
    antecedents, discontinuous mentions, MIN spans), non-referring markables, bridging links
    and a discourse-deixis layer."""
    if tokens is None:
        tokens = draw(st.integers(3, 14))
    entities = draw(ua_entities(tokens))
    non_referring = tuple(
        Mention(mention.tokens, min_tokens=mention.min_tokens,
                attributes={"EntityID": f"{number}-Pseudo"})
        for number, mention in enumerate(draw(st.lists(ua_mentions(tokens), max_size=2))))
    markables = [(entity.id, mention) for entity in entities for mention in entity.mentions]
    markables += [(mention.attributes["EntityID"], mention) for mention in non_referring]
    bridging = []
    if markables:
        for _ in range(draw(st.integers(0, 3))):
            _, anaphor = draw(st.sampled_from(markables))
            entity_id, antecedent = draw(st.sampled_from(markables))
            with_mention = draw(st.booleans())
            bridging.append(BridgingLink(anaphor, antecedent if with_mention else None,
                                         entity_id, draw(st.sampled_from(["", "poss"]))))
    return Document(
        name="generated",
        tokens=tuple(f"w{index}" for index in range(tokens)),
        entities=entities,
        non_referring=non_referring,
        bridging=tuple(bridging),
        discourse_deixis=draw(ua_entities(tokens, "-DD")),
    )


def _renamed(document: Document, prefix: str) -> Document:
    """The document with every entity and pseudo-entity identifier prefixed."""
    def entities(layer: tuple[Entity, ...]) -> tuple[Entity, ...]:
        return tuple(Entity(prefix + entity.id, entity.mentions,
                            tuple(prefix + element for element in entity.elements))
                     for entity in layer)

    return Document(
        document.name, document.tokens, entities(document.entities),
        tuple(Mention(mention.tokens, min_tokens=mention.min_tokens,
                      attributes={"EntityID": prefix + mention.attributes["EntityID"]})
              for mention in document.non_referring),
        tuple(BridgingLink(link.anaphor, link.antecedent, prefix + (link.antecedent_entity or ""),
                           link.relation) for link in document.bridging),
        entities(document.discourse_deixis))


@st.composite
def ua_document_pairs(draw: st.DrawFn) -> tuple[Document, Document]:
    """A key and a response over the same tokens, the response sharing some of the key's
    entities, non-referring markables and bridging links (so that matches happen) and drawing
    others afresh."""
    tokens = draw(st.integers(3, 14))
    key = draw(ua_documents(tokens))
    response = _renamed(draw(ua_documents(tokens)), "r")
    if draw(st.booleans()):
        entities = tuple(Entity(entity.id, entity.mentions) for entity in key.entities[:1])
        entities += response.entities
        non_referring = key.non_referring[:1] + response.non_referring
        named = {entity.id for entity in entities}
        named |= {mention.attributes["EntityID"] for mention in non_referring}
        spans = {mention.tokens for entity in entities for mention in entity.mentions}
        spans |= {mention.tokens for mention in non_referring}
        borrowed = tuple(link for link in key.bridging[:2]
                         if link.anaphor.tokens in spans and link.antecedent_entity in named
                         and (link.antecedent is None or link.antecedent.tokens in spans))
        response = Document(response.name, response.tokens, entities, non_referring,
                            borrowed + response.bridging,
                            tuple(Entity(entity.id, entity.mentions)
                                  for entity in key.discourse_deixis[:1])
                            + response.discourse_deixis)
    return key, response
