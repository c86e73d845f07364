"""Plain, immutable data: mentions, entities, documents.

No scoring logic lives here. A :class:`Mention` is a sorted tuple of token positions (so a
discontinuous mention is an ordinary mention) and is equal only to a mention with the same
tokens: how a response mention *matches* a key mention is decided by :mod:`anascore.matching`,
never by equality tricks.
"""

from __future__ import annotations

import copyreg
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from anascore.core.errors import OptionsError

#: The shared empty attribute mapping (read-only); also the empty default of the other
#: mappings (token columns, anchor mentions): being empty, it holds values of any type.
NO_ATTRIBUTES: Mapping[str, Any] = MappingProxyType({})


def read_only(mapping: Mapping[str, Any]) -> MappingProxyType[str, Any]:
    """A read-only view of a copy of ``mapping`` (how attributes are stored)."""
    return MappingProxyType(dict(mapping))


# Documents must pickle (a parallel or distributed run maps over them); Python cannot pickle a
# read-only mapping view by itself, so it is pickled as the dict it shows.
copyreg.pickle(MappingProxyType, lambda view: (read_only, (dict(view),)))


@dataclass(frozen=True, slots=True)
class Mention:
    """A mention: the sorted token positions it covers within its document.

    Token positions count from 0 over the whole document (not per sentence; empty nodes of
    CoNLL-U, the positions of zero mentions, are tokens of their own). Only ``tokens`` take
    part in equality; the rest describes the mention:

    * ``line``: the 1-based line of the file where the mention starts, for messages;
    * ``head``: the position of its head token, when the format gives one;
    * ``min_tokens``: its minimal span (UA ``MIN=``), when given;
    * ``attributes``: every other attribute the file gives (mention type, SemType, …), by name.
    """

    tokens: tuple[int, ...]
    line: int | None = field(default=None, compare=False, hash=False)
    head: int | None = field(default=None, compare=False, hash=False)
    min_tokens: tuple[int, ...] | None = field(default=None, compare=False, hash=False)
    attributes: Mapping[str, str] = field(default_factory=lambda: NO_ATTRIBUTES,
                                          compare=False, hash=False)

    @classmethod
    def span(cls, start: int, end: int, line: int | None = None,
             spans: SpanTokens | None = None) -> Mention:
        """The contiguous mention from ``start`` to ``end``, both inclusive.

        ``spans``: the document's :class:`SpanTokens`, so that every copy of a span shares
        one tuple of positions (a reader passes one per document).

        Readers make one per mention, so this sets the slots directly: a frozen dataclass's
        ``__init__`` goes through ``object.__setattr__`` per field and takes over twice as
        long.
        """
        mention = _new_object(cls)
        _set_tokens(mention, tuple(range(start, end + 1)) if spans is None
                    else spans.tokens(start, end))
        _set_line(mention, line)
        _set_head(mention, None)
        _set_min_tokens(mention, None)
        _set_attributes(mention, NO_ATTRIBUTES)
        return mention

    @classmethod
    def made(cls, tokens: tuple[int, ...], line: int | None, head: int | None,
             min_tokens: tuple[int, ...] | None, attributes: Mapping[str, str]) -> Mention:
        """``Mention(tokens, line, head, min_tokens, attributes)``, made as fast as
        :meth:`span` makes a contiguous mention (readers make one per mention)."""
        mention = _new_object(cls)
        _set_tokens(mention, tokens)
        _set_line(mention, line)
        _set_head(mention, head)
        _set_min_tokens(mention, min_tokens)
        _set_attributes(mention, attributes)
        return mention

    @property
    def start(self) -> int:
        return self.tokens[0]

    @property
    def end(self) -> int:
        return self.tokens[-1]

    def __str__(self) -> str:
        if self.tokens == tuple(range(self.start, self.end + 1)):
            return f"[{self.start}, {self.end}]"
        return "{" + ", ".join(map(str, self.tokens)) + "}"


class SpanTokens:
    """The token positions of one document's contiguous mentions: one tuple per distinct
    span, shared by every mention of that span.

    A file may annotate one long span many times (2,000 copies of a 50,000-token span fit in
    a 0.7 MB file); copies are merged only when a side is selected
    (:mod:`anascore.selection.sides`), so a tuple per copy took memory in the product of the
    copies and the span's length (over 4 GB there) before that. Shared, the positions take
    memory in the distinct spans' lengths.
    """

    __slots__ = ("by_ends",)

    def __init__(self) -> None:
        #: The tuples made so far, by (first, last) position: a reader's inner loop may look
        #: a span up and add one here directly, as :meth:`tokens` does, without a call each.
        self.by_ends: dict[tuple[int, int], tuple[int, ...]] = {}

    def tokens(self, start: int, end: int) -> tuple[int, ...]:
        """The positions ``start`` to ``end``, both inclusive (the same tuple each time)."""
        made = self.by_ends.get((start, end))
        if made is None:
            made = self.by_ends[start, end] = tuple(range(start, end + 1))
        return made


_new_object = object.__new__
_set_tokens = Mention.__dict__["tokens"].__set__
_set_line = Mention.__dict__["line"].__set__
_set_head = Mention.__dict__["head"].__set__
_set_min_tokens = Mention.__dict__["min_tokens"].__set__
_set_attributes = Mention.__dict__["attributes"].__set__


@dataclass(frozen=True, slots=True)
class Entity:
    """A set of coreferent mentions, with the identifier the file gave it.

    ``elements`` makes the entity a split-antecedent plural: the identifiers of the entities
    it accommodates (its *accommodated set*, Paun et al. 2023 §4; UA ``ElementOf``, CorefUD
    ``SplitAnte``). ``attributes`` holds entity-level attributes (entity type, …).
    """

    id: str
    mentions: tuple[Mention, ...]
    elements: tuple[str, ...] = ()
    attributes: Mapping[str, str] = field(default_factory=lambda: NO_ATTRIBUTES, compare=False)


