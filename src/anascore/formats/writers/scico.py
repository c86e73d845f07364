"""Writing SciCo topics, one JSON object per line (the format:
:mod:`anascore.formats.readers.scico`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from typing import Any

from anascore.core.errors import FormatError
from anascore.core.model import Document
from anascore.formats.io.output import atomic_output


def write_scico(documents: Iterable[Document], path: str | os.PathLike[str]) -> None:
    """Write documents as SciCo topics, one line per topic (a document without a topic is a
    topic of its own in the flattened layout, :func:`_flattened`, which reads back under the
    document's name): ``id`` (an integer when it reads as one),
    ``tokens`` (each document a paragraph, in order), ``mentions`` and ``flatten_tokens``,
    ``flatten_mentions`` alike, ``sentences`` (each paragraph's ``[start, end]``, ends
    exclusive as SciCo's), ``doc_ids`` (the documents' names). Discontinuous mentions and
    what else CoNLL-2012 cannot hold are refused."""
    topics: dict[str, list[Document]] = {}
    alone: dict[str, Document] = {}  # documents without a topic, by name
    for document in documents:
        _refuse_unsupported(document)
        if document.topic is None:
            alone[document.name] = document
            topics.setdefault(document.name, [])
        else:
            topics.setdefault(document.topic, []).append(document)
    with atomic_output(path) as stream:
        for topic, members in topics.items():
            if not members:
                stream.write(json.dumps(_flattened(alone[topic]), ensure_ascii=False) + "\n")
                continue
            flatten_tokens: list[str] = []
            mentions: list[list[Any]] = []
            flatten_mentions: list[list[Any]] = []
            sentences = []
            for index, document in enumerate(members):
                offset = len(flatten_tokens)
                flatten_tokens.extend(document.tokens)
                for entity in document.entities:
                    cluster = _identifier(entity.id)
                    for mention in entity.mentions:
                        mentions.append([index, mention.start, mention.end, cluster])
                        flatten_mentions.append([offset + mention.start, offset + mention.end,
                                                 cluster])
                starts = [start for start in document.sentence_starts
                          if 0 <= start < len(document.tokens)] or [0]
                ends = [*starts[1:], len(document.tokens)]
                sentences.append([[start, end] for start, end in zip(starts, ends, strict=True)
                                  if start < end])
            stream.write(json.dumps({
                "id": _identifier(topic), "tokens": [list(document.tokens) for document in members],
                "mentions": mentions, "flatten_tokens": flatten_tokens,
                "flatten_mentions": flatten_mentions, "sentences": sentences,
                "doc_ids": [document.name for document in members]}, ensure_ascii=False) + "\n")


def _flattened(document: Document) -> dict[str, Any]:
    """A document without a topic as a topic of its own in the flattened layout, which names
    its one document by the topic's ``id``: ``id`` the document's name, ``flatten_tokens``,
    ``flatten_mentions`` and ``sentences`` (``[start, end]``, ends exclusive)."""
    starts = [start for start in document.sentence_starts
              if 0 <= start < len(document.tokens)] or [0]
    ends = [*starts[1:], len(document.tokens)]
    return {"id": _identifier(document.name), "flatten_tokens": list(document.tokens),
            "flatten_mentions": [[mention.start, mention.end, _identifier(entity.id)]
                                 for entity in document.entities
                                 for mention in entity.mentions],
            "sentences": [[start, end] for start, end in zip(starts, ends, strict=True)
                          if start < end]}


def _identifier(name: str) -> int | str:
    """A name as SciCo writes IDs: an integer when it reads back as the same name."""
    try:
        return int(name) if str(int(name)) == name else name
    except ValueError:
        return name


def _refuse_unsupported(document: Document) -> None:
    from anascore.formats.io.conversion import describe, unsupported_content

    lost = unsupported_content(document, "scico")
    if lost:
        raise FormatError(f"document {document.name!r} has {describe(lost)}; SciCo cannot "
                          "hold it")
