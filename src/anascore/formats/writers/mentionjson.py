"""Writing mention records: one JSON array of records, one per mention (the format:
:mod:`anascore.formats.readers.mentionjson`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from typing import Any

from anascore.core.errors import FormatError
from anascore.core.model import Document
from anascore.formats.io.output import atomic_output


def mention_coordinates(document: Document) -> list[tuple[int | str, int]]:
    """Each position's ``(sentence ID, token number within the sentence)``: the file's own for
    a document read from mention records (an integer ID stays an integer, a string a string),
    else the sentence's index and the position's offset in it."""
    columns = document.token_columns
    if document.source_format == "mentionjson" and "token_number" in columns:
        return [(json.loads(sentence), int(number)) for sentence, number in
                zip(columns["sent_id"], columns["token_number"], strict=True)]
    from anascore.formats.sentences import sentence_of

    sentences = sentence_of(document)
    result: list[tuple[int | str, int]] = []
    start = 0
    for position, sentence in enumerate(sentences):
        if position and sentences[position - 1] != sentence:
            start = position
        result.append((sentence, position - start))
    return result


def write_mentionjson(documents: Iterable[Document], path: str | os.PathLike[str]) -> None:
    """Write documents as one JSON array of mention records: ``coref_chain`` (the entity's
    ID), ``doc_id`` (the document's name), ``sent_id`` and ``tokens_number`` (the source's own
    coordinates, else the sentence's index and the tokens' offsets in it), ``tokens_str``,
    ``topic_id`` and ``subtopic_id`` when the document has them, ``mention_type`` when the
    mention has it.

    Refused (:class:`FormatError`): a mention across two sentences, and what the conversion
    module finds the format cannot hold (layers other than identity, heads, MIN spans, empty
    nodes)."""
    records: list[dict[str, Any]] = []
    for document in documents:
        _refuse_unsupported(document)
        coordinates = mention_coordinates(document)
        for entity in document.entities:
            for mention in entity.mentions:
                sentences = {coordinates[token][0] for token in mention.tokens}
                if len(sentences) > 1:
                    raise FormatError(f"document {document.name!r}: entity {entity.id} has the "
                                      f"mention {mention} across sentences; mention records "
                                      "cannot hold it")
                sentence = coordinates[mention.start][0]
                record: dict[str, Any] = {
                    "coref_chain": entity.id, "doc_id": document.name,
                    "sent_id": sentence,
                    "tokens_number": [coordinates[token][1] for token in mention.tokens],
                    "tokens_str": " ".join(document.tokens[token] for token in mention.tokens),
                }
                if document.topic is not None:
                    record["topic_id"] = document.topic
                if document.subtopic is not None:
                    record["subtopic_id"] = document.subtopic
                if "mention_type" in mention.attributes:
                    record["mention_type"] = mention.attributes["mention_type"]
                records.append(record)
    with atomic_output(path) as stream:
        stream.write(json.dumps(records, ensure_ascii=False, indent=1) + "\n")


def _refuse_unsupported(document: Document) -> None:
    from anascore.formats.io.conversion import describe, unsupported_content

    lost = unsupported_content(document, "mentionjson")
    if lost:
        raise FormatError(f"document {document.name!r} has {describe(lost)}; mention records "
                          "cannot hold it")
