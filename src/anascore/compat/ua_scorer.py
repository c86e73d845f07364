"""Every departure ``compat="ua"`` reproduces: the UA scorer 2.0's and the CorefUD scorer
1.2's conventions, where they are deterministic.

This module is the list in ``docs/differences-ua.md``, section "What ``compat="ua"``
reproduces", in its order and under its names (U1 … U16); each entry says where the default
path calls it (the :class:`~anascore.compat.Conventions` hook) and where the difference is
explained. :class:`UAConventions` at the end plugs them into those hooks. anascore's default
path holds none of them.

Scoring conventions (``docs/differences-ua.md``):

U1. BLANC when the key lacks a kind of link — :func:`score_blanc_ua`
U2. Repeated mentions — :func:`keeps_every_copy`, :func:`copies_as_sets`,
    :func:`warn_copies_kept`, :func:`repeated_mentions_comparison`
U3. MIN matching: the response's MIN, and ties — :func:`align_min_ua`
U4. Non-referring markables matched exactly — :data:`NON_REFERRING_MATCH`
U5. Non-referring: the first markable of each pseudo-entity —
    :func:`first_markable_of_each_pseudo_entity`
U6. Bridging: an anaphor with two anchors keeps the last — :func:`last_link_of_each_anaphor`
U7. Bridging matched exactly — :data:`BRIDGING_MATCH`
U8. Bridging: the entity test — :func:`bridging_entity_test`

Split antecedents (``docs/split-antecedents.md``, "Differences from the UA scorer 2.0"):

U9.  CEAF δ is the sets' F1 — :func:`ceaf_sets_ua`
U10. BLANC aligns each kind of link on its own F1 — :data:`BLANC_SETS_UA`
U11. BLANC credits an unaligned key set equal to a response set — :func:`equal_sets`
U12. Split-only BLANC averages the kinds the main evaluation has — :func:`split_only_blanc_ua`
U13. Ties between set alignments — :func:`set_pairs_ua`

The CorefUD scorer (``docs/differences-corefud.md``, "Deliberate differences"):

U14. Ties between equally good pairings: the whole matrix — :func:`whole_matrix_pairs`
U15. The zero score's counterparts — :func:`identical_counterparts`
U16. Zeros removed after singletons — :attr:`UAConventions.zeros_removed_after_singletons`
U17. A head the file does not give is the mention's first position — :func:`first_word_heads`
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np

from anascore.comparison.contingency import Comparison, Contingency, links
from anascore.compat import Conventions
from anascore.config.options import ENTITY_LAYERS, Options
from anascore.core.assignment import maximum_assignment
from anascore.core.float_sums import sum_in_order
from anascore.core.model import BridgingLink, Document, Entity, Mention
from anascore.matching.exact import Alignment, Matcher, align_exact
from anascore.matching.min_span import candidate_pairs, unaligned_in_order, with_pairs
from anascore.matching.optimal import Pairing, best_pairs
from anascore.metrics.base import Metric
from anascore.metrics.blanc import blanc_of_sets
from anascore.metrics.scores import BlancScore, Score, ScoreArrays, f1_scores, ratios
from anascore.metrics.set_comparison import ElementTables, SetMetric
from anascore.metrics.split_antecedents import prf_weight, set_sizes
from anascore.selection.accommodated_sets import AccommodatedSets
from anascore.selection.sides import Side

# ---------------------------------------------------------------------------------------
# U1. BLANC when the key lacks a kind of link (docs/differences-ua.md, section of that name;
# reference cases M3, M6, N3, N6). Hook: Conventions.metric.
#
# Each half of BLANC (coreference links, non-coreference links) is scored when the key *or
# the response* has links of that kind; the combined values average the halves scored, and
# are 0 when neither is. v8.01 (anascore's default) scores a half only when the key has
# links of that kind: with a key of one entity and a response that splits it, v8.01 reports
# the coreference half, the UA scorer the mean of it and a zero half.
# ---------------------------------------------------------------------------------------


def _mean_of_halves(coref: Score, non_coref: Score, scored: tuple[bool, bool]) -> BlancScore:
    halves = [half for half, counted in zip((coref, non_coref), scored, strict=True)
              if counted]
    if not halves:
        return BlancScore(0.0, 0.0, 0.0, coref, non_coref)
    count = len(halves)
    return BlancScore(sum_in_order(half.recall for half in halves) / count,
                      sum_in_order(half.precision for half in halves) / count,
                      sum_in_order(half.f1 for half in halves) / count, coref, non_coref)


def score_blanc_ua(counts: np.ndarray) -> BlancScore:
    """BLANC's score from its eight counts, halves scored as the UA scorer scores them."""
    coref = Score.from_counts(*(float(value) for value in counts[:4]))
    non_coref = Score.from_counts(*(float(value) for value in counts[4:8]))
    return _mean_of_halves(coref, non_coref, (bool(counts[1] > 0 or counts[3] > 0),
                                              bool(counts[5] > 0 or counts[7] > 0)))


