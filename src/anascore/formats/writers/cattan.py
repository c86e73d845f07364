"""Writing Cattan's cross-document CoNLL, one block per topic (the format:
:mod:`anascore.formats.readers.cattan`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable

from anascore.core.errors import FormatError
from anascore.core.model import Document
from anascore.formats.io.output import atomic_output


def write_cattan(documents: Iterable[Document], path: str | os.PathLike[str]) -> None:
    """Write documents in Cattan's format: one block per topic (documents without a topic:
    one block each, named by the document), in order of first appearance; the topic and
    subtopic columns from the document's (else its name), sentence and token columns from
    the source's own (else the sentence's index and the position), the flag ``True``.
    Discontinuous mentions, crossing mentions of one chain and what CoNLL-2012 cannot hold
    are refused, as by the CoNLL-2012 writer."""
    from anascore.formats.sentences import sentence_of
    from anascore.formats.writers.conll2012 import _coreference_cells

    blocks: dict[str, list[Document]] = {}
    for document in documents:
        _refuse_unsupported(document)
        blocks.setdefault(document.topic if document.topic is not None
                          else document.name, []).append(document)
    with atomic_output(path) as stream:
        for block, members in blocks.items():
            stream.write(f"#begin document {block}\n")
            for document in members:
                cells = _coreference_cells(document)
                sentences = document.token_columns.get("sent_id") or tuple(
                    str(sentence) for sentence in sentence_of(document))
                tokens = document.token_columns.get("token_id") or tuple(
                    str(position) for position in range(len(document.tokens)))
                topic = _cell(document.topic if document.topic is not None else document.name)
                subtopic = _cell(document.subtopic if document.subtopic is not None else topic)
                name = _cell(document.name)
                for position, word in enumerate(document.tokens):
                    stream.write("\t".join((topic, subtopic, name, _cell(sentences[position]),
                                            _cell(tokens[position]), _word(word), "True",
                                            cells.get(position, "-"))) + "\n")
            stream.write("#end document\n")


def _cell(text: str) -> str:
    """A column's text: tabs and line breaks as ``_``, never empty (a name keeps its spaces,
    which a tab-separated column holds)."""
    return _BREAKS.sub("_", text).strip() or "_"


def _word(text: str) -> str:
    """A token's text: white space as ``_``, as the CoNLL-2012 writer writes it."""
    return re.sub(r"\s+", "_", text) or "_"


#: What a tab-separated column cannot hold (str.splitlines' line breaks and the tab).
_BREAKS = re.compile("[\t\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]+")


def _refuse_unsupported(document: Document) -> None:
    from anascore.formats.io.conversion import describe, unsupported_content

    lost = unsupported_content(document, "cattan")
    if lost:
        raise FormatError(f"document {document.name!r} has {describe(lost)}; Cattan's CoNLL "
                          "cannot hold it")
