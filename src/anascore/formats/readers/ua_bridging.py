"""The bridging links of a UA document: its BRIDGING annotations (read by
:class:`~anascore.formats.readers.ua_document._DocumentReader`, each ``MarkableID=…|Rel=…|
MentionAnchor=…|EntityAnchor=…`` with its line) resolved against the mentions and entities of
its IDENTITY column, as :mod:`anascore.formats.readers.ua` states the rules."""

from __future__ import annotations

from collections.abc import Mapping

from anascore.core.errors import FormatError
from anascore.core.model import BridgingLink, Mention
from anascore.formats.readers.ua_markables import PSEUDO_SUFFIXES, canonical_name


def bridging_links(bridging: list[tuple[int, str]], mention_of: Mapping[str, Mention],
                   entity_of_markable: Mapping[str, str], entity_ids: set[str], name: str,
                   path: str) -> tuple[BridgingLink, ...]:
    """The links of a document's BRIDGING annotations (each with its line) between the
    mentions of its IDENTITY column (by MarkableID, and the entity of each) and its entities
    (``entity_ids``, pseudo-entities among them), in document ``name`` of ``path``."""
    links: list[BridgingLink] = []
    for line, text in bridging:
        items = [(canonical_name(name.strip()), value.strip()) for name, _, value in
                 (item.partition("=") for item in text.split("|") if item.strip())]
        anaphor_id = next((value for name, value in items if name == "MarkableID"), None)
        if not anaphor_id:
            raise FormatError(f"BRIDGING annotation {text!r} has no MarkableID; expected "
                              "'MarkableID=…|Rel=…|MentionAnchor=…|EntityAnchor=…'",
                              path=path, line=line)
        anaphor = mention_of.get(anaphor_id)
        if anaphor is None:
            raise FormatError(f"bridging anaphor MarkableID={anaphor_id} names no markable "
                              f"of the IDENTITY column in document {name!r}",
                              path=path, line=line)
        for group in _anchor_groups(items):
            links.append(_link(anaphor, group, mention_of, entity_of_markable, entity_ids,
                               text, name, path, line))
    return tuple(links)



def _link(anaphor: Mention, group: dict[str, str], mention_of: Mapping[str, Mention],
          entity_of_markable: Mapping[str, str], entity_ids: set[str], text: str, name: str,
          path: str, line: int) -> BridgingLink:
    mention_anchor = group.get("MentionAnchor")
    entity_anchor = group.get("EntityAnchor")
    if not mention_anchor and not entity_anchor:
        raise FormatError(f"BRIDGING annotation {text!r} has no anchor; expected "
                          "MentionAnchor=… or EntityAnchor=…", path=path, line=line)
    antecedent = None
    antecedent_entity = None
    if mention_anchor:
        antecedent = mention_of.get(mention_anchor)
        if antecedent is None:
            raise FormatError(f"bridging anchor MentionAnchor={mention_anchor} names no "
                              f"markable of the IDENTITY column in document {name!r}",
                              path=path, line=line)
        antecedent_entity = entity_of_markable[mention_anchor]
    if entity_anchor:
        named = next((candidate for candidate in
                      (entity_anchor, *(entity_anchor + suffix for suffix in PSEUDO_SUFFIXES))
                      if candidate in entity_ids), None)
        if named is None:
            raise FormatError(f"bridging anchor EntityAnchor={entity_anchor} names no "
                              f"entity of the IDENTITY column in document {name!r}",
                              path=path, line=line)
        if antecedent_entity is not None and named != antecedent_entity:
            raise FormatError(
                f"bridging anchors disagree: MentionAnchor={mention_anchor} belongs to "
                f"entity {antecedent_entity} but EntityAnchor={entity_anchor}",
                path=path, line=line)
        antecedent_entity = named
    relation = group.get("Rel", "")
    return BridgingLink(anaphor, antecedent, antecedent_entity,
                        "" if relation == "_" else relation)




def _anchor_groups(items: list[tuple[str, str]]) -> list[dict[str, str]]:
    """Split ``Rel``/``MentionAnchor``/``EntityAnchor`` items into one group per anchor: a name
    seen again, or ``Rel`` after an anchor, starts the next group."""
    groups: list[dict[str, str]] = [{}]
    for name, value in items:
        if name not in ("Rel", "MentionAnchor", "EntityAnchor"):
            continue
        if name in groups[-1] or (name == "Rel" and groups[-1]):
            groups.append({})
        groups[-1][name] = value
    return groups
