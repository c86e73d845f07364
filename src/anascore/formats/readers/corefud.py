"""CorefUD 1.0: coreference in the MISC column of CoNLL-U (the UA *compact* format).

The format of the CorefUD collection and of the CRAC shared tasks on multilingual coreference
(Nedoluzhko et al. 2022, *CorefUD 1.0: coreference meets Universal Dependencies*; the format
description ``corefud-1.0-format.pdf``; ``../shared/formats/UA_CONLL_U_proposal_compact.md``).
Rules this reader enforces, each violation a :class:`~anascore.core.errors.FormatError` naming the
file and line:

* CoNLL-U: token lines of 10 tab-separated columns (an empty cell reads as ``_``, as in UA
  files), sentences separated by blank lines,
  comment lines starting with ``#``. Word IDs are integers increasing from 1 within a
  sentence, empty nodes ``N.M`` after word N (``0.1`` before the first word) with M
  increasing, multiword-token ranges ``N-M`` (N < M, after the words before them; skipped:
  coreference is annotated on words). An ID 0, a repeated or decreasing one is an error, as
  for the CoNLL-U validator: no position can be given to it. ``# newdoc id = NAME`` starts
  a document (``# newdoc`` without a name, or sentences before any ``# newdoc``, make a
  document named by its ordinal, ``"1"``, ``"2"`` …); ``# sent_id = …`` names a sentence.
* Token positions: every word and every empty node is a position, numbered from 0 in file
  order across the document (see :class:`~anascore.core.model.ConlluNodes`, which keeps each
  position's CoNLL-U ID, sentence, DEPS and line).
* ``# global.Entity = eid-etype-head-other`` names the dash-separated fields of an opening
  bracket (that layout is assumed when the header is missing). ``eid`` is the entity ID;
  ``GRP`` is a document-local entity ID (GUM); ``etype`` (or ``entity``) the entity type;
  ``head`` the 1-based index of the mention's head among the mention's positions (when the
  field or its value is absent, the head is worked out of the dependency tree — the first
  position whose HEAD lies outside the mention —, else it is a one-position MIN or mention's
  position, else unknown: the rule of every reader,
  :func:`~anascore.formats.dependencies.mention_head`;
  such mentions are listed in ``Document.heads_not_given``); ``MIN`` a comma-separated list
  of such indices (the minimal span);
  every other field is kept as a mention attribute under its name.
* ``Entity=`` in MISC holds chunks (at least one), read left to right: ``(e1-person-2-`` opens
  a mention of ``e1``; ``e1)`` closes the most recently opened mention of ``e1``;
  ``(e1-person-1-)`` is a one-position mention. A mention covers every position from its
  opening to its closing node, empty nodes included, and must end in the sentence it starts
  in. A discontinuous mention is written in parts, ``e3[1/2]`` … ``e3[2/2]`` on the opening
  and closing chunks; its positions are the union of its parts (which may lie in different
  sentences), its head index counts over all of them and is taken from the last part. A chunk
  that closes with a part suffix closes the most recent open part with that suffix.
* ``SplitAnte=e3<e11,e4<e11`` (or the older ``Split=``): entity ``e11`` is a plural whose
  split antecedents are ``e3`` and ``e4`` (its accommodated set, ``Entity.elements``); a
  link given again (on another mention of the plural) is the same link.
* ``Bridge=e12<e124:part``: the mention of ``e124`` opened most recently at or before this
  node is a bridging anaphor whose antecedent is entity ``e12``, by relation ``part``.
* Every mention opened in a document closes in it; every entity named by ``SplitAnte`` or
  ``Bridge`` has a mention in the document. (Udapi, which the CorefUD scorer reads with,
  warns and deletes unclosed mentions; anascore refuses the file instead.)

Key and response files are checked to align (same documents, sentences and word forms,
empty nodes excepted) when they are paired: :mod:`anascore.formats.io.conllu_alignment`.

Writing: :mod:`anascore.formats.writers.corefud`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Generator, Iterable, Iterator
from typing import TextIO

from anascore.core.errors import FormatError, shorten
from anascore.core.model import Document
from anascore.formats.conllu_ids import (
    COMMON_WORDS,
    WORD_IDS,
    check_range,
    empty_number,
    later_word,
)
from anascore.formats.io.text_files import open_text
from anascore.formats.readers.corefud_mentions import (
    KEPT_COLUMNS,
    DocumentBuilder,
    finish,
    keep_columns,
    read_misc,
)
from anascore.formats.readers.corefud_regions import PLAIN_SENT_ID, read_region
from anascore.formats.readers.corefud_sentences import GLOBAL_ENTITY as _GLOBAL_ENTITY
from anascore.formats.readers.corefud_sentences import NEWDOC as _NEWDOC
from anascore.formats.readers.corefud_sentences import SENT_ID as _SENT_ID
from anascore.formats.readers.corefud_sentences import Sentences

__all__ = ["DEFAULT_ENTITY_FIELDS", "KEPT_COLUMNS", "newdoc_name", "read_corefud",
           "read_corefud_lines", "read_corefud_text"]

#: The CorefUD 1.0 layout of an opening bracket when ``# global.Entity`` is absent.
DEFAULT_ENTITY_FIELDS: tuple[str, ...] = ("eid", "etype", "head", "other")
#: How much text the reader takes from a file at a time (whole lines are read in bulk):
#: much more than the 8 kB a text file decodes at a time (see _TextBlocks), little memory.
_BLOCK_CHARS = 1 << 17


def newdoc_name(line: str) -> str | None:
    """The document a ``# newdoc id = NAME`` line begins, as :func:`read_corefud` names it
    (``None``: not such a line, or one without an id, which is named by its position)."""
    newdoc = _NEWDOC.match(line.rstrip("\r\n"))
    return ((newdoc.group(1) or "").strip() or None) if newdoc else None


def read_corefud(path: str | os.PathLike[str], *, token_columns: bool = False,
                 all_columns: bool = False) -> Iterator[Document]:
    """Yield the documents of a CorefUD 1.0 CoNLL-U file in file order; with
    ``token_columns``, each position's UPOS and whether it is an empty node
    (``Document.token_columns["upos"]``, ``["empty_node"]``: ``"1"`` or ``"0"``), which
    mention types are derived from (:mod:`anascore.comparison.mention_types`). With ``all_columns``
    (what ``anascore convert`` asks, to lose nothing), also every other column
    (:data:`KEPT_COLUMNS`), the rest of each MISC cell, and the comment and multiword-token
    lines before each position (``token_columns["before"]``).

    The file is read a large block of text at a time (:func:`_read_blocks`); should its bytes
    not be UTF-8 somewhere, the rest is read line by line from the last whole sentence read,
    so that the error is met where reading line by line meets it."""
    path = os.fspath(path)
    reader = _Reader(path, token_columns=token_columns, all_columns=all_columns)
    with open_text(path) as stream:
        if all_columns:  # conversion: every line careful, its comments kept in place
            yield from reader.read_lines(enumerate(stream, start=1))
        else:
            blocks = _TextBlocks(stream)
            yield from _read_blocks(reader, blocks, 1)
            if blocks.resume_at is not None:  # not UTF-8 further on: line by line from there
                with open(path, encoding="utf-8-sig", newline=None) as again:
                    lines = enumerate(again, start=1)
                    for _ in zip(range(blocks.resume_at - 1), lines, strict=False):
                        pass
                    yield from reader.read_lines(lines)
        yield from reader.end()


class _TextBlocks:
    """A text stream's text, a block of :data:`_BLOCK_CHARS` at a time, each given out once
    the next is read. At bytes that are not UTF-8 it stops, holding back the block before:
    reading line by line (which decodes 8 kB at a time) meets them no earlier than in that
    block's successor, so the text given out is text a line-by-line reading gets to before
    the error. ``resume_at`` is then set (by :func:`_read_blocks`) to the first line not read."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self.failed = False
        self.resume_at: int | None = None

    def __iter__(self) -> Iterator[str]:
        try:
            block = self._stream.read(_BLOCK_CHARS)
            while block:
                after = self._stream.read(_BLOCK_CHARS)
                yield block
                block = after
        except UnicodeDecodeError:
            self.failed = True