def score_blanc_ua_batch(counts: np.ndarray) -> ScoreArrays:
    """:func:`score_blanc_ua` of every row of a resamples × fields matrix (the same
    operations, so the same digits)."""
    return _mean_of_halves_batch(counts, [(counts[:, 1] > 0) | (counts[:, 3] > 0),
                                          (counts[:, 5] > 0) | (counts[:, 7] > 0)])


def _mean_of_halves_batch(counts: np.ndarray, scored: list[np.ndarray]) -> ScoreArrays:
    recalls, precisions, f1s = [], [], []
    for start in (0, 4):
        recall = ratios(counts[:, start], counts[:, start + 1])
        precision = ratios(counts[:, start + 2], counts[:, start + 3])
        recalls.append(recall)
        precisions.append(precision)
        f1s.append(f1_scores(recall, precision))
    count = scored[0].astype(np.int64) + scored[1]

    def mean(values: list[np.ndarray]) -> np.ndarray:
        total = np.where(scored[0], values[0], 0.0) + np.where(scored[1], values[1], 0.0)
        return ratios(total, count)

    return ScoreArrays(mean(recalls), mean(precisions), mean(f1s))


# ---------------------------------------------------------------------------------------
# U2. Repeated mentions (docs/differences-ua.md, section of that name). Hooks:
# Conventions.keeps_every_copy, copies_as_sets, warn_copies_kept (anascore.selection.sides) and
# Conventions.comparison (anascore.scoring.document.compare_layer).
#
# The UA scorer keeps every copy of a span in its entity and finds a mention's partner
# entity through a dictionary from spans to entities, filled entity after entity, so that a
# span in several entities points to the *last* of them (in the order entities first appear
# in the file). Its metrics then read, for each copy:
#
# * recall of MUC, B³, LEA and BLANC (and BLANC's precision numerators): key copies against
#   the response entity that owns their span — the table c[i, j] = copies in key entity i
#   whose span the response's entity j owns;
# * precision of MUC, B³ and LEA: response copies against the key entity that owns their
#   span — d[i, j] = copies in response entity j whose span the key's entity i owns;
# * CEAF: for each pair of entities, the key copies whose span the response entity contains
#   — e[i, j] (one table for recall and precision).
#
# Entity sizes count copies. With no repeated span the three tables are the ordinary
# contingency table; with repeated spans repeated_mentions_comparison builds them, and the
# metrics read d and e through Comparison.precision_table and Comparison.assignment_table.
# Only UA files with exact matching keep every copy: the CorefUD scorer's CoNLL-2012 and
# CoNLL-U readers keep one (its values for the reference case A7 in both formats are the
# one-copy values), and MIN matching de-duplicates as by default.
# ---------------------------------------------------------------------------------------


def keeps_every_copy(document: Document, options: Options) -> bool:
    """Whether the UA scorer keeps every copy of a repeated span of ``document``."""
    return options.match == "exact" and document.source_format == "ua"


def copies_as_sets(entities: list[Entity]) -> list[Entity]:
    """With split antecedents on, the UA scorer turns each entity into a set: copies of a
    span within one entity (also one merged from entities accommodating the same set) are
    one mention."""
    return [replace(entity, mentions=tuple({mention.tokens: mention
                                            for mention in entity.mentions}.values()))
            for entity in entities]


def warn_copies_kept(entities: list[Entity], document: Document, role: str,
                     warnings: list[str]) -> None:
    """One warning per repeated span of a side that keeps every copy."""
    spans = [mention.tokens for entity in entities for mention in entity.mentions]
    if len(set(spans)) == len(spans):
        return
    counts: dict[tuple[int, ...], int] = {}
    for span in spans:
        counts[span] = counts.get(span, 0) + 1
    for span, count in counts.items():
        if count > 1:
            warnings.append(f"{document.path or role}: document {document.name!r}: {role} "
                            f"mention {Mention(span)} annotated {count} times; every copy "
                            "kept, as the UA scorer keeps them (compat=ua)")


