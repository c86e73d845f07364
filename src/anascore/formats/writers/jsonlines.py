"""Writing jsonlines files: one JSON object per document, the layout of the neural coreference
systems' training data (the format: :mod:`anascore.formats.readers.jsonlines`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable

from anascore.core.errors import FormatError
from anascore.core.model import Document, checked_documents
from anascore.formats.io.output import atomic_output


def write_jsonlines(documents: Iterable[Document], path: str | os.PathLike[str], *,
                    exclusive_ends: bool = False) -> None:
    """Write documents as jsonlines: ``doc_key``, ``sentences`` (the document's sentences,
    else one), ``clusters`` with inclusive ends (exclusive with ``exclusive_ends``).

    Refused (:class:`FormatError`): discontinuous mentions, empty nodes (zeros), split
    antecedents, bridging, non-referring mentions, discourse deixis, heads other than the
    first token — none of which jsonlines can hold (see :mod:`anascore.formats.io.conversion`,
    which can
    drop them first).
    """
    documents = checked_documents(documents, "the documents to write")
    with atomic_output(path) as stream:
        for document in documents:
            _refuse_unsupported(document)
            starts = list(document.sentence_starts) or [0]
            bounds = [*starts[1:], len(document.tokens)]
            sentences = [list(document.tokens[start:end]) for start, end in
                         zip(starts, bounds, strict=True)]
            if not document.tokens:
                sentences = []
            shift = 1 if exclusive_ends else 0
            clusters = [[[mention.start, mention.end + shift] for mention in entity.mentions]
                        for entity in document.entities]
            stream.write(json.dumps({"doc_key": document.name, "sentences": sentences,
                                     "clusters": clusters}, ensure_ascii=False) + "\n")


def _refuse_unsupported(document: Document) -> None:
    from anascore.formats.io.conversion import describe, unsupported_content

    lost = unsupported_content(document, "jsonlines")
    if lost:
        raise FormatError(f"document {document.name!r} has {describe(lost)}; jsonlines cannot "
                          "hold it")
