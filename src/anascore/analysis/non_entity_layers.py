"""Errors of the Universal Anaphora layers that are not entities: non-referring markables and
bridging links (categories of anascore's own: Kummerfeld & Klein 2013 classify identity
entities only).

Each category is read off the metric's own judgement (:func:`anascore.metrics.
non_referring.non_referring_pairs`, :func:`anascore.metrics.bridging.bridging_verdicts`), so
an error is exactly what the score counts against the response, and fixing every error of a
layer gives that layer's metric 100:

* ``missing_non_referring`` — a key non-referring markable the response does not mark
  non-referring (fix: the response marks it);
* ``extra_non_referring`` — a response non-referring markable the key does not have (fix:
  removed);
* ``missing_bridging`` — a key bridging anaphor the response has no link for (fix: the key's
  links are added);
* ``extra_bridging`` — a response bridging anaphor the key does not have (fix: its links are
  removed);
* ``wrong_bridging_anchor`` — an anaphor both sides have, whose response links miss the key's
  anchor entity: one error per key link not resolved (fix: the response's links of that
  anaphor become the key's).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import replace
from types import MappingProxyType

from anascore.analysis.classification import ClassifiedError, DocumentAnalysis
from anascore.comparison.contingency import Comparison
from anascore.core.model import BridgingLink, Mention
from anascore.selection.sides import Side

NON_REFERRING_ERRORS = ("missing_non_referring", "extra_non_referring")
BRIDGING_ERRORS = ("missing_bridging", "extra_bridging", "wrong_bridging_anchor")
#: The layer setting each group of categories needs.
LAYER_ERRORS = {"keep_non_referring": ("non_referring", NON_REFERRING_ERRORS),
                "keep_bridging": ("bridging", BRIDGING_ERRORS)}


def classify_non_referring(name: str, comparison: Comparison) -> DocumentAnalysis:
    from anascore.metrics.non_referring import non_referring_pairs

    key, response, pairs = non_referring_pairs(comparison)
    found_key = {k for k, _ in pairs}
    found_response = {r for _, r in pairs}
    errors = [ClassifiedError(name, "missing_non_referring", "non_referring",
                              (mention.tokens,), (), (), ())
              for index, mention in enumerate(key) if index not in found_key]
    errors += [ClassifiedError(name, "extra_non_referring", "non_referring", (),
                               (mention.tokens,), (), ())
               for index, mention in enumerate(response) if index not in found_response]
    return DocumentAnalysis(name, tuple(sorted(pairs)), tuple(errors), "non_referring")


def _anchor_tokens(links: Sequence[BridgingLink]) -> tuple[tuple[int, ...], ...]:
    return tuple(link.antecedent.tokens for link in links if link.antecedent is not None)


def _anchor_entities(links: Sequence[BridgingLink]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(link.antecedent_entity for link in links
                               if link.antecedent_entity))


def classify_bridging(name: str, comparison: Comparison) -> DocumentAnalysis:
    from anascore.metrics.bridging import bridging_verdicts

    verdicts = bridging_verdicts(comparison)
    errors: list[ClassifiedError] = []
    aligned_key = {k for k, _ in verdicts.pairs}
    aligned_response = {r for _, r in verdicts.pairs}
    for index, group in enumerate(verdicts.key_groups):
        if index not in aligned_key:
            errors.append(ClassifiedError(name, "missing_bridging", "bridging",
                                          (group[0].anaphor.tokens, *_anchor_tokens(group)),
                                          (), _anchor_entities(group), ()))
    for index, group in enumerate(verdicts.response_groups):
        if index not in aligned_response:
            errors.append(ClassifiedError(name, "extra_bridging", "bridging", (),
                                          (group[0].anaphor.tokens, *_anchor_tokens(group)),
                                          (), _anchor_entities(group)))
    for (k, r), correct in zip(verdicts.pairs, verdicts.entity_correct, strict=True):
        key_group, response_group = verdicts.key_groups[k], verdicts.response_groups[r]
        for _ in range(len(key_group) - correct):
            errors.append(ClassifiedError(
                name, "wrong_bridging_anchor", "bridging",
                (key_group[0].anaphor.tokens, *_anchor_tokens(key_group)),
                (response_group[0].anaphor.tokens, *_anchor_tokens(response_group)),
                _anchor_entities(key_group), _anchor_entities(response_group)))
    return DocumentAnalysis(name, tuple(sorted(verdicts.pairs)), tuple(errors), "bridging")


def fix_layers(fixed: Side, comparison: Comparison, fixes: Collection[str]) -> Side:
    """``fixed`` (the response side after the identity fixes) with the response's
    non-referring markables and bridging links, and the layer errors in ``fixes`` fixed."""
    response, key = comparison.response, comparison.key
    non_referring: list[Mention] = list(response.non_referring)
    if fixes and set(fixes) & set(NON_REFERRING_ERRORS):
        from anascore.metrics.non_referring import non_referring_pairs

        key_markables, response_markables, pairs = non_referring_pairs(comparison)
        found_key = {k for k, _ in pairs}
        found_response = {r for _, r in pairs}
        if "extra_non_referring" in fixes:
            dropped = {response_markables[r].tokens for r in range(len(response_markables))
                       if r not in found_response}
            non_referring = [mention for mention in non_referring
                             if mention.tokens not in dropped]
        if "missing_non_referring" in fixes:
            non_referring += [mention for index, mention in enumerate(key_markables)
                              if index not in found_key]
    bridging: list[BridgingLink] = list(response.bridging)
    anchors = dict(response.anchor_mentions)
    if fixes and set(fixes) & set(BRIDGING_ERRORS):
        from anascore.metrics.bridging import bridging_verdicts

        verdicts = bridging_verdicts(comparison)
        aligned_key = {k: r for k, r in verdicts.pairs}
        aligned_response = {r for _, r in verdicts.pairs}
        drop: set[tuple[int, ...]] = set()
        add: list[BridgingLink] = []
        if "extra_bridging" in fixes:
            drop |= {group[0].anaphor.tokens
                     for index, group in enumerate(verdicts.response_groups)
                     if index not in aligned_response}
        wrong = {k for (k, r), correct in zip(verdicts.pairs, verdicts.entity_correct,
                                              strict=True)
                 if correct < len(verdicts.key_groups[k])}
        for index, group in enumerate(verdicts.key_groups):
            if (index not in aligned_key and "missing_bridging" in fixes) or (
                    index in wrong and "wrong_bridging_anchor" in fixes):
                if index in aligned_key:
                    drop.add(verdicts.response_groups[aligned_key[index]][0].anaphor.tokens)
                for link in group:
                    # The key's anchor entity, under a name no response entity has.
                    entity = link.antecedent_entity
                    if entity is not None and entity in key.anchor_mentions:
                        anchors["\0key:" + entity] = key.anchor_mentions[entity]
                        link = replace(link, antecedent_entity="\0key:" + entity)
                    add.append(link)
        bridging = [link for link in bridging if link.anaphor.tokens not in drop] + add
    return replace(fixed, non_referring=tuple(non_referring), bridging=tuple(bridging),
                   anchor_mentions=MappingProxyType(anchors))