def has_repeated_spans(side: Side) -> bool:
    return len({mention.tokens for mention in side.mentions}) != len(side.mentions)


def repeated_mentions_comparison(key: Side, response: Side, options: Options,
                                 rules: Conventions) -> Comparison | None:
    """The comparison of two sides holding repeated spans, in the UA scorer's counting
    (``None`` when neither side repeats a span: the ordinary comparison is the same); it
    carries ``rules`` on to the metrics."""
    if not has_repeated_spans(key) and not has_repeated_spans(response):
        return None
    key_owner = _owners(key)
    response_owner = _owners(response)
    response_entities_of: dict[tuple[int, ...], set[int]] = defaultdict(set)
    for mention, entity in zip(response.mentions, response.entity_of.tolist(), strict=True):
        response_entities_of[mention.tokens].add(entity)
    by_key: dict[tuple[int, int], int] = defaultdict(int)
    by_response: dict[tuple[int, int], int] = defaultdict(int)
    by_membership: dict[tuple[int, int], int] = defaultdict(int)
    for mention, entity in zip(key.mentions, key.entity_of.tolist(), strict=True):
        owner = response_owner.get(mention.tokens)
        if owner is not None:
            by_key[entity, owner] += 1
        for member in response_entities_of.get(mention.tokens, ()):
            by_membership[entity, member] += 1
    for mention, entity in zip(response.mentions, response.entity_of.tolist(), strict=True):
        owner = key_owner.get(mention.tokens)
        if owner is not None:
            by_response[owner, entity] += 1
    key_sizes, response_sizes = key.entity_sizes.tolist(), response.entity_sizes.tolist()
    return Comparison(
        key, response, _copies_in_order(key, response),
        Contingency.from_cells(key_sizes, response_sizes, dict(by_key)), options,
        response_table=Contingency.from_cells(key_sizes, response_sizes, dict(by_response)),
        assignment_table=Contingency.from_cells(key_sizes, response_sizes,
                                                dict(by_membership)), rules=rules)


def _owners(side: Side) -> dict[tuple[int, ...], int]:
    """Span → the last entity (in file order) holding it: the UA scorer's span dictionary
    (also U8's)."""
    owners: dict[tuple[int, ...], int] = {}
    for mention, entity in zip(side.mentions, side.entity_of.tolist(), strict=True):
        owners[mention.tokens] = max(entity, owners.get(mention.tokens, -1))
    return owners


def _copies_in_order(key: Side, response: Side) -> Alignment:
    """A one-to-one alignment for readers of ``Comparison.alignment``: the n-th copy of a
    span in the key with its n-th copy in the response."""
    waiting: dict[tuple[int, ...], list[int]] = defaultdict(list)
    for index, mention in enumerate(response.mentions):
        waiting[mention.tokens].append(index)
    pairs = []
    for index, mention in enumerate(key.mentions):
        copies = waiting.get(mention.tokens)
        if copies:
            pairs.append((index, copies.pop(0)))
    return Alignment(np.array([k for k, _ in pairs], dtype=np.int64),
                     np.array([r for _, r in pairs], dtype=np.int64))


# ---------------------------------------------------------------------------------------
# U3. MIN matching: the response's MIN, and ties (docs/differences-ua.md, "MIN matching").
# Hook: Conventions.matcher("min").
#
# The UA scorer also accepts a response mention that *contains* the key mention when the key
# mention covers the response's own MIN (it tries the key's MIN first, then the
# response's), and solves one dense assignment over all mentions left
# (scipy.optimize.linear_sum_assignment on mentions sorted by start, end and length, file
# order after that), which decides ties its way.
# ---------------------------------------------------------------------------------------


