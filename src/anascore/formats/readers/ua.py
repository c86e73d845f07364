"""Universal Anaphora CoNLL-U Plus, the *exploded* format (``CoNLL-UA``).

The format is defined by Poesio et al., *Universal Anaphora in CoNLL-U-Plus*, v1.1
(``formats/UA_CONLL_U_Plus_proposal_v1.1.md``) and used by the CODI-CRAC 2021/2022 shared
tasks. Rules this reader enforces (each violation is a :class:`~anascore.core.errors.FormatError`
naming the file and line):

* ``# global.columns = ID FORM … IDENTITY BRIDGING DISCOURSE_DEIXIS …`` names the columns; it
  applies to the lines that follow it. Without it, the CODI-CRAC positions hold: ID, FORM,
  then IDENTITY in column 11, BRIDGING in 12 and DISCOURSE_DEIXIS in 13. A ``global.columns``
  line without IDENTITY is an error.
* ``# newdoc id = NAME`` starts a document named ``NAME``; a token line before it is an error.
  Other ``#`` lines are comments; a blank line ends a sentence.
* A token line holds tab-separated cells (an empty cell reads as ``_``) or, when it has no
  tab, cells separated by runs of spaces (the CODI-CRAC layout). A tab-separated line has
  exactly as many cells as ``# global.columns`` names; a space-aligned line, which cannot show
  an empty last cell, reaches at least the IDENTITY column (the cells after it it lacks read
  as ``_``) and has no more cells than named. A line that stops before IDENTITY would lose its
  markables, and a line with a cell too many has every annotation shifted: both are errors.
  Integer IDs are tokens, ``N.M`` IDs are empty nodes (tokens of their own), ``N-M``
  multiword-token lines and ID ``0`` lines (objects of a visual situation) are skipped and
  must carry no annotation. Token positions count from 0 over the document. Each position's
  CoNLL-U details (ID, sentence, whether it is an empty node, DEPS, line) and each sentence's
  ``# sent_id`` go to :attr:`Document.nodes`, as the CorefUD reader gives them: zero mentions
  (headed by an empty node) are removed by ``keep_zeros=False`` and paired by
  ``zero_match``, and key and response with different empty nodes are aligned
  (:mod:`anascore.formats.io.conllu_alignment`). A sentence starts at the first token after a blank
  or
  ``# sent_id`` line.
* IDENTITY and DISCOURSE_DEIXIS cells: ``_`` or a sequence of brackets. ``(ATTRIBUTES``
  opens a markable, ``(ATTRIBUTES)`` is a one-token markable, ``)`` closes the innermost open
  markable, ``MARKABLE_ID)`` closes the named one (crossing markables, the UA scorer's
  ``--allow-boundary-crossing`` layout). Several brackets share a cell back to back or
  separated by ``@``. ATTRIBUTES are ``Name=value`` joined by ``|`` in any order, each
  name once (spellings aside: ``EntityID`` and ``Entity_ID`` are one name); ``EntityID``
  is required; ``MarkableID`` (optional) names the markable, and a markable opened again
  under the same ID after it closed gets another chunk (a discontinuous markable; its
  EntityID must not change); ``Min`` is its minimal span (token IDs: ``7``, a range ``7,9`` as
  CODI-CRAC writes it or ``7-9``, or a list of such items; IDs are unique in a document, as
  the format says, and where a file numbers each sentence from 1 they are read within the
  markable's sentence; a Min outside its markable, found in CODI-CRAC files, is kept as
  written); ``ElementOf`` lists the entities (of the same column) the markable's entity is an
  element of (split-antecedent plurals).
  Every attribute, known or not, is kept in :attr:`Mention.attributes`. A bracket that never
  closes, a closing bracket with nothing open, an ``ElementOf`` or ``Min`` naming nothing is
  an error.
* Entities whose EntityID ends in ``-Pseudo`` (or ``_Pseudo``, a spelling found in GUM) are
  non-referring pseudo-entities: their markables go to :attr:`Document.non_referring`, never
  into identity entities.
* BRIDGING cells: ``_`` or, on the anaphor's first token, ``MarkableID=…|Rel=…|
  MentionAnchor=…|EntityAnchor=…`` (inside brackets spanning the anaphor, as CODI-CRAC writes
  it, or bare). ``MarkableID`` names the anaphor (an identity markable); at least one of
  ``MentionAnchor`` (an identity markable) and ``EntityAnchor`` (an identity entity; the
  ``-Pseudo`` suffix may be left out, as CODI-CRAC does) is required. When both are given they
  must agree. A repeated ``Rel``/``MentionAnchor``/``EntityAnchor`` group gives the anaphor
  another anchor (another :class:`~anascore.core.model.BridgingLink`); ``Rel=_`` is no relation.

Documents are yielded one at a time.

Writing: :mod:`anascore.formats.writers.ua`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from functools import partial

from anascore.core.model import Document
from anascore.formats.io.text_files import open_text
from anascore.formats.readers.ua_fast import BLOCK_CHARS, read_ua_blocks
from anascore.formats.readers.ua_lines import (
    DEFAULT_COLUMNS,
    GLOBAL_COLUMNS,
    NEWDOC,
    NEWDOC_ID,
    LayoutState,
    Progress,
    no_document,
    read_careful,
)

__all__ = ["DEFAULT_COLUMNS", "newdoc_name", "read_ua", "read_ua_lines", "read_ua_text",
           "sniff_ua"]


def newdoc_name(line: str) -> str | None:
    """The document a ``# newdoc id = NAME`` line begins, as :func:`read_ua` names it
    (``None``: not such a line, or one without an id)."""
    newdoc = NEWDOC.match(line.strip())
    name = NEWDOC_ID.match(newdoc.group(1)) if newdoc else None
    return name.group(1) if name is not None and name.group(1) else None


def sniff_ua(head: str) -> bool:
    """Whether the first lines of a file look like the UA exploded format: a
    ``# global.columns`` line naming IDENTITY, or ``# newdoc id`` followed by token lines with
    more than the ten CoNLL-U columns."""
    seen_newdoc = False
    for line in head.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        columns = GLOBAL_COLUMNS.match(stripped)
        if columns:
            return "IDENTITY" in columns.group(1).upper().split()
        if stripped.startswith("#"):
            seen_newdoc = seen_newdoc or bool(NEWDOC.match(stripped))
            continue
        cells = line.rstrip("\n").split("\t") if "\t" in line else stripped.split()
        return seen_newdoc and len(cells) > 10
    return False




def read_ua(path: str | os.PathLike[str], *, token_columns: bool = False,
            all_columns: bool = False) -> Iterator[Document]:
    """Yield the documents of a UA exploded (CoNLL-U Plus) file in file order.

    Each markable gets a head (``Mention.head``) by the rule of every reader
    (:func:`~anascore.formats.dependencies.mention_head`): its first token whose dependency
    HEAD lies outside it, else its Min when Min is one of its tokens, else its one token; a
    mention is a zero when its head is an empty node, whatever the options.
    ``token_columns=True`` also keeps, when the file fills its UPOS column, each token's UPOS
    and whether it is an empty node (``Document.token_columns["upos"]``, ``["empty_node"]``:
    ``"1"`` or ``"0"``): the linguistically aware metrics type mentions from them and the
    heads (:mod:`anascore.comparison.mention_types`).

    The file is read in large blocks and cut into documents
    (:mod:`anascore.formats.readers.ua_fast`), and a document of the common layout is read
    whole, any other by the line-by-line reader
    (:func:`read_ua_lines`), which gives every error its line.
    """
    path = os.fspath(path)
    given = 0
    with open_text(path) as stream:
        try:
            for document in read_ua_blocks(iter(partial(stream.read, BLOCK_CHARS), ""), path,
                                           token_columns=token_columns,
                                           all_columns=all_columns):
                yield document
                given += 1
            return
        except UnicodeDecodeError:
            pass
    # A block holds bytes that are not UTF-8, met before the line-by-line reader would meet
    # them (it decodes a few kilobytes ahead): that reader reads the file again, so that the
    # documents before them (after those given) and the error come as they always came.
    with open_text(path) as lines:
        for index, document in enumerate(read_ua_lines(enumerate(lines, start=1), path,
                                                       token_columns=token_columns,
                                                       all_columns=all_columns)):
            if index >= given:
                yield document


def read_ua_lines(lines: Iterable[tuple[int, str]], path: str, *, token_columns: bool = False,
                  all_columns: bool = False) -> Iterator[Document]:
    """:func:`read_ua` of numbered lines of ``path`` (universal newlines): the whole file, or
    a stretch of it that begins with the ``# global.columns`` line in force there
    (:mod:`anascore.scoring.parallel`)."""
    progress = Progress()
    yield from read_careful(lines, path, LayoutState(), progress,
                            token_columns=token_columns, all_columns=all_columns)
    if not progress.seen_any:
        no_document(path, progress.line)




def read_ua_text(text: str, path: str, *, first_line: int = 1,
                 header: tuple[int, str] | None = None,
                 token_columns: bool = False) -> Iterator[Document]:
    """:func:`read_ua_lines` of the lines of ``text`` (a stretch of ``path`` from line
    ``first_line``, after the ``# global.columns`` line ``header`` in force there, as its line
    number and text), read as :func:`read_ua` reads a file: what
    :mod:`anascore.scoring.parallel` reads each document's stretch with."""
    if "\r" in text:  # universal newlines, as the file's lines are read
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    state = LayoutState()
    if header is not None:
        yield from read_careful([(header[0], header[1] + "\n")], path, state, Progress())
    yield from read_ua_blocks([text], path, token_columns=token_columns, first_line=first_line,
                              state=state)
