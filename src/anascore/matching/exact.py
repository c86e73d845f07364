"""The alignment type every matching method returns, and exact matching.

Kept apart from the package's registry (:mod:`anascore.matching`) so that the matching
methods (:mod:`anascore.matching.min_span`) import it without importing the registry that
imports them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from operator import attrgetter

import numpy as np

from anascore.core.model import Mention


@dataclass(frozen=True)
class Alignment:
    """``key[k]`` is aligned with ``response[k]``: indices into the two mention lists, each
    index at most once."""

    key: np.ndarray
    response: np.ndarray
    #: For each response mention, the index of the key mention of the same span (-1: none),
    #: when the alignment was made by exact matching of these very mention lists and the
    #: key holds each span once (:func:`align_exact_spans`); else ``None``. A fact about the
    #: spans, whatever matching made the rest: MOR reads the identical spans off it.
    spans_found: list[int] | None = field(default=None, compare=False, repr=False)

    def __len__(self) -> int:
        return len(self.key)

    @cached_property
    def lists(self) -> tuple[list[int], list[int]]:
        """``key`` and ``response`` as lists of Python ints (made once: the table reads
        them)."""
        return self.key.tolist(), self.response.tolist()


Matcher = Callable[[Sequence[Mention], Sequence[Mention]], Alignment]


def align_exact(key: Sequence[Mention], response: Sequence[Mention]) -> Alignment:
    """Align mentions that cover exactly the same tokens.

    Both sides hold each span once (see :mod:`anascore.selection.sides`), so the pairing is
    one-to-one by construction.
    """
    return align_exact_spans(list(map(_TOKENS, key)), list(map(_TOKENS, response)))


def align_exact_spans(key: list[tuple[int, ...]], response: list[tuple[int, ...]]) -> Alignment:
    """:func:`align_exact` of the mentions whose token positions these are (a side's spans,
    :attr:`anascore.selection.sides.Side.spans`, made once per side): the response mentions
    with a key mention of their span, in order, each with the last key mention of that span.
    In lists, which the alignment keeps (:attr:`Alignment.lists`): a document aligns a few
    dozen mentions, fewer than numpy's calls would cost."""
    index_of = dict(zip(key, range(len(key)), strict=True))
    get = index_of.get
    found = [get(tokens, -1) for tokens in response]
    response_indices = [index for index, key_index in enumerate(found) if key_index >= 0]
    key_indices = [found[index] for index in response_indices]
    alignment = Alignment(np.array(key_indices, dtype=np.int64),
                          np.array(response_indices, dtype=np.int64),
                          found if len(index_of) == len(key) else None)
    alignment.__dict__["lists"] = (key_indices, response_indices)
    return alignment


_TOKENS = attrgetter("tokens")


def from_pairs(pairs: list[tuple[int, int]]) -> Alignment:
    """The alignment of ``(key, response)`` index pairs, sorted."""
    pairs = sorted(pairs)
    return Alignment(np.asarray([key for key, _ in pairs], dtype=np.int64),
                     np.asarray([response for _, response in pairs], dtype=np.int64))
