"""Identification of non-referring markables (Poesio et al. 2018, CRAC 2018; Yu et al. 2022
§4.3).

Non-referring expressions (expletives, predicative NPs, idioms: UA ``-Pseudo`` entities) are
kept out of identity entities and scored apart: recall is the share of the key's non-referring
markables that the response also marks non-referring, precision the share of the response's
that the key marks so. Markables are matched one-to-one with the run's matching method (exact,
or MIN spans), or as the conventions say
(:meth:`anascore.metrics.rules.MetricRules.non_referring_match`: under ``compat="ua"`` always
exactly, as the UA scorer does; U4).
"""

from __future__ import annotations

import numpy as np

from anascore.comparison.contingency import Comparison
from anascore.config.metric_names import metric_title
from anascore.core.model import Mention
from anascore.matching import MATCHERS
from anascore.metrics.base import PRF_FIELDS, Metric, prf_score, prf_score_batch
from anascore.metrics.rules import metric_rules


def _distinct(mentions: tuple[Mention, ...]) -> list[Mention]:
    """One copy of each span (a span marked twice is one non-referring markable)."""
    return list({mention.tokens: mention for mention in mentions}.values())


def non_referring_pairs(comparison: Comparison) -> tuple[
        list[Mention], list[Mention], list[tuple[int, int]]]:
    """The key's and the response's non-referring markables (each span once) and the pairs
    (key index, response index) the metric matches: what the error analysis reads."""
    key = _distinct(comparison.key.non_referring)
    response = _distinct(comparison.response.non_referring)
    options = comparison.options
    matcher = MATCHERS[metric_rules(comparison).non_referring_match(options)]
    if not key or not response:
        return key, response, []
    alignment = matcher(key, response)
    return key, response, list(zip(alignment.key.tolist(), alignment.response.tolist(),
                                   strict=True))


def count_non_referring(comparison: Comparison) -> np.ndarray:
    key, response, pairs = non_referring_pairs(comparison)
    found = len(pairs)
    return np.array([found, len(key), found, len(response)], dtype=np.float64)


NON_REFERRING = Metric("non_referring", metric_title("non_referring"), PRF_FIELDS,
                       count_non_referring, prf_score, "Poesio et al. 2018; Yu et al. 2022 §4.3",
                       score_batch=prf_score_batch)