def align_min_ua(key: Sequence[Mention], response: Sequence[Mention]) -> Alignment:
    """MIN matching exactly as the UA scorer 2.0 computes it."""
    exact = align_exact(key, response)
    key_left = unaligned_in_order(len(key), exact.key, key, by_tokens=False)
    response_left = unaligned_in_order(len(response), exact.response, response, by_tokens=False)
    edges = candidate_pairs(key, response, key_left, response_left, symmetric=True)
    if not edges:
        return exact
    row_of = {index: row for row, index in enumerate(key_left)}
    column_of = {index: column for column, index in enumerate(response_left)}
    worth = np.zeros((len(key_left), len(response_left)))
    for key_index, response_index, value in edges:
        worth[row_of[key_index], column_of[response_index]] = value
    rows, columns = maximum_assignment(worth)
    chosen = worth[rows, columns] > 0
    pairs = [(key_left[row], response_left[column])
             for row, column in zip(rows[chosen].tolist(), columns[chosen].tolist(), strict=True)]
    return with_pairs(exact, pairs)


# ---------------------------------------------------------------------------------------
# U4. Non-referring markables matched exactly (even with MIN matching on;
# docs/differences-ua.md, "Non-referring markables"). Hook: Conventions.non_referring_match.
# ---------------------------------------------------------------------------------------

NON_REFERRING_MATCH = "exact"


# ---------------------------------------------------------------------------------------
# U5. Non-referring: the first markable of each pseudo-entity (docs/differences-ua.md,
# "Non-referring markables"). Hook: Conventions.non_referring_markables (selection).
# ---------------------------------------------------------------------------------------


def first_markable_of_each_pseudo_entity(markables: tuple[Mention, ...]) -> tuple[Mention, ...]:
    """The UA scorer keeps one markable (the first) of each pseudo-entity."""
    firsts: dict[str, Mention] = {}
    for mention in markables:
        firsts.setdefault(mention.attributes.get("EntityID", str(mention)), mention)
    return tuple(firsts.values())


# ---------------------------------------------------------------------------------------
# U6. Bridging: an anaphor with two anchors keeps the last (docs/differences-ua.md,
# "Bridging"). Hook: Conventions.bridging_links (selection).
# ---------------------------------------------------------------------------------------


def last_link_of_each_anaphor(links: tuple[BridgingLink, ...]) -> tuple[BridgingLink, ...]:
    """The UA scorer keeps one link per anaphor span: the last one written."""
    last: dict[tuple[int, ...], BridgingLink] = {}
    for link in links:
        last.pop(link.anaphor.tokens, None)
        last[link.anaphor.tokens] = link
    return tuple(last.values())


# ---------------------------------------------------------------------------------------
# U7. Bridging matched exactly (anaphors and anchors, even with MIN matching on;
# docs/differences-ua.md, "Bridging"). Hook: Conventions.bridging_match.
# ---------------------------------------------------------------------------------------

BRIDGING_MATCH = "exact"


# ---------------------------------------------------------------------------------------
# U8. Bridging: the entity test (docs/differences-ua.md, "Bridging"). Hook:
# Conventions.bridging_entity_test.
#
# The UA scorer credits an entity anchor when the response's anchor mention and the key's
# are found in the same key entity by its span dictionary (the last entity holding a span,
# U2's _owners). It differs from anascore's test only with repeated spans. Links without
# an anchor mention (which the UA scorer cannot read) are left to anascore's test.
# ---------------------------------------------------------------------------------------


def bridging_entity_test(comparison: Comparison) -> Callable[
        [BridgingLink, BridgingLink], bool | None]:
    owner = _owners(comparison.key)

    def same_entity(key: BridgingLink, response: BridgingLink) -> bool | None:
        if key.antecedent is None or response.antecedent is None:
            return None
        if key.antecedent.tokens == response.antecedent.tokens:
            return True
        entity = owner.get(key.antecedent.tokens)
        return entity is not None and owner.get(response.antecedent.tokens) == entity

    return same_entity


# ---------------------------------------------------------------------------------------
# U9. CEAF δ is the sets' F1 (split antecedents): the F1 of the two sets on both sides, so
# one entity assignment serves recall and precision (docs/split-antecedents.md, difference
# 1). Hook: Conventions.set_metrics("ceafm" / "ceafe").
# ---------------------------------------------------------------------------------------


def f1_deltas(counts: np.ndarray) -> np.ndarray:
    """δ terms as the UA scorer computes them for CEAF: the F1 of the two sets on both
    sides."""
    value = prf_weight(counts)
    return np.array([value, value])


