"""SciCo: one topic per line (Cattan et al. 2021, ``ariecattan/SciCo``; ``allenai/scico``).

Each non-blank line is a JSON object for one topic: ``id`` (the topic's ID, an integer or a
string) and its mentions in one of two layouts:

* ``tokens`` (a list of paragraphs, each a list of token strings) with ``mentions``
  (``[paragraph, start, end, cluster]``, ``start`` and ``end`` inclusive token numbers within
  the paragraph): what SciCo's gold files and its systems' outputs both hold, and what its
  ``evaluate.py`` scores. Without ``mentions``, ``flatten_mentions`` (``[start, end,
  cluster]`` over all the topic's tokens, in paragraph order) are placed in their paragraph.
* only ``flatten_tokens`` and ``flatten_mentions``: the topic is one document (its
  sentences from ``sentences``, ``[start, end]`` over the topic, when given: anascore's
  writer adds them to a document without a topic, written so).

Each paragraph is a :class:`~anascore.core.model.Document` named ``TOPIC/N`` (``N`` its index in
the topic from 0), with ``topic`` the topic's ID; in the flattened layout the one document is
named by the topic's ID. SciCo names a paragraph's source paper in ``doc_ids``, but its
systems' outputs do not, so the index names it (the gold file and an output pair document for
document). ``sentences`` (``[start, end]`` per sentence of each paragraph, when given and
valid) set the sentence starts. ``relations``, ``metadata``, ``source`` and the ``hard_*``
flags are ignored. Cluster IDs are names (``3`` and ``"3"`` are one chain). Every violation
is a :class:`~anascore.core.errors.FormatError` naming the file, the line and what was expected.

Writing: :mod:`anascore.formats.writers.scico`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from itertools import accumulate
from typing import Any

from anascore.core.errors import FormatError
from anascore.core.model import Document, Entity, Mention
from anascore.formats.json_records import is_integer, json_records, name_of

_EXPECTED = ("a topic object with id and either tokens and mentions or flatten_tokens and "
             "flatten_mentions")


def read_scico(path: str | os.PathLike[str]) -> Iterator[Document]:
    """Yield the documents of a SciCo file: each topic's paragraphs, topic by topic."""
    path = os.fspath(path)
    found = False
    for _, line, record in json_records(path, _EXPECTED):
        found = True
        yield from _topic(record, path, line)
    if not found:
        raise FormatError(f"no topic found; expected one JSON object per line, {_EXPECTED}",
                          path=path, line=1)


def _topic(record: Any, path: str, line: int) -> Iterator[Document]:
    if not isinstance(record, dict):
        raise FormatError(f"not an object; expected {_EXPECTED}", path=path, line=line)
    topic = name_of(record.get("id"))
    if topic is None:
        raise FormatError("missing or invalid \"id\"; expected the topic's ID, an integer or a "
                          "string", path=path, line=line)
    if "tokens" in record:
        paragraphs = _token_lists(record["tokens"], "tokens", path, line)
        if "mentions" in record:
            placed = _mentions(record["mentions"], "mentions", 4, path, line)
        else:
            placed = _placed(_mentions(record.get("flatten_mentions"), "flatten_mentions", 3,
                                       path, line), paragraphs, path, line)
        for paragraph, start, end, _ in placed:
            if not 0 <= paragraph < len(paragraphs):
                raise FormatError(f"mention [{paragraph}, {start}, {end}, …] names paragraph "
                                  f"{paragraph}; the topic has {len(paragraphs)}", path=path,
                                  line=line)
        starts = _sentence_starts(record.get("sentences"), paragraphs)
        for index, tokens in enumerate(paragraphs):
            yield _document(f"{topic}/{index}", topic, tokens,
                            [(start, end, cluster) for paragraph, start, end, cluster in placed
                             if paragraph == index], starts[index], path, line)
        return
    if "flatten_tokens" not in record:
        raise FormatError(f"neither \"tokens\" nor \"flatten_tokens\"; expected {_EXPECTED}",
                          path=path, line=line)
    [tokens] = _token_lists([record["flatten_tokens"]], "flatten_tokens", path, line)
    flat = _mentions(record.get("flatten_mentions"), "flatten_mentions", 3, path, line)
    sentences = record.get("sentences")
    [flat_starts] = _sentence_starts([sentences] if sentences is not None else None, [tokens])
    yield _document(topic, topic, tokens,
                    [(start, end, cluster) for _, start, end, cluster in flat],
                    flat_starts, path, line)


