"""Mention records in JSON: the cross-document format of Barhom et al. 2019, WEC-Eng and uCDCR.

A file is one JSON array of mention objects (or one object per line). Rules this reader
enforces (each violation a :class:`~anascore.core.errors.FormatError` naming the file, the line
where the record starts, the record's index and what was expected):

* Each record is an object with ``coref_chain`` (a string or an integer: the chain's ID,
  kept as a name, never read as a number), ``doc_id`` (string or integer), ``sent_id``
  (integer or string) and ``tokens_number`` (a non-empty list of distinct non-negative
  integers: the mention's tokens within its sentence).
* A mention is identified by ``(document, sent_id, tokens_number)``. The document is named by
  ``conll_doc_key`` when the record has one (uCDCR's ``topic/subtopic/doc``: uCDCR's
  ``doc_id`` repeats across topics), else by ``doc_id``.
* ``topic_id`` (else ``topic``) and ``subtopic_id`` (else ``subtopic``), when given, fill
  ``Document.topic`` and ``Document.subtopic``; every record of a document must give the
  same ones (two topics for one document would merge documents that are not one).
* ``coref_chain`` ``"-"`` (Barhom's predicted-mention files, which carry no chains yet) names
  no chain and is refused: such a file is the input of a system, not a response.
* ``mention_type`` (``ACT``, ``NEG``, ``HUM`` …), when given, is kept as the mention's
  ``mention_type`` attribute: the ID checks of :mod:`anascore.formats.io.chain_ids` tell event
  chains
  from entity chains by it.
* Other fields (``is_singleton``, ``mention_context``, ``score`` …) are ignored.

The file holds mentions, not text, so each document's tokens are made from the mentions'
positions: the sentences in order of their ID (integers by value, before names), each as wide
as its highest token number + 1; position = the sentence's offset + the token number. A
response over the key's mentions (the ECB+ "gold mentions" setup) thus has the key's
positions whatever the order of its records, and pairs mention for mention. A token's text
is the mention's ``tokens_text`` (uCDCR) or its ``tokens_str`` split at spaces when that has
one word per token; ``_`` where no record says. The original coordinates are kept as the
token columns ``sent_id`` (the ID as JSON: ``3`` or ``"3"``) and ``token_number``, for the
writer.

The same mention twice (uCDCR's ECB+ test events hold 4 such pairs, each in two chains) is
kept as written: scoring counts a repeated mention once, with a warning
(:mod:`anascore.selection.sides`).

Writing: :mod:`anascore.formats.writers.mentionjson`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from anascore.core.errors import FormatError
from anascore.core.model import Document, Entity, Mention
from anascore.formats.json_records import is_integer, json_records, name_of

_EXPECTED = ("a mention object with coref_chain, doc_id, sent_id and tokens_number")
#: The placeholder of a token whose text the file does not give.
NO_TEXT = "_"


@dataclass
class _Builder:
    """What the records of one document gave so far."""

    name: str
    line: int
    topic: str | None
    subtopic: str | None
    mentions: list[tuple[str, Any, tuple[int, ...], int, str | None]] = field(
        default_factory=list)
    text: dict[tuple[Any, int], str] = field(default_factory=dict)


def read_mentionjson(path: str | os.PathLike[str]) -> Iterator[Document]:
    """Yield the documents of a mention-record JSON file, in order of their first record."""
    path = os.fspath(path)
    documents: dict[str, _Builder] = {}
    for index, line, record in json_records(path, _EXPECTED):
        _take(record, index, line, path, documents)
    if not documents:
        raise FormatError(f"no mention found; expected a JSON array of {_EXPECTED}s",
                          path=path, line=1)
    for builder in documents.values():
        yield _document(builder, path)


def _take(record: Any, index: int, line: int, path: str,
          documents: dict[str, _Builder]) -> None:
    """Add one record to its document."""
    where = f"record {index}"
    if not isinstance(record, dict):
        raise FormatError(f"{where} is not an object; expected {_EXPECTED}", path=path,
                          line=line)
    chain = name_of(record.get("coref_chain"))
    if chain is None:
        raise FormatError(f"{where}: coref_chain is {_shown(record, 'coref_chain')}; expected "
                          "the chain's ID, a string or an integer", path=path, line=line)
    if chain == "-":
        raise FormatError(f"{where}: coref_chain '-' names no chain (a file of predicted "
                          "mentions before coreference); expected the mention's chain ID",
                          path=path, line=line)
    name = name_of(record.get("conll_doc_key")) or name_of(record.get("doc_id"))
    if name is None:
        raise FormatError(f"{where}: doc_id is {_shown(record, 'doc_id')}; expected the "
                          "document's ID, a string or an integer", path=path, line=line)
    sentence = record.get("sent_id")
    if not (is_integer(sentence) or isinstance(sentence, str)):
        raise FormatError(f"{where}: sent_id is {_shown(record, 'sent_id')}; expected the "
                          "sentence's ID, an integer or a string", path=path, line=line)
    numbers = record.get("tokens_number")
    if (not isinstance(numbers, list) or not numbers
            or not all(is_integer(number) and number >= 0 for number in numbers)
            or len(set(numbers)) != len(numbers)):
        raise FormatError(f"{where}: tokens_number is {_shown(record, 'tokens_number')}; "
                          "expected a non-empty list of distinct token numbers (integers from "
                          "0) within the sentence", path=path, line=line)
    topic = _optional_name(record, ("topic_id", "topic"), where, path, line)
    subtopic = _optional_name(record, ("subtopic_id", "subtopic"), where, path, line)
    builder = documents.get(name)
    if builder is None:
        builder = documents[name] = _Builder(name, line, topic, subtopic)
    elif (builder.topic, builder.subtopic) != (topic, subtopic):
        raise FormatError(
            f"{where}: document {name!r} is in topic {topic!r}, subtopic {subtopic!r} here but "
            f"in topic {builder.topic!r}, subtopic {builder.subtopic!r} from line "
            f"{builder.line}; expected one topic per document (give each document its own "
            "doc_id, or uCDCR's conll_doc_key)", path=path, line=line)
    kind = record.get("mention_type")
    tokens = tuple(sorted(numbers))
    builder.mentions.append((chain, sentence, tokens, line,
                             kind if isinstance(kind, str) else None))
    words = _words(record, len(numbers))
    if words is not None:
        for number, word in zip(numbers, words, strict=True):
            builder.text.setdefault((sentence, number), word)


def _optional_name(record: dict[str, Any], keys: tuple[str, ...], where: str, path: str,
                   line: int) -> str | None:
    """The first of ``keys`` the record gives, as a name (``None``: none given)."""
    for key in keys:
        if key in record and record[key] is not None:
            value = name_of(record[key])
            if value is None:
                raise FormatError(f"{where}: {key} is {_shown(record, key)}; expected a "
                                  "string or an integer", path=path, line=line)
            return value
    return None


def _words(record: dict[str, Any], count: int) -> list[str] | None:
    """The mention's words, one per token, when the record gives them."""
    words = record.get("tokens_text")
    if (isinstance(words, list) and len(words) == count
            and all(isinstance(word, str) and word.strip() for word in words)):
        return [word.strip() for word in words]
    text = record.get("tokens_str")
    if isinstance(text, str) and len(text.split()) == count:
        return text.split()
    return None


