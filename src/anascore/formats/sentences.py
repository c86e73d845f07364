"""The sentences of a document, whatever format it came from: what every writer needs to write
a document with its sentences (a conversion that lost them made a corpus one sentence per
document, which no longer scored against its CoNLL-U original)."""

from __future__ import annotations

import re

from anascore.core.model import Document


def sentence_of(document: Document) -> list[int]:
    """The sentence of each position: CoNLL-U's own, else from ``sentence_starts``, else one
    sentence."""
    if document.nodes is not None:
        return list(document.nodes.sentence_of)
    starts = [start for start in document.sentence_starts if 0 < start < len(document.tokens)]
    result: list[int] = []
    sentence = 0
    following = iter([*starts, len(document.tokens)])
    boundary = next(following)
    for position in range(len(document.tokens)):
        while position >= boundary:
            sentence += 1
            boundary = next(following)
        result.append(sentence)
    return result


def sentence_ids(document: Document, count: int) -> list[str]:
    """A ``# sent_id`` for each of ``count`` sentences: the source's where it had them (empty
    where it had none), else ``NAME-N`` with the document's name freed of white space and
    ``/`` (each made ``_``): Udapi, which the CorefUD scorer reads files with, takes a
    sent_id up to its first space, and what follows a ``/`` for a zone name (an OntoNotes
    name such as ``(nw/wsj/00/wsj_0001); part 000`` is no zone)."""
    if document.nodes is not None:
        return list(document.nodes.sentence_ids)
    name = re.sub(r"[\s/]+", "_", document.name.strip()) or "sentence"
    return [f"{name}-{number}" for number in range(1, count + 1)]


def kept_lines(lines: str, width: int) -> str:
    """Lines a CoNLL-U source had before a token (comments, multiword-token and ID 0 lines),
    as a writer of ``width`` columns writes them: each token-like line cut or filled with
    ``_`` to that many cells (CorefUD has ten, UA as many as its columns)."""
    written = []
    for line in lines.split("\n"):
        if not line.startswith("#"):
            cells = line.split("\t")
            line = "\t".join(cells[:width] + ["_"] * (width - len(cells)))
        written.append(line + "\n")
    return "".join(written)
