"""What of a document is scored: one side (key or response) as flat arrays.

This is the *select* step of the flow in ``docs/design.md``: it applies the options that decide
which entities and mentions take part (singletons, repeated mentions) and flattens the
entities into a mention list with, for each mention, the index of its entity. Matching and the
contingency table work on these arrays only.

Repeated mentions. A span annotated twice — twice in one entity or in two entities — is one
mention. The reference scorer drops later copies of a response mention (its test cases
TC-A-7 … TC-A-9) and refuses to score past ten of them; anascore always keeps one copy, scores,
and warns naming the document, the span and the entities. The same applies to a key that puts
one span in two entities (reported: a gold annotation error).

Under ``compat="ua"`` with exact matching, every copy in a UA file is kept instead, and
counted as the UA scorer 2.0 counts them (U2 in :mod:`anascore.compat.ua_scorer`, through the hooks
of :class:`SelectionRules`); CoNLL-2012 and CorefUD files keep one copy, as that
code base's CoNLL-2012 and CorefUD readers do.

Where another scorer selects otherwise, :func:`select_side` calls a hook of the
:class:`SelectionRules` it is given: the run's conventions, which the pipeline resolves once
(:func:`anascore.compat.conventions`) and hands down, so that this stage, below them, never
looks them up. :class:`SelectionDefaults` is anascore's own selection, every hook leaving the
default path as it is.

Which copy is kept must not depend on the order entities are listed in (or a reordered file
would score differently), so entities are taken in text order: by their distinct mentions' token
positions, sorted, compared lexicographically (entities with the same mentions by their
identifiers), and the copy in the first entity is kept. This is
the reference scorer's choice wherever the text decides it (it takes the entity whose
identifier the file shows first; in TC-A-8 the repeated span opens both entities at the same
token and the entity with the earlier second mention is kept either way).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from itertools import chain
from operator import attrgetter
from types import MappingProxyType
from typing import Any, Protocol

import numpy as np

from anascore.config.options import Options
from anascore.core.model import NO_ATTRIBUTES, BridgingLink, ConlluNodes, Document, Entity, Mention
from anascore.selection.accommodated_sets import (
    AccommodatedSets,
    accommodated_sets,
    normalize_accommodated_sets,
)


@dataclass(frozen=True)
class Side:
    """One side of a document, flattened: ``mentions[k]`` belongs to entity
    ``entity_of[k]``; ``entity_sizes[e]`` counts entity ``e``'s mentions. ``accommodated``
    holds the split-antecedent sets (``keep_split_antecedents``; ``None``: no set).

    The layers that are not entities travel with the identity side when their setting is on:
    ``non_referring`` (``keep_non_referring``), ``bridging`` (``keep_bridging``) with
    ``anchor_mentions``, the mentions of each entity a bridging link names (its anchor).

    ``document`` is the document the side was selected from (``None`` for an empty side),
    for metrics that read more of it than its mentions: its words and token columns (mention
    types, :mod:`anascore.comparison.mention_types`), its path and name (messages), its CoNLL-U
    details (:attr:`nodes`, from which :func:`zero_flags` tells zero mentions apart).
    """

    entity_ids: tuple[str, ...]
    mentions: tuple[Mention, ...]
    entity_of: np.ndarray
    entity_sizes: np.ndarray
    non_referring: tuple[Mention, ...] = ()
    bridging: tuple[BridgingLink, ...] = ()
    anchor_mentions: Mapping[str, tuple[Mention, ...]] = field(
        default_factory=lambda: NO_ATTRIBUTES)
    accommodated: AccommodatedSets | None = None
    document: Document | None = field(default=None, compare=False, repr=False)

    @property
    def nodes(self) -> ConlluNodes | None:
        """The CoNLL-U details of the document's positions (``None``: not from CoNLL-U)."""
        return None if self.document is None else self.document.nodes

    @property
    def mention_count(self) -> int:
        return len(self.mentions)

    @cached_property
    def spans(self) -> list[tuple[int, ...]]:
        """Each mention's token positions, in order: made once per side (selection has them
        at hand in the usual case), read by exact matching and MOR."""
        return [mention.tokens for mention in self.mentions]

    @cached_property
    def unique_spans(self) -> bool:
        """Whether each span is there once (selection keeps one copy of a repeated span,
        unless the run's conventions keep every copy)."""
        return len(set(self.spans)) == len(self.spans)


