"""Mention-based CoNLL: one line per mention, the layout of Barhom et al. 2019 and WEC.

``shanybar/event_entity_coref_ecb_plus`` (``src/shared/eval_utils.py``,
``write_mention_based_cd_clusters``) and ``AlonEirew/cross-doc-event-coref``
(``gold_scorer/*/CD_test_event_mention_*.txt``) score cross-document coreference over gold
mentions with the Perl scorer by writing each mention as a token line of its own,
``DOC<TAB>(ID)``, in one ``#begin document`` block: key and response list the same mentions in
the same order, so mention *n* of the response is mention *n* of the key whatever its span.

Such a file is CoNLL-2012, and :func:`read_mentionconll` is the CoNLL-2012 reader
(``--format conll2012`` reads it, and detection calls it that). :func:`write_mentionconll`
writes the layout, for ``anascore convert --to mentionconll``: a mention the token layout
cannot hold (discontinuous, as ECB+ has: ``from … home``) is one line like any other. The
mentions of each document are written in the order of their positions, so a key and a
response over the same mentions (the "gold mentions" setup) pair line for line; a response
with other mentions than its key does not, and must be scored in a token format.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator

from anascore.core.errors import FormatError
from anascore.core.model import Document
from anascore.formats.conll2012 import read_conll2012
from anascore.formats.io.output import atomic_output


def read_mentionconll(path: str | os.PathLike[str]) -> Iterator[Document]:
    """The documents of a mention-based file: it is CoNLL-2012 (module docstring)."""
    return read_conll2012(path)


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
