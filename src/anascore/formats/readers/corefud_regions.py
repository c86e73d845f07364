"""Plain CorefUD sentences read in bulk: a whole stretch of them at once, and the columns of
any run of them.

Between its documents' first lines, a CorefUD file made by a program is mostly a stretch of
sentences of one shape: one ``# sent_id = …`` line, token lines whose IDs are ``1`` … ``n``,
a blank line. :func:`read_region` reads such a stretch (a *region*) with no work per
sentence beyond a few operations: one ``str.split`` on tabs of the whole region, in which
each sentence's comment line and the blank line before it fall inside the cell between the
last MISC of a sentence and the first ID of the next (``_\\n\\n# sent_id = s2\\n1``), so that
every cell holding a newline is checked, at once, against what a plain region holds there.

It proves a region plain before it reads it: every line is a token line of exactly nine
tabs whose ID is the next expected one, or a ``# sent_id = `` line just after a blank line
(or at the region's start), or that blank line. (The newlines of the cells it checks are all
the region's newlines, so every other cell lies within a line; a line of the wrong number of
tabs shifts the cells and fails an ID check.) A region that is not plain is read as before,
sentence by sentence (:class:`~.corefud_sentences.Sentences`, then line by line).

:func:`read_columns` adds the columns of verified sentences to the document, for a region
and for a run of :class:`~.corefud_sentences.Sentences` alike, and reads their coreference
(:func:`~.corefud_brackets.read_brackets`).
"""

from __future__ import annotations

from itertools import accumulate, chain, compress, count, repeat
from operator import add, contains, ne, sub
from typing import Protocol

from anascore.formats.conllu_ids import COMMON_WORDS, WORD_IDS
from anascore.formats.readers.corefud_brackets import read_brackets
from anascore.formats.readers.corefud_mentions import DocumentBuilder

PLAIN_SENT_ID = "# sent_id = "
#: Where a sentence of a plain region begins, after the blank line.
_SENT_START = "\n\n" + PLAIN_SENT_ID
#: What a region's cells are compared with between two sentences: no cell equals it (cells
#: hold no tab), so every such cell is looked at.
_SENTENCE = "\t"
#: For a sentence of n words, what its token lines' text holds between the ninth tab of
#: each line and the first tab of the next when MISC is ``_``: ``_\nK`` for K = 2 … n.
_BOUNDARIES: dict[int, tuple[str, ...]] = {}
#: The same, then the cell after the sentence's last word (another sentence begins there).
_THEN_SENTENCE: dict[int, tuple[str, ...]] = {}
#: The word IDs of a sentence of n words.
_IDS: dict[int, tuple[str, ...]] = {}


def boundaries(words: int) -> tuple[str, ...]:
    made = _BOUNDARIES.get(words)
    if made is None:
        made = _BOUNDARIES[words] = tuple("_\n" + WORD_IDS[word]
                                          for word in range(2, words + 1))
        _THEN_SENTENCE[words] = (*made, _SENTENCE)
        _IDS[words] = WORD_IDS[1:words + 1]
    return made


class Reader(Protocol):
    """What these functions use of the line-by-line reader
    (:class:`anascore.formats.readers.corefud._Reader`)."""

    path: str
    token_columns: bool
    fields: tuple[str, ...]
    builder: DocumentBuilder | None
    ordinal: int
    in_sentence: bool
    pending_sent_id: str
    line_number: int
    word: int
    empty: int

    def new_builder(self, name: str, line_number: int) -> DocumentBuilder: ...


