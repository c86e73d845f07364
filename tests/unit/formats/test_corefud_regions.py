"""The CorefUD reader's reading of whole regions of plain sentences at once
(formats/readers/corefud_regions.py) against its careful line-by-line reading: equal
documents (every field) and equal errors (message, file, line) on regions that are plain
and on every way a region can fail to be (each then read sentence by sentence, or line by
line); and which of them are read as regions."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anascore.formats.corefud import read_corefud
from anascore.formats.readers import corefud
from anascore.formats.readers.corefud_regions import read_region
from tests.support.document_fields import outcome
from tests.support.mutations import mutant, write_mutant
from tests.unit.formats.test_corefud_brackets import rich_text
from tests.unit.formats.test_corefud_sentences import careful, synthetic_text


@pytest.fixture
def regions(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many sentences were read as regions."""
    counted = [0]

    def counting(reader: Any, text: str, start: int, end: int, line: int,
                 blank: int | None) -> bool:
        plain = read_region(reader, text, start, end, line, blank)
        counted[0] += text.count("\n\n", start, end) + 1 if plain else 0
        return plain

    monkeypatch.setattr(corefud, "read_region", counting)
    return counted


HEADER = "# newdoc id = d\n# global.Entity = eid-etype-head-other\n"


def sentence(sent_id: str, *misc: str, ids: list[str] | None = None) -> str:
    ids = ids or [str(word) for word in range(1, len(misc) + 1)]
    return (f"# sent_id = {sent_id}\n" + "".join(
        f"{node}\tw\t_\tX\t_\t_\t0\t_\t_\t{cell}\n" for node, cell in zip(ids, misc,
                                                                           strict=True)))


PLAIN = (HEADER + sentence("s1", "Entity=(e1-x--", "Entity=e1)") + "\n"
         + sentence("s2", "_", "Entity=(e2-y-1-)") + "\n"
         + sentence("s3", "Entity=(e1-x--)", "_", "_") + "\n")


def test_plain_regions_are_read_as_regions(tmp_path: Path, regions: list[int]) -> None:
    path = tmp_path / "plain.conllu"
    path.write_text(PLAIN * 3, encoding="utf-8")
    documents, error = outcome(read_corefud(path))
    assert (documents, error) == careful(path)
    assert error is None and len(documents) == 3
    assert regions[0] == 6  # each document's first sentence comes after its header lines


@pytest.mark.parametrize(("tail", "taken"), [  # (some are errors, compared alike too)
    # Plain: sent_ids with spaces around, empty; no blank line at the end of the file.
    (sentence("  s4 ", "_") + "\n" + sentence("", "_", "_"), True),
    (sentence("s4", "_", "Entity=(e3-z--)").rstrip("\n"), True),
    # A sent_id written otherwise, another comment, a tab in the sent_id.
    ("#sent_id=s4\n1\tw\t_\tX\t_\t_\t0\t_\t_\t_\n", False),
    ("# text = a b\n" + sentence("s4", "_"), False),
    (sentence("s4\tx", "_"), False),
    # Two blank lines, a blank line of spaces, a comment after the tokens.
    ("\n" + sentence("s4", "_"), False),
    (sentence("s4", "_") + "  \n" + sentence("s5", "_"), False),
    (sentence("s4", "_", "_") + "# end\n", False),
    (sentence("s4", "_", "_") + "foo\n", False),  # a line neither comment nor token
    # IDs with a gap, repeated, missing; a multiword token; an empty node.
    (sentence("s4", "_", "_", ids=["1", "3"]), False),
    (sentence("s4", "_", "_", ids=["1", "1"]), False),
    (sentence("s4", "_", "_", ids=["2", "3"]), False),
    (sentence("s4", "_", "_", ids=["1-2", "1"]), False),
    (sentence("s4", "_", "_", ids=["1", "1.1"]), False),
    # A line of nine cells then one of eleven; empty FORM, HEAD, DEPS, MISC cells.
    ("# sent_id = s4\n1\tw\t_\tX\t_\t_\t0\t_\t_\n2\tv\tw\t_\tX\t_\t_\t0\t_\t_\t_\n", False),
    ("# sent_id = s4\n1\t\t_\tX\t_\t_\t0\t_\t_\t_\n", False),
    ("# sent_id = s4\n1\tw\t_\tX\t_\t_\t\t_\t_\t_\n", False),
    ("# sent_id = s4\n1\tw\t_\tX\t_\t_\t0\t_\t\t_\n", False),
    ("# sent_id = s4\n1\tw\t_\tX\t_\t_\t0\t_\t_\t\n2\tw\t_\tX\t_\t_\t0\t_\t_\t\n", True),
    # A sentence of 600 words; a sentence without tokens.
    (sentence("s4", *["_"] * 600), False),
    ("# sent_id = s4\n\n" + sentence("s5", "_"), False),
])
def test_regions_plain_or_not_read_alike(tmp_path: Path, regions: list[int], tail: str,
                                         taken: bool) -> None:
    path = tmp_path / "region.conllu"
    path.write_text(PLAIN + tail, encoding="utf-8")
    documents, error = outcome(read_corefud(path))
    assert (documents, error) == careful(path)
    if taken:  # (else how many are read as regions depends on where the region is cut)
        assert error is None and regions[0] == 3 + tail.count("\n\n")


@pytest.mark.parametrize(("tail", "line"), [
    # Errors in a region that is not plain, or in its brackets: the careful reading's, at
    # its line (PLAIN has 15 lines).
    (sentence("s4", "_", "_", ids=["1", "1"]), 18),
    ("# sent_id = s4\n1\tw\t_\tX\t_\t_\t0\t_\t_\n", 17),
    (sentence("s4", "_", "Entity=e9)"), 18),
    (sentence("s4", "Entity=(e1-x-2-)"), 17),
])
def test_errors_in_regions_are_the_careful_ones(tmp_path: Path, tail: str, line: int) -> None:
    path = tmp_path / "bad.conllu"
    path.write_text(PLAIN + tail + "\n" + sentence("s5", "_"), encoding="utf-8")
    documents, error = outcome(read_corefud(path))
    assert (documents, error) == careful(path)
    assert error is not None and error[1:] == (str(path), line)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 10**6), kind=st.sampled_from(["synthetic", "rich", "plain"]))
def test_mutants_of_regions_read_alike(tmp_path_factory: pytest.TempPathFactory, seed: int,
                                       kind: str) -> None:
    rng = random.Random(seed)
    text = (synthetic_text(rng, documents=2) if kind == "synthetic"
            else rich_text(rng, documents=2) if kind == "rich" else PLAIN * 2)
    path = tmp_path_factory.mktemp("regions") / "mutant.conllu"
    write_mutant(path, mutant(text, rng))
    assert outcome(read_corefud(path)) == careful(path)