def ceaf_sets_ua(metric: SetMetric) -> SetMetric:
    """CEAF's comparison of sets (anascore's ``metric``) with the UA scorer's δ."""
    return replace(metric, deltas=f1_deltas)


# ---------------------------------------------------------------------------------------
# U10. BLANC aligns each kind of link on its own F1 (split antecedents), δ = that F1 on both
# sides (docs/split-antecedents.md, difference 2). Hook: Conventions.set_metrics("blanc").
# U11. BLANC credits an unaligned key set equal to a response set (split antecedents): δ = 1,
# even when that response set is aligned with another key set (difference 4): the
# SetMetrics' ``also_credited``.
# ---------------------------------------------------------------------------------------


def equal_sets(tables: ElementTables, unaligned_key: list[int]) -> list[tuple[int, int]]:
    """The pairs of an unaligned key set and a response set equal to it (each element of one
    has exactly the mentions of an element of the other)."""
    waiting = set(unaligned_key)
    return [(key, response) for key, response in tables.overlapping
            if key in waiting and tables.identical(key, response)]


BLANC_SETS_UA = (
    SetMetric(blanc_of_sets, lambda counts: prf_weight(counts[:4]),
              lambda counts: np.full(2, prf_weight(counts[:4])),
              ("coref_recall", "coref_precision"), part="coref_links",
              split_fields=slice(0, 4), also_credited=equal_sets),
    SetMetric(blanc_of_sets, lambda counts: prf_weight(counts[4:8]),
              lambda counts: np.full(2, prf_weight(counts[4:8])),
              ("non_coref_recall", "non_coref_precision"), part="non_coref_links",
              split_fields=slice(4, 8), also_credited=equal_sets),
)


# ---------------------------------------------------------------------------------------
# U12. Split-only BLANC averages the kinds the main evaluation has (only_split_antecedents):
# a kind of link is averaged in whenever the main evaluation (every document, split
# antecedents kept) has links of that kind, a kind with no split-antecedent link counting 0
# (docs/differences-ua.md, "BLANC of split antecedents only"; docs/split-antecedents.md,
# difference 5). A perfect response whose sets
# have one element each (no non-coreference link between their elements) scores 1/2.
# Hook: Conventions.metric("blanc"): two more count fields, the main evaluation's links of
# each kind (key and response together), so that the decision stays a sum over documents.
# ---------------------------------------------------------------------------------------

MAIN_LINK_FIELDS = ("main_coref_links", "main_non_coref_links")


def main_link_counts(comparison: Comparison) -> np.ndarray:
    """Coreference and non-coreference links of key and response together, an accommodated
    set counted as one more mention of its entity (the main evaluation's denominators)."""
    coref = non_coref = 0
    for sizes in set_sizes(comparison):
        side_coref = int(links(sizes).sum())
        coref += side_coref
        non_coref += int(links(np.array(sizes.sum()))) - side_coref
    return np.array([coref, non_coref], dtype=np.float64)


def split_only_blanc_ua(counts: np.ndarray) -> BlancScore:
    """The split-only BLANC score from the eight split counts and :data:`MAIN_LINK_FIELDS`."""
    coref = Score.from_counts(*(float(value) for value in counts[:4]))
    non_coref = Score.from_counts(*(float(value) for value in counts[4:8]))
    return _mean_of_halves(coref, non_coref, (bool(counts[8] > 0), bool(counts[9] > 0)))


def split_only_blanc_ua_batch(counts: np.ndarray) -> ScoreArrays:
    """:func:`split_only_blanc_ua` of every row of a resamples × fields matrix."""
    return _mean_of_halves_batch(counts, [counts[:, 8] > 0, counts[:, 9] > 0])


def _split_only_blanc_metric(metric: Metric, layer: str) -> Metric:
    def count(comparison: Comparison) -> np.ndarray:
        main = comparison.layers[layer] if layer else comparison
        return np.concatenate([metric.count(comparison), main_link_counts(main)])

    return replace(metric, fields=(*metric.fields, *MAIN_LINK_FIELDS), count=count,
                   score=split_only_blanc_ua, score_batch=split_only_blanc_ua_batch)


# ---------------------------------------------------------------------------------------
# U13. Ties between set alignments (split antecedents; docs/split-antecedents.md,
# difference 6): scipy's choice on the whole F1 matrix, sets in the UA scorer's order (file
# order, approximated by each holding entity's first markable). Hook: Conventions.set_pairs.
# ---------------------------------------------------------------------------------------


