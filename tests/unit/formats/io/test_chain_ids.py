"""id_warnings on documents in memory: an entity with both event and entity mentions is
named, whatever the other entities say (the mention types are read in one pass over the
document first, and entity by entity only when both kinds occur)."""

from __future__ import annotations

from anascore.core.model import Document, Entity, Mention
from anascore.formats.io.chain_ids import id_warnings


def typed(position: int, kind: str | None) -> Mention:
    return Mention((position,), attributes={} if kind is None else {"mention_type": kind})


def document(*entities: tuple[str, tuple[str | None, ...]]) -> Document:
    position = iter(range(100))
    return Document("d", tuple("abcdefghij"), tuple(
        Entity(name, tuple(typed(next(position), kind) for kind in kinds))
        for name, kinds in entities))


MIXED = ("key document 'd': {} on both event and entity mentions (first: {!r}), each read as "
         "one chain, as written; give event and entity chains distinct IDs if they are not "
         "one chain")


def test_events_and_entities_in_separate_chains_are_not_warned_about() -> None:
    assert id_warnings(document(("1", ("ACT", "NEG")), ("2", ("HUM", None))), "key") == []
    assert id_warnings(document(("1", ("ACT",)), ("2", ("NEG_x", None))), "key") == []
    assert id_warnings(document(("1", (None, None))), "key") == []


def test_each_mixed_chain_is_counted_and_the_first_named() -> None:
    said = id_warnings(document(("1", ("HUM",)), ("2", ("LOC", "ACT")), ("3", ("NEG", "X"))),
                       "key")
    assert said == [MIXED.format("2 chain IDs", "2")]
    said = id_warnings(document(("1", ("ACT",)), ("9", ("ACT", None, "TIME"))), "key")
    assert said == [MIXED.format("1 chain ID", "9")]