def read_region(reader: Reader, text: str, start: int, end: int, line: int,
                followed: bool) -> bool:
    """Read ``text[start:end]``, sentences from line ``line`` separated by single blank lines
    (``followed`` by a blank line, or not), into the reader's document, if the region is
    plain; ``False``: it is not, and nothing was read. The reader's ``line_number`` is then
    the blank line after it (its last line, if none)."""
    region = text[start:end]
    if not region.startswith(PLAIN_SENT_ID):
        return False
    cells = region.split("\t")
    total, odd = divmod(len(cells) - 1, 9)  # token lines, if each has nine tabs
    if odd or not total or "\n" in cells[-1]:
        return False
    boundary = cells[9:-1:9]
    bounds = list(compress(count(1), map(contains, boundary, repeat("\n\n"))))
    newlines = region.count("\n")
    # The newlines of the cells checked below (one a token, three between sentences, one
    # after the first sent_id): all the region's, so no other cell holds one.
    if newlines != total + 2 * len(bounds):
        return False
    sizes = list(map(sub, [*bounds, total], [0, *bounds]))
    if max(sizes) >= COMMON_WORDS:
        return False
    for words in set(sizes):
        boundaries(words)
    expected = list(chain.from_iterable(map(_THEN_SENTENCE.__getitem__, sizes)))
    expected.pop()
    comment, newline, node_id = cells[0].partition("\n")
    if node_id != "1":
        return False
    sent_ids = [comment[len(PLAIN_SENT_ID):].strip()]
    indices: list[int] = []  # the nodes whose MISC is not '_', and their MISC
    misc: list[str] = []
    for index in compress(count(), map(ne, boundary, expected)):
        cell, want = boundary[index], expected[index]
        if want == _SENTENCE:
            value, found, rest = cell.partition(_SENT_START)
            sent_id, newline, node_id = rest.partition("\n")
            if node_id != "1" or not found or "\n" in value:
                return False
            sent_ids.append(sent_id.strip())
            if value == "_":
                continue
        else:
            value, newline, node_id = cell.partition("\n")
            if not newline or node_id != want[2:]:
                return False
        indices.append(index)
        misc.append(value)
    first_lines = list(accumulate(map(add, sizes[:-1], repeat(2)), initial=line + 1))
    if not read_columns(reader, cells, sizes, first_lines, sent_ids, indices, misc):
        return False
    reader.pending_sent_id, reader.in_sentence = "", not followed
    reader.line_number = line + newlines + followed
    return True


def read_columns(reader: Reader, cells: list[str], sizes: list[int], first_lines: list[int],
                 sent_ids: list[str], indices: list[int], misc: list[str]) -> bool:
    """Add sentences of ``sizes`` words (their first lines, their sent_ids) to the reader's
    document: ``cells``, their text split on tabs, whose IDs and line ends are verified
    (``indices``: the nodes but the last whose MISC is not ``_``, ``misc`` those cells);
    ``False`` if a FORM, HEAD, DEPS (or UPOS, when kept) cell is empty, and nothing added."""
    forms, heads, deps = cells[1::9], cells[6::9], cells[8::9]
    upos = cells[3::9] if reader.token_columns else []
    if "" in forms or "" in heads or "" in deps or "" in upos:
        return False
    total = len(forms)
    indices.append(total - 1)
    misc.append(cells[-1])
    builder = reader.builder
    if builder is None:
        reader.ordinal += 1
        builder = reader.new_builder(str(reader.ordinal), first_lines[0])
    base = len(builder.forms)
    sentence = len(builder.sentence_ids)
    for words in set(sizes):
        boundaries(words)
    builder.sentence_ids += sent_ids
    builder.sentence_lines += first_lines
    builder.sentence_starts.extend(accumulate(sizes[:-1], initial=base))
    builder.ids.extend(chain.from_iterable(map(_IDS.__getitem__, sizes)))
    builder.sentence_of.extend(chain.from_iterable(
        map(repeat, range(sentence, sentence + len(sizes)), sizes)))
    lines = list(chain.from_iterable(map(range, first_lines, map(add, first_lines, sizes))))
    builder.forms += forms
    builder.empty.extend(repeat(False, total))
    builder.deps += deps
    builder.dependency_heads += heads
    builder.lines += lines
    if builder.keep_upos:
        builder.upos += upos
    reader.word, reader.empty = sizes[-1], 0
    annotated = [(index, cell) for index, cell in zip(indices, misc, strict=True)
                 if cell != "_" and ("Entity=" in cell or "Split" in cell or "Bridge=" in cell)]
    if annotated:
        nodes, texts = zip(*annotated, strict=True)
        read_brackets(builder, reader.fields, reader.path, nodes, texts, base, lines)
    return True