class SelectionRules(Protocol):
    """What selecting a side asks of the run's conventions (the module docstring).
    :class:`anascore.compat.Conventions` answers it; :class:`SelectionDefaults` is anascore's
    own answer."""

    #: Zero mentions removed after singletons (``keep_zeros=False``), not before.
    zeros_removed_after_singletons: bool

    def keeps_every_copy(self, document: Document, options: Options) -> bool:
        """Whether a span annotated twice keeps every copy (else one)."""
        ...

    def copies_as_sets(self, entities: list[Entity]) -> list[Entity]:
        """With split antecedents on, the entities of a side that keeps every copy (only
        called when :meth:`keeps_every_copy`)."""
        ...

    def warn_copies_kept(self, entities: list[Entity], document: Document, role: str,
                         warnings: list[str]) -> None:
        """Warn of the copies a side keeps (only called when :meth:`keeps_every_copy`)."""
        ...

    def non_referring_markables(self, markables: tuple[Mention, ...]) -> tuple[Mention, ...]:
        """The non-referring markables scored."""
        ...

    def bridging_links(self, links: tuple[BridgingLink, ...]) -> tuple[BridgingLink, ...]:
        """The bridging links scored."""
        ...


class SelectionDefaults:
    """anascore's own selection: one copy of a repeated span, zeros removed before
    singletons, every non-referring markable and bridging link as read."""

    zeros_removed_after_singletons = False

    def keeps_every_copy(self, document: Document, options: Options) -> bool:
        return False

    def copies_as_sets(self, entities: list[Entity]) -> list[Entity]:
        return entities

    def warn_copies_kept(self, entities: list[Entity], document: Document, role: str,
                         warnings: list[str]) -> None:
        return None

    def non_referring_markables(self, markables: tuple[Mention, ...]) -> tuple[Mention, ...]:
        return markables

    def bridging_links(self, links: tuple[BridgingLink, ...]) -> tuple[BridgingLink, ...]:
        return links


#: anascore's own selection, for callers that do not pass the run's conventions.
SELECTION_DEFAULTS: SelectionRules = SelectionDefaults()


def select_side(document: Document | None, options: Options, role: str,
                warnings: list[str], rules: SelectionRules = SELECTION_DEFAULTS) -> Side:
    """The scored part of ``document`` (``None``: an empty side), selected as ``rules`` say
    (the run's conventions; by default anascore's own).

    ``role`` is ``"key"`` or ``"response"``, for messages; a warning per repeated mention is
    appended to ``warnings``.
    """
    if document is None:
        return _EMPTY
    keep_repeated = rules.keeps_every_copy(document, options)
    # the spans of the entities' mentions, while entities only lose mentions: one copy of
    # each span (None: not known to be)
    spans: list[tuple[int, ...]] | None = None
    if keep_repeated:
        entities = list(document.entities)
    else:
        entities, spans = _without_repeated_mentions(document, role, warnings)
    drop_zeros = not options.keep_zeros and document.nodes is not None
    if drop_zeros and not rules.zeros_removed_after_singletons:
        entities = _without_zeros(entities, document.nodes)
        spans = None
    atoms_of: dict[str, frozenset[str]] = {}
    if options.keep_split_antecedents:
        spans = None
        entities, atoms_of = normalize_accommodated_sets(entities, document, role, warnings)
        if keep_repeated:
            entities = rules.copies_as_sets(entities)
    all_entities = entities
    if not options.keep_singletons:
        entities = [entity for entity in entities
                    if len(entity.mentions) + (entity.id in atoms_of) > 1]
    if drop_zeros and rules.zeros_removed_after_singletons:
        entities = _without_zeros(entities, document.nodes)
    if keep_repeated:
        rules.warn_copies_kept(entities, document, role, warnings)
    entities = [entity for entity in entities if entity.mentions]
    # list comprehensions and chain: a document has thousands of mentions, and generators
    # cost a call per item
    sizes = np.array([len(entity.mentions) for entity in entities], dtype=np.int64)
    side = Side(
        entity_ids=tuple([entity.id for entity in entities]),
        mentions=tuple(chain.from_iterable([entity.mentions for entity in entities])),
        entity_of=np.repeat(np.arange(len(entities), dtype=np.int64), sizes),
        entity_sizes=sizes,
        document=document,
    )
    if not keep_repeated and not options.keep_split_antecedents:
        # entities only lost mentions since each span was made unique
        side.__dict__["unique_spans"] = True
        if spans is not None and len(spans) == len(side.mentions):
            # only removals since, so none: these are the side's spans, in order
            side.__dict__["spans"] = spans
    if atoms_of:
        side = replace(side, accommodated=accommodated_sets(
            side.entity_ids, side.mentions, atoms_of, all_entities, document))
    if options.keep_non_referring or options.keep_bridging:
        side = _with_other_layers(side, document, options, rules)
    return side


def is_zero(mention: Mention, nodes: ConlluNodes | None) -> bool:
    """A zero mention: its head (its first position when it has none) is an empty node, as
    the CorefUD scorer defines it. Every reader heads a mention its file gives no head by one
    rule (:func:`anascore.formats.dependencies.mention_head`), so a mention is a zero or not
    whatever format it was read from."""
    if nodes is None:
        return False
    return nodes.empty[mention.tokens[0] if mention.head is None else mention.head]


