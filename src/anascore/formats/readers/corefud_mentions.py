"""The annotation of a CorefUD document being read: its mentions, entities and links.

:mod:`anascore.formats.readers.corefud` reads a CoNLL-U file's lines (each token line
careful, line by line; runs of plain sentences in bulk, :mod:`.corefud_sentences`) into a
:class:`DocumentBuilder`; this module reads each node's MISC coreference annotation into it
(:func:`read_misc`: ``Entity=`` brackets, ``SplitAnte=``, ``Bridge=``), with the errors that
name the file and line, and makes the finished :class:`~anascore.core.model.Document`
(:func:`finish`). The rules are the reader's module docstring's.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from operator import attrgetter
from types import MappingProxyType
from typing import Any

from anascore.core.errors import FormatError, shorten
from anascore.core.model import (
    NO_ATTRIBUTES,
    BridgingLink,
    ConlluNodes,
    Document,
    Entity,
    Mention,
    SpanTokens,
)
from anascore.formats.conllu_ids import INDEX_DIGITS, digits
from anascore.formats.dependencies import (
    CYCLE,
    mention_head,
    sentence_governors,
    untreed_head,
)

_CHUNK = re.compile(r"\([^()]+\)?|[^()]+\)")
_PART = re.compile(r"^([^\[\]]+)\[(\d+)/(\d+)\]$")


@dataclass(eq=False)
class _OpenMention:
    """A mention being read: its positions so far and what its opening chunk said."""

    entity: str
    line: int
    sentence: int
    part_start: int
    head_index: int | None
    min_indices: tuple[int, ...] | None
    attributes: dict[str, str]
    part: tuple[int, int] | None = None
    tokens: list[int] = field(default_factory=list)
    mention: Mention | None = None


#: A mention opened by the bulk reading (:mod:`.corefud_brackets`) and not yet closed: a
#: list ``[entity, line, sentence, start, head index, MIN indices, attributes (read-only),
#: what it became, the fewest positions its head index and MIN fit]`` — what it became:
#: the :class:`~anascore.core.model.Mention` made when it closes, or the
#: :class:`_OpenMention` it was turned into (:func:`careful_state`), else ``None``.
OpenEntry = list[Any]
_BECAME = 7


def careful_state(builder: DocumentBuilder) -> None:
    """Turn the bulk reading's open entries into the :class:`_OpenMention` the careful
    reading would hold in their place (before it reads anything)."""
    for stack in builder.open_mentions.values():
        for index, entry in enumerate(stack):
            if type(entry) is list:
                entity, line, sentence, start, head_index, min_indices, attributes = entry[:7]
                mention = _OpenMention(entity, line, sentence, start, head_index, min_indices,
                                       dict(attributes))
                entry[_BECAME] = stack[index] = mention


def opened_mention(opened: object) -> Mention:
    """The mention that what ``DocumentBuilder.opened`` holds became, once closed."""
    while type(opened) is list:
        opened = opened[_BECAME]
    if isinstance(opened, _OpenMention):
        opened = opened.mention
    assert isinstance(opened, Mention)
    return opened


@dataclass(eq=False)
class DocumentBuilder:
    """Everything read of one document so far."""

    name: str
    line: int
    keep_upos: bool = False
    upos: list[str] = field(default_factory=list)
    # With all_columns (for conversion): each position's LEMMA … DEPREL and the rest of its
    # MISC, and the lines before it that are neither its sentence's sent_id nor anascore's
    # own (comments such as '# text =', multiword-token lines).
    keep_all: bool = False
    kept: dict[str, list[str]] = field(default_factory=dict)
    before: list[str] = field(default_factory=list)
    forms: list[str] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)
    sentence_of: list[int] = field(default_factory=list)
    empty: list[bool] = field(default_factory=list)
    deps: list[str] = field(default_factory=list)
    dependency_heads: list[str] = field(default_factory=list)  # each position's HEAD cell
    lines: list[int] = field(default_factory=list)
    sentence_ids: list[str] = field(default_factory=list)
    sentence_lines: list[int] = field(default_factory=list)
    sentence_starts: list[int] = field(default_factory=list)
    mentions: dict[str, list[Mention]] = field(default_factory=dict)
    spans: SpanTokens = field(default_factory=SpanTokens)  # copies of a span share positions
    entity_types: dict[str, str] = field(default_factory=dict)
    elements: dict[str, list[str]] = field(default_factory=dict)
    named_at: dict[str, int] = field(default_factory=dict)
    # The mentions open, by entity, most recent last (read in bulk, an entry of
    # :data:`OpenEntry`'s layout until the careful reading is to see it, :func:`careful_state`).
    open_mentions: dict[str, list[_OpenMention]] = field(default_factory=dict)
    unfinished_parts: dict[str, list[_OpenMention]] = field(default_factory=dict)
    # The mention of each entity opened last, for Bridge (:func:`opened_mention` makes it).
    opened: dict[str, object] = field(default_factory=dict)
    bridges: list[tuple[object, str, str, int]] = field(default_factory=list)
    headless: list[Mention] = field(default_factory=list)  # no head given in the file



def read_misc(misc: str, position: int, fields: tuple[str, ...], builder: DocumentBuilder,
               path: str, line: int) -> None:
    items = misc.split("|")
    split_antecedents = bridges = None
    for item in items:
        if item.startswith("Entity="):
            _read_entity_chunks(item[7:], position, fields, builder, path, line)
        elif item.startswith("SplitAnte="):
            split_antecedents = item[10:]
        elif item.startswith("Split=") and split_antecedents is None:
            split_antecedents = item[6:]
        elif item.startswith("Bridge="):
            bridges = item[7:]
    if split_antecedents:
        for link in split_antecedents.split(","):
            antecedent, _, plural = link.partition("<")
            if not antecedent or not plural:
                raise FormatError(f"SplitAnte link {shorten(link)!r}; expected ANTECEDENT<PLURAL "
                                  "such as 'e3<e11'", path=path, line=line)
            if antecedent == plural:
                raise FormatError(f"SplitAnte link {shorten(link)!r} makes entity "
                                  f"{shorten(plural)} its own split antecedent", path=path,
                                  line=line)
            elements = builder.elements.setdefault(plural, [])
            if antecedent not in elements:  # a link repeated (on each mention) is one
                elements.append(antecedent)
            builder.named_at.setdefault(plural, line)
            builder.named_at.setdefault(antecedent, line)
    if bridges:
        for link in bridges.split(","):
            antecedent, _, anaphor = link.partition("<")
            anaphor, _, relation = anaphor.partition(":")
            if not antecedent or not anaphor:
                raise FormatError(f"Bridge link {shorten(link)!r}; expected "
                                  "ANTECEDENT<ANAPHOR[:RELATION] such as 'e12<e124:part'",
                                  path=path, line=line)
            if antecedent == anaphor:
                raise FormatError(f"Bridge link {shorten(link)!r} links entity "
                                  f"{shorten(anaphor)} to itself", path=path, line=line)
            opened = builder.opened.get(anaphor)
            if opened is None:
                raise FormatError(f"Bridge link {shorten(link)!r}: entity {shorten(anaphor)} has "
                                  "no mention opened at or before this node to be the anaphor",
                                  path=path, line=line)
            builder.bridges.append((opened, antecedent, relation, line))
            builder.named_at.setdefault(antecedent, line)


def _read_entity_chunks(value: str, position: int, fields: tuple[str, ...],
                        builder: DocumentBuilder, path: str, line: int) -> None:
    if not value:
        raise FormatError("empty Entity=; expected brackets such as '(e1-person-1-', 'e1)' or "
                          "'(e1-person-1-)'", path=path, line=line)
    chunks = _CHUNK.findall(value)
    if "".join(chunks) != value:
        raise FormatError(
            f"Entity={shorten(value)!r}: expected brackets such as '(e1-person-1-', 'e1)' or "
            "'(e1-person-1-)' written back to back", path=path, line=line)
    for chunk in chunks:
        read_chunk(chunk, position, fields, builder, path, line)


def read_chunk(chunk: str, position: int, fields: tuple[str, ...], builder: DocumentBuilder,
               path: str, line: int) -> None:
    """Read one bracket of an ``Entity=`` value at ``position``, carefully: open or close
    its mention, or raise the error it makes."""
    opening, closing = chunk[0] == "(", chunk[-1] == ")"
    text = chunk.strip("()")
    if opening:
        mention = _open(text, position, fields, builder, path, line)
        if closing:
            _close(mention, position, builder, path, line)
        else:
            builder.open_mentions.setdefault(mention.entity, []).append(mention)
        return
    entity, part = _split_part(text, path, line)
    stack = builder.open_mentions.get(entity)
    if not stack:
        raise FormatError(f"'{shorten(chunk)}' closes a mention of entity "
                          f"{shorten(entity)} that is not open", path=path, line=line)
    index = len(stack) - 1
    if part is not None:
        while index >= 0 and stack[index].part != part:
            index -= 1
        if index < 0:
            raise FormatError(f"'{shorten(chunk)}' closes part {part[0]}/{part[1]} of a "
                              f"mention of entity {shorten(entity)}, but no such part is "
                              "open",
                              path=path, line=line)
    _close(stack.pop(index), position, builder, path, line)


def _split_part(text: str, path: str, line: int) -> tuple[str, tuple[int, int] | None]:
    if not text.endswith("]"):
        return text, None
    part = _PART.match(text)
    if part is None:
        raise FormatError(f"entity ID {shorten(text)!r} ends with ']' but is not a "
                          "discontinuous part such as 'e3[1/2]'", path=path, line=line)
    index, total = part.group(2), part.group(3)
    if (len(index) > INDEX_DIGITS or len(total) > INDEX_DIGITS
            or not 1 <= int(index) <= int(total)):
        raise FormatError(f"discontinuous part {shorten(text)!r}: expected [i/n] with "
                          "1 ≤ i ≤ n", path=path, line=line)
    return part.group(1), (int(index), int(total))


#: What the opening-bracket fields anascore reads are for; other fields are attributes.
_ROLE_OF = {"eid": "eid", "GRP": "eid", "etype": "etype", "entity": "etype", "head": "head",
            "MIN": "MIN"}
#: Each ``# global.Entity`` field list's roles, worked out once.
_ROLES: dict[tuple[str, ...], tuple[str, ...]] = {}


def _opening(text: str, fields: tuple[str, ...], path: str, line: int,
             ) -> tuple[str, str | None, int | None, tuple[int, ...] | None, dict[str, str]]:
    """What an opening bracket ``(text`` says by the fields of ``# global.Entity``: its entity
    ID (with any part suffix), entity type, head index, MIN indices and other attributes."""
    entity = entity_type = None
    head_index: int | None = None
    min_indices: tuple[int, ...] | None = None
    attributes: dict[str, str] = {}
    roles = _ROLES.get(fields)
    if roles is None:
        roles = _ROLES[fields] = tuple(_ROLE_OF.get(name, "") for name in fields)
    for name, role, value in zip(fields, roles, text.split("-"), strict=False):
        # (trailing fields may be absent)
        if not role:
            if value:
                attributes[name] = value
        elif role == "eid":
            entity = value
        elif role == "etype":
            entity_type = value
        elif name == "head":
            if value:
                if not digits(value) or len(value) > INDEX_DIGITS or int(value) < 1:
                    raise FormatError(f"head index {shorten(value)!r} in '({shorten(text)}': "
                                      "expected a positive integer", path=path, line=line)
                head_index = int(value)
        elif name == "MIN" and value:
            indices = [index.strip() for index in value.split(",")]
            if not all(digits(index) and len(index) <= INDEX_DIGITS for index in indices):
                raise FormatError(f"MIN {shorten(value)!r} in '({shorten(text)}': expected "
                                  "comma-separated positive integers", path=path, line=line)
            min_indices = tuple(int(index) for index in indices)
        elif value:
            attributes[name] = value
    if not entity:
        raise FormatError(f"'({shorten(text)}' has no entity ID (fields: "
                          f"{shorten('-'.join(fields))})", path=path, line=line)
    return entity, entity_type, head_index, min_indices, attributes


def opening_fields(text: str, fields: tuple[str, ...],
                   ) -> tuple[str, str | None, int | None, tuple[int, ...] | None, dict[str, str]]:
    """:func:`_opening` of an opening bracket's text, its error without a file or line."""
    return _opening(text, fields, "", 0)


def _open(text: str, position: int, fields: tuple[str, ...], builder: DocumentBuilder,
          path: str, line: int) -> _OpenMention:
    entity, entity_type, head_index, min_indices, attributes = _opening(text, fields, path,
                                                                        line)
    entity, part = _split_part(entity, path, line)
    if entity_type and entity not in builder.entity_types:
        builder.entity_types[entity] = entity_type
    sentence = builder.sentence_of[position]
    if part is not None and part[0] > 1:
        open_parts = builder.open_mentions.get(entity, [])
        waiting = [mention for mention in builder.unfinished_parts.get(entity, [])
                   if mention not in open_parts and mention.part is not None
                   and mention.part[1] == part[1] and mention.part[0] == part[0] - 1]
        if not waiting:
            raise FormatError(f"part {part[0]}/{part[1]} of a mention of entity {shorten(entity)} "
                              f"without its part {part[0] - 1}/{part[1]}", path=path, line=line)
        mention = waiting[0]
        mention.part, mention.part_start, mention.sentence = part, position, sentence
        mention.head_index, mention.min_indices = head_index, min_indices
        return mention
    mention = _OpenMention(entity, line, sentence, position, head_index, min_indices,
                           attributes, part)
    if part is not None:
        builder.unfinished_parts.setdefault(entity, []).append(mention)
    # (An entity is not 'named' here: every entity opened has a mention by the time finish
    # checks that those named by SplitAnte or Bridge have one.)
    builder.opened[entity] = mention
    return mention


def _close(mention: _OpenMention, position: int, builder: DocumentBuilder, path: str,
           line: int) -> None:
    if builder.sentence_of[position] != mention.sentence:
        raise FormatError(f"a mention of entity {shorten(mention.entity)} opened at line "
                          f"{mention.line} closes in another sentence; expected mentions within "
                          "a sentence (or discontinuous parts)", path=path, line=line)
    if mention.part is None and not mention.tokens:
        tokens = builder.spans.tokens(mention.part_start, position)  # one contiguous span
    else:
        mention.tokens.extend(range(mention.part_start, position + 1))
        if mention.part is not None:
            if mention.part[0] < mention.part[1]:
                return
            builder.unfinished_parts[mention.entity].remove(mention)
        tokens = tuple(sorted(set(mention.tokens)))
    head = None  # not given: worked out of the dependency tree (_heads_from_tree)
    if mention.head_index is not None:
        if mention.head_index > len(tokens):
            raise FormatError(f"head index {mention.head_index} of a mention of entity "
                              f"{shorten(mention.entity)} that has {len(tokens)} positions",
                              path=path, line=line)
        head = tokens[mention.head_index - 1]
    min_tokens = None
    if mention.min_indices is not None:
        if not all(1 <= index <= len(tokens) for index in mention.min_indices):
            raise FormatError(f"MIN {mention.min_indices} of a mention of entity "
                              f"{shorten(mention.entity)} that has {len(tokens)} positions",
                              path=path, line=line)
        min_tokens = tuple(sorted({tokens[index - 1] for index in mention.min_indices}))
    attributes = MappingProxyType(mention.attributes) if mention.attributes else NO_ATTRIBUTES
    mention.mention = Mention.made(tokens, mention.line, head, min_tokens, attributes)
    builder.mentions.setdefault(mention.entity, []).append(mention.mention)
    if head is None:
        builder.headless.append(mention.mention)


_NEW = object.__new__
#: Sets a new mention's head (a frozen dataclass's slot) before anything else has seen it.
_SET_HEAD = Mention.__dict__["head"].__set__
_TOKENS = attrgetter("tokens")
_SET_ENTITY = tuple(Entity.__dict__[name].__set__
                    for name in ("id", "mentions", "elements", "attributes"))


def _entity(name: str, mentions: tuple[Mention, ...], elements: tuple[str, ...],
            attributes: Mapping[str, str]) -> Entity:
    """``Entity(name, mentions, elements, attributes)``, made without the frozen dataclass's
    ``__init__`` (its four ``object.__setattr__`` calls cost twice the slots set directly:
    a document has an entity per four mentions)."""
    entity = _NEW(Entity)
    set_id, set_mentions, set_elements, set_attributes = _SET_ENTITY
    set_id(entity, name)
    set_mentions(entity, mentions)
    set_elements(entity, elements)
    set_attributes(entity, attributes)
    return entity


def _heads_from_tree(builder: DocumentBuilder) -> None:
    """Heads for the mentions whose head the file does not give, by the rule of every reader
    (:func:`~anascore.formats.dependencies.mention_head`: the dependency tree, else a
    one-position MIN or mention). The head stays unknown (``None``) where none of these
    says, or where the mention's tokens govern each other.

    Only the governors of the sentences these mentions lie in are worked out; each mention
    was made by this reader and no one else holds it yet, so its head is set in place. When
    no sentence of the document is a tree (files without a parse: HEAD ``0`` on every
    word), each head is :func:`untreed_head`'s, without looking at sentences at all."""
    starts, cells = builder.sentence_starts, builder.dependency_heads
    if not any(cells[start:end].count("0") == 1 for start, end
               in zip(starts, [*starts[1:], len(cells)], strict=True)):
        for mention in builder.headless:
            tokens, min_tokens = mention.tokens, mention.min_tokens
            if min_tokens is not None:
                head = untreed_head(tokens, min_tokens)
                if head is not None:
                    _SET_HEAD(mention, head)
            elif len(tokens) == 1:
                _SET_HEAD(mention, tokens[0])
        return
    sentence_of = builder.sentence_of
    sentences: set[int] = set()
    for mention in builder.headless:
        tokens = mention.tokens
        first, last = sentence_of[tokens[0]], sentence_of[tokens[-1]]
        if first == last:
            sentences.add(first)
        else:
            sentences.update(range(first, last + 1))
    governor = sentence_governors(builder.ids, builder.sentence_starts,
                                  builder.dependency_heads, sorted(sentences))
    for mention in builder.headless:
        tokens = mention.tokens
        if tokens[0] in governor or tokens[-1] in governor or (
                len(tokens) > 2 and not governor.keys().isdisjoint(tokens)):
            head = mention_head(tokens, mention.min_tokens, governor)
        else:  # every token in a sentence that is no tree
            head = untreed_head(tokens, mention.min_tokens)
        if head is not None and head != CYCLE:
            _SET_HEAD(mention, head)


#: The CoNLL-U columns kept with ``all_columns``, by the names of ``Document.token_columns``
#: and their column index.
KEPT_COLUMNS: dict[str, int] = {"lemma": 2, "upos": 3, "xpos": 4, "feats": 5, "head": 6,
                                "deprel": 7}
#: MISC items anascore writes itself, from the annotation.
_COREFERENCE_MISC = ("Entity=", "SplitAnte=", "Bridge=")


def keep_columns(builder: DocumentBuilder, columns: list[str], before: list[str]) -> None:
    for name, index in KEPT_COLUMNS.items():
        builder.kept.setdefault(name, []).append(columns[index])
    rest = [item for item in columns[9].split("|")
            if item != "_" and not item.startswith(_COREFERENCE_MISC)]
    builder.kept.setdefault("misc", []).append("|".join(rest))
    builder.before.append("\n".join(before))


def finish(builder: DocumentBuilder, path: str) -> Document:
    for entity, stack in builder.open_mentions.items():
        if stack:
            raise FormatError(f"mention of entity {shorten(entity)} opened here is never closed in "
                              f"document {shorten(builder.name)!r}", path=path, line=stack[0].line)
    for entity, parts in builder.unfinished_parts.items():
        if parts:
            raise FormatError(f"discontinuous mention of entity {shorten(entity)} opened here "
                              f"lacks its last part {parts[0].part[1] if parts[0].part else ''} "
                              f"in document {shorten(builder.name)!r}", path=path,
                              line=parts[0].line)
    for entity, line in builder.named_at.items():
        if entity not in builder.mentions:
            raise FormatError(f"entity {shorten(entity)} is named here (SplitAnte or Bridge) but "
                              f"has no mention in document {shorten(builder.name)!r}",
                              path=path, line=line)
    heads_not_given = frozenset(map(_TOKENS, builder.headless))
    if builder.headless:
        _heads_from_tree(builder)
    elements, types = builder.elements, builder.entity_types
    entities = tuple(
        _entity(entity, tuple(mentions), tuple(elements[entity]) if entity in elements else (),
                MappingProxyType({"etype": types[entity]}) if entity in types
                else NO_ATTRIBUTES)
        for entity, mentions in builder.mentions.items())
    bridging = []
    for anaphor, antecedent, relation, _ in builder.bridges:
        # (every opened mention closed: checked above)
        bridging.append(BridgingLink(opened_mention(anaphor), None, antecedent, relation))
    nodes = ConlluNodes(
        ids=tuple(builder.ids), sentence_of=tuple(builder.sentence_of),
        empty=tuple(builder.empty), deps=tuple(builder.deps), lines=tuple(builder.lines),
        sentence_ids=tuple(builder.sentence_ids), sentence_lines=tuple(builder.sentence_lines))
    kept: dict[str, tuple[str, ...]] = {}
    if builder.keep_upos:
        kept["upos"] = tuple(builder.upos)
        kept["empty_node"] = tuple("1" if is_empty else "0" for is_empty in builder.empty)
    if builder.keep_all:
        kept.update({name: tuple(values) for name, values in builder.kept.items()})
        kept["before"] = tuple(builder.before)
    columns = MappingProxyType(kept) if kept else NO_ATTRIBUTES
    return Document(name=builder.name, tokens=tuple(builder.forms), entities=entities,
                    bridging=tuple(bridging), path=path, line=builder.line,
                    source_format="corefud",
                    sentence_starts=tuple(builder.sentence_starts), nodes=nodes,
                    token_columns=columns, heads_not_given=heads_not_given)
