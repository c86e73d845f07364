"""A selected side's spans (:attr:`anascore.selection.sides.Side.spans`) and whether each is
there once (:attr:`Side.unique_spans`): selection hands on what it made of them, and exact
matching and MOR read them; these tests hold what it hands on to what the side's mentions
say, whatever the options."""

from __future__ import annotations

from hypothesis import given, reject, settings
from hypothesis import strategies as st

from anascore.compat import conventions_named
from anascore.config.options import Options
from anascore.core.errors import AnascoreError
from anascore.core.model import Document, Entity, Mention
from anascore.selection.sides import select_side
from tests.support.strategies import ua_documents


@settings(max_examples=200, deadline=None)
@given(ua_documents(), st.booleans(), st.booleans(), st.sampled_from(["none", "ua"]))
def test_spans_handed_on_are_the_mentions(document: Document, keep_singletons: bool,
                                           split_antecedents: bool, compat: str) -> None:
    options = Options(keep_singletons=keep_singletons,
                      keep_split_antecedents=split_antecedents, compat=compat)
    try:
        side = select_side(document, options, "key", [], conventions_named(compat))
    except AnascoreError:  # sets the file could not hold: refused before any span is read
        reject()
    handed_on = dict(side.__dict__)  # what selection set before anything was asked
    spans = [mention.tokens for mention in side.mentions]
    assert side.spans == spans
    assert side.unique_spans == (len(set(spans)) == len(spans))
    if "spans" in handed_on:
        assert handed_on["spans"] == spans
    if "unique_spans" in handed_on:
        assert handed_on["unique_spans"] == (len(set(spans)) == len(spans))


def test_a_repeated_span_is_handed_on_once() -> None:
    # a span in two entities: selection keeps one copy (and says so), so the side's spans
    # are unique, and not the document's
    document = Document("d", ("a", "b", "c"), (
        Entity("1", (Mention((0,)), Mention((1, 2)))), Entity("2", (Mention((1, 2)),))))
    warnings: list[str] = []
    side = select_side(document, Options(), "response", warnings)
    assert side.spans == [(0,), (1, 2)]
    assert side.unique_spans is True
    assert len(warnings) == 1
