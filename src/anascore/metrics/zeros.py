"""The anaphor-decomposable score for zeros (Žabokrtský et al. 2022, Findings of the CRAC
2022 shared task, §5): how well the response resolves zero anaphors.

Every mention of a key entity but its first (in text order) is an anaphor; only zero
mentions (headed by an empty node) are scored here. For a key zero anaphor with response
counterpart *r* (the response mention aligned with it):

* no counterpart, or *r* is the first mention of its response entity: a miss (FN);
* *r*'s entity holds none of the counterparts of the key anaphor's preceding mentions: a
  wrong link (WL);
* otherwise: correct (TP).

A response zero mention that is not the first of its entity and is nobody's counterpart is a
spurious anaphor (FP). Then

    R = TP / (TP + FN + WL)        P = TP / (TP + FP + WL)

as the CorefUD scorer's ``als_zeros`` computes it. Unlike MOR, it depends on the matching
method (through the counterparts, :meth:`anascore.metrics.rules.MetricRules.zero_counterparts`:
under ``compat="ua"`` a key mention's counterpart is the response mention identical to it when
there is one, else its aligned one, as the scorer looks it up; U15).

A corpus without zero anaphors in the key has no zero recall, and a response without zero
anaphors no zero precision: those are not applicable (``NaN``, with a reason), not 0
(:meth:`anascore.metrics.scores.Score.from_counts` with ``empty="n/a"``); the CorefUD scorer prints
0
for them, and its test suite pins no such case.
"""

from __future__ import annotations

import numpy as np

from anascore.comparison.contingency import Comparison
from anascore.config.metric_names import metric_title
from anascore.matching.optimal import mention_order
from anascore.metrics.base import PRF_FIELDS, Metric
from anascore.metrics.rules import metric_rules
from anascore.metrics.scores import Score, ScoreArrays, prf_arrays
from anascore.selection.sides import Side, zero_flags


def _entities_in_text_order(side: Side) -> list[list[int]]:
    members: list[list[int]] = [[] for _ in side.entity_sizes]
    for index, entity in enumerate(side.entity_of.tolist()):
        members[entity].append(index)
    for mentions in members:
        mentions.sort(key=lambda index: mention_order(side.mentions[index]))
    return members


def count_zero(comparison: Comparison) -> np.ndarray:
    key, response = comparison.key, comparison.response
    if ((key.nodes is None or not key.nodes.has_empty_nodes)
            and (response.nodes is None or not response.nodes.has_empty_nodes)):
        return np.zeros(4, dtype=np.float64)  # no empty node, so no zero (zero_flags)
    key_zero, response_zero = zero_flags(key), zero_flags(response)
    if not key_zero.any() and not response_zero.any():
        return np.zeros(4, dtype=np.float64)
    counterpart = dict(zip(comparison.alignment.key.tolist(),
                           comparison.alignment.response.tolist(), strict=True))
    counterpart = metric_rules(comparison).zero_counterparts(comparison, counterpart)
    response_entity = response.entity_of.tolist()
    first_of_response_entity = {mentions[0] for mentions in _entities_in_text_order(response)
                                if mentions}
    correct = missed = wrong = spurious = 0
    covered: set[int] = set()
    for mentions in _entities_in_text_order(key):
        antecedent_entities: set[int] = set()
        for position, key_index in enumerate(mentions):
            response_index = counterpart.get(key_index)
            if position and key_zero[key_index]:
                if response_index is None or response_index in first_of_response_entity:
                    missed += 1
                elif response_entity[response_index] not in antecedent_entities:
                    wrong += 1
                else:
                    correct += 1
                if response_index is not None:
                    covered.add(response_index)
            if response_index is not None:
                antecedent_entities.add(response_entity[response_index])
    for index in np.flatnonzero(response_zero).tolist():
        if index not in first_of_response_entity and index not in covered:
            spurious += 1
    return np.array([correct, correct + missed + wrong, correct, correct + spurious + wrong],
                    dtype=np.float64)


def score_zero(counts: np.ndarray) -> Score:
    """Recall and precision of the zero counts; 0/0 is not applicable."""
    recall_num, recall_den, precision_num, precision_den = (float(value) for value in counts)
    return Score.from_counts(recall_num, recall_den, precision_num, precision_den, empty="n/a")


def score_zero_batch(counts: np.ndarray) -> ScoreArrays:
    """:func:`score_zero` of every row of a resamples × fields matrix (``NaN`` for 0/0)."""
    return prf_arrays(counts, empty="n/a")


ZERO = Metric("zero", metric_title("zero"), PRF_FIELDS, count_zero, score_zero,
              "Žabokrtský et al. 2022, Findings of the Shared Task on Multilingual Coreference "
              "Resolution (anaphor-decomposable score for zeros)", score_batch=score_zero_batch)