def _ua_order(side: Side, sets: AccommodatedSets | None) -> np.ndarray:
    """The order in which the UA scorer lists a side's sets: by the first markable of the
    entity holding each in the file (earliest start, the longer first)."""
    if sets is None:
        return np.zeros(0, dtype=np.int64)
    first = []
    for holder in sets.holders.tolist():
        mentions = np.flatnonzero(side.entity_of == holder).tolist()
        first.append(min((side.mentions[k].start, -side.mentions[k].end) for k in mentions))
    return np.asarray(sorted(range(len(first)), key=first.__getitem__), dtype=np.int64)


def set_pairs_ua(comparison: Comparison, tables: ElementTables,
                 weights: np.ndarray) -> list[tuple[int, int]]:
    """The pairing the UA scorer 2.0 makes, ties included: scipy's assignment on the whole
    matrix, its rows and columns in the UA scorer's order."""
    if weights.size == 0:
        return []
    key_order = _ua_order(comparison.key, tables.key_sets)
    response_order = _ua_order(comparison.response, tables.response_sets)
    rows, columns = maximum_assignment(weights[np.ix_(key_order, response_order)])
    return [(int(key_order[row]), int(response_order[column]))
            for row, column in zip(rows.tolist(), columns.tolist(), strict=True)]


# ---------------------------------------------------------------------------------------
# U14. Ties between equally good pairings: the whole matrix (head, partial and dependent-zero
# matching; docs/differences-corefud.md, "Ties between equally good pairings"), as the
# CorefUD scorer solves it. Hook: Conventions.mention_pairing.
# ---------------------------------------------------------------------------------------

#: Above this many key × response cells, :func:`whole_matrix_pairs` falls back to
#: anascore's components.
WHOLE_MATRIX_LIMIT = 16_000_000


def whole_matrix_pairs(scores: dict[tuple[int, int], float], key_rank: dict[int, int],
                       response_rank: dict[int, int]) -> list[tuple[int, int]]:
    """One matrix over every ranked key and response mention, zero cells included, solved
    by ``linear_sum_assignment`` exactly as the CorefUD scorer does: where several pairings
    score the same, this does not always choose the one the scorer's documented rule
    (earlier mentions first) chooses, and only the same matrix reproduces its choice."""
    if not scores:
        return []
    if len(key_rank) * len(response_rank) > WHOLE_MATRIX_LIMIT:
        return best_pairs(scores, key_rank, response_rank)
    keys = sorted(key_rank, key=key_rank.__getitem__)
    responses = sorted(response_rank, key=response_rank.__getitem__)
    matrix = np.zeros((len(keys), len(responses)))
    for (key, response), score in scores.items():
        matrix[key_rank[key], response_rank[response]] = score
    rows, columns = maximum_assignment(matrix)
    return [(keys[row], responses[column]) for row, column in
            zip(rows.tolist(), columns.tolist(), strict=True) if matrix[row, column] > 0]


# ---------------------------------------------------------------------------------------
# U15. The zero score's counterparts (docs/differences-corefud.md, section of that name):
# the response mention identical to a key mention, when there is one, before its aligned
# one. Hook: Conventions.zero_counterparts.
# ---------------------------------------------------------------------------------------


def identical_counterparts(comparison: Comparison) -> dict[int, int]:
    """Key mention → the response mention identical to it (same positions, and the same
    head under head matching): the CorefUD scorer's ``als_zeros`` takes that one as the
    counterpart before the aligned one. The two differ only when the dependent zero step
    paired the key zero with another response zero of the same head."""
    with_heads = comparison.options.match == "head"

    def identity(mention: Mention) -> tuple:
        if with_heads:
            return mention.tokens, mention.tokens[0] if mention.head is None else mention.head
        return (mention.tokens,)

    response_of = {identity(mention): index
                   for index, mention in enumerate(comparison.response.mentions)}
    return {index: response_of[identity(mention)]
            for index, mention in enumerate(comparison.key.mentions)
            if identity(mention) in response_of}


# ---------------------------------------------------------------------------------------
# U16. Zeros removed after singletons (keep_zeros=False; docs/differences-corefud.md, "Zeros
# removed before singletons"): an entity of one overt mention and one zero is kept, as a
# singleton. UAConventions.zeros_removed_after_singletons (anascore.selection.sides).
# ---------------------------------------------------------------------------------------
# ---------------------------------------------------------------------------------------


