"""Bridging references: anaphor recognition, and resolution to the anchor's mention or entity
(Yu et al. 2022 §4.5; the CRAC 2018 bridging scorer).

A bridging link says that an anaphor (``the door``) refers to something related to an anchor
(``the house``): a mention of the anchor (UA ``MentionAnchor``) and its entity
(``EntityAnchor``). Three recall/precision/F1 scores, each from counts that add up over
documents:

* ``anaphor_recognition`` — bridging anaphors found: key anaphors matched with response
  anaphors, over the key's (recall) and the response's (precision) anaphors;
* ``mention`` — links resolved to the annotated anchor mention (Hou et al. 2018's *mention
  evaluation*): the anaphor is found and the response's anchor mention matches the key's.
  Only links that name an anchor mention (``MentionAnchor``) are counted, on either side;
* ``entity`` — links resolved to the anchor entity (Poesio et al. 2004's *entity
  evaluation*): the anaphor is found and the response's anchor mention (or, for a response
  link that names only an entity, any mention of that entity) matches some mention of the
  key's anchor entity.

Anaphors are aligned one-to-one with the run's matching method; anchor mentions "match" when
they have the same tokens (``match="exact"``) or when the response mention lies within the key
mention and covers its MIN (``match="min"``). Mention and entity scores count links: an
anaphor annotated with two anchors has two links, and a response link is credited at most once
(a maximum matching between the two links sets of an aligned anaphor). With one link per
anaphor, as in CODI-CRAC, these are exactly the UA scorer's counts. Under ``compat="ua"`` all
matching is exact (U7), each anaphor keeps its last link (U6), and the entity test looks both
anchor mentions up among the selected key entities (a span in two entities belongs to the
last; U8), as the UA scorer does (:mod:`anascore.compat.ua_scorer`).

0/0 is not applicable, not 0: a key without bridging links has no bridging recall, and a corpus
whose links name only anchor entities (CorefUD's ``Bridge``) has no mention-level score at all
(:meth:`anascore.metrics.scores.Score.from_counts` with ``empty="n/a"``). The UA scorer prints 0 for
them; no reference suite pins such a case.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from anascore.comparison.contingency import Comparison
from anascore.config.metric_names import metric_title
from anascore.core.model import BridgingLink, Mention
from anascore.matching import MATCHERS
from anascore.matching.min_span import min_match_worth
from anascore.metrics.base import Metric
from anascore.metrics.rules import metric_rules
from anascore.metrics.scores import BridgingScore, Score, ScoreArrays, prf_arrays
from anascore.selection.sides import copy_preference

PARTS: tuple[str, ...] = ("anaphor_recognition", "mention", "entity")
FIELDS: tuple[str, ...] = tuple(
    f"{part}_{field}" for part in PARTS
    for field in ("recall_num", "recall_den", "precision_num", "precision_den"))

MentionMatch = Callable[[Mention, Mention], bool]


def _exact(key: Mention, response: Mention) -> bool:
    return key.tokens == response.tokens


def _min_span(key: Mention, response: Mention) -> bool:
    return key.tokens == response.tokens or min_match_worth(key, response) > 0


@dataclass(frozen=True)
class BridgingVerdicts:
    """How the metric judged a document's bridging links: the links of each key and response
    anaphor (``key_groups``, ``response_groups``), the aligned anaphors (``pairs`` of group
    indices), and for each pair the links resolved to the right anchor mention and entity."""

    key_groups: list[list[BridgingLink]]
    response_groups: list[list[BridgingLink]]
    pairs: list[tuple[int, int]]
    mention_correct: list[int]
    entity_correct: list[int]


def count_bridging(comparison: Comparison) -> np.ndarray:
    verdicts = bridging_verdicts(comparison)
    key_links, response_links = comparison.key.bridging, comparison.response.bridging
    found = len(verdicts.pairs)
    mention_correct, entity_correct = sum(verdicts.mention_correct), sum(verdicts.entity_correct)
    key_with_mention = len(_with_mention(key_links))
    response_with_mention = len(_with_mention(response_links))
    return np.array([found, len(verdicts.key_groups), found, len(verdicts.response_groups),
                     mention_correct, key_with_mention, mention_correct, response_with_mention,
                     entity_correct, len(key_links), entity_correct, len(response_links)],
                    dtype=np.float64)


def bridging_verdicts(comparison: Comparison) -> BridgingVerdicts:
    """Align the anaphors and judge each aligned anaphor's links (the module's rules)."""
    options = comparison.options
    rules = metric_rules(comparison)
    match = rules.bridging_match(options)
    matcher = MATCHERS[match]
    matches: MentionMatch = _exact if match == "exact" else _min_span
    key_links, response_links = comparison.key.bridging, comparison.response.bridging
    key_anaphors = _anaphors(key_links)
    response_anaphors = _anaphors(response_links)
    alignment = matcher(list(key_anaphors.values()), list(response_anaphors.values()))
    key_groups = list(_groups(key_links).values())
    entity_test = rules.bridging_entity_test(comparison)

    def same_entity(key: BridgingLink, response: BridgingLink) -> bool:
        verdict = None if entity_test is None else entity_test(key, response)
        if verdict is not None:
            return verdict
        return _same_entity(key, response, comparison.key.anchor_mentions,
                            comparison.response.anchor_mentions, matches)

    def same_mention(key: BridgingLink, response: BridgingLink) -> bool:
        # only links of _with_mention come here: both name an anchor mention
        assert key.antecedent is not None and response.antecedent is not None
        return matches(key.antecedent, response.antecedent)
    response_groups = list(_groups(response_links).values())
    pairs = list(zip(alignment.key.tolist(), alignment.response.tolist(), strict=True))
    mention_correct, entity_correct = [], []
    for key_index, response_index in pairs:
        key_group, response_group = key_groups[key_index], response_groups[response_index]
        mention_correct.append(_maximum_matching(
            _with_mention(key_group), _with_mention(response_group), same_mention))
        entity_correct.append(_maximum_matching(key_group, response_group, same_entity))
    return BridgingVerdicts(key_groups, response_groups, pairs, mention_correct,
                            entity_correct)


def _with_mention(links: Sequence[BridgingLink]) -> list[BridgingLink]:
    """The links that name an anchor mention: the only ones mention-level scoring applies to."""
    return [link for link in links if link.antecedent is not None]


def _anaphors(links: Sequence[BridgingLink]) -> dict[tuple[int, ...], Mention]:
    """Each anaphor span once, in the order of its first link. An anaphor with two links may
    be written twice with different MIN spans or heads: the copy kept is chosen by what it
    says (a MIN span first, then a head, then its other attributes: the rule by which
    selection keeps one copy of a repeated mention,
    :func:`~anascore.selection.sides.copy_preference`), so that the file's order of the links
    never changes a score."""
    copies: dict[tuple[int, ...], list[Mention]] = {}
    for link in links:
        copies.setdefault(link.anaphor.tokens, []).append(link.anaphor)
    return {tokens: min(found, key=copy_preference)
            for tokens, found in copies.items()}


def _groups(links: Sequence[BridgingLink]) -> dict[tuple[int, ...], list[BridgingLink]]:
    groups: dict[tuple[int, ...], list[BridgingLink]] = {}
    for link in links:
        groups.setdefault(link.anaphor.tokens, []).append(link)
    return groups


def _same_entity(key: BridgingLink, response: BridgingLink,
                 key_anchors: Mapping[str, tuple[Mention, ...]],
                 response_anchors: Mapping[str, tuple[Mention, ...]],
                 matches: MentionMatch) -> bool:
    """Whether the response's anchor is a mention of the key's anchor entity."""
    if key.antecedent_entity is not None and key.antecedent_entity in key_anchors:
        key_mentions: tuple[Mention, ...] = key_anchors[key.antecedent_entity]
    elif key.antecedent is not None:
        key_mentions = (key.antecedent,)
    else:
        return False
    if response.antecedent is not None:
        offered: tuple[Mention, ...] = (response.antecedent,)
    else:
        offered = response_anchors.get(response.antecedent_entity or "", ())
    return any(matches(k, r) for k in key_mentions for r in offered)


def _maximum_matching(key: list[BridgingLink], response: list[BridgingLink],
                      compatible: Callable[[BridgingLink, BridgingLink], bool]) -> int:
    """The size of a maximum one-to-one matching of compatible links (augmenting paths;
    an anaphor has one or two links)."""
    if len(key) == 1 and len(response) == 1:
        return int(compatible(key[0], response[0]))
    edges = [[j for j, r in enumerate(response) if compatible(k, r)] for k in key]
    owner: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        for j in edges[i]:
            if j not in seen:
                seen.add(j)
                if j not in owner or augment(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    return sum(augment(i, set()) for i in range(len(key)))


def score_bridging(counts: np.ndarray) -> BridgingScore:
    parts = [Score.from_counts(*(float(value) for value in counts[4 * i:4 * i + 4]),
                               empty="n/a")
             for i in range(len(PARTS))]
    return BridgingScore(*parts)


def score_bridging_batch(counts: np.ndarray) -> ScoreArrays:
    """The entity-level recall, precision and F1 (a :class:`BridgingScore`'s own) of every
    row of a resamples × fields matrix (``NaN`` for 0/0)."""
    entity = 4 * PARTS.index("entity")
    return prf_arrays(counts[:, entity:entity + 4], empty="n/a")


BRIDGING = Metric("bridging", metric_title("bridging"), FIELDS, count_bridging, score_bridging,
                  "Yu et al. 2022 §4.5; Hou et al. 2018 (mention); Poesio et al. 2004 (entity)",
                  score_batch=score_bridging_batch)