def read_corefud_lines(lines: Iterable[tuple[int, str]], path: str, *,
                       token_columns: bool = False, all_columns: bool = False,
                       ) -> Iterator[Document]:
    """:func:`read_corefud` of numbered lines of ``path`` (universal newlines), each line
    read on its own (the careful reading that the bulk reading of plain sentences hands
    everything else to): the whole file, or a stretch of it that begins with the
    ``# global.Entity`` line in force there."""
    reader = _Reader(path, token_columns=token_columns, all_columns=all_columns)
    yield from reader.read_lines(lines)
    yield from reader.end()


def read_corefud_text(text: str, path: str, first_line: int, *,
                      header: tuple[int, str] | None = None, token_columns: bool = False,
                      ) -> Iterator[Document]:
    """:func:`read_corefud` of ``text``, the lines of ``path`` from line ``first_line``
    (universal newlines), after the ``# global.Entity`` line ``header`` (its line number
    and text) in force there: what :mod:`anascore.scoring.parallel` reads of a stretch."""
    reader = _Reader(path, token_columns=token_columns, all_columns=False)
    if header is not None:
        yield from reader.read_lines([header])
    yield from _read_blocks(reader, [text], first_line)
    yield from reader.end()


def _read_blocks(reader: _Reader, blocks: Iterable[str], line: int) -> Iterator[Document]:
    """Read successive ``blocks`` of a text, the first beginning at line ``line``: the text up
    to the last blank line read so far at a time (the rest waits for the next block), and
    what remains at the end (unless the blocks stopped at bytes that are not UTF-8)."""
    carry = ""
    for block in blocks:
        text = carry + block if carry else block
        cut = text.rfind("\n\n")
        if cut < 0:
            carry = text
            continue
        line = yield from _read_stretch(reader, text, cut, line, True)
        carry = text[cut + 2:]
    if isinstance(blocks, _TextBlocks) and blocks.failed:
        blocks.resume_at = line  # the carry is read again, line by line
        return
    if carry.endswith("\n"):
        carry = carry[:-1]
    if carry:
        yield from _read_stretch(reader, carry, len(carry), line, False)


