"""The alignment type every matching method returns, and exact matching.

Kept apart from the package's registry (:mod:`anascore.matching`) so that the matching
methods (:mod:`anascore.matching.min_span`) import it without importing the registry that
imports them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import attrgetter

import numpy as np

from anascore.core.model import Mention


@dataclass(frozen=True)
class Alignment:
    """``key[k]`` is aligned with ``response[k]``: indices into the two mention lists, each
    index at most once."""

    key: np.ndarray
    response: np.ndarray

    def __len__(self) -> int:
        return len(self.key)


Matcher = Callable[[Sequence[Mention], Sequence[Mention]], Alignment]


def align_exact(key: Sequence[Mention], response: Sequence[Mention]) -> Alignment:
    """Align mentions that cover exactly the same tokens.

    Both sides hold each span once (see :mod:`anascore.selection.sides`), so the pairing is
    one-to-one by construction.
    """
    index_of = dict(zip(map(_TOKENS, key), range(len(key)), strict=True))
    get = index_of.get
    found = np.array([get(tokens, -1) for tokens in map(_TOKENS, response)], dtype=np.int64)
    response_indices = np.flatnonzero(found >= 0).astype(np.int64, copy=False)
    return Alignment(found[response_indices], response_indices)


_TOKENS = attrgetter("tokens")


def from_pairs(pairs: list[tuple[int, int]]) -> Alignment:
    """The alignment of ``(key, response)`` index pairs, sorted."""
    pairs = sorted(pairs)
    return Alignment(np.asarray([key for key, _ in pairs], dtype=np.int64),
                     np.asarray([response for _, response in pairs], dtype=np.int64))
