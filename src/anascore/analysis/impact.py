"""What each kind of error costs: the response with only that kind's errors fixed, counted
again with the metrics' own code (Kummerfeld & Klein 2013's impact table, in memory).

The fixes are the paper's operations applied to the response side of a document's
comparison: *alter span* (a span error's response mention takes its key mention's tokens),
*split* (conflated: the mentions of a key entity other than the response entity's main one
leave for an entity of their own), *merge* (divided: a key entity's mentions in other
response entities join its main response entity), *remove* (extra mentions and entities)
and *introduce* (missing mentions join the main response entity of their key entity;
missing entities are added whole). "Main" is the entity holding most of the other side's
aligned mentions (ties: the earliest), as in :mod:`anascore.analysis.classification`.
The fixed response is aligned again with the same matcher and counted by every metric.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Mapping
from dataclasses import replace
from types import MappingProxyType

import numpy as np

from anascore.analysis.classification import DocumentAnalysis
from anascore.comparison.contingency import Comparison, compare_sides
from anascore.core.model import Mention
from anascore.metrics import REGISTRY
from anascore.selection.sides import Side


def _main(groups: dict[int, list[int]], order: dict[int, tuple[int, ...]]) -> int:
    return min(groups, key=lambda entity: (-len(groups[entity]),
                                           min(order[m] for m in groups[entity])))


def fixed_response(comparison: Comparison, analysis: DocumentAnalysis,
                   fixes: Collection[str]) -> Side:
    """The response side with the errors of the types in ``fixes`` fixed."""
    key, response = comparison.key, comparison.response
    key_entity = key.entity_of.tolist()
    response_entity = response.entity_of.tolist()
    partner = {r: k for k, r in analysis.pairs}
    key_partner = {k: r for k, r in analysis.pairs}
    key_tokens = {k: key.mentions[k].tokens for k in range(len(key.mentions))}
    response_tokens = {r: response.mentions[r].tokens for r in range(len(response.mentions))}
    # Main key entity of each response entity, main response entity of each key entity.
    by_response: dict[int, dict[int, list[int]]] = {}
    by_key: dict[int, dict[int, list[int]]] = {}
    for k, r in analysis.pairs:
        by_response.setdefault(response_entity[r], {}).setdefault(key_entity[k], []).append(k)
        by_key.setdefault(key_entity[k], {}).setdefault(response_entity[r], []).append(r)
    main_key = {entity: _main(groups, key_tokens) for entity, groups in by_response.items()}
    main_response = {entity: _main(groups, response_tokens) for entity, groups in by_key.items()}
    conflated, divided = "conflated_entities" in fixes, "divided_entity" in fixes

    def label(key_e: int, response_e: int) -> Hashable:
        """Where an aligned mention of key entity ``key_e`` in response entity
        ``response_e`` ends up."""
        if conflated and divided:
            return ("key", key_e)
        if divided:
            return ("response", main_response[key_e])
        if conflated and main_key[response_e] != key_e:
            return ("split", response_e, key_e)
        return ("response", response_e)

    placed: list[tuple[Hashable, Mention]] = []
    for r, mention in enumerate(response.mentions):
        e = response_entity[r]
        if r in partner:
            kept = key.mentions[partner[r]] if "span_error" in fixes else mention
            placed.append((label(key_entity[partner[r]], e), kept))
        elif e in by_response:
            if "extra_mention" not in fixes:
                placed.append((label(main_key[e], e) if conflated and divided
                               else ("response", e), mention))
        elif int(response.entity_sizes[e]) > 1:
            if "extra_entity" not in fixes:
                placed.append((("response", e), mention))
        elif "extra_mention" not in fixes:
            placed.append((("response", e), mention))
    for k, mention in enumerate(key.mentions):
        if k in key_partner:
            continue
        e = key_entity[k]
        if e in by_key:
            if "missing_mention" in fixes:
                placed.append((label(e, main_response[e]), mention))
        elif int(key.entity_sizes[e]) > 1:
            if "missing_entity" in fixes:
                placed.append((("missing", e), mention))
        elif "missing_mention" in fixes:
            placed.append((("missing", e), mention))
    seen: set[tuple[int, ...]] = set()
    labels: dict[Hashable, int] = {}
    mentions: list[Mention] = []
    entity_of: list[int] = []
    for where, mention in sorted(placed, key=lambda item: item[1].tokens):
        if mention.tokens in seen:
            continue
        seen.add(mention.tokens)
        mentions.append(mention)
        entity_of.append(labels.setdefault(where, len(labels)))
    return Side(tuple(f"fixed{index}" for index in range(len(labels))), tuple(mentions),
                np.asarray(entity_of, dtype=np.int64),
                np.bincount(np.asarray(entity_of, dtype=np.int64),
                            minlength=len(labels)).astype(np.int64),
                document=response.document)


def fixed_comparison(comparison: Comparison, analysis: DocumentAnalysis,
                     fixes: Collection[str]) -> Comparison:
    """The comparison of one layer with ``fixes`` applied to its response, aligned again."""
    response = fixed_response(comparison, analysis, fixes)
    return compare_sides(comparison.key, response, comparison.options, comparison.rules)


def fixed_counts(comparison: Comparison, analyses: Mapping[str, DocumentAnalysis],
                 fixes: Collection[str], metrics: Collection[str]) -> dict[str, np.ndarray]:
    """Every metric's counts for the document with ``fixes`` applied to the response of every
    classified layer (``analyses`` by layer: ``identity`` and the entity layers scored)."""
    layers = {layer: fixed_comparison(layer_comparison, analyses[layer], fixes)
              for layer, layer_comparison in comparison.layers.items()}
    fixed = replace(fixed_comparison(comparison, analyses["identity"], fixes),
                    layers=MappingProxyType(layers))
    options = comparison.options
    if options.keep_non_referring or options.keep_bridging:
        # The identity fixes rebuild the response's entities; its non-referring markables
        # and bridging links come along, with their own errors fixed as asked.
        from anascore.analysis.non_entity_layers import fix_layers

        fixed = replace(fixed, response=fix_layers(fixed.response, comparison, fixes))
    return {name: REGISTRY[name].count(fixed) for name in metrics}