def _shown(record: dict[str, Any], key: str) -> str:
    """A field's value for a message: missing, or its JSON cut to 60 characters."""
    if key not in record:
        return "missing"
    shown = json.dumps(record[key], ensure_ascii=False)
    return shown if len(shown) <= 60 else shown[:57] + "..."


def _sentence_order(sentence: Any) -> tuple[int, int, str]:
    """Sentences in order of their ID: integers by value, then names."""
    return (0, sentence, "") if is_integer(sentence) else (1, 0, sentence)


def _document(builder: _Builder, path: str) -> Document:
    """The document of one builder: tokens laid out sentence by sentence (module docstring)."""
    widths: dict[Any, int] = {}
    for _, sentence, tokens, _, _ in builder.mentions:
        widths[sentence] = max(widths.get(sentence, 0), tokens[-1] + 1)
    offsets: dict[Any, int] = {}
    words: list[str] = []
    sentence_ids: list[str] = []
    token_numbers: list[str] = []
    for sentence in sorted(widths, key=_sentence_order):
        offsets[sentence] = len(words)
        for number in range(widths[sentence]):
            words.append(builder.text.get((sentence, number), NO_TEXT))
            sentence_ids.append(json.dumps(sentence, ensure_ascii=False))
            token_numbers.append(str(number))
    chains: dict[str, list[Mention]] = {}
    for chain, sentence, tokens, line, kind in builder.mentions:
        offset = offsets[sentence]
        attributes = {"mention_type": kind} if kind is not None else {}
        chains.setdefault(chain, []).append(Mention.made(
            tuple(offset + number for number in tokens), line, None, None, attributes))
    return Document(
        name=builder.name, tokens=tuple(words),
        entities=tuple(Entity(chain, tuple(mentions)) for chain, mentions in chains.items()),
        path=path, source_format="mentionjson", line=builder.line,
        sentence_starts=tuple(sorted(offsets.values())),
        token_columns={"sent_id": tuple(sentence_ids), "token_number": tuple(token_numbers)},
        topic=builder.topic, subtopic=builder.subtopic)
