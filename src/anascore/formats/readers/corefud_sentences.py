"""Plain CorefUD sentences read in bulk, a run of sentences at a time.

Most sentences of a CorefUD file are plain: a few comment lines, then token lines of 10
tab-separated cells, none empty, whose IDs are exactly ``1`` … ``n`` (no multiword token, no
empty node), most with ``_`` in MISC. Read line by line
(:meth:`anascore.formats.readers.corefud._Reader.read_lines`), each token line costs a loop turn,
a split and seven appends; :class:`Sentences` gathers a run of such sentences (the text
between blank lines) and reads them at once: one ``str.split`` of their token lines, the
columns taken as slices, the IDs and the MISC cells checked against precomputed lists, the
lists of the document extended by whole columns
(:func:`~.corefud_regions.read_columns`). The MISC cells that are not ``_`` are read together
(:func:`~.corefud_brackets.read_brackets`, which hands anything but plain brackets, and
every error, to the careful code), so every annotation error is the careful reading's, at
the same line. (Stretches of sentences that have a plain ``# sent_id`` line alone are read
faster still, as regions: :mod:`.corefud_regions`.)

It proves a run plain before it reads it: each token line has exactly nine tabs (the run
has nine per line, and every line but the last ends exactly at its tenth cell, where the
next line's expected ID follows its newline), the IDs are ``1`` … ``n``, and no FORM, HEAD,
DEPS (or UPOS, when kept) cell is empty. A run that is not plain, a piece of text it does
not take (a ``# newdoc`` or ``# global.Entity`` line, a comment among token lines, an odd
blank line, a sentence of :data:`~anascore.formats.conllu_ids.COMMON_WORDS` words or more),
is read line by line instead, which gives today's result or error.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import compress, count
from operator import ne
from typing import Protocol

from anascore.core.model import Document
from anascore.formats.conllu_ids import COMMON_WORDS, WORD_IDS
from anascore.formats.readers.corefud_regions import PLAIN_SENT_ID as _PLAIN_SENT_ID
from anascore.formats.readers.corefud_regions import Reader, boundaries, read_columns

GLOBAL_ENTITY = re.compile(r"#\s*global\.Entity\s*=\s*(\S+)")
NEWDOC = re.compile(r"#\s*newdoc\b(?:\s*id\s*=\s*(.*))?")
SENT_ID = re.compile(r"#\s*sent_id\s*=\s*(.*)")
#: Where a piece's comment lines end: the first line that is not one.
_TOKEN_LINE = re.compile(r"\n[^#]")

#: Between two sentences of a run: the last MISC ``_``, the next sentence's first ID.
_NEXT_SENTENCE = "_\n1"


class LineReader(Reader, Protocol):
    """What :class:`Sentences` uses of the line-by-line reader
    (:class:`anascore.formats.readers.corefud._Reader`): the state it carries from line to
    line (what a region reads, :class:`~.corefud_regions.Reader`), which a run read in bulk
    leaves as the lines would, and its careful reading."""

    all_columns: bool

    def read_piece(self, text: str, start: int, end: int, line: int) -> Iterator[Document]: ...

    def blank(self, line_number: int) -> None: ...


class Sentences:
    """A run of plain sentences waiting to be read in bulk into the reader's document, and
    the text they came from (read line by line should the run not prove plain)."""

    def __init__(self, reader: LineReader) -> None:
        self.reader = reader
        #: Whether :meth:`add` last declined a piece for its token lines (not for its
        #: comments nor for what came before it): they would be declined on their own too.
        self.odd_body = False
        self._clear()

    def _clear(self) -> None:
        self.bodies: list[str] = []  # each sentence's token lines
        self.sizes: list[int] = []  # and their number
        self.first_lines: list[int] = []  # the line number of each sentence's first token
        self.sent_ids: list[str] = []
        # Every piece of text taken: (text, start, end, first line, the blank line after it)
        self.pieces: list[tuple[str, int, int, int, int | None]] = []
        self.pending = ""  # the sent_id the next sentence gets, as the run stands
        self.in_sentence = False

    def add(self, text: str, start: int, end: int, line: int, blank: int | None) -> bool:
        """Take ``text[start:end]`` (lines from line ``line`` with no blank line among them,
        followed by the blank line ``blank`` if any) into the run, if it is comment lines
        the run can read (``# sent_id`` and comments that are none of anascore's) followed
        by token lines; ``False``: not taken, read it line by line (after :meth:`flush`)."""
        self.odd_body = False
        if (start >= end or text[start] == "\n" or text[end - 1] == "\n"
                or self.reader.all_columns):
            return False
        if self.pieces:
            pending, in_sentence = self.pending, self.in_sentence
        else:
            pending, in_sentence = self.reader.pending_sent_id, self.reader.in_sentence
        position = start
        if text[start] == "#":  # its comment lines, at once
            line_end = text.find("\n", start, end)
            if line_end >= 0 and text[line_end + 1] != "#":  # one comment line
                position = line_end + 1
            else:
                token_line = _TOKEN_LINE.search(text, start, end)
                position = token_line.start() + 1 if token_line else end + 1
            comments = text[start:position - 1]
            if "newdoc" in comments or "global.Entity" in comments:
                return False  # maybe '# newdoc' or '# global.Entity': read line by line
            if comments.startswith(_PLAIN_SENT_ID) and "\n" not in comments:  # the usual
                pending, in_sentence = comments[len(_PLAIN_SENT_ID):].strip(), False
                found = -1
            else:
                found = comments.rfind("sent_id")
            while found >= 0:  # the last '# sent_id' line is the one that counts
                line_start = comments.rfind("\n", 0, found) + 1
                line_end = comments.find("\n", found)
                sent_id = SENT_ID.match(comments[line_start:] if line_end < 0
                                        else comments[line_start:line_end])
                if sent_id:
                    pending, in_sentence = sent_id.group(1).strip(), False
                    break
                found = comments.rfind("sent_id", 0, line_start)
        if position < end:
            if in_sentence:
                return False  # its tokens continue a sentence
            body = text[position:end]
            words = body.count("\n") + 1
            if (words >= COMMON_WORDS or not body.startswith("1\t") or "\n#" in body
                    or not body.startswith(WORD_IDS[words] + "\t", body.rfind("\n") + 1)):
                self.odd_body = True
                return False  # not plain (a multiword token, an empty node …)
            self.bodies.append(body)
            self.sizes.append(words)
            self.first_lines.append(line + text.count("\n", start, position))
            self.sent_ids.append(pending)
            pending, in_sentence = "", True
        if blank is not None:
            in_sentence = False
        self.pending, self.in_sentence = pending, in_sentence
        self.pieces.append((text, start, end, line, blank))
        return True

    def flush(self) -> Iterator[Document]:
        """Read the run: in bulk if it is plain, else line by line; the documents it ends
        (none in bulk: a run lies within one document)."""
        if not self.pieces:
            return
        pieces = self.pieces
        pending, in_sentence = self.pending, self.in_sentence
        plain = not self.bodies or self._read()
        several = len(self.bodies) > 1
        self._clear()
        reader = self.reader
        if plain:
            text, start, end, line, blank = pieces[-1]
            reader.pending_sent_id, reader.in_sentence = pending, in_sentence
            reader.line_number = line + text.count("\n", start, end) if blank is None else blank
            return
        for piece in pieces:
            if several and self.add(*piece):  # each sentence on its own, in bulk if plain
                yield from self.flush()
                continue
            text, start, end, line, blank = piece
            yield from reader.read_piece(text, start, end, line)
            if blank is not None:
                reader.blank(blank)

    def _read(self) -> bool:
        """Read the run in bulk into the document if it is plain (``False``: it is not, and
        nothing was read)."""
        sizes = self.sizes
        total = sum(sizes)
        text = "\n".join(self.bodies)
        if text.count("\t") != 9 * total:
            return False
        cells = text.split("\t")
        if cells[0] != "1":
            return False
        expected: list[str] = []
        for words in sizes:
            expected += boundaries(words)
            expected.append(_NEXT_SENTENCE)
        expected.pop()
        boundary = cells[9:-1:9]
        indices: list[int] = []  # the nodes whose MISC is not '_', and their MISC
        misc: list[str] = []
        for index in compress(count(), map(ne, boundary, expected)):
            cell, newline, node_id = boundary[index].partition("\n")
            if not newline or node_id != expected[index][2:]:
                return False
            indices.append(index)
            misc.append(cell)
        # Each line ends where the next line's ID is found: nine tabs each.
        return read_columns(self.reader, cells, sizes, self.first_lines, self.sent_ids,
                            indices, misc)

