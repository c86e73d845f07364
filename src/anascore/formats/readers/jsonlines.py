"""jsonlines: one JSON document per line, the convention of neural coreference systems.

The e2e-coref convention (Lee et al. 2017, ``kentonl/e2e-coref``) and its descendants
(SpanBERT, coref-hoi, …). Rules this reader enforces (each violation a
:class:`~anascore.core.errors.FormatError` naming the file and line):

* Each non-blank line is a JSON object with ``"doc_key"`` (a string: the document's name),
  ``"sentences"`` (a list of sentences, each a list of token strings) and ``"clusters"`` (a
  list of entities, each a list of ``[start, end]`` spans).
* Spans index the tokens of the flattened sentences from 0; ``end`` is **inclusive** (the
  e2e-coref convention), or exclusive when the reader is asked for it
  (``exclusive_ends=True``, ``--exclusive-ends``). ``0 ≤ start ≤ end < number of tokens``.
* A response file may hold its entities under ``"predicted_clusters"`` (what e2e-coref and
  its descendants write, next to the gold ``"clusters"``): when reading a response, those are
  used when present; a key always reads ``"clusters"``. So one prediction file can be scored
  against itself: ``anascore score out.jsonlines out.jsonlines``.
* Other keys (``speakers``, ``sentence_map``, ``subtoken_map``, …) are ignored. A key given
  twice in one object (at any depth) is an error: ``json`` would keep the last value.

Entities are named by their index in the list (``"0"``, ``"1"`` …).

Writing: :mod:`anascore.formats.writers.jsonlines`.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from itertools import pairwise
from typing import Any

from anascore.core.errors import FormatError, shorten
from anascore.core.model import Document, Entity, Mention, SpanTokens
from anascore.formats.io.text_files import open_text


def read_jsonlines(path: str | os.PathLike[str], *, exclusive_ends: bool = False,
                   role: str = "key") -> Iterator[Document]:
    """Yield the documents of a jsonlines file in file order (``role``: ``"key"`` or
    ``"response"``, which decides whether ``predicted_clusters`` are read)."""
    path = os.fspath(path)
    seen_any = False
    line_number = 0
    with open_text(path) as lines:
        for line_number, raw in enumerate(lines, start=1):
            if not raw.strip():
                continue
            try:
                record = json.loads(raw, object_pairs_hook=_object)
            except _KeyTwice as twice:
                raise FormatError(f"key {shorten(twice.key)!r} given twice in one JSON object; "
                                  "expected each key once", path=path,
                                  line=line_number) from None
            except json.JSONDecodeError as error:
                raise FormatError(f"not a JSON object ({error.msg} at column {error.colno}); "
                                  "expected one document per line", path=path,
                                  line=line_number) from None
            except ValueError:  # Python reads no number of over 4,300 digits
                raise FormatError("a number of over 4,300 digits; expected token positions",
                                  path=path, line=line_number) from None
            except RecursionError:
                raise FormatError("JSON nested too deeply to read; expected one document "
                                  "per line, clusters three lists deep", path=path,
                                  line=line_number) from None
            if _SURROGATE_ESCAPE.search(raw):
                _check_text(record, path, line_number)
            seen_any = True
            yield _document(record, path, line_number, exclusive_ends, role)
    if not seen_any:
        raise FormatError("no document found; expected one JSON object per line",
                          path=path, line=line_number or None)


class _KeyTwice(Exception):
    """A JSON object gives one key twice (:func:`_object`)."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refusing a key given twice: ``json`` would keep the last value (a
    second ``"clusters"`` silently replacing the first), where nobody can tell which one the
    writer meant."""
    record = dict(pairs)
    if len(record) < len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _KeyTwice(key)
            seen.add(key)
    return record


#: A JSON escape of a UTF-16 surrogate: valid only in pairs (``\ud83d\ude00``); a lone one
#: decodes to a string no output can encode.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _check_text(record: Any, path: str, line: int) -> None:
    """Every string of the record encodes as UTF-8 (a lone surrogate does not)."""
    strings: list[Any] = [record]
    while strings:
        value = strings.pop()
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise FormatError(f"{shorten(value)!r} holds a lone UTF-16 surrogate "
                                  "(\\ud800-\\udfff without its pair); expected text",
                                  path=path, line=line) from None
        elif isinstance(value, dict):
            strings.extend(value.keys())
            strings.extend(value.values())
        elif isinstance(value, list):
            strings.extend(value)


def _document(record: Any, path: str, line: int, exclusive_ends: bool, role: str) -> Document:
    if not isinstance(record, dict):
        raise FormatError("expected a JSON object with doc_key, sentences and clusters",
                          path=path, line=line)
    name = record.get("doc_key")
    if not isinstance(name, str):
        raise FormatError("missing or non-string \"doc_key\"; expected the document's name",
                          path=path, line=line)
    sentences = record.get("sentences")
    if not isinstance(sentences, list) or not all(
            isinstance(sentence, list) and all(isinstance(token, str) for token in sentence)
            for sentence in sentences):
        raise FormatError("\"sentences\" must be a list of lists of token strings",
                          path=path, line=line)
    tokens: list[str] = []
    starts: list[int] = []
    for sentence in sentences:
        starts.append(len(tokens))
        tokens.extend(sentence)
    word_of = _subtoken_map(record, len(tokens), path, line)
    key = "clusters"
    if role == "response" and "predicted_clusters" in record:
        key = "predicted_clusters"
    clusters = record.get(key)
    if not isinstance(clusters, list):
        raise FormatError(f"missing \"{key}\"; expected a list of entities, each a list of "
                          "[start, end] spans", path=path, line=line)
    entities = []
    spans = SpanTokens()  # copies of a span share its positions
    for number, cluster in enumerate(clusters):
        if not isinstance(cluster, list):
            raise FormatError(f"{key}[{number}] is not a list of spans", path=path, line=line)
        mentions = []
        for span in cluster:
            if (not isinstance(span, list) or len(span) != 2
                    or not all(isinstance(value, int) and not isinstance(value, bool)
                               for value in span)):
                raise FormatError(f"{key}[{number}] holds {shorten(repr(span))}; expected "
                                  "[start, end] token indices", path=path, line=line)
            start, end = span
            if exclusive_ends:
                end -= 1
            if not 0 <= start <= end < len(tokens):
                ends = "exclusive" if exclusive_ends else "inclusive"
                raise FormatError(
                    f"{key}[{number}] span {span!r} is outside the document's {len(tokens)} "
                    f"tokens or empty (ends read as {ends}"
                    f"{'' if exclusive_ends else '; use --exclusive-ends for [start, end)'})",
                    path=path, line=line)
            if word_of is not None:
                start, end = word_of[start], word_of[end]
            mentions.append(Mention.span(start, end, line, spans))
        entities.append(Entity(str(number), tuple(mentions)))
    if word_of is not None:
        tokens, starts = _words(tokens, word_of, starts)
    return Document(name=name, tokens=tuple(tokens), entities=tuple(entities), path=path,
                    line=line, sentence_starts=tuple(starts), source_format="jsonlines")


#: Sub-word models' special tokens, which are no part of the text.
_SPECIAL_TOKENS = frozenset({"[CLS]", "[SEP]", "<s>", "</s>", "[PAD]", "<pad>"})


def _subtoken_map(record: dict[str, Any], count: int, path: str, line: int) -> list[int] | None:
    """e2e-coref's ``subtoken_map``: for each sub-word token of ``sentences``, the word it is
    part of (``None`` when the record has none)."""
    mapping = record.get("subtoken_map")
    if mapping is None:
        return None
    if (not isinstance(mapping, list) or len(mapping) != count
            or not all(isinstance(word, int) and not isinstance(word, bool) and word >= 0
                       for word in mapping)
            or any(later < earlier for earlier, later in pairwise(mapping))):
        raise FormatError(f"\"subtoken_map\" must give, for each of the {count} sub-word "
                          "tokens of \"sentences\", the number of its word, never decreasing",
                          path=path, line=line)
    return mapping


def _words(pieces: list[str], word_of: list[int],
           starts: list[int]) -> tuple[list[str], list[int]]:
    """The words sub-word pieces make (markers ``##``, ``▁``, ``Ġ`` and special tokens left
    out), and the sentences' first words."""
    from anascore.formats.io.token_alignment import normalized

    words: dict[int, str] = {}
    for piece, word in zip(pieces, word_of, strict=True):
        if piece not in _SPECIAL_TOKENS:
            words[word] = words.get(word, "") + normalized(piece)
    count = (max(word_of) + 1) if word_of else 0
    text = [words.get(word, "") for word in range(count)]
    return text, sorted({word_of[start] for start in starts if start < len(word_of)})
