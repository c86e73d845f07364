"""A seeded mutator of annotated files, for the fuzz tests: each mutant is a valid file with one
to three small damages of the kinds malformed input shows (a line lost, doubled or swapped; a
cell dropped, added or emptied; a character deleted, doubled or replaced by a bracket, a tab, a
digit, a NUL byte, a control character, a non-ASCII digit)."""

from __future__ import annotations

import random

_INSERTED = ["(", ")", "|", "-", "_", "\t", " ", "0", "1", "9", "\0", "\x1b", "²", "¹", "=",
             "#", "\n", "[", "]", "{", "}", '"', ",", ".", "@", "é", "\ud800"]


def _line_edit(lines: list[str], rng: random.Random) -> None:
    index = rng.randrange(len(lines))
    kind = rng.randrange(4)
    if kind == 0 and len(lines) > 1:
        del lines[index]
    elif kind == 1:
        lines.insert(index, lines[index])
    elif kind == 2:
        other = rng.randrange(len(lines))
        lines[index], lines[other] = lines[other], lines[index]
    else:
        lines.insert(index, "")


def _cell_edit(lines: list[str], rng: random.Random) -> None:
    index = rng.randrange(len(lines))
    separator = "\t" if "\t" in lines[index] else " "
    cells = lines[index].split(separator)
    kind = rng.randrange(3)
    if kind == 0 and len(cells) > 1:
        del cells[rng.randrange(len(cells))]
    elif kind == 1:
        cells.insert(rng.randrange(len(cells) + 1), rng.choice(["-", "_", "", "(1)", "x"]))
    else:
        cells[rng.randrange(len(cells))] = rng.choice(["", "_", "-", "(", ")", "(9", "9)"])
    lines[index] = separator.join(cells)


def _character_edit(lines: list[str], rng: random.Random) -> None:
    index = rng.randrange(len(lines))
    line = lines[index]
    if not line:
        lines[index] = rng.choice(_INSERTED)
        return
    at = rng.randrange(len(line))
    kind = rng.randrange(3)
    if kind == 0:
        lines[index] = line[:at] + line[at + 1:]
    elif kind == 1:
        lines[index] = line[:at] + line[at] + line[at:]
    else:
        lines[index] = line[:at] + rng.choice(_INSERTED) + line[at + 1:]


_EDITS = (_line_edit, _cell_edit, _character_edit)


def mutant(text: str, rng: random.Random) -> str:
    """``text`` with one to three random edits."""
    lines = text.split("\n")
    for _ in range(rng.randint(1, 3)):
        rng.choice(_EDITS)(lines, rng)
    return "\n".join(lines)


def write_mutant(path, text: str) -> None:
    """Write a mutant as bytes (a lone surrogate is written as the bytes Python escapes it
    to, which is not UTF-8: the reader must say so)."""
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
