"""Marked-up text: the response form generative systems write.

A system that rewrites its input with the mentions marked — an LLM asked to annotate a text —
gives the text itself, not tokens. anascore reads one convention, the bracket form of several
LLM coreference papers and prompts::

    # newdoc id = doc1
    [Anna|1] met [her|1] friend [[Bob|2]'s sister|3] at the station.

Rules this reader enforces (each violation is a :class:`~anascore.core.errors.FormatError` naming
the file, the line and what was expected):

* ``[`` opens a mention; ``|ID]`` closes the innermost open one and names its entity (``ID``:
  letters, digits, ``_``, ``-``, ``.``). Mentions nest; every mention opened is closed, in
  the same document.
* ``\\[``, ``\\]``, ``\\|`` and ``\\\\`` are the literal characters. Outside a mention ``|`` and
  ``]`` need no escape only when they cannot be read as a closing (a ``]`` with no open
  mention is an error: escape it).
* ``# newdoc id = NAME`` starts a document (the CoNLL-U comment); text before the first one
  (white space alone is none), or a file without one, is one document without a name,
  which is paired with the key's document when the key has exactly one.
  Other lines starting with ``#`` are text.
* Everything else is text, line breaks included.

The text is split into tokens at white space and at every mention boundary (``[Bob|2]'s``
gives ``Bob`` and ``'s``); the response is then scored on the key's tokens through their
characters (:mod:`anascore.formats.io.token_alignment`), so the key may be in any format. The text
must
be the key's up to white space (and the normalizations listed there).

Read only: :mod:`anascore.formats.writers.markup` refuses to write it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from anascore.config.format_catalogue import UNNAMED
from anascore.core.errors import FormatError, shorten
from anascore.core.model import Document, Entity, Mention, SpanTokens
from anascore.formats.io.text_files import open_text

_NEWDOC = re.compile(r"#\s*newdoc\s+id\s*=\s*(.*?)\s*$")
_CLOSING = re.compile(r"\|([A-Za-z0-9_.\-]+)\]")
_ESCAPED = frozenset("[]|\\")


@dataclass
class _Builder:
    name: str
    line: int
    characters: list[str] = field(default_factory=list)
    #: Character offsets where a token must end (mention boundaries).
    cuts: set[int] = field(default_factory=set)
    #: (start offset, first line) of each open mention, innermost last.
    open: list[tuple[int, int]] = field(default_factory=list)
    #: (start, end, entity id) of each closed mention, in character offsets.
    spans: list[tuple[int, int, str]] = field(default_factory=list)


def read_markup(path: str | os.PathLike[str]) -> Iterator[Document]:
    """Yield the documents of a marked-up text file."""
    path = os.fspath(path)
    builder: _Builder | None = None
    with open_text(path) as stream:
        for number, raw in enumerate(stream, start=1):
            match = _NEWDOC.match(raw)
            if match:
                if builder is not None and (builder.name != UNNAMED or builder.open
                                            or builder.spans
                                            or "".join(builder.characters).strip()):
                    # (blank lines before the first '# newdoc' are no document)
                    yield _finish(builder, path)
                builder = _Builder(match.group(1), number)
                continue
            if builder is None:
                builder = _Builder(UNNAMED, number)
            _scan(raw, number, builder, path)
    if builder is None:
        raise FormatError("no text; expected marked-up text such as '[Anna|1] met [her|1]'",
                          path=path)
    yield _finish(builder, path)


def _scan(line: str, number: int, builder: _Builder, path: str) -> None:
    index = 0
    while index < len(line):
        character = line[index]
        if character == "\\" and index + 1 < len(line) and line[index + 1] in _ESCAPED:
            builder.characters.append(line[index + 1])
            index += 2
            continue
        if character == "[":
            builder.cuts.add(len(builder.characters))
            builder.open.append((len(builder.characters), number))
            index += 1
            continue
        if character == "|" and builder.open:
            closing = _CLOSING.match(line, index)
            if closing:
                start, _ = builder.open.pop()
                end = len(builder.characters)
                if end == start:
                    raise FormatError(f"empty mention of entity {shorten(closing.group(1))!r}; "
                                      "expected text between '[' and '|'", path=path,
                                      line=number)
                builder.spans.append((start, end, closing.group(1)))
                builder.cuts.add(end)
                index = closing.end()
                continue
        if character == "]":
            raise FormatError(f"']' at column {index + 1} closes no mention; expected "
                              "'|ID]' after a mention's text, or '\\]' for the character",
                              path=path, line=number)
        builder.characters.append(character)
        index += 1


def _finish(builder: _Builder, path: str) -> Document:
    if builder.open:
        start, line = builder.open[-1]
        text = "".join(builder.characters[start:start + 30])
        raise FormatError(f"the mention opened here ({text!r}…) is never closed; expected "
                          "'|ID]' before the document ends", path=path, line=line)
    tokens: list[str] = []
    token_of: list[int] = []  # for each character offset, its token (-1: white space)
    current: list[str] = []
    for offset, character in enumerate(builder.characters):
        if offset in builder.cuts and current:
            tokens.append("".join(current))
            current = []
        if character.isspace():
            if current:
                tokens.append("".join(current))
                current = []
            token_of.append(-1)
            continue
        current.append(character)
        token_of.append(len(tokens))
    if current:
        tokens.append("".join(current))
    first_word, last_word = _words_around(token_of)
    entities: dict[str, list[Mention]] = {}
    spans = SpanTokens()  # copies of a span share its positions
    for start, end, entity in builder.spans:
        first, last = first_word[start], last_word[end - 1]
        if first > last:
            raise FormatError(f"a mention of entity {shorten(entity)!r} holds only white space; "
                              "expected words", path=path, line=builder.line)
        entities.setdefault(entity, []).append(Mention.span(first, last, spans=spans))
    return Document(
        name=builder.name, tokens=tuple(tokens),
        # A mention marked twice stays twice, as every reader leaves it: scoring keeps one
        # copy and warns (anascore.selection.sides), the same for every format.
        entities=tuple(Entity(name, tuple(sorted(mentions, key=lambda m: m.tokens)))
                       for name, mentions in entities.items()),
        path=path, source_format="markup", line=builder.line)


def _words_around(token_of: list[int]) -> tuple[list[int], list[int]]:
    """For each character offset, the token of the first word character at or after it and
    of the last at or before it (past the ends: one more than the last token, and -1).

    A mention's tokens are then found in constant time from its two offsets: walking its
    characters took time and memory in the product of its copies and its length (2,000
    nested copies of a long span)."""
    first_word = [0] * (len(token_of) + 1)
    first_word[-1] = following = (max(token_of) + 1) if token_of else 0
    for offset in range(len(token_of) - 1, -1, -1):
        if token_of[offset] >= 0:
            following = token_of[offset]
        first_word[offset] = following
    last_word = [0] * len(token_of)
    preceding = -1
    for offset, token in enumerate(token_of):
        if token >= 0:
            preceding = token
        last_word[offset] = preceding
    return first_word, last_word
