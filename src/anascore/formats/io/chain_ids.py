"""Chain IDs are names: what other scorers make of them, said before it costs a score.

anascore compares chain IDs as strings, everywhere: ``ACT16`` and ``NEG16`` are two chains, and
so are ``16`` and ``016``. Other scorers do not:

* CoVal reads only the digits of an ID (``coval/conll/reader.py``, ``extract_coref_annotation``:
  ``int(''.join(digits))``), so ``ACT16`` and ``NEG16`` become chain 16, one chain; an ID
  without digits is skipped with its mentions. In the ECB+ test set of Barhom et al. 2019
  (``ECB_Test_*_gold_mentions.json``) as one corpus, three pairs of event chains merge so
  (``Singleton_ACT_26_36_4ecb`` and ``Singleton_ACT_26_36_4ecbplus`` among them), two of
  entity chains, seven when events and entities are scored together.
* The Perl scorer reads only IDs of digits (``CorScorer.pm``: ``\\((\\d+)\\)``); ``(ACT16)``
  is no mention to it. ``anascore convert --to conll2012`` therefore maps IDs to integers
  (:func:`integer_ids`), and writes the map beside the output.

:func:`id_warnings` names, for one scoring unit, the chains whose IDs collide: the same ID on
both event and entity mentions (mention types ``ACT``/``NEG`` against the others, as ECB+
and the files made from it mark them: read as one chain, as the file says), and distinct IDs
with the same digits (kept apart here, merged by CoVal). The second is checked for the
cross-document formats, whose IDs are strings (``mentionjson``, ``cattan``, ``scico``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import chain
from operator import attrgetter

from anascore.config.format_catalogue import names_where
from anascore.core.model import Document

#: Formats whose chain IDs are strings that other scorers read by their digits.
STRING_ID_FORMATS = names_where(lambda facts: facts.string_ids)
#: ECB+'s event mention types (Cattan et al.'s ``get_ecb_data.py`` and Barhom et al. take a
#: mention whose type starts with one of these as an event; every other type is an entity).
EVENT_TYPES = ("ACT", "NEG")
# The patterns are kept as text and compiled when first used (``re`` caches them): a run
# of integer chain IDs that writes nothing needs none of them.
_CANONICAL = r"0|[1-9][0-9]*"
_DIGIT = r"[0-9]"
_ATTRIBUTES = attrgetter("attributes")


def coval_chain(chain_id: str) -> int | None:
    """The chain CoVal reads an ID as: the number its digits make (``None``: no digit, and
    CoVal skips the mention)."""
    digits = "".join(re.findall(_DIGIT, chain_id))
    return int(digits) if digits else None


def is_event(mention_type: str) -> bool:
    """Whether an ECB+ mention type is an event's (``ACTION_OCCURRENCE``, ``NEG_…``)."""
    return mention_type.startswith(EVENT_TYPES)


def id_warnings(document: Document, role: str) -> list[str]:
    """Warnings about the chain IDs of one scoring unit (``role``: ``key`` or ``response``):
    IDs on both event and entity mentions, and (string-ID formats) distinct IDs CoVal would
    merge; empty when there is nothing to say."""
    warnings: list[str] = []
    mixed = _mixed_chains(document)
    string_ids = document.source_format in STRING_ID_FORMATS
    if not mixed and not string_ids:
        return warnings  # nothing to say (most documents): not even where
    where = (f"{document.path}: " if document.path else "") + f"{role} document {document.name!r}"
    if mixed:
        warnings.append(
            f"{where}: {_count(len(mixed), 'chain ID')} on both event and entity mentions "
            f"(first: {mixed[0]!r}), each read as one chain, as written; give event and entity "
            "chains distinct IDs if they are not one chain")
    if string_ids:
        groups = _same_digits(entity.id for entity in document.entities)
        if groups:
            first = groups[0]
            warnings.append(
                f"{where}: {_count(sum(map(len, groups)), 'chain ID')} share their digits with "
                f"another ({_count(len(groups), 'group')}; first: "
                f"{', '.join(map(repr, first[:3]))} → {coval_chain(first[0])}): anascore keeps "
                "them apart, CoVal reads only the digits and would merge each group into one "
                "chain")
    return warnings


def _mixed_chains(document: Document) -> list[str]:
    """The IDs of the entities with both event and entity mentions, in order.

    Each entity's mention types are read only when the document has both kinds somewhere:
    most documents give no mention type at all (one pass over the mentions says so)."""
    mentions = list(chain.from_iterable([entity.mentions for entity in document.entities]))
    if not any(map(_ATTRIBUTES, mentions)):
        return []  # no mention has an attribute (one pass in C)
    kinds = {kind for mention in mentions
             if (kind := mention.attributes.get("mention_type")) is not None}
    if len({is_event(kind) for kind in kinds}) < 2:
        return []
    return [entity.id for entity in document.entities
            if len({is_event(kind) for mention in entity.mentions
                    if (kind := mention.attributes.get("mention_type")) is not None}) == 2]


def _same_digits(ids: Iterable[str]) -> list[list[str]]:
    """Groups of distinct IDs that CoVal reads as one chain, in order of first appearance."""
    groups: dict[int, list[str]] = {}
    for chain_id in dict.fromkeys(ids):
        number = coval_chain(chain_id)
        if number is not None:
            groups.setdefault(number, []).append(chain_id)
    return [group for group in groups.values() if len(group) > 1]


def _count(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def integer_ids(documents: Iterable[Document]) -> dict[str, int] | None:
    """Integers for the chain IDs of ``documents`` (one ID, one integer, across every
    document: IDs are global at topic and corpus level), from 1 in order of first appearance;
    ``None`` when every ID already is a decimal integer as the Perl scorer reads one (no
    sign, no leading zero), which is then written as it is."""
    ids = dict.fromkeys(entity.id for document in documents for entity in document.entities)
    canonical = re.compile(_CANONICAL).fullmatch
    if all(canonical(chain_id) for chain_id in ids):
        return None
    return {chain_id: number for number, chain_id in enumerate(ids, start=1)}


def escaped(text: str) -> str:
    """An ID for one cell of a tab-separated file: backslash, tab and every line break
    escaped (``\\\\``, ``\\t``, ``\\n``, ``\\r``, others as ``\\uXXXX``), so that each ID stays
    in its cell and on its line."""
    return re.sub(_SPECIAL,
                  lambda match: _ESCAPES.get(match.group(), f"\\u{ord(match.group()):04x}"), text)


_ESCAPES = {"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"}
_SPECIAL = "[\\\\\t\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]"