def _read_stretch(reader: _Reader, text: str, end: int, line: int,
                  followed: bool) -> Generator[Document, None, int]:
    """Read ``text[:end]``, whole lines beginning at line ``line`` (``followed`` by a blank
    line, or not: the end of the text): its sentences in bulk where they are plain — a whole
    region at once where each has a plain ``# sent_id`` line alone
    (:mod:`.corefud_regions`), else a run of them (:class:`~.corefud_sentences.Sentences`)
    —, its other lines one by one (:meth:`_Reader.read_lines`); the number of the line after
    the blank line that follows it (its newlines are counted once, as it is read)."""
    sentences = Sentences(reader)
    position = 0
    region_after = -1  # where the last region found not plain ends (its sentences one by one)
    while position <= end:
        if (position > region_after and text.startswith(PLAIN_SENT_ID, position)
                and reader.builder is not None and not reader.all_columns):
            region_end = _region_end(text, position, end)
            if region_end > position:
                yield from sentences.flush()
                if not reader.in_sentence and read_region(
                        reader, text, position, region_end, line,
                        followed or region_end < end):
                    position, line = region_end + 2, reader.line_number + 1
                    continue
                region_after = region_end
        piece_end = text.find("\n\n", position, end)
        last = piece_end < 0
        if last:
            piece_end = end
        after = text.count("\n", position, piece_end) + line + 1  # the blank line after it
        blank_after = after if followed or not last else None
        if not sentences.add(text, position, piece_end, line, blank_after):
            odd_body = sentences.odd_body  # (flush may add again)
            yield from sentences.flush()
            body = position if odd_body else _comments_end(text, position, piece_end)
            if position < body <= piece_end and not reader.all_columns:
                # Comment lines one by one ('# newdoc', '# global.Entity'), then the tokens.
                yield from reader.read_piece(text, position, body - 1, line)
                body_line = line + text.count("\n", position, body)
                if body < piece_end and sentences.add(text, body, piece_end, body_line,
                                                      blank_after):
                    position = piece_end + 2
                    line = after + 1
                    continue
                yield from reader.read_piece(text, body, piece_end, body_line)
            else:
                yield from reader.read_piece(text, position, piece_end, line)
            if blank_after is not None:
                reader.blank(blank_after)
        position = piece_end + 2
        line = after + 1
    yield from sentences.flush()
    return line


