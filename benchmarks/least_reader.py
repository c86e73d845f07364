"""The least a reader must do: a lower bound on reading, for ``time_budget.py``.

The issue's targets (a run within 3× of the floor in one process, 2× with two) leave reading
a share of the floor's own time. How small a share can pure Python reach? This program reads
key and response the fastest way we know that still does the work no reader can skip, and
nothing else:

* the text is taken a 1 MiB block at a time and cut after the last blank line, whole
  sentences at a time (what ``anascore.formats.readers`` do in bulk);
* comment lines are dropped and the token lines' cells split at once (CoNLL-U, UA: one
  ``str.split`` of the joined token lines; CoNLL-2012, whose lines may differ in width even
  within a document: a split per line);
* the word forms are kept (the key/response check compares them);
* the coreference cells that are not empty are found in bulk (``compress``) and their
  brackets parsed, one regular expression per cell, into (entity, first, last) tuples, with a
  stack of open mentions per entity (UA: ``)`` closes the last one opened).

It checks nothing (no column count, no ID, no bracket that does not close), keeps no line
number, sentence, ID, head or attribute, makes no ``Mention``, and knows only the layout of
the synthetic corpus of ``generate_corpus.py`` (the scale cases of ``corpora_benchmark.py``:
one identity layer, no multiword token, no discontinuous mention; UA: the IDENTITY column of
``# global.columns``; CorefUD: ``Entity=`` in MISC). Its time is below that of any reader
anascore could have: the
time the issue leaves for reading, set beside it, says whether the target can be met at all.
The collector thresholds are anascore's (``anascore.cli.entry.COLLECTOR_THRESHOLDS``): with
Python's defaults, the lists of split cells set off a full collection again and again, which
would make this bound look worse than it is.

Usage::

    python benchmarks/least_reader.py KEY RESPONSE

prints, per file, its token and mention counts (to compare with anascore's).
"""

from __future__ import annotations

import gc
import re
import sys
from collections.abc import Iterator
from itertools import compress
from operator import ne

#: One bracket chunk: (entity opened, ``)`` closing it at once, entity closed).
CONLLU_CHUNK = re.compile(r"\(([^()|\-]+)[^()|]*(\))?|([^()|]+)\)")
UA_CHUNK = re.compile(r"\(EntityID=([^|()]+)[^()]*(\))?|(\))")
CONLL_CHUNK = re.compile(r"\((\d+)(\))?|(\d+)\)")


def blocks(path: str) -> Iterator[str]:
    """The text of ``path``, whole sentences at a time (up to the last blank line read)."""
    carry = ""
    with open(path, encoding="utf-8") as stream:
        for block in iter(lambda: stream.read(1 << 20), ""):
            text = carry + block
            cut = text.rfind("\n\n")
            if cut < 0:
                carry = text
                continue
            yield text[:cut]
            carry = text[cut + 2:]
    if carry.strip():
        yield carry


def add_mentions(marked: list[int], cells: list[str], chunk: re.Pattern[str],
                 stacks: dict[str, list[int]], order: list[str],
                 found: list[tuple[str, int, int]]) -> None:
    """The mentions the ``marked`` cells open and close, added to ``found``."""
    for position in marked:
        cell = cells[position]
        start = cell.find("Entity=") + 7 if chunk is CONLLU_CHUNK else 0
        for match in chunk.finditer(cell, start):
            opened, single, closed = match.groups()
            if opened is not None:
                if single:
                    found.append((opened, position, position))
                else:
                    stacks.setdefault(opened, []).append(position)
                    order.append(opened)
            elif closed is not None:
                name = order.pop() if closed == ")" else closed
                found.append((name, stacks[name].pop(), position))


def read(path: str) -> tuple[int, int]:
    """Read ``path`` as the least reader does: its numbers of tokens and of mentions."""
    forms: list[str] = []
    found: list[tuple[str, int, int]] = []
    stacks: dict[str, list[int]] = {}
    order: list[str] = []
    if path.endswith(".conll"):
        for text in blocks(path):
            rows = [line.split("\t") for line in text.split("\n") if line and line[0] != "#"]
            forms += [row[3] for row in rows]
            column = [row[-1] for row in rows]
            marked = list(compress(range(len(column)), map(ne, column, ["-"] * len(column))))
            add_mentions(marked, column, CONLL_CHUNK, stacks, order, found)
        return len(forms), len(found)
    width, coref, chunk = 10, 9, CONLLU_CHUNK
    for text in blocks(path):
        if text.startswith("# global.columns"):
            names = text[:text.find("\n")].split()[3:]
            width, coref, chunk = len(names), names.index("IDENTITY"), UA_CHUNK
        lines = [line for line in text.split("\n") if line and line[0] != "#"]
        cells = "\t".join(lines).split("\t")
        forms += cells[1::width]
        column = cells[coref::width]
        marked = list(compress(range(len(column)), map(ne, column, ["_"] * len(column))))
        add_mentions(marked, column, chunk, stacks, order, found)
    return len(forms), len(found)


if __name__ == "__main__":
    gc.set_threshold(100_000, 50, 100)
    for name in sys.argv[1:]:
        try:
            print(name, *read(name))
        except (IndexError, KeyError, ValueError):  # it checks nothing: it fails instead
            sys.exit(f"least_reader.py: {name} is not laid out as the synthetic corpus "
                     "(generate_corpus.py) is; this bound reads only that layout")