# U17. A head the file does not give is the mention's first position (docs/
# differences-corefud.md, "Heads the file does not give"). Udapi, which the CorefUD scorer
# reads files with, makes a mention's first word its head when the Entity annotation gives
# none; anascore works it out of the dependency tree (formats/corefud.py). Hook:
# Conventions.document.


def first_word_heads(document: Document) -> Document:
    """``document`` with every mention of ``heads_not_given`` headed by its first
    position."""
    if not document.heads_not_given:
        return document
    unheaded = document.heads_not_given
    made: dict[int, Mention] = {}  # one new mention per mention (an anaphor is one too)

    def headed(mention: Mention) -> Mention:
        if mention.tokens not in unheaded or mention.head == mention.tokens[0]:
            return mention
        if id(mention) not in made:
            made[id(mention)] = replace(mention, head=mention.tokens[0])
        return made[id(mention)]

    entities = tuple(replace(entity, mentions=tuple(map(headed, entity.mentions)))
                     for entity in document.entities)
    bridging = tuple(replace(link, anaphor=headed(link.anaphor)) for link in document.bridging)
    return replace(document, entities=entities, bridging=bridging, heads_not_given=frozenset())


class UAConventions(Conventions):
    """The hooks of :class:`~anascore.compat.Conventions`, answered with U1 … U16."""

    name = "ua"
    zeros_removed_after_singletons = True  # U16

    def document(self, document: Document) -> Document:  # U17
        return first_word_heads(document)

    def metric(self, name: str, metric: Metric, options: Options) -> Metric:
        layer, _, base = name.rpartition(".")
        if base != "blanc" or (layer and layer not in ENTITY_LAYERS):
            return metric
        if options.only_split_antecedents:  # U12
            return _split_only_blanc_metric(metric, layer)
        return replace(metric, score=score_blanc_ua, score_batch=score_blanc_ua_batch)  # U1

    def keeps_every_copy(self, document: Document, options: Options) -> bool:  # U2
        return keeps_every_copy(document, options)

    def copies_as_sets(self, entities: list[Entity]) -> list[Entity]:  # U2
        return copies_as_sets(entities)

    def warn_copies_kept(self, entities: list[Entity], document: Document, role: str,
                         warnings: list[str]) -> None:  # U2
        warn_copies_kept(entities, document, role, warnings)

    def comparison(self, key: Side, response: Side, options: Options) -> Comparison | None:
        return repeated_mentions_comparison(key, response, options, self)  # U2

    def matcher(self, match: str) -> Matcher | None:
        return align_min_ua if match == "min" else None  # U3

    def non_referring_match(self, options: Options) -> str:
        return NON_REFERRING_MATCH  # U4

    def non_referring_markables(self, markables: tuple[Mention, ...]) -> tuple[Mention, ...]:
        return first_markable_of_each_pseudo_entity(markables)  # U5

    def bridging_links(self, links: tuple[BridgingLink, ...]) -> tuple[BridgingLink, ...]:
        return last_link_of_each_anaphor(links)  # U6

    def bridging_match(self, options: Options) -> str:
        return BRIDGING_MATCH  # U7

    def bridging_entity_test(self, comparison: Comparison) -> Callable[
            [BridgingLink, BridgingLink], bool | None] | None:
        return bridging_entity_test(comparison)  # U8

    def set_metrics(self, name: str, metrics: tuple[SetMetric, ...]) -> tuple[SetMetric, ...]:
        if name in ("ceafm", "ceafe"):
            return tuple(ceaf_sets_ua(metric) for metric in metrics)  # U9
        if name == "blanc":
            return BLANC_SETS_UA  # U10, U11
        return metrics

    def set_pairs(self, comparison: Comparison, tables: ElementTables,
                  weights: np.ndarray) -> list[tuple[int, int]] | None:
        return set_pairs_ua(comparison, tables, weights)  # U13

    def mention_pairing(self) -> Pairing | None:
        return whole_matrix_pairs  # U14

    def zero_counterparts(self, comparison: Comparison,
                          counterpart: dict[int, int]) -> dict[int, int]:
        return {**counterpart, **identical_counterparts(comparison)}  # U15


CONVENTIONS = UAConventions()
