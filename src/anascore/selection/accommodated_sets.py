"""Accommodated sets of split-antecedent plurals, as one side of a document holds them.

A split-antecedent plural (*they* for John and Mary) refers to an entity whose antecedent is a
set of other entities, its *accommodated set* (Paun et al. 2023 §4.1; ``Entity.elements``,
read from UA ``ElementOf`` or CorefUD ``SplitAnte``). This module is the *select* step for
them; the metrics' side is :mod:`anascore.metrics.split_antecedents`.

Rules, each for a reason:

* **Atomic elements.** A set is normalized to *atomic* entities, entities that accommodate no
  set: an element that is itself a plural is replaced by its own elements, recursively
  (Paun et al. §4.1, example 11: *they all* for {{John, Mary}, Bill} is {John, Mary, Bill}).
  An element naming no entity of the document, and a plural that is (through others) an
  element of itself, are errors.
* **Equal sets are one entity.** Two entities of one side whose normalized sets are equal refer
  to the same set, so they are the same entity (the union theory of plurals the paper adopts,
  its footnote 15: a set is its elements): they are scored as one entity, with a warning. A
  response that gives *they* and *the two* the same antecedents has said they corefer. (The UA
  scorer merges such entities too; its test TC-PA-8 expects it.)
* **Size.** An entity with a set counts it as one more element: ``|Kᵢ| = 1 + |Kᵢᵐ|`` (§4.1);
  so a plural with a single mention is not a singleton.
* **Elements are never removed.** With singletons removed, a singleton entity is not scored as
  an entity, but stays an element of the sets it belongs to: removing singletons decides which
  entities are scored, not what a plural refers to. Its mentions are kept aside
  (``extra_mentions``) so that elements can still be matched.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from anascore.core.errors import FormatError
from anascore.core.model import Document, Entity, Mention


@dataclass(frozen=True)
class AccommodatedSets:
    """The accommodated sets of one side of a document.

    ``holders[h]`` is the index (into the side's entities) of the ``h``-th entity with a set,
    holders in text order; its set is ``elements[h]``, indices into ``atom_ids``. Atom ``a`` is
    the atomic entity ``atom_ids[a]``, whose mentions are ``atom_mentions[a]``: indices into the
    side's mentions followed by ``extra_mentions`` (mentions of elements not scored as entities).
    """

    holders: np.ndarray
    elements: tuple[tuple[int, ...], ...]
    atom_ids: tuple[str, ...]
    atom_mentions: tuple[np.ndarray, ...]
    extra_mentions: tuple[Mention, ...] = ()

    def __len__(self) -> int:
        return len(self.holders)

    def has_set(self, entity_count: int) -> np.ndarray:
        """For each of the side's entities, 1 if it holds a set, else 0 (int64)."""
        mask = np.zeros(entity_count, dtype=np.int64)
        mask[self.holders] = 1
        return mask

    @property
    def atom_sizes(self) -> np.ndarray:
        return np.fromiter((len(mentions) for mentions in self.atom_mentions), dtype=np.int64,
                           count=len(self.atom_mentions))


def normalize_accommodated_sets(
        entities: list[Entity], document: Document, role: str,
        warnings: list[str]) -> tuple[list[Entity], dict[str, frozenset[str]]]:
    """The entities with equal sets merged, and each plural entity's set of atomic elements.

    ``entities`` are the side's entities (repeated mentions already removed). Returns the
    entities (a merged entity takes the place of the first of its parts in text order, and
    their identifiers joined by ``+``) and, by entity identifier, its normalized set. Elements
    with no mention left are dropped; a set that becomes empty is no set.
    """
    by_id = {entity.id: entity for entity in entities}
    for pseudo in pseudo_elements({element for entity in entities
                                   for element in entity.elements} - by_id.keys(), document):
        by_id[pseudo.id] = pseudo
    atoms_of: dict[str, frozenset[str]] = {}
    for entity in entities:
        if entity.elements:
            atoms = frozenset(atom for atom in _atoms(entity.id, by_id, document, role, {}, ())
                              if by_id[atom].mentions)
            if atoms:
                atoms_of[entity.id] = atoms
    if not atoms_of:
        return entities, {}
    holders_of: dict[frozenset[str], list[Entity]] = {}
    for entity in sorted((by_id[name] for name in atoms_of), key=text_order):
        holders_of.setdefault(atoms_of[entity.id], []).append(entity)
    merged: dict[str, Entity] = {}
    dropped: set[str] = set()
    for atoms, parts in holders_of.items():
        if len(parts) == 1:
            continue
        names = [part.id for part in parts]
        whole = replace(parts[0], id="+".join(names),
                        mentions=tuple(mention for part in parts for mention in part.mentions))
        merged[parts[0].id] = whole
        dropped.update(names[1:])
        atoms_of[whole.id] = atoms
        warnings.append(
            f"{document.path or role}: document {document.name!r}: {role} entities "
            f"{', '.join(names)} accommodate the same set {{{', '.join(sorted(atoms))}}}; "
            f"scored as one entity {whole.id}")
    if merged:
        entities = [merged.get(entity.id, entity) for entity in entities
                    if entity.id not in dropped]
    return entities, atoms_of


def pseudo_elements(wanted: set[str], document: Document) -> list[Entity]:
    """The non-referring pseudo-entities named ``wanted`` that sets hold as elements (real
    CODI-CRAC files have plurals whose ``ElementOf`` is on a non-referring markable): atomic
    elements made of the non-referring markables with that ``EntityID``, never scored as
    entities. The UA scorer takes them as elements the same way."""
    if not wanted:
        return []
    mentions: dict[str, list[Mention]] = {}
    for mention in document.non_referring:
        name = mention.attributes.get("EntityID")
        if name in wanted:
            mentions.setdefault(name, []).append(mention)
    return [Entity(name, tuple(found)) for name, found in mentions.items()]


def _atoms(name: str, by_id: dict[str, Entity], document: Document, role: str,
           memo: dict[str, frozenset[str]], path: tuple[str, ...]) -> frozenset[str]:
    """The atomic entities ``name`` stands for (itself when it accommodates no set)."""
    if name in memo:
        return memo[name]
    entity = by_id[name]
    if not entity.elements:
        return frozenset((name,))
    if name in path:
        cycle = " → ".join((*path[path.index(name):], name))
        raise FormatError(f"document {document.name!r}: {role} entity {name!r} is an element "
                          f"of itself ({cycle})", path=document.path, line=_line(entity))
    atoms: set[str] = set()
    for element in entity.elements:
        if element not in by_id:
            raise FormatError(
                f"document {document.name!r}: {role} entity {name!r} accommodates entity "
                f"{element!r}, which is not an entity of the document", path=document.path,
                line=_line(entity))
        atoms.update(_atoms(element, by_id, document, role, memo, (*path, name)))
    memo[name] = frozenset(atoms)
    return memo[name]


def _line(entity: Entity) -> int | None:
    return entity.mentions[0].line if entity.mentions else None


def accommodated_sets(entity_ids: tuple[str, ...], mentions: tuple[Mention, ...],
                      atoms_of: dict[str, frozenset[str]], all_entities: list[Entity],
                      document: Document) -> AccommodatedSets | None:
    """The :class:`AccommodatedSets` of a side whose scored entities are ``entity_ids``.

    ``all_entities`` are the side's entities before singletons were removed (elements are
    looked up there, and among the ``document``'s non-referring markables); ``atoms_of``
    comes from :func:`normalize_accommodated_sets`.
    """
    holders = [index for index, name in enumerate(entity_ids) if name in atoms_of]
    if not holders:
        return None
    by_id = {entity.id: entity for entity in all_entities}
    for pseudo in pseudo_elements(set().union(*atoms_of.values()) - by_id.keys(), document):
        by_id[pseudo.id] = pseudo
    holders.sort(key=lambda index: text_order(by_id[entity_ids[index]]))
    atom_ids = sorted({atom for index in holders for atom in atoms_of[entity_ids[index]]},
                      key=lambda name: text_order(by_id[name]))
    atom_index = {name: number for number, name in enumerate(atom_ids)}
    mention_index = {mention.tokens: number for number, mention in enumerate(mentions)}
    extra: list[Mention] = []
    atom_mentions = []
    for name in atom_ids:
        indices = []
        for mention in by_id[name].mentions:
            index = mention_index.get(mention.tokens)
            if index is None:
                index = len(mentions) + len(extra)
                mention_index[mention.tokens] = index
                extra.append(mention)
            indices.append(index)
        atom_mentions.append(np.asarray(indices, dtype=np.int64))
    return AccommodatedSets(
        holders=np.asarray(holders, dtype=np.int64),
        elements=tuple(tuple(sorted(atom_index[atom] for atom in atoms_of[entity_ids[index]]))
                       for index in holders),
        atom_ids=tuple(atom_ids),
        atom_mentions=tuple(atom_mentions),
        extra_mentions=tuple(extra),
    )


def text_order(entity: Entity) -> list[tuple[int, ...]]:
    """Entities compared by their sorted distinct mentions: an order that does not depend on
    how a file lists them."""
    return sorted({mention.tokens for mention in entity.mentions})
