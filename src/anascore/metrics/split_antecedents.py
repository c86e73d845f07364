"""Split-antecedent plurals in every metric, by one mechanism (Paun et al. 2023 §4–5, §7).

An entity may hold an *accommodated set*: the atomic entities a split-antecedent plural refers
to (:mod:`anascore.selection.accommodated_sets`). Paun et al. generalize each metric with three
steps,
the same for all of them; only the last is the metric's own:

1. **Compare two sets with the metric itself** (§4.2). A key set and a response set are scored
   as two small documents whose entities are their elements: the metric's own counts over the
   contingency table of the element entities (:class:`SetMetric`).
2. **Align the sets one-to-one** by Kuhn–Munkres on the metric's F1 of each pair (§4.2: the
   alignment τ), so that a response set is credited against one key set at most.
3. **Add the δ term** of each aligned pair to the metric's counts (§5): the recall of the pair
   on the recall side, its precision on the precision side. How δ enters is the metric's own
   formula (B³ and CEAF add it to the cell of the two entities, MUC subtracts a penalty 1 − δ,
   LEA counts δ per link to the set, BLANC credits links whose node is a set); every entity
   with a set counts it as one more element.

:func:`anascore.metrics.split_counts.split_antecedent_counts` wraps a metric's count function
with these steps (and imports this module only for a document with sets to align); a metric
supplies its :class:`SetMetric` and its generalized count. A document without accommodated
sets takes the metric's standard path, so every score equals the standard one there.

``only_split_antecedents`` (§7): the metric's counts summed over the aligned pairs of sets, an
unaligned set paired with the empty set (its numerators 0, its denominators its own), so the
split-antecedent score is the micro-average the paper reports, and stays additive per document.

Where the paper is silent, and a set of singleton element entities would otherwise earn
nothing even when resolved perfectly (contrary to the paper's principle, §4.3, that a perfectly
resolved set counts like a correct mention): MUC between sets counts a singleton element as one
link, found when it is a singleton in the other set too (the UA scorer does the same); BLANC's
δ for a kind of link the key (response) set does not have is the recall (precision) of the
other kind. ``compat="ua"`` follows the UA scorer 2.0 where it departs from the paper
(U9 … U13 in :mod:`anascore.compat.ua_scorer`; ``docs/split-antecedents.md``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

import numpy as np

from anascore.comparison.contingency import Comparison, Contingency
from anascore.core.assignment import maximum_assignment
from anascore.matching import MATCHING_DEFAULTS, align
from anascore.metrics.base import recall_precision
from anascore.metrics.rules import metric_rules
from anascore.metrics.set_comparison import ElementTables, SetMetric
from anascore.selection.accommodated_sets import AccommodatedSets

_SETS = "split antecedents"
_SHARED = "split antecedents: shared mentions"


@dataclass(frozen=True)
class SetAlignment:
    """One metric's alignment of a document's accommodated sets.

    Aligned pairs (F1 > 0): key entity ``key[p]`` and response entity ``response[p]`` (indices
    into the sides' entities), the F1 ``weight[p]`` the alignment maximized, and the δ terms
    ``deltas[p]`` named ``delta_names``. Pairs are one-to-one, except that under
    ``compat="ua"`` a response set may also be credited to a key set equal to it
    (:attr:`SetMetric.also_credited`). ``unaligned_key`` and ``unaligned_response`` are the
    entities whose sets found no partner. ``split_counts`` are the metric's counts of the
    split-antecedent-only score (``None`` unless ``only_split_antecedents``, which alone
    reads them).
    """

    key: np.ndarray
    response: np.ndarray
    weight: np.ndarray
    deltas: np.ndarray
    delta_names: tuple[str, ...]
    unaligned_key: np.ndarray
    unaligned_response: np.ndarray
    split_counts: np.ndarray | None

    def delta(self, name: str) -> np.ndarray:
        """The δ term ``name`` of every aligned pair."""
        return self.deltas[:, self.delta_names.index(name)]

    def has(self, name: str) -> bool:
        return name in self.delta_names


@dataclass(frozen=True)
class SetAlignmentDetails:
    """A :class:`SetAlignment` with what is needed to describe it (entity identifiers), kept
    by a report for ``to_dict(details=True)``."""

    alignment: SetAlignment
    key_entities: tuple[str, ...]
    response_entities: tuple[str, ...]
    key_sets: AccommodatedSets | None
    response_sets: AccommodatedSets | None

    def to_list(self) -> list[dict[str, Any]]:
        """Every pair of sets: aligned ones with their F1 and δ terms, then the unaligned key
        and response sets (paired with the empty set, δ 0)."""
        alignment = self.alignment
        pairs = []
        for number in range(len(alignment.key)):
            key, response = int(alignment.key[number]), int(alignment.response[number])
            pair = self._pair(key, response)
            pair.update((name, float(value)) for name, value in
                        zip(alignment.delta_names, alignment.deltas[number], strict=True))
            pair["f1"] = float(alignment.weight[number])
            pairs.append(pair)
        for key in alignment.unaligned_key.tolist():
            pairs.append(self._unaligned(self._pair(key, -1)))
        for response in alignment.unaligned_response.tolist():
            pairs.append(self._unaligned(self._pair(-1, response)))
        return pairs

    def _unaligned(self, pair: dict[str, Any]) -> dict[str, Any]:
        pair.update((name, 0.0) for name in self.alignment.delta_names)
        pair["f1"] = 0.0
        return pair

    def _pair(self, key: int, response: int) -> dict[str, Any]:
        return {
            "key_entity": self.key_entities[key] if key >= 0 else None,
            "key_elements": _elements(self.key_sets, key),
            "response_entity": self.response_entities[response] if response >= 0 else None,
            "response_elements": _elements(self.response_sets, response),
        }


def _elements(sets: AccommodatedSets | None, entity: int) -> list[str]:
    if sets is None or entity < 0:
        return []
    holder = int(np.flatnonzero(sets.holders == entity)[0])
    return [sets.atom_ids[atom] for atom in sets.elements[holder]]


def set_alignment(comparison: Comparison, name: str, metric: SetMetric) -> SetAlignment:
    """The alignment of the document's accommodated sets for metric ``name`` (computed once
    per document and metric, and kept in ``comparison.derived``)."""
    key = f"{name}.{metric.part}" if metric.part else name
    alignment = comparison.derived.get(key)
    if alignment is None:
        alignment = comparison.derived[key] = _align(comparison, metric)
    return alignment


def alignment_details(comparison: Comparison) -> dict[str, SetAlignmentDetails]:
    """Every set alignment the metrics computed for this document, by metric (and part)."""
    return {
        name: SetAlignmentDetails(value, comparison.key.entity_ids,
                                  comparison.response.entity_ids, comparison.key.accommodated,
                                  comparison.response.accommodated)
        for name, value in comparison.derived.items() if isinstance(value, SetAlignment)
    }


def _element_tables(comparison: Comparison) -> ElementTables:
    cached = comparison.derived.get(_SETS)
    if cached is not None:
        return cached
    key, response = comparison.key, comparison.response
    key_sets, response_sets = key.accommodated, response.accommodated
    key_extra = key_sets.extra_mentions if key_sets else ()
    response_extra = response_sets.extra_mentions if response_sets else ()
    alignment = comparison.alignment
    if key_extra or response_extra:
        # The elements' mentions the sides do not score are aligned with the sides' own, by
        # the document's alignment path in the run's conventions (matcher, zero pairing,
        # ties), as the document's mentions were: never by another rule.
        alignment = align(replace(key, mentions=key.mentions + key_extra),
                          replace(response, mentions=response.mentions + response_extra),
                          comparison.options, comparison.rules or MATCHING_DEFAULTS)
    key_atom_of = _atom_of(key_sets, len(key.mentions) + len(key_extra))
    response_atom_of = _atom_of(response_sets, len(response.mentions) + len(response_extra))
    rows = key_atom_of[alignment.key]
    columns = response_atom_of[alignment.response]
    both = (rows >= 0) & (columns >= 0)
    cells: dict[tuple[int, int], int] = {}
    for row, column in zip(rows[both].tolist(), columns[both].tolist(), strict=True):
        cells[(row, column)] = cells.get((row, column), 0) + 1
    overlapping: set[tuple[int, int]] = set()
    if key_sets and response_sets:
        key_sets_of = _sets_of(key_sets)
        response_sets_of = _sets_of(response_sets)
        for row, column in cells:
            overlapping.update((key_set, response_set) for key_set in key_sets_of[row]
                               for response_set in response_sets_of[column])
    tables = ElementTables(
        key_sets, response_sets,
        key_sets.atom_sizes if key_sets else np.zeros(0, dtype=np.int64),
        response_sets.atom_sizes if response_sets else np.zeros(0, dtype=np.int64),
        cells, sorted(overlapping))
    comparison.derived[_SETS] = tables
    return tables


def _atom_of(sets: AccommodatedSets | None, mention_count: int) -> np.ndarray:
    atom_of = np.full(max(mention_count, 1), -1, dtype=np.int64)
    if sets is not None:
        for atom, mentions in enumerate(sets.atom_mentions):
            atom_of[mentions] = atom
    return atom_of


def _sets_of(sets: AccommodatedSets) -> list[list[int]]:
    """For each atom, the sets it belongs to."""
    member_of: list[list[int]] = [[] for _ in sets.atom_ids]
    for number, elements in enumerate(sets.elements):
        for atom in elements:
            member_of[atom].append(number)
    return member_of


def _align(comparison: Comparison, metric: SetMetric) -> SetAlignment:
    tables = _element_tables(comparison)
    key_count = len(tables.key_sets) if tables.key_sets else 0
    response_count = len(tables.response_sets) if tables.response_sets else 0
    weights = np.zeros((key_count, response_count))
    counts_of: dict[tuple[int, int], np.ndarray] = {}
    deltas_of: dict[tuple[int, int], np.ndarray] = {}
    for pair in tables.overlapping:
        counts = metric.count(tables.table(*pair))
        counts_of[pair] = counts
        weights[pair] = metric.weight(counts)
        deltas_of[pair] = metric.deltas(counts)
    key_holders = tables.key_sets.holders if tables.key_sets else np.zeros(0, dtype=np.int64)
    response_holders = (tables.response_sets.holders if tables.response_sets
                        else np.zeros(0, dtype=np.int64))
    pairs = metric_rules(comparison).set_pairs(comparison, tables, weights)
    if pairs is None:
        pairs = _best_pairs(weights, _shared_mentions(comparison, key_holders, response_holders),
                            comparison.table.aligned)
    aligned = [pair for pair in pairs if weights[pair] > 0]
    aligned_keys = {key for key, _ in aligned}
    aligned_responses = {response for _, response in aligned}
    unaligned_key = [key for key in range(key_count) if key not in aligned_keys]
    unaligned_response = [response for response in range(response_count)
                          if response not in aligned_responses]
    split_counts = None
    if comparison.options.only_split_antecedents:
        split_parts = [counts_of[pair] for pair in aligned]
        split_parts += [metric.count(tables.table(key, None)) for key in unaligned_key]
        split_parts += [metric.count(tables.table(None, response))
                        for response in unaligned_response]
        split_counts = np.asarray(np.sum(split_parts, axis=0), dtype=np.float64)
    if metric.also_credited is not None:
        twins = metric.also_credited(tables, unaligned_key)
        deltas_of.update((twin, np.ones(len(metric.delta_names))) for twin in twins)
        aligned += twins
        unaligned_key = [key for key in unaligned_key if key not in {key for key, _ in twins}]
    key_index = np.asarray([key_holders[key] for key, _ in aligned], dtype=np.int64)
    response_index = np.asarray([response_holders[response] for _, response in aligned],
                                dtype=np.int64)
    deltas = np.array([deltas_of[pair] for pair in aligned], dtype=np.float64).reshape(
        len(aligned), len(metric.delta_names))
    if metric.linked and len(aligned):
        deltas[common_mentions(comparison.table, key_index, response_index) == 0] = 0.0
    return SetAlignment(
        key=key_index, response=response_index,
        weight=np.asarray([weights[pair] for pair in aligned], dtype=np.float64),
        deltas=deltas, delta_names=metric.delta_names,
        unaligned_key=np.asarray([key_holders[key] for key in unaligned_key], dtype=np.int64),
        unaligned_response=np.asarray([response_holders[response]
                                       for response in unaligned_response], dtype=np.int64),
        split_counts=split_counts,
    )


def _shared_mentions(comparison: Comparison, key_holders: np.ndarray,
                     response_holders: np.ndarray) -> np.ndarray:
    """The mentions each plural key entity shares with each plural response entity, as
    floats (computed once per document, and kept in ``comparison.derived``)."""
    shared = comparison.derived.get(_SHARED)
    if shared is None:
        key_grid, response_grid = np.meshgrid(key_holders, response_holders, indexing="ij")
        shared = comparison.derived[_SHARED] = common_mentions(
            comparison.table, key_grid.ravel(), response_grid.ravel()).reshape(
                len(key_holders), len(response_holders)).astype(np.float64)
    return shared


def _best_pairs(weights: np.ndarray, shared: np.ndarray,
                bound: int) -> list[tuple[int, int]]:
    """A maximum-weight one-to-one pairing of rows and columns (Kuhn–Munkres).

    Among pairings of equal total weight, the one whose paired plural entities share the most
    mentions (``shared``, at most ``bound`` in total): the weights are compared to 10⁻⁹, then
    the shared mentions decide. Only rows and columns with some positive weight take part.
    """
    rows = np.flatnonzero(weights.any(axis=1))
    columns = np.flatnonzero(weights.any(axis=0))
    if len(rows) == 0:
        return []
    block = weights[np.ix_(rows, columns)]
    scale = float(bound + 1)
    if 1e9 * scale * min(block.shape) < 2.0**52:
        block = np.round(block * 1e9) * scale + shared[np.ix_(rows, columns)]
    chosen_rows, chosen_columns = maximum_assignment(block)
    return [(int(rows[row]), int(columns[column]))
            for row, column in zip(chosen_rows.tolist(), chosen_columns.tolist(), strict=True)]


def common_mentions(table: Contingency, key: np.ndarray, response: np.ndarray) -> np.ndarray:
    """nᵢⱼ for each pair of entities ``(key[p], response[p])`` (0 where they share no
    mention)."""
    width = max(len(table.response_sizes), 1)
    count_of = dict(zip((table.rows * width + table.columns).tolist(), table.counts.tolist(),
                        strict=True))
    return np.asarray([count_of.get(cell, 0) for cell in (key * width + response).tolist()],
                      dtype=np.int64)


def set_sizes(comparison: Comparison) -> tuple[np.ndarray, np.ndarray]:
    """Entity sizes with an accommodated set counted as one more element (§4.1):
    ``|Kᵢˢ ⊕ Kᵢᵐ| = 1 + |Kᵢᵐ|``."""
    key, response = comparison.key, comparison.response
    table = comparison.table
    key_sizes = table.key_sizes
    response_sizes = table.response_sizes
    if key.accommodated is not None:
        key_sizes = key_sizes + key.accommodated.has_set(len(key_sizes))
    if response.accommodated is not None:
        response_sizes = response_sizes + response.accommodated.has_set(len(response_sizes))
    return key_sizes, response_sizes


def tables_with_sets(comparison: Comparison,
                     alignment: SetAlignment) -> tuple[Contingency, Contingency]:
    """The document's table with accommodated sets counted in, for recall and for precision:
    sizes one larger for entities with a set, and the cell of each aligned pair increased by
    its δ term, ``recall`` or ``precision`` (``nᵢⱼ + δᵢⱼ``, Paun et al. 2023 §5.1 and §5.3).
    Counts become floats. Both tables have the same cells, in the same order."""
    table = comparison.table
    key_sizes, response_sizes = set_sizes(comparison)
    rows = np.concatenate([table.rows, alignment.key])
    columns = np.concatenate([table.columns, alignment.response])
    width = max(len(response_sizes), 1)
    cells, inverse = np.unique(rows * width + columns, return_inverse=True)
    cell_rows, cell_columns = cells // width, cells % width
    counts = table.counts.astype(np.float64)

    def with_delta(delta: str) -> Contingency:
        values = np.concatenate([counts, alignment.delta(delta)])
        return Contingency(key_sizes, response_sizes, cell_rows, cell_columns,
                           np.bincount(inverse.ravel(), weights=values, minlength=len(cells)))

    return with_delta("recall"), with_delta("precision")


def recall_side_sets(recall_side: Callable[[Contingency], tuple[float, float]]) -> SetMetric:
    """The :class:`SetMetric` of a metric whose precision is its recall with key and response
    exchanged (B³, LEA): its counts between the element entities of two sets, weighted by
    their F1, with that recall and precision as the δ terms."""
    return SetMetric(partial(_recall_precision_of_table, recall_side), prf_weight, prf_deltas)


def _recall_precision_of_table(recall_side: Callable[[Contingency], tuple[float, float]],
                               table: Contingency) -> np.ndarray:
    return recall_precision(recall_side, Comparison.from_table(table))


def prf_deltas(counts: np.ndarray) -> np.ndarray:
    """δ terms of a metric with :data:`~anascore.metrics.base.PRF_FIELDS` counts: the recall
    and the precision of the two sets."""
    recall_num, recall_den, precision_num, precision_den = counts.tolist()
    return np.array([recall_num / recall_den if recall_den else 0.0,
                     precision_num / precision_den if precision_den else 0.0])


def prf_weight(counts: np.ndarray) -> float:
    recall, precision = prf_deltas(counts).tolist()
    return 2 * recall * precision / (recall + precision) if recall + precision else 0.0