def _token_lists(value: Any, key: str, path: str, line: int) -> list[list[str]]:
    if not isinstance(value, list) or not all(
            isinstance(tokens, list) and all(isinstance(token, str) for token in tokens)
            for tokens in value):
        raise FormatError(f"\"{key}\" must be a list of token strings"
                          f"{' per paragraph' if key == 'tokens' else ''}", path=path, line=line)
    return value


def _mentions(value: Any, key: str, width: int, path: str,
              line: int) -> list[tuple[int, int, int, str]]:
    """``(paragraph, start, end, cluster)`` of each mention (paragraph 0 when ``width`` 3)."""
    shape = "[paragraph, start, end, cluster]" if width == 4 else "[start, end, cluster]"
    if not isinstance(value, list):
        raise FormatError(f"missing \"{key}\"; expected a list of {shape}", path=path, line=line)
    result = []
    for number, mention in enumerate(value):
        if (not isinstance(mention, list) or len(mention) != width
                or not all(is_integer(part) for part in mention[:-1])
                or name_of(mention[-1]) is None):
            raise FormatError(f"{key}[{number}] is {json.dumps(mention)[:60]}; expected "
                              f"{shape}, integers and a cluster ID", path=path, line=line)
        if width == 3:
            mention = [0, *mention]
        paragraph, start, end = mention[:3]
        if not 0 <= start <= end:
            raise FormatError(f"{key}[{number}] spans {start} to {end}; expected 0 <= start <= "
                              "end (inclusive)", path=path, line=line)
        result.append((paragraph, start, end, name_of(mention[-1]) or ""))
    return result


def _placed(flat: list[tuple[int, int, int, str]], paragraphs: list[list[str]], path: str,
            line: int) -> list[tuple[int, int, int, str]]:
    """Flattened mentions placed in their paragraph (one across paragraphs is an error)."""
    offsets = [0, *accumulate(len(tokens) for tokens in paragraphs)]
    result = []
    for _, start, end, cluster in flat:
        paragraph = next((index for index in range(len(paragraphs))
                          if offsets[index] <= start < offsets[index + 1]), None)
        if paragraph is None or end >= offsets[paragraph + 1]:
            raise FormatError(f"flatten_mentions [{start}, {end}, {cluster}] is not within one "
                              f"paragraph of \"tokens\" ({offsets[-1]} tokens in all)",
                              path=path, line=line)
        result.append((paragraph, start - offsets[paragraph], end - offsets[paragraph], cluster))
    return result


def _sentence_starts(value: Any, paragraphs: list[list[str]]) -> list[tuple[int, ...]]:
    """Each paragraph's sentence starts from ``sentences`` when they are valid, else one
    sentence per paragraph (the sentences only shape what writers write)."""
    default: list[tuple[int, ...]] = [(0,) if tokens else () for tokens in paragraphs]
    if not isinstance(value, list) or len(value) != len(paragraphs):
        return default
    result: list[tuple[int, ...]] = []
    for tokens, sentences, fallback in zip(paragraphs, value, default, strict=True):
        starts = sorted({span[0] for span in sentences if isinstance(span, list) and span
                         and is_integer(span[0]) and 0 <= span[0] < len(tokens)}
                        if isinstance(sentences, list) else set())
        result.append(tuple(sorted({0, *starts})) if tokens and starts else fallback)
    return result


def _document(name: str, topic: str, tokens: list[str], mentions: list[tuple[int, int, str]],
              starts: tuple[int, ...], path: str, line: int) -> Document:
    chains: dict[str, list[Mention]] = {}
    for start, end, cluster in mentions:
        if end >= len(tokens):
            raise FormatError(f"mention [{start}, {end}] of cluster {cluster} in document "
                              f"{name!r} ends past its {len(tokens)} tokens; expected inclusive "
                              "token numbers within the paragraph", path=path, line=line)
        chains.setdefault(cluster, []).append(Mention.span(start, end, line))
    return Document(name=name, tokens=tuple(tokens),
                    entities=tuple(Entity(cluster, tuple(found))
                                   for cluster, found in chains.items()),
                    path=path, source_format="scico", line=line, sentence_starts=starts,
                    topic=topic)
