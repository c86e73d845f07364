"""Aligning response mentions with key mentions.

Every matching method returns the same :class:`Alignment`, a one-to-one pairing of key and
response mention indices, so that no metric knows how mentions were matched.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from anascore.model import Mention

if TYPE_CHECKING:
    from anascore.options import Options


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

    Both sides hold each span once (see :mod:`anascore.selection`), so the pairing is
    one-to-one by construction.
    """
    index_of = {mention.tokens: index for index, mention in enumerate(key)}
    key_indices: list[int] = []
    response_indices: list[int] = []
    for response_index, mention in enumerate(response):
        key_index = index_of.get(mention.tokens)
        if key_index is not None:
            key_indices.append(key_index)
            response_indices.append(response_index)
    return Alignment(np.asarray(key_indices, dtype=np.int64),
                     np.asarray(response_indices, dtype=np.int64))


MATCHERS: dict[str, Matcher] = {"exact": align_exact}


def _register_min_span() -> None:
    from anascore.matching.min_span import align_min, align_min_ua

    MATCHERS["min"] = align_min
    COMPAT_MATCHERS["ua", "min"] = align_min_ua


#: Matchers that replace ``MATCHERS[match]`` under ``compat`` (``(compat, match)`` keys).
COMPAT_MATCHERS: dict[tuple[str, str], Matcher] = {}
_register_min_span()


def matcher_for(options: Options) -> Matcher:
    """The matcher of ``options.match``, in the conventions of ``options.compat``."""
    return COMPAT_MATCHERS.get((options.compat, options.match)) or MATCHERS[options.match]
