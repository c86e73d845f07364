"""Mention-based CoNLL: one line per mention, the layout of Barhom et al. 2019 and WEC.

``shanybar/event_entity_coref_ecb_plus`` (``src/shared/eval_utils.py``,
``write_mention_based_cd_clusters``) and ``AlonEirew/cross-doc-event-coref``
(``gold_scorer/*/CD_test_event_mention_*.txt``) score cross-document coreference over gold
mentions with the Perl scorer by writing each mention as a token line of its own,
``DOC<TAB>(ID)``, in one ``#begin document`` block: key and response list the same mentions in
the same order, so mention *n* of the response is mention *n* of the key whatever its span.

Such a file is CoNLL-2012, and :func:`read_mentionconll` is the CoNLL-2012 reader
(``--format conll2012`` reads it, and detection calls it that).
:func:`~anascore.formats.writers.mentionconll.write_mentionconll` writes the layout, for
``anascore convert --to mentionconll``: a mention the token layout cannot hold
(discontinuous, as ECB+ has: ``from … home``) is one line like any other. The mentions of
each document are written in the order of their positions, so a key and a
response over the same mentions (the "gold mentions" setup) pair line for line; a response
with other mentions than its key does not, and must be scored in a token format.

Writing: :mod:`anascore.formats.writers.mentionconll`.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from anascore.core.model import Document
from anascore.formats.readers.conll2012 import read_conll2012


def read_mentionconll(path: str | os.PathLike[str]) -> Iterator[Document]:
    """The documents of a mention-based file: it is CoNLL-2012 (module docstring)."""
    return read_conll2012(path)
