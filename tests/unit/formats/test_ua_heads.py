"""The head of every UA markable (formats/readers/ua_document.py): whatever shortcut the
reader takes (one-token markables, a file without HEADs), each mention's head is what
:func:`~anascore.formats.dependencies.mention_head` says of its tokens, its MIN and the
governors of the document's tokens, and a markable whose tokens govern each other is an
error at its own line."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anascore.core.errors import FormatError
from anascore.formats.dependencies import CYCLE, governors, id_positions, mention_head
from anascore.formats.ua import read_ua


@st.composite
def documents(draw: st.DrawFn) -> tuple[str, list[str]]:
    """A UA document of one to three sentences (IDs 1, 2 … in each): HEAD cells drawn from
    roots, no HEAD, the token itself, other tokens, no token; markables of one or more
    tokens, some with a MIN; and the HEAD cells in token order."""
    lines = ["# global.columns = ID FORM HEAD IDENTITY", "# newdoc id = d"]
    heads: list[str] = []
    number = 0
    without_heads = draw(st.booleans())
    for sentence in range(draw(st.integers(1, 3))):
        if sentence:
            lines.append("")
        size = draw(st.integers(1, 6))
        token = 1
        while token <= size:
            length = draw(st.integers(1, 3))
            markable = draw(st.booleans())
            for offset in range(min(length, size - token + 1)):
                word = token + offset
                head = "_" if without_heads else draw(st.sampled_from(
                    ["0", "0", "_", str(word), "1", "2", "3", "9"]))
                heads.append(head)
                last = offset == min(length, size - token + 1) - 1
                cell = "_"
                if markable:
                    if offset == 0:
                        number += 1
                        min_cell = draw(st.sampled_from(["", f"|Min={word}", "|Min=1,2"]))
                        cell = f"(EntityID=e{number % 3}|MarkableID=m{number}{min_cell}"
                        cell += ")" if last else ""
                    elif last:
                        cell = ")"
                lines.append(f"{word}\tw\t{head}\t{cell}")
            token += length
    return "\n".join(lines) + "\n", heads


@settings(max_examples=300, deadline=None)
@given(drawn=documents())
def test_every_markable_is_headed_as_mention_head_says(tmp_path_factory, drawn) -> None:
    text, heads = drawn
    path = tmp_path_factory.mktemp("heads") / "d.ua"
    path.write_text(text, encoding="utf-8")
    try:
        (document,) = read_ua(path)
    except FormatError as error:
        if "Min=" in str(error):  # a MIN naming no token of its sentence: not this test's
            return
        assert "(a cycle)" in str(error)
        return
    nodes = document.nodes
    assert nodes is not None
    numbered = list(zip(nodes.ids, nodes.sentence_of, strict=True))
    governor = governors(numbered, heads, id_positions(numbered))
    mentions = [mention for entity in document.entities for mention in entity.mentions]
    for mention in mentions:
        expected = mention_head(mention.tokens, mention.min_tokens, governor)
        assert expected != CYCLE
        assert mention.head == expected


@pytest.mark.parametrize(("heads", "line"), [
    (["0", "2", "2"], 4),  # a one-token markable governing itself, at line 4
    (["0", "3", "2"], 4),  # a two-token markable, 2 and 3 governing each other
])
def test_a_markable_whose_tokens_govern_each_other_is_an_error_at_its_line(
        tmp_path, heads: list[str], line: int) -> None:
    cells = ["(EntityID=1|MarkableID=m1)", "(EntityID=2|MarkableID=m2", ")"]
    if heads[1] == "2":
        cells = ["(EntityID=1|MarkableID=m1)", "(EntityID=2|MarkableID=m2)", "_"]
    rows = [f"{word}\tw\t{head}\t{cell}"
            for word, (head, cell) in enumerate(zip(heads, cells, strict=True), start=1)]
    path = tmp_path / "cycle.ua"
    path.write_text("# global.columns = ID FORM HEAD IDENTITY\n# newdoc id = d\n"
                    + "\n".join(rows) + "\n", encoding="utf-8")
    with pytest.raises(FormatError) as raised:
        list(read_ua(path))
    assert raised.value.line == line
    assert "markable m2: the dependency HEAD of every one of its tokens lies inside it" in str(
        raised.value)
