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
import re
from collections.abc import Iterable, Iterator

from anascore.core.errors import FormatError
from anascore.core.model import (
    Document,
)
from anascore.formats.io.text_files import open_text
from anascore.formats.readers.ua_document import _DocumentReader

#: Column positions when the file has no ``# global.columns`` line (CODI-CRAC layout).
DEFAULT_COLUMNS: tuple[str, ...] = (
    "ID", "FORM", "LEMMA", "UPOS", "XPOS", "FEATS", "HEAD", "DEPREL", "DEPS", "MISC",
    "IDENTITY", "BRIDGING", "DISCOURSE_DEIXIS", "REFERENCE", "NOM_SEM",
)

_NEWDOC = re.compile(r"#\s*newdoc\b(.*)$")
_NEWDOC_ID = re.compile(r"\s*id\s*=\s*(.*?)\s*$")
_GLOBAL_COLUMNS = re.compile(r"#\s*global\.columns\s*=\s*(.*)$")
_SENT_ID = re.compile(r"#\s*sent_id\s*=\s*(.*)$")


def newdoc_name(line: str) -> str | None:
    """The document a ``# newdoc id = NAME`` line begins, as :func:`read_ua` names it
    (``None``: not such a line, or one without an id)."""
    newdoc = _NEWDOC.match(line.strip())
    name = _NEWDOC_ID.match(newdoc.group(1)) if newdoc else None
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
        columns = _GLOBAL_COLUMNS.match(stripped)
        if columns:
            return "IDENTITY" in columns.group(1).upper().split()
        if stripped.startswith("#"):
            seen_newdoc = seen_newdoc or bool(_NEWDOC.match(stripped))
            continue
        cells = line.rstrip("\n").split("\t") if "\t" in line else stripped.split()
        return seen_newdoc and len(cells) > 10
    return False



def _column_positions(names: list[str], path: str, line: int) -> dict[str, int]:
    positions = {name.upper(): index for index, name in enumerate(names)}
    if "IDENTITY" not in positions:
        raise FormatError("'# global.columns' names no IDENTITY column; expected e.g. 'ID FORM "
                          "LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY BRIDGING "
                          "DISCOURSE_DEIXIS'", path=path, line=line)
    positions.setdefault("ID", 0)
    positions.setdefault("FORM", 1)
    return positions




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
    """
    path = os.fspath(path)
    with open_text(path) as lines:
        yield from read_ua_lines(enumerate(lines, start=1), path, token_columns=token_columns,
                                 all_columns=all_columns)


def read_ua_lines(lines: Iterable[tuple[int, str]], path: str, *, token_columns: bool = False,
                  all_columns: bool = False) -> Iterator[Document]:
    """:func:`read_ua` of numbered lines of ``path`` (universal newlines): the whole file, or
    a stretch of it that begins with the ``# global.columns`` line in force there
    (:mod:`anascore.scoring.parallel`)."""
    columns = {name: index for index, name in enumerate(DEFAULT_COLUMNS)}
    declared: int | None = None  # the number of columns '# global.columns' names
    needed = columns["IDENTITY"] + 1  # a token line reaches the IDENTITY column
    current: _DocumentReader | None = None
    seen_any = False
    line_number = 0
    for line_number, raw in lines:
        if raw[0] in _DIGITS:  # a token line: collected as it is, read by build()
            if current is None:
                raise FormatError("token line before any document; expected "
                                  "'# newdoc id = NAME' first", path=path, line=line_number)
            current.rows.append(raw)
            continue
        stripped = raw.strip()
        if stripped and stripped[0] != "#":  # a token line with odd white space
            if current is None:
                raise FormatError("token line before any document; expected "
                                  "'# newdoc id = NAME' first", path=path, line=line_number)
            current.rows.append(raw)
            continue
        if current is not None:
            current.note(line_number)
        if not stripped:
            if current is not None:
                current.blanks.append(len(current.rows))
            continue
        newdoc = _NEWDOC.match(stripped)
        if newdoc:
            name = _NEWDOC_ID.match(newdoc.group(1))
            if name is None or not name.group(1):
                raise FormatError("'# newdoc' without a document id; expected "
                                  "'# newdoc id = NAME'", path=path, line=line_number)
            if current is not None:
                yield _finished(current)
            current = _DocumentReader(name.group(1), line_number, path, columns, declared,
                                      needed, token_columns=token_columns,
                                      keep_all=all_columns)
            current.note(line_number)
            seen_any = True
            continue
        sent_id = _SENT_ID.match(stripped)
        if sent_id and current is not None:
            current.sent_ids.append((len(current.rows), sent_id.group(1).strip()))
            current.comments.append((len(current.rows), stripped))
            continue
        global_columns = _GLOBAL_COLUMNS.match(stripped)
        if global_columns:
            names = global_columns.group(1).split()
            columns = _column_positions(names, path, line_number)
            declared, needed = len(names), columns["IDENTITY"] + 1
            if current is not None:
                current.layouts.append((len(current.rows), columns, declared, needed))
        elif current is not None:
            current.comments.append((len(current.rows), stripped))
    if current is not None:
        yield _finished(current)
    if not seen_any:
        raise FormatError("no document found; expected '# newdoc id = NAME' lines (is this the "
                          "UA exploded format?)", path=path, line=line_number or None)


_DIGITS = frozenset("0123456789")


def _finished(reader: _DocumentReader) -> Document:
    reader.build()
    return reader.document()