def zero_flags(side: Side) -> np.ndarray:
    """For each mention of ``side``, whether it is a zero mention (none is, without a word
    that is an empty node: CoNLL-2012 and jsonlines documents, and most CoNLL-U ones, are
    not walked mention by mention)."""
    if side.nodes is None or not side.nodes.has_empty_nodes:
        return np.zeros(len(side.mentions), dtype=bool)
    return np.fromiter((is_zero(mention, side.nodes) for mention in side.mentions),
                       dtype=bool, count=len(side.mentions))


def _without_zeros(entities: list[Entity], nodes: ConlluNodes | None) -> list[Entity]:
    """Zero mentions removed (``keep_zeros=False``).

    By default before singletons are removed, so that an entity left with one overt mention
    counts as a singleton; with ``compat="ua"`` after, as the CorefUD scorer does (U16)."""
    return [Entity(entity.id, tuple(mention for mention in entity.mentions
                                    if not is_zero(mention, nodes)), entity.elements,
                   entity.attributes)
            for entity in entities]


def layer_document(document: Document | None, layer: str) -> Document | None:
    """``document`` with the entities of another layer (``discourse_deixis``) in place of
    its identity entities, so that the identity pipeline scores that layer."""
    if document is None:
        return None
    return replace(document, entities=getattr(document, layer), non_referring=(),
                   bridging=(), discourse_deixis=())


def _with_other_layers(side: Side, document: Document, options: Options,
                       rules: SelectionRules) -> Side:
    non_referring: tuple[Mention, ...] = ()
    if options.keep_non_referring:
        non_referring = rules.non_referring_markables(document.non_referring)
    bridging: tuple[BridgingLink, ...] = ()
    anchors: dict[str, tuple[Mention, ...]] = {}
    if options.keep_bridging:
        bridging = rules.bridging_links(document.bridging)
        named = {link.antecedent_entity for link in bridging
                 if link.antecedent_entity is not None}
        for entity in document.entities:
            if entity.id in named:
                anchors[entity.id] = entity.mentions
        for mention in document.non_referring:
            entity_id = mention.attributes.get("EntityID")
            if entity_id in named:
                anchors[entity_id] = (*anchors.get(entity_id, ()), mention)
    return replace(side, non_referring=non_referring, bridging=bridging,
                   anchor_mentions=MappingProxyType(anchors))


def _without_repeated_mentions(document: Document, role: str, warnings: list[str],
                               ) -> tuple[list[Entity], list[tuple[int, ...]] | None]:
    """The document's entities with one copy of each span (a warning for each span
    repeated), and their mentions' spans when no span was repeated (else ``None``)."""
    entities = list(document.entities)
    spans = list(map(_TOKENS, chain.from_iterable([entity.mentions for entity in entities])))
    if len(set(spans)) == len(spans):
        return entities, spans
    entities.sort(key=lambda entity: (_text_order(entity), entity.id))
    owner_of: dict[tuple[int, ...], str] = {}
    repeats: dict[tuple[int, ...], list[str]] = {}
    result: list[Entity] = []
    for entity in entities:
        kept: list[Mention] = []
        for mention in sorted(entity.mentions, key=copy_preference):
            if mention.tokens in owner_of:
                repeats.setdefault(mention.tokens, []).append(entity.id)
                continue
            owner_of[mention.tokens] = entity.id
            kept.append(mention)
        result.append(Entity(entity.id, tuple(kept), entity.elements, entity.attributes))
    for tokens, copies in repeats.items():
        owner = owner_of[tokens]
        others = sorted(set(copies) - {owner})
        where = (f"entity {owner}" if not others
                 else f"entities {owner} and {', '.join(others)}")
        times = "twice" if len(copies) == 1 else f"{len(copies) + 1} times"
        warnings.append(
            f"{document.path or role}: document {document.name!r}: repeated {role} mention "
            f"{Mention(tokens)}, annotated {times} in {where}; scored once, in entity {owner}")
    return result, None


_TOKENS = attrgetter("tokens")


def copy_preference(mention: Mention) -> tuple[Any, ...]:
    """Mentions by span, and the copies of a span in one entity by what they say besides
    (a MIN span first, then a head, then their other attributes), so that which copy is kept
    never depends on the order of the file."""
    return (mention.tokens, mention.min_tokens is None, mention.min_tokens or (),
            mention.head is None, -1 if mention.head is None else mention.head,
            repr(sorted(mention.attributes.items())))


def _text_order(entity: Entity) -> list[tuple[int, ...]]:
    return sorted({mention.tokens for mention in entity.mentions})


_EMPTY = Side((), (), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))
