"""CoNLL-U token IDs as the CorefUD reader checks them (:mod:`anascore.formats.readers.corefud`).

A sentence's words are numbered 1, 2, 3 … (the reader lets a gap pass, but not an ID 0, a
repeated or a decreasing one); the empty nodes after word N are N.1, N.2 … (0.1 before the
first word); a multiword token N-M names words N to M that follow (N < M). An ID that breaks
this order has no position anyone could tell, so it is an error naming the line, as the
CoNLL-U validator gives. Numbers are parsed only up to :data:`INDEX_DIGITS` digits: ``int``
refuses more than 4,300, and a file may hold any number of them.
"""

from __future__ import annotations

from anascore.core.errors import FormatError, shorten


def digits(text: str) -> bool:
    """ASCII digits only: ``str.isdigit`` also accepts ``²`` and ``¹``, which ``int`` refuses."""
    return text.isascii() and text.isdigit()


#: More digits than a token ID or an index into a mention (a head, a MIN index, a part)
#: can have: no sentence or mention has a billion positions, and ``int`` refuses 4,300.
INDEX_DIGITS = 9


def _number(text: str) -> int:
    """``text`` as a token ID number or index: ``-1`` unless ASCII digits, at most
    :data:`INDEX_DIGITS` of them."""
    return int(text) if text.isdigit() and text.isascii() and len(text) <= INDEX_DIGITS else -1


#: The word IDs of the first words of a sentence, as text (the next ID is compared with
#: the text the file has, without parsing it, on every word line).
COMMON_WORDS = 512
WORD_IDS = tuple(str(number) for number in range(COMMON_WORDS))


def later_word(node_id: str, word: int, path: str, line: int) -> int:
    """The number of a word ID that is not the one after the sentence's previous word
    ``word`` (``0``: none yet): a later one (a gap, which is let pass), else an error, as the
    CoNLL-U validator gives: an ID 0, a repeated or a decreasing one has no place."""
    number = _number(node_id)
    if number > word:
        return number
    if number < 0 and not _valid_id(node_id):
        raise FormatError(f"token ID {shorten(node_id)!r} is neither a word ID (1, 2, …) nor "
                          "an empty node ID (3.1)", path=path, line=line)
    if number < 0:
        raise FormatError(f"word ID {shorten(node_id)!r}; expected at most {INDEX_DIGITS} "
                          "digits", path=path, line=line)
    after = f" after word {word}" if word else ""
    raise FormatError(f"word ID {node_id!r}{after}; expected {word + 1} (the words of a "
                      "sentence are numbered 1, 2, 3 … in order)", path=path, line=line)


def empty_number(node_id: str, word: int, empty: int, path: str, line: int) -> int:
    """The decimal of an empty node ID ``N.M``: N is the word before it (``word``, 0 before
    the first), M follows the previous empty node's (``empty``) after that word."""
    before, _, decimal = node_id.partition(".")
    number = _number(decimal)
    if number > empty and before == str(word):
        return number
    if not _valid_id(node_id):
        raise FormatError(f"token ID {shorten(node_id)!r} is neither a word ID (1, 2, …) nor "
                          "an empty node ID (3.1)", path=path, line=line)
    raise FormatError(f"empty node ID {shorten(node_id)!r}; expected {word}.{empty + 1} (the "
                      "empty nodes after word N are numbered N.1, N.2 … in order)",
                      path=path, line=line)


def _valid_id(node_id: str) -> bool:
    """Whether ``node_id`` is written as a word ID or an empty node ID, whatever its place."""
    word, dot, decimal = node_id.partition(".")
    return digits(word) and (not dot or digits(decimal))


def check_range(node_id: str, word: int, path: str, line: int) -> None:
    """A multiword token's ``N-M`` names words N to M (N < M) after the sentence's ``word``."""
    first, _, last = node_id.partition("-")
    if not word < _number(first) < _number(last):
        raise FormatError(f"multiword token {shorten(node_id)!r}; expected N-M for the words N "
                          f"to M that follow, such as '{word + 1}-{word + 2}'",
                          path=path, line=line)
