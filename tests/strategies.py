"""Hypothesis strategies for documents with a key and a response side."""

from __future__ import annotations

from hypothesis import strategies as st

from anascore.model import Document, Entity, Mention

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
