"""Dominant mentions (Žitkus et al. 2023, §4.2): the mention that best describes an entity.

"A dominant mention is an expression that carries the richest semantics or describes most
precisely the discourse-world entity"; the paper ranks expressions: full proper noun >
abbreviated proper noun > partial proper noun > noun phrase > ellipsis referring back to the
same object, and "pronouns, adverbs, and other types of ellipsis cannot be dominant"; between
expressions of one rank, the one earlier in the text wins.

Each entity's dominant mention is, in order:

1. the mention whose ``dominant`` attribute (:data:`DOMINANT_ATTRIBUTE`) is ``yes`` (also
   ``true``, ``1``), when the input marks one (two marked mentions in one entity are an
   error);
2. else the best-ranked mention by the heuristic below, earliest first on ties;
3. else, when no mention can be dominant (an entity of pronouns only: the paper's
   "We ← We ← …" chain, Appendix B), the earliest mention, so that the entity's other mentions
   still form annotations. The paper has no rule for this case; this is anascore's.

The heuristic ranks a mention by its type (:mod:`anascore.comparison.mention_types`) and its words:

* a **name** is *abbreviated* when a word is an initial or a dotted abbreviation ("B.",
  "U.S.") or an all-capital word spelling the initials of another name of the entity ("EU"
  beside "European Union"); else *partial* when its capitalized words are a proper subset of
  another name's ("Obama" beside "Barack Obama"); else *full*;
* a **nominal** is a noun phrase, a **zero** an ellipsis, a **pronoun** never dominant;
* a mention whose coreference type code (:data:`COREFERENCE_TYPE_ATTRIBUTE`) is adverbial
  (``a…``) or an ellipsis of another kind than "same object" (``ey…``, ``ev…``, in Žitkus et
  al.'s scheme, their Table 1) is never dominant.

Limits: names are compared by capitalized words, so scripts without letter case, names that
differ by inflection (Lithuanian "Obamos" / "Obama") and names with lower-case particles
("van Gogh" ⊂ "Vincent van Gogh" works, "Gogh" ⊂ "van Gogh" does not) are ranked by text order
alone; mention types come from the input or from part-of-speech tags, with their own limits.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import numpy as np

from anascore.comparison.mention_types import CODE, NAME, NOMINAL, ZERO
from anascore.core.errors import FormatError
from anascore.core.model import Mention
from anascore.selection.sides import Side

#: The mention attribute marking an entity's dominant mention in the input.
DOMINANT_ATTRIBUTE = "dominant"
#: The mention attribute holding a mention's coreference type code (Žitkus et al.'s ``ppas``,
#: ``dtis``, …): the type of the coreference between the mention and its antecedent.
COREFERENCE_TYPE_ATTRIBUTE = "coreference_type"

FULL_NAME, ABBREVIATED_NAME, PARTIAL_NAME, NOUN_PHRASE, ELLIPSIS = range(5)
#: Dominance ranks, the most dominant first (§4.2).
RANKS: tuple[str, ...] = ("full proper noun", "abbreviated proper noun", "partial proper noun",
                          "noun phrase", "ellipsis")
_YES = frozenset({"yes", "true", "1", "y"})
_NO = frozenset({"no", "false", "0", "n", ""})
_INITIAL = re.compile(r"^(?:[^\W\d_]\.)+$")
_ACRONYM = re.compile(r"^[^\W\d_]{2,}$")


def dominant_flag(mention: Mention, path: str | None) -> bool:
    """Whether the input marks ``mention`` dominant."""
    value = mention.attributes.get(DOMINANT_ATTRIBUTE)
    if value is None:
        return False
    value = value.strip().lower()
    if value in _YES:
        return True
    if value in _NO:
        return False
    raise FormatError(f"mention {mention} has {DOMINANT_ATTRIBUTE}={value!r}; expected yes or no",
                      path=path, line=mention.line)


def name_ranks(words: Sequence[Sequence[str]]) -> list[int]:
    """The ranks of an entity's names (full, abbreviated or partial) from their words.

    >>> name_ranks([["Barack", "Obama"], ["B.", "Obama"], ["Obama"], ["Barack", "Obama"]])
    [0, 1, 2, 0]
    >>> name_ranks([["the", "European", "Union"], ["EU"]])
    [0, 1]
    """
    capitalized = [frozenset(word.casefold() for word in name if word[:1].isupper())
                   for name in words]
    initials = {"".join(word[0] for word in name if word[:1].isupper()).casefold()
                for name in words}
    ranks = []
    for index, name in enumerate(words):
        if any(_INITIAL.match(word) for word in name) or (
                len(name) == 1 and _ACRONYM.match(name[0]) and name[0].isupper()
                and name[0].casefold() in initials - {name[0][0].casefold()}):
            ranks.append(ABBREVIATED_NAME)
        elif capitalized[index] and any(capitalized[index] < other for other in capitalized):
            ranks.append(PARTIAL_NAME)
        else:
            ranks.append(FULL_NAME)
    return ranks


def never_dominant(code: str | None) -> bool:
    """Whether a coreference type code says its mention cannot be dominant: adverbial
    (``a…``) or an ellipsis other than "same object" (``ey…``, ``ev…``)."""
    return code is not None and (code[:1] == "a" or code[:2] in ("ey", "ev"))


def dominant_mentions(side: Side, types: Callable[[], np.ndarray]) -> np.ndarray:
    """For each entity of ``side``, the index (into ``side.mentions``) of its dominant mention.

    ``types`` gives the side's mention type codes; it is called only when some entity has no
    mention marked dominant in the input.
    """
    document = side.document
    path = document.path if document is not None else None
    words = document.tokens if document is not None else ()
    starts = np.cumsum(side.entity_sizes) - side.entity_sizes
    result = np.zeros(len(side.entity_sizes), dtype=np.int64)
    codes: np.ndarray | None = None
    for entity, (start, size) in enumerate(zip(starts.tolist(), side.entity_sizes.tolist(),
                                               strict=True)):
        indices = range(start, start + size)
        marked = [index for index in indices if dominant_flag(side.mentions[index], path)]
        if len(marked) > 1:
            second = side.mentions[marked[1]]
            raise FormatError(
                f"entity {side.entity_ids[entity]} has two mentions marked "
                f"{DOMINANT_ATTRIBUTE}: {side.mentions[marked[0]]} and {second}; expected one",
                path=path, line=second.line)
        if marked:
            result[entity] = marked[0]
            continue
        if codes is None:
            codes = types()
        result[entity] = _best_ranked(side, list(indices), codes, words)
    return result


def _best_ranked(side: Side, indices: list[int], codes: np.ndarray,
                 words: Sequence[str]) -> int:
    names = [index for index in indices if codes[index] == CODE[NAME]]
    name_words = [[words[token] for token in side.mentions[index].tokens if token < len(words)]
                  for index in names]
    name_rank = dict(zip(names, name_ranks(name_words), strict=True))
    other_rank = {CODE[NOMINAL]: NOUN_PHRASE, CODE[ZERO]: ELLIPSIS}
    rank: dict[int, int] = {}
    for index in indices:
        if never_dominant(side.mentions[index].attributes.get(COREFERENCE_TYPE_ATTRIBUTE)):
            continue
        if index in name_rank:
            rank[index] = name_rank[index]
        elif int(codes[index]) in other_rank:
            rank[index] = other_rank[int(codes[index])]
    if not rank:
        return min(indices, key=lambda index: side.mentions[index].tokens)
    return min(rank, key=lambda index: (rank[index], side.mentions[index].tokens))