#: A comment line other than a plain ``# sent_id = ``.
_OTHER_COMMENT = re.compile(r"\n#(?! sent_id = )")


def _region_end(text: str, start: int, end: int) -> int:
    """Where the sentences from ``text[start]`` that may be a plain region
    (:func:`~.corefud_regions.read_region`) end: before the first sentence whose text holds
    ``newdoc`` or ``global.Entity`` (perhaps a line that is to be read on its own), else at
    ``end``; ``start`` if there are none, or if the first sentence has a comment line other
    than its ``# sent_id`` (as every sentence of a file with ``# text`` lines does: such
    files are not read in regions, which would all turn out not plain). (Looked for as
    words, these cost much less than a scan for line starts.)"""
    first = text.find("\n\n", start, end)
    if _OTHER_COMMENT.search(text, start, end if first < 0 else first):
        return start
    for word in ("newdoc", "global.Entity"):
        found = text.find(word, start, end)
        if found >= 0:
            end = text.rfind("\n\n", start, found)
            if end < start:
                return start
    return end


def _comments_end(text: str, start: int, end: int) -> int:
    """Where the comment lines that begin ``text[start:end]`` end (the next line's start)."""
    position = start
    while text.startswith("#", position, end):
        line_end = text.find("\n", position, end)
        if line_end < 0:
            return end + 1
        position = line_end + 1
    return position


