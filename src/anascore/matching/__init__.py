"""Aligning response mentions with key mentions.

Every matching method returns the same :class:`Alignment`, a one-to-one pairing of key and
response mention indices, so that no metric knows how mentions were matched.

Where another scorer matches otherwise, :func:`align` calls a hook of the
:class:`MatchingRules` it is given: the run's conventions, which the pipeline resolves once
(:func:`anascore.compat.conventions`) and hands down; this stage, below them, never looks them
up. :class:`MatchingDefaults` is anascore's own matching.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Protocol

import numpy as np

from anascore.core.model import Mention
from anascore.matching.exact import (
    Alignment,
    Matcher,
    align_exact,
    align_exact_spans,
    from_pairs,
)
from anascore.matching.min_span import align_min

if TYPE_CHECKING:
    from anascore.config.options import Options
    from anascore.matching.optimal import Pairing
    from anascore.selection.sides import Side


def align_head(key: Sequence[Mention], response: Sequence[Mention]) -> Alignment:
    """Same head token (:mod:`anascore.matching.partial`)."""
    from anascore.matching import partial

    return from_pairs(partial.align_head(key, response))


def align_partial(key: Sequence[Mention], response: Sequence[Mention]) -> Alignment:
    """Inside the key and covering its head (:mod:`anascore.matching.partial`)."""
    from anascore.matching import partial

    return from_pairs(partial.align_partial(key, response))


def align_craft(key: Sequence[Mention], response: Sequence[Mention]) -> Alignment:
    """CRAFT 2019 partial match (:mod:`anascore.matching.partial`)."""
    from anascore.matching import partial

    return from_pairs(partial.align_craft(key, response))


MATCHERS: dict[str, Matcher] = {"exact": align_exact, "min": align_min, "head": align_head,
                                "partial": align_partial, "craft": align_craft}


class MatchingRules(Protocol):
    """What matching asks of the run's conventions (the module docstring).
    :class:`anascore.compat.Conventions` answers it; :class:`MatchingDefaults` is anascore's
    own answer."""

    def matcher(self, match: str) -> Matcher | None:
        """The matcher replacing ``MATCHERS[match]`` (``None``: that one)."""
        ...

    def mention_pairing(self) -> Pairing | None:
        """How head, partial and dependent-zero matching choose among scored pairs
        (``None``: :func:`anascore.matching.optimal.best_pairs`)."""
        ...


class MatchingDefaults:
    """anascore's own matching: the matchers of :data:`MATCHERS`, ties between equally good
    pairings decided by :func:`anascore.matching.optimal.best_pairs`."""

    def matcher(self, match: str) -> Matcher | None:
        return None

    def mention_pairing(self) -> Pairing | None:
        return None


#: anascore's own matching, for callers that do not pass the run's conventions.
MATCHING_DEFAULTS: MatchingRules = MatchingDefaults()


def matcher_for(options: Options, rules: MatchingRules = MATCHING_DEFAULTS) -> Matcher:
    """The matcher of ``options.match``, as ``rules`` (the run's conventions, by default
    anascore's own) have it (:meth:`MatchingRules.matcher`)."""
    return rules.matcher(options.match) or MATCHERS[options.match]


def align(key: Side, response: Side, options: Options,
          rules: MatchingRules = MATCHING_DEFAULTS) -> Alignment:
    """Align the mentions of one document's key and response sides as ``options`` and
    ``rules`` (the run's conventions, by default anascore's own) say.

    With zeros kept and ``zero_match="dependent"``, zero mentions are first paired by their
    dependencies (:mod:`anascore.matching.zero_pairing`); every mention left is then aligned by
    :func:`matcher_for` (``MATCHERS[options.match]``, or the conventions' variant). CRAFT
    matching never pairs zero mentions (as the UA scorer). Head, partial and dependent-zero
    matching choose among equally good pairings as the conventions say
    (:meth:`MatchingRules.mention_pairing`; anascore's:
    :func:`anascore.matching.optimal.best_pairs`). Under head matching a response mention
    whose head is unknown is aligned with nothing: an unmatched response mention
    (:func:`anascore.config.capabilities.unheaded_response_warning`).
    """
    if options.match == "head":
        headed = [index for index, mention in enumerate(response.mentions)
                  if mention.head is not None]
        if len(headed) < len(response.mentions):
            # a response mention whose head is unknown matches no key mention (the CorefUD
            # scorer would head it by its first word: compat="ua" does so before this);
            # anascore.config.capabilities.unheaded_response_warning says so
            inner = align(key, replace(response, mentions=tuple(
                response.mentions[index] for index in headed)), options, rules)
            return from_pairs([(key_index, headed[response_index]) for key_index, response_index
                               in zip(inner.key.tolist(), inner.response.tolist(), strict=True)])
    pairing = rules.mention_pairing()
    matcher = matcher_for(options, rules)
    if pairing is not None and options.match in ("head", "partial"):
        from anascore.matching import partial

        method = partial.align_head if options.match == "head" else partial.align_partial

        def matcher(key_mentions: Sequence[Mention],
                    response_mentions: Sequence[Mention]) -> Alignment:
            return from_pairs(method(key_mentions, response_mentions, pairing=pairing))

    if options.match == "craft" and (key.nodes is not None or response.nodes is not None):
        from anascore.matching import partial
        from anascore.selection.sides import zero_flags

        def matcher(key_mentions: Sequence[Mention],
                    response_mentions: Sequence[Mention]) -> Alignment:
            return from_pairs(partial.align_craft(
                key_mentions, response_mentions,
                key_zero[key_rest].tolist(), response_zero[response_rest].tolist()))

        key_zero, response_zero = zero_flags(key), zero_flags(response)
    # The CRAFT matcher above reads the indices of the mentions left (key_rest, response_rest)
    reads_rest = options.match == "craft" and (key.nodes is not None
                                               or response.nodes is not None)
    zero_pairs: list[tuple[int, int]] = []
    if (options.keep_zeros and options.zero_match == "dependent"
            and key.nodes is not None and response.nodes is not None
            and key.nodes.has_empty_nodes and response.nodes.has_empty_nodes):
        # (no empty node on a side: no zero to pair, and nothing to import)
        from anascore.matching.optimal import best_pairs
        from anascore.matching.zero_pairing import align_zeros_by_dependencies

        zero_pairs = align_zeros_by_dependencies(key, response,
                                                 pairing=pairing or best_pairs)
    if not zero_pairs and not reads_rest:  # the usual case: nothing left out
        if matcher is align_exact:  # from the spans each side made once
            return align_exact_spans(key.spans, response.spans)
        return matcher(key.mentions, response.mentions)
    key_rest = _unpaired(len(key.mentions), [key_index for key_index, _ in zero_pairs])
    response_rest = _unpaired(len(response.mentions),
                              [response_index for _, response_index in zero_pairs])
    if not zero_pairs:
        return matcher(key.mentions, response.mentions)
    inner = matcher([key.mentions[index] for index in key_rest.tolist()],
                    [response.mentions[index] for index in response_rest.tolist()])
    return from_pairs(zero_pairs + list(zip(key_rest[inner.key].tolist(),
                                             response_rest[inner.response].tolist(),
                                             strict=True)))


def _unpaired(count: int, paired: list[int]) -> np.ndarray:
    """The indices below ``count`` not in ``paired``, in order."""
    left = np.ones(count, dtype=bool)
    left[paired] = False
    return np.flatnonzero(left).astype(np.int64, copy=False)