@dataclass(frozen=True, slots=True)
class BridgingLink:
    """A bridging reference: ``anaphor`` refers to something related to ``antecedent``
    (a mention) of entity ``antecedent_entity``, by relation ``relation`` (UA ``Rel``,
    CorefUD ``Bridge`` relation)."""

    anaphor: Mention
    antecedent: Mention | None
    antecedent_entity: str | None
    relation: str = ""


@dataclass(frozen=True, slots=True)
class ConlluNodes:
    """What a CoNLL-U file says about each token position of a document, beyond its form.

    Positions are the document's token positions: every word and every empty node gets one,
    in file order (an empty node ``15.1`` comes right after word 15, ``0.1`` right before word
    1 of its sentence; multiword-token ranges ``1-2`` are not positions). For position ``p``:

    * ``ids[p]``: its CoNLL-U ID as written (``"15"``, ``"15.1"``);
    * ``sentence_of[p]``: the index of its sentence within the document;
    * ``empty[p]``: whether it is an empty node (the head of a zero mention is one);
    * ``deps[p]``: its DEPS column as written (``"15:nsubj|16:obj"``, ``"_"``): zeros are
      aligned by these enhanced dependencies (see :mod:`anascore.matching.zero_pairing`);
    * ``lines[p]``: the 1-based line of the file.

    Per sentence: ``sentence_ids`` (``# sent_id``, ``""`` when absent) and ``sentence_lines``
    (the line of its first token). Key and response documents are compared and aligned
    through these (:mod:`anascore.formats.io.conllu_alignment`).
    """

    ids: tuple[str, ...]
    sentence_of: tuple[int, ...]
    empty: tuple[bool, ...]
    deps: tuple[str, ...]
    lines: tuple[int, ...]
    sentence_ids: tuple[str, ...]
    sentence_lines: tuple[int, ...]

    #: Whether any position is an empty node: worked out once, as the nodes are made (a
    #: document pair's checks, alignment and zero score each ask it).
    has_empty_nodes: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "has_empty_nodes", True in self.empty)


@dataclass(frozen=True, slots=True)
class Document:
    """One document of a key or response file.

    ``name`` identifies the document across key and response (for CoNLL-2012 the text after
    ``#begin document``, as the reference scorer identifies documents). ``tokens`` holds the
    word forms, so that key and response can be checked to cover the same text.

    Layers: ``entities`` is identity coreference; ``non_referring`` the expletives and other
    non-referring markables (UA pseudo-entities); ``bridging`` the bridging links;
    ``discourse_deixis`` the entities of the discourse-deixis layer.

    ``sentence_starts`` holds the first token position of each sentence, when the format
    marks sentences (empty: unknown); ``nodes`` the CoNLL-U details of every position when the
    document comes from a CoNLL-U file (:class:`ConlluNodes`), else ``None``.

    ``token_columns`` holds per-token annotation columns by name, each as long as ``tokens``,
    when the format gives them: ``pos`` and ``ner`` (the OntoNotes CoNLL-2012 part-of-speech
    and named-entity columns), ``upos`` (CoNLL-U). Mention types are derived from them
    (:mod:`anascore.comparison.mention_types`).

    ``heads_not_given`` holds the positions of the mentions whose head the file does not give
    (a CorefUD file whose ``# global.Entity`` has no ``head`` field): the reader worked their
    head out of the dependency tree, or left it unknown. ``compat="ua"`` takes their first
    position instead, as the CorefUD scorer does.

    ``topic`` and ``subtopic`` name the topic (and subtopic) the document belongs to, when the
    format gives them (cross-document corpora: ECB+, WEC, SciCo, uCDCR), else ``None``; the
    documents of one topic form one scoring unit at topic level.
    """

    name: str
    tokens: tuple[str, ...]
    entities: tuple[Entity, ...]
    non_referring: tuple[Mention, ...] = ()
    bridging: tuple[BridgingLink, ...] = ()
    discourse_deixis: tuple[Entity, ...] = ()
    path: str | None = field(default=None, compare=False)
    source_format: str = field(default="", compare=False)
    line: int | None = field(default=None, compare=False)
    sentence_starts: tuple[int, ...] = field(default=(), compare=False)
    nodes: ConlluNodes | None = field(default=None, compare=False)
    token_columns: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: NO_ATTRIBUTES,
                                                         compare=False)
    heads_not_given: frozenset[tuple[int, ...]] = field(default=frozenset(), compare=False)
    topic: str | None = field(default=None, compare=False)
    subtopic: str | None = field(default=None, compare=False)

    def mentions(self) -> Iterable[Mention]:
        for entity in self.entities:
            yield from entity.mentions


def checked_documents(documents: object, what: str) -> Iterator[Document]:
    """``documents`` one at a time (a stream stays a stream), when they are documents; else
    an :class:`~anascore.core.errors.OptionsError` naming ``what`` (``"the key"``): the Python
    API's scoring and writing functions take any value."""
    if isinstance(documents, str | bytes) or not isinstance(documents, Iterable):
        raise OptionsError(f"{what} must be documents (anascore.core.model.Document), not "
                           f"{type(documents).__name__}")

    def checked() -> Iterator[Document]:
        for document in documents:
            if not isinstance(document, Document):
                raise OptionsError(f"{what} must be documents (anascore.core.model.Document), "
                                   f"not a list holding {type(document).__name__}")
            yield document

    return checked()
