"""The CorefUD reader's bulk reading of a run's ``Entity=`` brackets
(formats/readers/corefud_brackets.py) against its careful line-by-line reading
(``read_corefud_lines``): equal documents (every field: mentions' lines, heads, MIN,
attributes; entities' types; bridging; heads not given) and equal errors (message, file,
line), on files whose brackets carry head indices, MIN, attributes, discontinuous parts,
Bridge and SplitAnte, cells of several items, mentions left open or closed in another
sentence — and on mutants of them."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anascore.formats.corefud import read_corefud
from anascore.formats.readers import corefud_brackets
from tests.support.document_fields import outcome
from tests.support.mutations import mutant, write_mutant
from tests.unit.formats.test_corefud_sentences import careful

_LAYOUTS = ["eid-etype-head-MIN-other", "eid-etype-head-other", "GRP-entity-MIN-head-x", None]


def _opening(rng: random.Random, entity: str, layout: str | None, single: bool) -> str:
    rare = rng.random() < 0.01  # now and then a head index or MIN that is wrong
    values = {"eid": entity, "GRP": entity, "etype": rng.choice(["", "person", "place"]),
              "entity": rng.choice(["", "org"]),
              "head": rng.choice(["9", "x", "0", "2"] if rare else
                                 ["", "", "1"] if single else ["", "", "1", "2"]),
              "MIN": rng.choice(["0", "3,1", "1x", "1,2"] if rare else
                                ["", "", "1"] if single else ["", "", "1", "1,2"]),
              "other": rng.choice(["", "", "new", "old"]), "x": rng.choice(["", "y"])}
    names = (layout or "eid-etype-head-other").split("-")
    text = "-".join(values[name] for name in names)
    return "(" + (text.rstrip("-") if rng.random() < 0.3 else text)


def rich_text(rng: random.Random, documents: int = 3) -> str:
    """A CorefUD file of plain sentences whose brackets say much: random heads, MIN,
    attributes, parts, bridging and split antecedents, cells of several items; now and then
    a mention left open at a sentence's end, a close of a mention not open, a bad head
    index or MIN, a bridge or split antecedent to an entity without mentions. (In a cell,
    closing brackets come before opening ones, which would otherwise run into them.)"""
    lines: list[str] = []
    layout = rng.choice(_LAYOUTS)
    for number in range(documents):
        lines.append(f"# newdoc id = d{number}")
        if layout is not None and (number == 0 or rng.random() < 0.2):
            lines.append(f"# global.Entity = {layout}")
        opened: list[str] = []
        seen: list[str] = []  # the entities opened so far, for Bridge
        waiting: list[str] = []  # the entities whose part 1/2 closed, waiting for part 2/2
        for sentence in range(rng.randint(1, 5)):
            lines.append(f"# sent_id = d{number}-{sentence}")
            words = rng.randint(1, 12)
            if rng.random() < 0.97:  # else the mentions left open are closed from here
                opened = []
            for word in range(1, words + 1):
                closes: list[str] = []
                opens: list[str] = []
                while opened and ((word == words and rng.random() < 0.99)
                                  or rng.random() < 0.25):
                    closing = opened.pop(rng.randrange(len(opened)))
                    closes.append(f"{closing})")
                    if closing.endswith("[1/2]"):
                        waiting.append(closing[:-5])
                if waiting and rng.random() < 0.8:
                    opens.append(f"({waiting.pop()}[2/2]--)")
                for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
                    entity = f"e{rng.randint(1, 4)}"
                    seen.append(entity)
                    roll = rng.random()
                    if roll < 0.45 or word == words:
                        opens.append(_opening(rng, entity, layout, True) + ")")
                    elif roll < 0.9:
                        opens.append(_opening(rng, entity, layout, False))
                        opened.append(entity)
                    elif roll < 0.93:
                        part = f"p{entity}"  # (a close 'e1)' would close a part of e1)
                        opens.append(f"({part}[1/2]--")
                        opened.append(f"{part}[1/2]")
                    elif roll < 0.932:
                        closes.append(f"{entity})")  # perhaps nothing open
                items = ["Entity=" + "".join(closes + opens)] if closes or opens else []
                roll = rng.random()
                if roll < 0.03 and len(set(seen)) > 1:
                    antecedent, anaphor = rng.sample(sorted(set(seen)), 2)
                    link = rng.choice(["Bridge", "Bridge", "SplitAnte"])
                    items.append(f"{link}={antecedent}<{anaphor}:part" if link == "Bridge"
                                 else f"{link}={antecedent}<{anaphor}")
                elif roll < 0.08:
                    items.insert(0, "SpaceAfter=No")
                elif roll < 0.0805:
                    items.append("Entity=")
                misc = "|".join(items) or "_"
                head = rng.choice(["0", str(max(word - 1, 0))])
                lines.append(f"{word}\tw{word}\t_\tX\t_\t_\t{head}\t_\t_\t{misc}")
            lines.append("")
    return "\n".join(lines) + "\n"


@pytest.fixture
def fast_brackets(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many cells the bulk reading of brackets was given (so a test shows it ran)."""
    counted = [0]
    read = corefud_brackets.read_brackets

    def counting(builder: Any, fields: Any, path: str, indices: Any, cells: Any,
                 base: int, lines: list[int]) -> None:
        counted[0] += len(cells)
        read(builder, fields, path, indices, cells, base, lines)

    monkeypatch.setattr("anascore.formats.readers.corefud_regions.read_brackets", counting)
    return counted


