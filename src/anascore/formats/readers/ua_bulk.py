"""The markable columns (IDENTITY, DISCOURSE_DEIXIS) of a document the fast path reads, a
whole column at a time, and their mentions made a whole layer at a time.

The line-by-line reader takes a markable column cell by cell and bracket by bracket
(:meth:`~anascore.formats.readers.ua_markables.MarkableLayer.read_column`), then makes each
markable's mention (``_DocumentReader._entities``): a few dozen steps of Python a markable,
most of the time it took to read a UA file. A column of the common shape — every markable
opened once under its own ``MarkableID``, its attributes ``Name=value`` items spelt as the
reader spells them, closed by a bare ``)`` — is read here with a few passes of ``str``
methods over the column's text (:func:`read_markables`), and its mentions are made with one
short loop (:func:`bulk_entities`). Anything else (a named or unmatched closing bracket, a
markable that never closes or opens twice, ``@``, white space, a name spelt another way, a
``Min`` or ``ElementOf`` attribute, a head that is a cycle) is left to the line-by-line code,
which gives exactly the markables, mentions and errors it always gave.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate, chain, compress, repeat
from operator import itemgetter, methodcaller
from types import MappingProxyType

from anascore.core.model import Entity, Mention
from anascore.formats.dependencies import CYCLE, mention_head
from anascore.formats.readers.ua_markables import Markable, MarkableLayer, canonical_name, is_pseudo


@dataclass(slots=True)
class BulkMarkables:
    """The markables of one column, in the order they open (the order the line-by-line
    reader keeps them in), each one contiguous chunk: its first and last token, EntityID,
    MarkableID and attributes (as that reader makes them, in the file's order); and whether
    any has a ``Min`` or an ``ElementOf`` attribute."""

    starts: list[int]
    ends: list[int]
    entity_ids: list[str]
    markable_ids: list[str]
    attributes: list[dict[str, str]]
    min_or_element_of: bool = False


_BEFORE_NEWLINE = methodcaller("partition", "\n")
_BEFORE_CLOSING = methodcaller("partition", ")")
_FIRST = itemgetter(0)
_CLOSES_AT_ONCE = methodcaller("startswith", ")")
_SPLIT_ITEM = methodcaller("split", "=")
_ENTITY_ID = methodcaller("get", "EntityID")
_MARKABLE_ID = methodcaller("get", "MarkableID")


@lru_cache(maxsize=1024)
def _as_written(name: str) -> bool:
    """Whether an attribute name is spelt as the reader spells it (its canonical name: then
    the line-by-line reader keeps it as written); names recur, so each is worked out once."""
    return bool(name) and canonical_name(name) == name


def read_markables(cells: Sequence[str]) -> BulkMarkables | None:
    """The markables of a markable column (token ``i``'s cell is ``cells[i]``) as
    :meth:`~anascore.formats.readers.ua_markables.MarkableLayer.read_column` reads them, when the
    column is of the common shape the module describes; ``None`` for any other column.

    The cells are joined with newlines and cut at every ``(``: each piece is an opening
    bracket's attributes (up to the first ``)`` or newline), then what follows them up to
    the next ``(`` — a ``)`` closing the markable at once, then ``_`` cells and bare ``)``
    closing brackets. The token of each opening bracket is the number of newlines before it."""
    size = len(cells)
    full = "\n".join(cells)
    pieces = full.split("(")
    if len(pieces) == 1:  # no opening bracket: '_' throughout, or left to the careful code
        return BulkMarkables([], [], [], [], []) if cells.count("_") == size else None
    head = pieces[0]
    # Before the first opening bracket: '_' cells alone. No cell is empty.
    if head.replace("_\n", "") or "\n\n" in full or full[0] == "\n" or full[-1] == "\n":
        return None
    del pieces[0]
    bodies = list(map(_FIRST, map(_BEFORE_CLOSING, map(_FIRST, map(_BEFORE_NEWLINE,
                                                                     pieces)))))
    tails = list(map(str.removeprefix, pieces, bodies))
    # What the tails hold, joined as they stand in the column: '_' cells, bare ')' brackets
    # and the places of the opening brackets ('(' for each), nothing else.
    skeleton = "(".join(tails)
    if (skeleton.strip("_()\n") or "__" in skeleton or "_(" in skeleton or "_)" in skeleton
            or ")_" in skeleton or "(_" in skeleton):
        return None
    parsed = _attributes(bodies)
    if parsed is None:
        return None
    entity_ids, markable_ids, attributes, special = parsed
    count = len(bodies)
    newlines = list(map(str.count, tails, repeat("\n")))
    starts = list(accumulate(newlines[:-1], initial=head.count("\n")))
    closes_at_once = list(map(_CLOSES_AT_ONCE, tails))
    closings = list(map(str.count, tails, repeat(")")))
    ends = starts.copy()  # a markable that closes at once ends where it starts
    open_now: list[int] = []
    for index, start, at_once, closing in zip(range(count), starts, closes_at_once, closings,
                                             strict=True):
        if not at_once:
            open_now.append(index)
        if closing > at_once:  # bare ')' brackets, each closing the innermost open markable
            tail = tails[index]
            position = at_once
            for _ in range(closing - at_once):
                if not open_now:
                    return None
                position = tail.find(")", position)
                ends[open_now.pop()] = start + tail.count("\n", 0, position)
                position += 1
    if open_now:
        return None
    return BulkMarkables(starts, ends, entity_ids, markable_ids, attributes, special)


def _attributes(bodies: list[str]) -> tuple[list[str], list[str], list[dict[str, str]],
                                            bool] | None:
    """Each opening bracket's EntityID, MarkableID and attributes, when every one is a
    sequence of ``Name=value`` items without white space, ``@`` or a second ``=``, each name
    once and spelt as the reader spells it, with an EntityID and a MarkableID, no two the
    same (and whether a ``Min`` or ``ElementOf`` is among them); else ``None``."""
    count = len(bodies)
    joined = "\n".join(bodies)
    if ("" in bodies or " " in joined or "@" in joined
            or not "".join(bodies).isprintable()):
        return None
    items = joined.count("|") + count
    if joined.count("=") != items:
        return None
    special = False
    # 'EntityID=…|MarkableID=…', as most markables are: one '|' in each, every '|' followed by
    # 'MarkableID=', every one starting with 'EntityID=' and no other '=' (so that the
    # values hold none): taken apart by splitting them all at once.
    if (items == 2 * count and list(map(str.count, bodies, repeat("|"))).count(1) == count
            and joined.count("|MarkableID=") == count
            and ("\n" + joined).count("\nEntityID=") == count):
        values = joined.replace("|MarkableID=", "\n").split("\n")
        entity_ids = "\n".join(values[0::2])[len("EntityID="):].split("\nEntityID=")
        markable_ids = values[1::2]
        if "" in entity_ids or "" in markable_ids:
            return None
        attributes = [{"EntityID": entity_id, "MarkableID": markable_id}
                      for entity_id, markable_id in zip(entity_ids, markable_ids, strict=True)]
    else:
        try:
            attributes = [dict(map(_SPLIT_ITEM, body.split("|"))) for body in bodies]
        except ValueError:  # an item without '='
            return None
        if sum(map(len, attributes)) != items:  # a name given twice
            return None
        names = set(chain.from_iterable(attributes))
        special = "Min" in names or "ElementOf" in names
        if not all(map(_as_written, names)):
            return None
        entity_ids = list(map(_ENTITY_ID, attributes))
        markable_ids = list(map(_MARKABLE_ID, attributes))
        if not all(entity_ids) or not all(markable_ids):
            return None
    if len(set(markable_ids)) != count:  # a markable opened again (or twice)
        return None
    return entity_ids, markable_ids, attributes, special


def as_layer(markables: BulkMarkables, column: str, lines: Sequence[int],
             sentences: Sequence[int]) -> MarkableLayer:
    """The layer the line-by-line reader makes of the same column: what its mentions are
    made from where :func:`bulk_entities` leaves them."""
    layer = MarkableLayer(column)
    for start, end, entity_id, markable_id, attributes in zip(
            markables.starts, markables.ends, markables.entity_ids, markables.markable_ids,
            markables.attributes, strict=True):
        layer.markables[markable_id] = Markable(markable_id, entity_id, attributes,
                                                 lines[start], sentences[start], [[start, end]])
    return layer


#: What the layers' mentions are: each markable's mention, its entities (pseudo-entities
#: left out), the mentions of pseudo-entities, every EntityID.
LayerMentions = tuple[list[Mention], tuple[Entity, ...], tuple[Mention, ...], set[str]]


def bulk_entities(markables: BulkMarkables, lines: Sequence[int],
                  governors: Callable[[], Sequence[int | None] | None]) -> LayerMentions | None:
    """The mentions and entities of a layer read by :func:`read_markables`, as
    ``_DocumentReader._entities`` makes them (``governors``: each token's governor, ``None``
    when no token's is known); ``None`` when a markable has a ``Min`` or ``ElementOf``, or
    a head that is a cycle (an error): that code makes them, and says so."""
    starts = markables.starts
    ends = markables.ends
    attributes = markables.attributes
    if markables.min_or_element_of:
        return None
    # One tuple of positions for every copy of a span.
    spans = {span: tuple(range(span[0], span[1] + 1)) for span in set(zip(starts, ends,
                                                                         strict=True))}
    tokens = list(map(spans.__getitem__, zip(starts, ends, strict=True)))
    governor = governors()
    heads: list[int | None]
    if governor is None:
        # No governor known: a one-token mention's head is its token; a longer one has none.
        heads = [start if start == end else None for start, end in zip(starts, ends,
                                                                       strict=True)]
    else:
        heads = [(CYCLE if governor[start] == start else start) if start == end
                 else mention_head(positions, None, governor)
                 for start, end, positions in zip(starts, ends, tokens, strict=True)]
        if CYCLE in heads:
            return None
    mentions = list(map(Mention.made, tokens, map(lines.__getitem__, starts), heads,
                        repeat(None), map(MappingProxyType, attributes)))
    grouped: dict[str, list[Mention]] = {}
    for entity_id, mention in zip(markables.entity_ids, mentions, strict=True):
        group = grouped.get(entity_id)
        if group is None:
            grouped[entity_id] = [mention]
        else:
            group.append(mention)
    pseudo = [entity_id for entity_id in grouped if is_pseudo(entity_id)]
    non_referring: tuple[Mention, ...] = ()
    if pseudo:
        non_referring = tuple(compress(mentions, map(set(pseudo).__contains__,
                                                      markables.entity_ids)))
        for entity_id in pseudo:
            grouped[entity_id] = []
    entities = tuple([Entity(entity_id, tuple(group), ())
                      for entity_id, group in grouped.items() if group])
    return mentions, entities, non_referring, set(grouped)

