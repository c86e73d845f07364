"""Document names as people write them, to name the key document a response meant.

Key and response documents are paired by exact name, as the reference scorer pairs them. When a
response document has no counterpart, the error names the key documents it most likely meant:
the one the same document's name in another convention gives (the OntoNotes name
``(bc/cctv/00/cctv_0000); part 000`` is ``bc/cctv/00/cctv_0000_0`` as an e2e-coref
``doc_key``, and ``part 0`` is ``part 000``), else the closest by spelling (``difflib``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from anascore.core.errors import shorten

# The patterns are kept as text and compiled when first used (``re`` caches them): a run
# whose documents all pair by their exact names needs neither.
_CONLL_NAME = r"^\(?(?P<document>[^()]*?)\)?;\s*part\s+(?P<part>\d+)$"
_E2E_KEY = r"^(?P<document>.*?)_(?P<part>\d+)$"


def normalized(name: str) -> tuple[str, int | str] | str:
    """A name with its conventions taken away: ``(document, part)`` when it names a part
    (in CoNLL-2012's or e2e-coref's way), else the name without surrounding white space. A
    part of more than 18 digits stays its digits (without leading zeros): ``int`` refuses
    more than 4,300, and no two such parts are one number unless they are one text."""
    name = name.strip()
    for pattern in (_CONLL_NAME, _E2E_KEY):
        match = re.match(pattern, name)
        if match:
            part = match.group("part").lstrip("0") or "0"
            return match.group("document").strip(), int(part) if len(part) <= 18 else part
    return name


def bare_name(name: str) -> str:
    """A CoNLL-2012 document name without its wrapping: ``(36_1ecb); part 000`` is
    ``36_1ecb`` (any other name is itself), so that a pattern over document names (a topic's)
    reads the same name in every format."""
    match = re.match(_CONLL_NAME, name.strip())
    return name if match is None else match.group("document").strip()


def nearest(name: str, candidates: Iterable[str], count: int = 3) -> list[str]:
    """The candidates ``name`` most likely means: the same document written in another
    convention first, then the closest spellings."""
    candidates = list(candidates)
    target = normalized(name)
    same = [candidate for candidate in candidates if normalized(candidate) == target]
    if same:
        return same[:count]
    import difflib  # only when a name is missing

    return difflib.get_close_matches(name, candidates, n=count, cutoff=0.6)


_PAIR_NORMALIZED = ("--pair-documents normalized (pair_documents='normalized') pairs documents "
                    "whose names differ only so")


def pairing_key(name: str, pairing: str) -> tuple[str, int | str] | str:
    """What pairs a document's name with another under ``pairing``
    (:data:`DOCUMENT_PAIRINGS`): the name itself, or its :func:`normalized` form."""
    return normalized(name) if pairing == "normalized" else name


def paired_warning(path: str, response_name: str, key_name: str) -> str:
    """The warning naming one pairing of two documents of different names."""
    return (f"{path}: response document {shorten(response_name)!r} paired with key document "
            f"{shorten(key_name)!r} (--pair-documents normalized)")


def _guessed(name: str, key_names: list[str]) -> str:
    """``; did you mean …?`` for ``name`` (nothing when nothing is near), and how to pair it
    when the guess is the same name in another convention."""
    guesses = nearest(name, key_names)
    if not guesses:
        return ""
    said = f"; did you mean {' or '.join(repr(shorten(guess)) for guess in guesses)}?"
    if normalized(guesses[0]) == normalized(name) and guesses[0] != name:
        said += f" {_PAIR_NORMALIZED}"
    return said


def not_in_key_message(extra: list[str], key_names: Iterable[str], key_path: str | None) -> str:
    """The error of response documents the key lacks, naming what each most likely meant."""
    key_names = list(key_names)
    shown = ", ".join(repr(shorten(name)) for name in extra[:3])
    more = f" and {len(extra) - 3} more" if len(extra) > 3 else ""
    where = f" {key_path}" if key_path else ""
    message = f"response document {shown}{more} not in the key{where}" + _guessed(
        extra[0], key_names)
    return (message + "; --key-documents-only (key_documents_only=True) scores the key's "
            "documents and ignores the others")


def none_paired_message(extra: list[str], key_names: Iterable[str], key_path: str | None) -> str:
    """The error of a response none of whose documents is in the key: whatever the flags,
    scoring it would score every key document against nothing (CoNLL 0.00), most often
    because the names are written in another convention."""
    where = f" {key_path}" if key_path else ""
    count = (f"its {len(extra)} documents ({shorten(extra[0])!r} and {len(extra) - 1} more) "
             "are not in the key" if len(extra) > 1
             else f"its document {shorten(extra[0])!r} is not in the key")
    guess = _guessed(extra[0], list(key_names))
    return (f"no document of the response is in the key{where}: {count}"
            + (guess or "; is it the output for this key?"))