def test_rich_files_read_alike(tmp_path: Path, fast_brackets: list[int]) -> None:
    rng = random.Random(11)
    errors = 0
    for index in range(150):
        path = tmp_path / f"r{index}.conllu"
        path.write_text(rich_text(rng), encoding="utf-8")
        token_columns = index % 2 == 0
        fast = outcome(read_corefud(path, token_columns=token_columns))
        assert fast == careful(path, token_columns)
        errors += fast[1] is not None
    # Both valid files and files with an error were read, the brackets mostly in bulk.
    assert 10 < errors < 140
    assert fast_brackets[0] > 1000


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 10**6), mutate=st.booleans())
def test_rich_files_and_their_mutants_read_alike(tmp_path_factory: pytest.TempPathFactory,
                                                 seed: int, mutate: bool) -> None:
    rng = random.Random(seed)
    text = rich_text(rng)
    path = tmp_path_factory.mktemp("rich") / "rich.conllu"
    write_mutant(path, mutant(text, rng) if mutate else text)
    assert outcome(read_corefud(path)) == careful(path)


HEADER = "# newdoc id = d\n# global.Entity = eid-etype-head-MIN-other\n"


def _sentences(*rows: list[str]) -> str:
    text = HEADER
    for number, misc_cells in enumerate(rows):
        text += f"# sent_id = s{number}\n"
        for word, misc in enumerate(misc_cells, start=1):
            text += f"{word}\tw\t_\t_\t_\t_\t{word - 1}\t_\t_\t{misc}\n"
        text += "\n"
    return text


@pytest.mark.parametrize(("rows", "line"), [
    # (Line 3 is the first sent_id, line 4 its first word.) A mention closed in the next
    # sentence; one left open to the end of the document.
    ((["Entity=(e1-x--", "_"], ["Entity=e1)"]), 8),
    ((["_", "Entity=(e1-x--"], ["_"]), 5),
    ((["_"], ["Entity=(e1-x--"], ["Entity=(e2-x--)e1)"]), 10),
    # A head index or MIN beyond the mention, MIN 0: at the closing bracket's line.
    ((["Entity=(e1-x-3-", "Entity=e1)"],), 5),
    ((["Entity=(e1-x--3", "Entity=e1)"],), 5),
    ((["Entity=(e1-x--0", "_", "Entity=e1)"],), 6),
    ((["Entity=(e1-x-2-)"],), 4),
    # A close with nothing open, after mentions read in bulk; a part never finished.
    ((["Entity=(e1-x--)(e2-x--", "Entity=e2)e3)"],), 5),
    ((["Entity=(e1[1/2]-x--", "Entity=e1[1/2])"],), 4),
    # Bridge to an entity never opened; SplitAnte naming an entity without mentions.
    ((["Entity=(e1-x--)", "Bridge=e1<e2"],), 5),
    ((["Entity=(e1-x--)|SplitAnte=e1<e5", "_"],), 4),
    # An empty Entity=, a malformed one, after plain cells.
    ((["Entity=(e1-x--)", "Entity="],), 5),
    ((["Entity=(e1-x--)", "Entity=(e2-x--)x"],), 5),
])
def test_errors_in_brackets_are_the_careful_ones(tmp_path: Path, rows: tuple[list[str], ...],
                                                  line: int) -> None:
    path = tmp_path / "bad.conllu"
    path.write_text(_sentences(*rows), encoding="utf-8")
    fast = outcome(read_corefud(path))
    assert fast == careful(path)
    assert fast[1] is not None and fast[1][1:] == (str(path), line)


@pytest.mark.parametrize("rows", [
    # Heads, MIN and attributes; nested mentions of one entity; a one-node MIN.
    (["Entity=(e1-person-2-1,2-new", "Entity=(e1-person-1--)e1)", "_"],),
    # A part in the middle of plain brackets, finished in a later sentence.
    (["Entity=(e1[1/2]-x--(e2-x--)", "Entity=e1[1/2])"], ["Entity=(e1[2/2]-x-1-)"]),
    # Bridge and SplitAnte cells among plain ones, the anaphor opened in bulk before them.
    (["Entity=(e1-x--", "Entity=e1)(e2-x--)", "Bridge=e2<e1:part|SplitAnte=e1<e3",
      "Entity=(e3-y--)"],),
    (["Entity=(e1-x--", "Bridge=e3<e1", "Entity=e1)(e3-y--)"],),
    # Cells of several items, odd cells; a close of a mention opened by the careful code.
    (["SpaceAfter=No|Entity=(e1-x--", "Entity=(e2-x--)", "Entity=e1)"],
     ["Entity=(e4-x--)|SpaceAfter=No", "Entity=(e4-x--(e4-y--", "Entity=e4)e4)"]),
])
def test_unusual_brackets_read_alike(tmp_path: Path, rows: tuple[list[str], ...]) -> None:
    path = tmp_path / "odd.conllu"
    path.write_text(_sentences(*rows), encoding="utf-8")
    fast = outcome(read_corefud(path))
    assert fast == careful(path)
    assert fast[1] is None
