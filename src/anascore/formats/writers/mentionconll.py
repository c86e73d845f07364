"""Writing mention-based CoNLL: one line per mention (the layout of Barhom et al. 2019 and WEC,
:mod:`anascore.formats.readers.mentionconll`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable

from anascore.core.errors import FormatError
from anascore.core.model import Document
from anascore.formats.io.output import atomic_output


def write_mentionconll(documents: Iterable[Document], path: str | os.PathLike[str]) -> None:
    """Write each document as ``#begin document NAME``, one line ``NAME<TAB>(ID)`` per mention
    (the name's white space as ``_``) in the order of the mentions' positions (then of their
    chain IDs), and ``#end document``. Layers other than identity, heads, MIN spans and empty
    nodes are refused, as the conversion module finds them."""
    from anascore.formats.io.conversion import describe, unsupported_content

    ordered = []
    for document in documents:
        lost = unsupported_content(document, "mentionconll")
        if lost:
            raise FormatError(f"document {document.name!r} has {describe(lost)}; mention-based "
                              "CoNLL cannot hold it")
        ordered.append((document, sorted(
            (mention.tokens, entity.id) for entity in document.entities
            for mention in entity.mentions)))
    with atomic_output(path) as stream:
        for document, mentions in ordered:
            column = re.sub(r"\s+", "_", document.name) or "_"
            stream.write(f"#begin document {document.name}\n")
            for _, chain in mentions:
                stream.write(f"{column}\t({chain})\n")
            stream.write("#end document\n")