class _Reader:
    """What reading a CorefUD file carries from line to line: the document being read, the
    ``# global.Entity`` fields in force, the sentence and the IDs read so far of it; and the
    careful reading of lines one by one (:meth:`read_lines`)."""

    def __init__(self, path: str, *, token_columns: bool, all_columns: bool) -> None:
        self.path = path
        self.token_columns = token_columns
        self.all_columns = all_columns
        self.fields = DEFAULT_ENTITY_FIELDS
        self.builder: DocumentBuilder | None = None
        self.ordinal = 0
        self.in_sentence = False
        self.pending_sent_id = ""
        self.pending_lines: list[str] = []
        self.line_number = 0
        self.word = self.empty = 0  # the sentence's last word ID, and empty nodes after it

    def read_lines(self, lines: Iterable[tuple[int, str]]) -> Iterator[Document]:
        """Read numbered lines one by one, carefully (every check, in the order a line
        meets them); the documents they finish. The loop is written out in full, the state
        kept in local names (written back before each document given out and at the end):
        a call per line would cost a fifth of the reading where most lines come this way."""
        path, all_columns = self.path, self.all_columns
        fields, builder, ordinal = self.fields, self.builder, self.ordinal
        in_sentence, pending_sent_id = self.in_sentence, self.pending_sent_id
        pending_lines, line_number = self.pending_lines, self.line_number
        word, empty = self.word, self.empty
        for line_number, raw in lines:
            line = raw.rstrip("\r\n")
            if not line.strip():
                in_sentence = False
                continue
            if line[0] == "#":
                newdoc = _NEWDOC.match(line)
                if newdoc:
                    finished = builder
                    ordinal += 1
                    name = (newdoc.group(1) or "").strip() or str(ordinal)
                    builder = DocumentBuilder(name, line_number, keep_upos=self.token_columns,
                                              keep_all=all_columns)
                    in_sentence = False
                    if finished is not None:
                        self.fields, self.builder, self.ordinal = fields, builder, ordinal
                        self.in_sentence, self.pending_sent_id = in_sentence, pending_sent_id
                        self.pending_lines, self.line_number = pending_lines, line_number
                        self.word, self.empty = word, empty
                        yield finish(finished, path)
                    continue
                header = _GLOBAL_ENTITY.match(line)
                if header:
                    fields = tuple(header.group(1).split("-"))
                    if "eid" not in fields and "GRP" not in fields:
                        raise FormatError(
                            f"'# global.Entity = {shorten(header.group(1))}' names no entity ID "
                            "field; expected 'eid' or 'GRP' among its fields", path=path,
                            line=line_number)
                    continue
                sent_id = _SENT_ID.match(line)
                if sent_id:
                    pending_sent_id = sent_id.group(1).strip()
                    in_sentence = False
                if all_columns:
                    pending_lines.append(line)  # the sent_id too, in its place
                continue
            columns = line.split("\t")
            if len(columns) != 10:
                raise FormatError(
                    f"a CoNLL-U token line has 10 tab-separated columns; this one has "
                    f"{len(columns)}", path=path, line=line_number)
            if "" in columns:  # an empty cell reads as '_', as in UA files (and as written back)
                columns = [cell or "_" for cell in columns]
            if builder is None:
                ordinal += 1
                builder = DocumentBuilder(str(ordinal), line_number, keep_upos=self.token_columns,
                                          keep_all=all_columns)
            node_id, misc = columns[0], columns[9]
            if "-" in node_id:
                check_range(node_id, word if in_sentence else 0, path, line_number)
                if "Entity=" in misc:
                    raise FormatError(
                        f"Entity= on the multiword token {shorten(node_id)}; expected "
                        "coreference on its words", path=path, line=line_number)
                if all_columns:
                    pending_lines.append(line)
                continue
            if not in_sentence:  # a sentence opens at its first word (not a multiword token)
                in_sentence = True
                builder.sentence_ids.append(pending_sent_id)
                builder.sentence_lines.append(line_number)
                builder.sentence_starts.append(len(builder.forms))
                pending_sent_id = ""
                word = empty = 0
            is_empty = "." in node_id
            if is_empty:
                empty = empty_number(node_id, word, empty, path, line_number)
            else:
                word += 1
                if node_id != (WORD_IDS[word] if word < COMMON_WORDS else str(word)):
                    word = later_word(node_id, word - 1, path, line_number)
                empty = 0
            position = len(builder.forms)
            builder.forms.append(columns[1])
            builder.ids.append(node_id)
            builder.sentence_of.append(len(builder.sentence_ids) - 1)
            builder.empty.append(is_empty)
            builder.deps.append(columns[8])
            builder.dependency_heads.append(columns[6])
            builder.lines.append(line_number)
            if builder.keep_upos:
                builder.upos.append(columns[3])
            if all_columns:
                keep_columns(builder, columns, pending_lines)
                pending_lines = []
            if misc != "_" and ("Entity=" in misc or "Split" in misc or "Bridge=" in misc):
                read_misc(misc, position, fields, builder, path, line_number)
        self.fields, self.builder, self.ordinal = fields, builder, ordinal
        self.in_sentence, self.pending_sent_id = in_sentence, pending_sent_id
        self.pending_lines, self.line_number = pending_lines, line_number
        self.word, self.empty = word, empty

    def read_piece(self, text: str, start: int, end: int, line: int) -> Iterator[Document]:
        """Read the lines of ``text[start:end]`` (from line ``line``) one by one."""
        return self.read_lines(enumerate(text[start:end].split("\n"), start=line))

    def blank(self, line_number: int) -> None:
        """A blank line, at ``line_number``: it ends the sentence."""
        self.line_number = line_number
        self.in_sentence = False

    def new_builder(self, name: str, line_number: int) -> DocumentBuilder:
        self.builder = DocumentBuilder(name, line_number, keep_upos=self.token_columns,
                                       keep_all=self.all_columns)
        return self.builder

    def end(self) -> Iterator[Document]:
        """The last document, once every line is read."""
        if self.builder is not None:
            yield finish(self.builder, self.path)
        elif self.ordinal == 0:
            raise FormatError("no token line found; expected CoNLL-U sentences (is this "
                              "CorefUD?)", path=self.path, line=self.line_number or None)
