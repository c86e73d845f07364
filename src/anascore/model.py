"""Plain, immutable data: mentions, entities, documents.

No scoring logic lives here. A :class:`Mention` is a sorted tuple of token positions (so a
discontinuous mention is an ordinary mention) and is equal only to a mention with the same
tokens: how a response mention *matches* a key mention is decided by :mod:`anascore.matching`,
never by equality tricks.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Mention:
    """A mention: the sorted token positions it covers within its document.

    Token positions count from 0 over the whole document (not per sentence).
    ``line`` is the 1-based line of the file where the mention starts, for messages only;
    it takes no part in equality.
    """

    tokens: tuple[int, ...]
    line: int | None = field(default=None, compare=False, hash=False)

    @classmethod
    def span(cls, start: int, end: int, line: int | None = None) -> Mention:
        """The contiguous mention from ``start`` to ``end``, both inclusive."""
        return cls(tuple(range(start, end + 1)), line)

    @property
    def start(self) -> int:
        return self.tokens[0]

    @property
    def end(self) -> int:
        return self.tokens[-1]

    def __str__(self) -> str:
        if self.tokens == tuple(range(self.start, self.end + 1)):
            return f"[{self.start}, {self.end}]"
        return "{" + ", ".join(map(str, self.tokens)) + "}"


@dataclass(frozen=True, slots=True)
class Entity:
    """A set of coreferent mentions, with the identifier the file gave it."""

    id: str
    mentions: tuple[Mention, ...]


@dataclass(frozen=True, slots=True)
class Document:
    """One document of a key or response file.

    ``name`` identifies the document across key and response (for CoNLL-2012 the text after
    ``#begin document``, as the reference scorer identifies documents). ``tokens`` holds the
    word forms, so that key and response can be checked to cover the same text.
    """

    name: str
    tokens: tuple[str, ...]
    entities: tuple[Entity, ...]
    path: str | None = field(default=None, compare=False)
    line: int | None = field(default=None, compare=False)

    def mentions(self) -> Iterable[Mention]:
        for entity in self.entities:
            yield from entity.mentions
