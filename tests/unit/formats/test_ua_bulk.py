"""The markable columns read a column at a time (:mod:`anascore.formats.readers.ua_bulk`, on
the fast path's documents) against the line-by-line reader (``read_ua_lines``, which reads
them cell by cell): equal documents, every field of every object compared (lines, heads,
Min, attributes too), and equal errors (message, file, line), on files of the synthetic
corpus' shape, on GUM converted to UA (dependency trees, many attributes), on markable cells
drawn from valid and broken brackets, and on mutated files.

Each test also checks that the bulk reading took the columns it should (and, where cells are
broken, that it left some to the cell-by-cell code), so that a bulk reader that declines
everything fails."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import anascore.formats.readers.ua_document as ua_document
from anascore.formats.io.conversion import convert
from anascore.formats.readers.ua_bulk import read_markables
from tests.support.mutations import mutant, write_mutant
from tests.support.paths import corpus_files
from tests.unit.formats.test_ua_fast import COLUMNS, same, synthetic


@pytest.fixture
def bulk_taken(monkeypatch) -> dict[str, int]:
    """How many columns were read in bulk (``read``) and declined (``declined``), and how
    many layers' mentions were made in bulk (``made``) and left to the careful code
    (``left``)."""
    taken = {"read": 0, "declined": 0, "made": 0, "left": 0}
    read, made = ua_document.read_markables, ua_document.bulk_entities

    def counted_read(*arguments):
        markables = read(*arguments)
        taken["read" if markables is not None else "declined"] += 1
        return markables

    def counted_made(*arguments):
        mentions = made(*arguments)
        taken["made" if mentions is not None else "left"] += 1
        return mentions

    monkeypatch.setattr(ua_document, "read_markables", counted_read)
    monkeypatch.setattr(ua_document, "bulk_entities", counted_made)
    return taken


def test_the_synthetic_shape_is_read_in_bulk_and_equally(tmp_path, bulk_taken) -> None:
    path = tmp_path / "synthetic.ua"
    path.write_text(synthetic(random.Random(4), documents=8))
    documents, error = same(path)
    assert error is None and len(documents) == 8
    # Every document's IDENTITY column (and the DISCOURSE_DEIXIS ones with markables).
    assert bulk_taken["read"] >= 8 and bulk_taken["declined"] == 0
    assert bulk_taken["made"] == bulk_taken["read"] and bulk_taken["left"] == 0


def test_gum_in_ua_is_read_in_bulk_and_equally(tmp_path, bulk_taken) -> None:
    # GUM written as UA: dependency trees (heads from them), a dozen attributes a markable,
    # nested and one-token markables, multiword tokens.
    for source in corpus_files("gum", "dep", pattern="*.conllu", limit=12):
        path = tmp_path / (source.stem + ".conllua")
        convert(source, path, to="ua", drop_unsupported=True)
        documents, error = same(path)
        assert documents and error is None
    # (Two of them have split-antecedent plurals, ElementOf: their mentions are made by the
    # careful code.)
    assert bulk_taken["read"] >= 12 and bulk_taken["made"] >= 8


#: Cells of a markable column: well-formed brackets of every kind the bulk reader takes, and
#: of every kind it must leave (a named closing bracket, '@', white space, a name spelt
#: another way, an item without '=', a second '=', a name twice, an anonymous or reopened
#: markable, Min and ElementOf, a closing bracket with nothing open, junk around '_').
FRAGMENTS = [
    "_", "_", "_", "_", ")", ")", "))", "(EntityID=1|MarkableID=m1", "(EntityID=2|MarkableID=m2)",
    "(EntityID=3|MarkableID=m3|SemType=dn", "(MarkableID=m4|EntityID=1)",
    "(EntityID=5-Pseudo|MarkableID=m5)", "(EntityID=1|MarkableID=m1)", "m1)", "@",
    "(EntityID=6|MarkableID=m6 )", "(entityid=7|MarkableID=m7)", "(EntityID=8|MarkableID)",
    "(EntityID=9|MarkableID=m9=x)", "(EntityID=1|EntityID=2|MarkableID=m10)",
    "(EntityID=11)", "(EntityID=12|MarkableID=m12|Min=1", "(EntityID=13|MarkableID=m13|Min=9)",
    "(EntityID=14|MarkableID=m14|ElementOf=1)", "(EntityID=15|MarkableID=m15|ElementOf=99)",
    "_)", "__", "()", "(EntityID=16|MarkableID=m16\xa0)", "(EntityID=|MarkableID=m17)",
    "(EntityID=18|MarkableID=m18||x=1)", "(EntityID=19|MarkableID=m19|Min=2,3)",
]


def drawn_file(cells: list[list[str]]) -> str:
    """One document, a sentence of tokens whose IDENTITY and DISCOURSE_DEIXIS cells are
    the drawn fragments (joined); HEAD cells forming a tree (token 1 the root)."""
    lines = ["# global.columns = " + " ".join(COLUMNS), "# newdoc id = drawn",
             "# sent_id = drawn-1"]
    for number, (identity, deixis) in enumerate(cells, start=1):
        lines.append("\t".join([str(number), "w", "_", "_", "_", "_",
                                "0" if number == 1 else "1", "_", "_", "_",
                                identity or "_", "_", deixis or "_"]))
    return "\n".join(lines) + "\n"


cell = st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=3).map(
    lambda parts: "".join(parts).replace("_(", "(") if len(parts) > 1 else parts[0])


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cells=st.lists(st.tuples(cell, st.sampled_from(["_", "_", "(EntityID=d|MarkableID=d1)"])),
                      min_size=1, max_size=12))
def test_drawn_markable_cells_give_the_same_documents_or_error(tmp_path_factory,
                                                               cells) -> None:
    path = tmp_path_factory.mktemp("drawn") / "drawn.ua"
    path.write_text(drawn_file([list(pair) for pair in cells]), encoding="utf-8")
    same(path)
    same(path, token_columns=True)


def test_drawn_cells_are_taken_in_bulk_and_left(tmp_path, bulk_taken) -> None:
    # The same drawing, seeded: both ways of reading meet, and each gives what the other does.
    rng = random.Random(2)
    path = tmp_path / "drawn.ua"
    for _ in range(150):
        cells = [[rng.choice(FRAGMENTS[:12] if rng.random() < 0.9 else FRAGMENTS)
                  if rng.random() < 0.4 else "_", "_"] for _ in range(rng.randint(1, 10))]
        path.write_text(drawn_file(cells), encoding="utf-8")
        same(path)
    assert bulk_taken["read"] > 20 and bulk_taken["declined"] > 20
    assert bulk_taken["made"] > 10 and bulk_taken["left"] > 0


@pytest.mark.parametrize("seed", range(30))
def test_mutated_markable_files_give_the_same_documents_or_error(tmp_path, seed: int) -> None:
    rng = random.Random(100 + seed)
    text = synthetic(rng, documents=2)
    path = tmp_path / "mutant.ua"
    for _ in range(5):
        write_mutant(path, mutant(text, rng))
        same(path)


@pytest.mark.parametrize(("cells", "expected"), [
    (["_", "_"], ([], [])),
    (["(EntityID=1|MarkableID=a", "_", ")"], ([0], [2])),
    (["(EntityID=1|MarkableID=a(EntityID=2|MarkableID=b)", ")(EntityID=3|MarkableID=c)"],
     ([0, 0, 1], [1, 0, 1])),
    (["(EntityID=1|MarkableID=a", "(EntityID=2|MarkableID=b", "_", "))"], ([0, 1], [3, 3])),
])
def test_markables_span_from_their_opening_to_their_closing_bracket(
        cells: list[str], expected: tuple[list[int], list[int]]) -> None:
    markables = read_markables(cells)
    assert markables is not None
    assert (markables.starts, markables.ends) == expected


def test_read_markables_declines_what_it_cannot_prove() -> None:
    assert read_markables(["(EntityID=1|MarkableID=a", ")", "(EntityID=1|MarkableID=a)"]) is None
    assert read_markables([")", "_"]) is None  # closes nothing
    assert read_markables(["(EntityID=1|MarkableID=a"]) is None  # never closes
    assert read_markables(["_", "a)"]) is None
    assert read_markables(["(EntityID=1|MarkableID=a)_"]) is None
    nested = read_markables(["(EntityID=1|MarkableID=a|Min=2(EntityID=2|MarkableID=b)",
                             "_", "))"])
    assert nested is None  # the second ')' closes nothing
    good = read_markables(["(EntityID=1|MarkableID=a|Min=2(EntityID=2|MarkableID=b)",
                           "_", ")"])
    assert good is not None and good.min_or_element_of
    assert (good.starts, good.ends, good.entity_ids, good.markable_ids) == (
        [0, 0], [2, 0], ["1", "2"], ["a", "b"])
    assert good.attributes == [{"EntityID": "1", "MarkableID": "a", "Min": "2"},
                               {"EntityID": "2", "MarkableID": "b"}]

