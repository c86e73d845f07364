"""Cattan's cross-document CoNLL: the token format of Cattan et al. 2021 (``ariecattan/coref``).

Its gold and system files (``conll.py``'s ``write_output_file``) group tokens in
``#begin document NAME`` … ``#end document`` blocks (one block for the whole corpus, or one
per topic), each token line eight tab-separated columns:

``topic  subtopic  document  sentence  token  text  flag  coreference``

``token`` is the token's number in its document (ECB+'s ``t_id``), ``flag`` ``True`` when the
sentence is one ECB+ validated for coreference (Cattan writes only those), ``coreference``
CoNLL-2012 brackets (``(12``, ``12)``, ``(12)``, ``-``; see
:mod:`anascore.formats.readers.conll2012`).
Rules this reader enforces (each violation a :class:`~anascore.core.errors.FormatError` naming
the file and line): every token line has the eight columns, the flag is ``True`` or
``False``, every mention opened in a document closes in that document, within one block.

Each value of the document column becomes a :class:`~anascore.core.model.Document` (its tokens in
file order, a new sentence where the sentence column changes), with ``topic`` and
``subtopic`` from its columns (a document in two topics is an error). A block is not a
document: a block is the unit the file's author scored (a topic, or the corpus), which
anascore's levels rebuild from the topic column. To score the blocks as they are, as the
Perl scorer reads such a file, read it with ``--format conll2012``. Chain IDs are names and
are global across the block, as in Cattan's files (an ID in two documents is one chain at
topic and corpus level). The sentence and token columns are kept as the token columns
``sent_id`` and ``token_id``, for the writer.

Writing: :mod:`anascore.formats.writers.cattan`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from anascore.core.errors import FormatError
from anascore.core.model import Document, Entity, Mention
from anascore.formats.io.text_files import open_text
from anascore.formats.readers.conll2012 import Bracket, begun_document, cell_brackets

_END = re.compile(r"#\s*end document\b")
COLUMNS = ("topic", "subtopic", "document", "sentence", "token", "text", "flag", "coreference")
_FLAGS = frozenset({"True", "False"})
_NO_COREFERENCE = frozenset({"-", "_", ""})


@dataclass
class _Builder:
    """One document as its lines come."""

    name: str
    topic: str
    subtopic: str
    line: int
    words: list[str] = field(default_factory=list)
    sentence_ids: list[str] = field(default_factory=list)
    token_ids: list[str] = field(default_factory=list)
    starts: list[int] = field(default_factory=list)
    chains: dict[str, list[Mention]] = field(default_factory=dict)
    open: dict[str, list[tuple[int, int]]] = field(default_factory=dict)


def read_cattan(path: str | os.PathLike[str]) -> Iterator[Document]:
    """Yield the documents of a file in Cattan's format, in order of their first token."""
    path = os.fspath(path)
    documents: dict[str, _Builder] = {}
    block: str | None = None
    block_line = 0
    line_number = 0
    cells_seen: dict[str, tuple[Bracket | str, ...]] = {}
    with open_text(path) as stream:
        for line_number, raw in enumerate(stream, start=1):
            line = raw.rstrip("\n")
            if not line.strip():
                continue
            if line.lstrip().startswith("#"):
                stripped = line.strip()
                name = begun_document(stripped)
                if name is not None:
                    if block is not None:
                        raise FormatError(f"'#begin document' inside block {block!r} (begun at "
                                          f"line {block_line}); expected '#end document' first",
                                          path=path, line=line_number)
                    block, block_line = name, line_number
                elif _END.match(stripped):
                    if block is None:
                        raise FormatError("'#end document' without '#begin document'",
                                          path=path, line=line_number)
                    _check_closed(documents, block, path)
                    block = None
                continue
            if block is None:
                raise FormatError("token line outside a block; expected '#begin document "
                                  "NAME'", path=path, line=line_number)
            _take(line, line_number, path, documents, cells_seen)
    if block is not None:
        raise FormatError(f"block {block!r} (begun at line {block_line}) has no '#end "
                          "document'", path=path, line=line_number)
    if not documents:
        raise FormatError("no token line found; expected '#begin document NAME' and lines of "
                          f"{len(COLUMNS)} tab-separated columns ({', '.join(COLUMNS)})",
                          path=path, line=line_number or None)
    for builder in documents.values():
        yield Document(
            name=builder.name, tokens=tuple(builder.words),
            entities=tuple(Entity(chain, tuple(mentions))
                           for chain, mentions in builder.chains.items() if mentions),
            path=path, source_format="cattan", line=builder.line,
            sentence_starts=tuple(builder.starts),
            token_columns={"sent_id": tuple(builder.sentence_ids),
                           "token_id": tuple(builder.token_ids)},
            topic=builder.topic, subtopic=builder.subtopic)


def _take(line: str, number: int, path: str, documents: dict[str, _Builder],
          cells_seen: dict[str, tuple[Bracket | str, ...]]) -> None:
    """One token line."""
    cells = line.split("\t")
    if len(cells) != len(COLUMNS):
        raise FormatError(f"{len(cells)} tab-separated columns; expected {len(COLUMNS)}: "
                          f"{', '.join(COLUMNS)} (Cattan's cross-document CoNLL)",
                          path=path, line=number)
    topic, subtopic, name, sentence, token, text, flag, cell = (value.strip() for value in cells)
    if flag not in _FLAGS:
        raise FormatError(f"flag {flag!r}; expected True or False in column 7", path=path,
                          line=number)
    if not name:
        raise FormatError("empty document column (3); expected the document's ID", path=path,
                          line=number)
    builder = documents.get(name)
    if builder is None:
        builder = documents[name] = _Builder(name, topic, subtopic, number)
    elif (builder.topic, builder.subtopic) != (topic, subtopic):
        raise FormatError(f"document {name!r} is in topic {topic!r}, subtopic {subtopic!r} "
                          f"here but in topic {builder.topic!r}, subtopic "
                          f"{builder.subtopic!r} on line {builder.line}; expected one topic "
                          "per document", path=path, line=number)
    position = len(builder.words)
    if not builder.sentence_ids or builder.sentence_ids[-1] != sentence:
        builder.starts.append(position)
    builder.words.append(text)
    builder.sentence_ids.append(sentence)
    builder.token_ids.append(token)
    if cell in _NO_COREFERENCE:
        return
    brackets = cells_seen.get(cell)
    if brackets is None:
        if len(cells_seen) > 4096:
            cells_seen.clear()
        brackets = cells_seen[cell] = cell_brackets(cell)
    for bracket in brackets:
        if isinstance(bracket, str):
            raise FormatError(bracket, path=path, line=number)
        opens, chain, closes = bracket
        mentions = builder.chains.setdefault(chain, [])
        if opens:
            if closes:
                mentions.append(Mention.span(position, position, number))
            else:
                builder.open.setdefault(chain, []).append((position, number))
            continue
        stack = builder.open.get(chain)
        if not stack:
            raise FormatError(f"closing bracket '{chain})' without an open mention of chain "
                              f"{chain} in document {name!r}", path=path, line=number)
        start, start_line = stack.pop()
        mentions.append(Mention.span(start, position, start_line))


def _check_closed(documents: dict[str, _Builder], block: str, path: str) -> None:
    """Every mention opened in the block's documents is closed at its end."""
    for builder in documents.values():
        for chain, stack in builder.open.items():
            if stack:
                raise FormatError(f"mention of chain {chain} opened here in document "
                                  f"{builder.name!r} is never closed; expected '{chain})' "
                                  f"before the end of block {block!r}", path=path,
                                  line=stack[0][1])
