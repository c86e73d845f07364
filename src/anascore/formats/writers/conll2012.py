"""Writing CoNLL-2012 files, in the reference scorer's minimal layout.

The format, and the rules its reader enforces: :mod:`anascore.formats.readers.conll2012`.
A document the layout cannot hold (crossing mentions of one entity, …) is refused, naming it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable

from anascore.core.errors import FormatError
from anascore.core.model import Document, checked_documents
from anascore.formats.io.output import atomic_output
from anascore.formats.sentences import sentence_of


def write_conll2012(documents: Iterable[Document], path: str | os.PathLike[str]) -> None:
    """Write documents as CoNLL-2012 in the reference scorer's minimal layout.

    Each token line holds the document name (white space as ``_``), the part ``0``, the token
    number within its sentence, the word (white space as ``_``) and the coreference cell; a
    blank line ends each sentence (:mod:`anascore.formats.sentences`). Within a cell, mentions
    that close here come first (the latest opened first), then mentions that open here (the
    longest first), then
    one-token mentions, so that reading left to right gives the same mentions back. Two
    mentions of one entity that cross cannot be written with brackets, and are refused; so are
    discontinuous mentions.
    """
    documents = checked_documents(documents, "the documents to write")
    with atomic_output(path) as stream:
        for document in documents:
            stream.write(f"#begin document {document.name}\n")
            cells = _coreference_cells(document)
            column = re.sub(r"\s+", "_", document.name) or "_"
            sentences = sentence_of(document)
            # A CoNLL-2012 source read with all its columns keeps them (OntoNotes' part of
            # speech, parse, named entities …); anything else gets the minimal layout.
            kept = document.token_columns.get("conll_cells")
            number = 0
            for position, word in enumerate(document.tokens):
                if position and sentences[position] != sentences[position - 1]:
                    stream.write("\n")  # a blank line ends a sentence
                    number = 0
                word = re.sub(r"\s+", "_", word) or "_"
                source = kept[position] if kept is not None else ""
                first = source or f"{column}\t0\t{number}\t{word}"
                stream.write(f"{first}\t{cells.get(position, '-')}\n")
                number += 1
            stream.write("#end document\n")


def _coreference_cells(document: Document) -> dict[int, str]:
    opening: dict[int, list[tuple[int, str]]] = {}
    closing: dict[int, list[tuple[int, str]]] = {}
    single: dict[int, list[str]] = {}
    for entity in document.entities:
        spans = sorted(((mention.start, mention.end) for mention in entity.mentions),
                       key=lambda span: (span[0], -span[1]))
        for mention in entity.mentions:
            if mention.tokens != tuple(range(mention.start, mention.end + 1)):
                raise FormatError(f"document {document.name!r}: entity {entity.id} has the "
                                  f"discontinuous mention {mention}; CoNLL-2012 cannot hold it")
        _refuse_crossing(document.name, entity.id, spans)
        for start, end in spans:
            if start == end:
                single.setdefault(start, []).append(f"({entity.id})")
            else:
                opening.setdefault(start, []).append((end, f"({entity.id}"))
                closing.setdefault(end, []).append((start, f"{entity.id})"))
    cells: dict[int, str] = {}
    for position in set(opening) | set(closing) | set(single):
        parts = [text for _, text in sorted(closing.get(position, []), reverse=True)]
        parts += [text for _, text in sorted(opening.get(position, []), reverse=True)]
        parts += single.get(position, [])
        cells[position] = "|".join(parts)
    return cells


def _refuse_crossing(name: str, entity_id: str, spans: list[tuple[int, int]]) -> None:
    """Refuse two mentions of one entity that overlap without nesting (spans sorted by
    start, longest first). Touching mentions (one ends where the next starts) are fine: the
    cell closes the first before it opens the second."""
    enclosing: list[tuple[int, int]] = []
    for start, end in spans:
        while enclosing and enclosing[-1][1] <= start:
            enclosing.pop()
        if enclosing and enclosing[-1][1] < end:
            outer_start, outer_end = enclosing[-1]
            raise FormatError(f"document {name!r}: entity {entity_id} has crossing mentions "
                              f"[{outer_start}, {outer_end}] and [{start}, {end}]; CoNLL-2012 "
                              "brackets cannot hold them")
        enclosing.append((start, end))
