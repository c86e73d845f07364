"""Windowed evaluation of long documents: a key document and its response cut into windows of
``N`` tokens, each window scored as a document of its own (``Options.window``,
``--window N``).

Book-length documents are scored in windows because a whole book is one huge document to
the metrics (one entity of a main character holds thousands of mentions), and because systems
that read a book in pieces are compared on pieces. The window documents of a pair are counted
by :func:`anascore.scoring.document.count_document` one by one and their counts summed, so the
corpus
scores are those of a corpus whose documents are the windows (summed as usual: the counts of
every window of every document, then one division), while the per-document table and the
resampling statistics keep the document (the book) as their unit.

Token positions are the document's words: CoNLL-U empty nodes are not counted, and one
belongs to the window of the word after it, so that the response's empty nodes never move a
window. A mention is placed by its first word; it is kept whole even when it runs past the
window's end. Two rules (``Options.window_rule``):

``clean`` (the default)
    Windows ``[0, N)``, ``[N, 2N)`` … up to the document's end (the last one may be shorter);
    each mention is in exactly one window, the one holding its first word: no mention is left
    out and none is counted twice.

``bookcoref``
    BookCoref's ``gold_window`` evaluation (``SapienzaNLP/bookcoref``, ``evaluate.py``,
    ``evaluate_split``), rule for rule: windows end at ``N``, ``2N`` … ``⌊L/N⌋·N`` and at
    the document's end ``L``; the window ending at ``s`` keeps a mention when
    ``s − N < start < s`` (strict on both sides), so a mention starting at ``0``, ``N``,
    ``2N`` … is in no window (unless the last window covers it), the last window
    ``(L − N, L)`` overlaps the one before it (a mention there is counted twice), and when
    ``L`` is a multiple of ``N`` the last window is the one before it again (every mention
    in it counted twice). A document shorter than ``N`` is one window ``(L − N, L)``, which
    keeps the mention at 0.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from anascore.config.capabilities import CLUSTERS
from anascore.config.options import Options
from anascore.core.errors import OptionsError
from anascore.core.model import Document, Entity, Mention

#: A window document of a key and one of its response (``None``: that side is empty).
WindowPair = tuple[Document | None, Document | None]


def window_pairs(key: Document | None, response: Document | None,
                 options: Options) -> list[WindowPair]:
    """The pairs of window documents of ``key`` and ``response`` (on common positions) to
    count as documents, named ``NAME#w0``, ``NAME#w1`` … in window order; the pair itself
    when ``options.window`` is 0. Windows where neither side keeps a mention are left out
    (they count nothing), but one pair is always returned."""
    if not options.window:
        return [(key, response)]
    present = [document for document in (key, response) if document is not None]
    if not present:
        return [(key, response)]
    for document in present:
        if document.source_format == CLUSTERS:
            raise OptionsError(f"window={options.window}: clusters of spans in memory have no "
                               "tokens, so where the last window ends is unknown; score files "
                               "(or documents with their tokens) to score in windows")
    word_of, length = _words(present[0])
    placer = _PLACERS[options.window_rule]
    ends, windows_of = placer(length, options.window)
    sides = [_split(document, word_of, windows_of, len(ends)) for document in (key, response)]
    kept = [index for index in range(len(ends))
            if any(side is not None and side[index] is not None for side in sides)]
    key_side, response_side = sides
    return [(_window_document(key, key_side, index),
             _window_document(response, response_side, index)) for index in kept or [0]]


def _words(document: Document) -> tuple[Callable[[int], int], int]:
    """The word index of each token position (empty nodes take the next word's) and the
    number of words."""
    if document.nodes is None or not document.nodes.has_empty_nodes:
        return (lambda position: position), len(document.tokens)
    empty = document.nodes.empty
    words: list[int] = []
    count = 0
    for flag in empty:
        words.append(count)
        count += not flag
    return (lambda position: words[position] if position < len(words) else count), count


def _clean(length: int, size: int) -> tuple[list[int], Callable[[int], Sequence[int]]]:
    """Windows ``[kN, (k+1)N)``; a mention in the one holding its first word."""
    count = max(1, -(-length // size))
    return ([min((index + 1) * size, length) for index in range(count)],
            lambda start: (min(start // size, count - 1),))


def _bookcoref(length: int, size: int) -> tuple[list[int], Callable[[int], Sequence[int]]]:
    """BookCoref's windows (the module docstring): ends ``N … ⌊L/N⌋·N`` and ``L``; the window
    ending at ``s`` keeps a start with ``s − N < start < s``."""
    regular = length // size
    ends = [(index + 1) * size for index in range(regular)] + [length]

    def windows_of(start: int) -> Sequence[int]:
        found = []
        if start % size and start // size < regular:
            found.append(start // size)
        if length - size < start < length:
            found.append(regular)
        return found

    return ends, windows_of


_PLACERS = {"clean": _clean, "bookcoref": _bookcoref}


#: One side's content of each window: (entities, non-referring markables, discourse-deixis
#: entities), ``None`` for a window where the side keeps nothing.
_Content = tuple[tuple[Entity, ...], tuple[Mention, ...], tuple[Entity, ...]]


def _split(document: Document | None, word_of: Callable[[int], int],
           windows_of: Callable[[int], Sequence[int]],
           count: int) -> list[_Content | None] | None:
    """``document``'s mentions placed in the windows by their first word."""
    if document is None:
        return None

    def entities_by_window(entities: tuple[Entity, ...]) -> list[list[Entity]]:
        result: list[list[Entity]] = [[] for _ in range(count)]
        for entity in entities:
            parts: dict[int, list[Mention]] = {}
            for mention in entity.mentions:
                for index in windows_of(word_of(mention.start)):
                    parts.setdefault(index, []).append(mention)
            for index, mentions in parts.items():
                result[index].append(replace(entity, mentions=tuple(mentions)))
        return result

    identity = entities_by_window(document.entities)
    deixis = entities_by_window(document.discourse_deixis)
    markables: list[list[Mention]] = [[] for _ in range(count)]
    for mention in document.non_referring:
        for index in windows_of(word_of(mention.start)):
            markables[index].append(mention)
    return [(tuple(identity[index]), tuple(markables[index]), tuple(deixis[index]))
            if identity[index] or markables[index] or deixis[index] else None
            for index in range(count)]


def _window_document(document: Document | None, contents: list[_Content | None] | None,
                     index: int) -> Document | None:
    """Window ``index`` of ``document`` (``contents``: :func:`_split`'s): the same tokens
    (positions do not move), only the window's mentions."""
    if document is None or contents is None:
        return None
    entities, markables, deixis = contents[index] or ((), (), ())
    return replace(document, name=f"{document.name}#w{index}", entities=entities,
                   non_referring=markables, discourse_deixis=deixis, bridging=())


def window_ends(length: int, size: int, rule: str) -> list[int]:
    """Where the windows of a document of ``length`` words end under ``rule`` (for reports
    and tests)."""
    return _PLACERS[rule](length, size)[0]
