"""CorefUD 1.0: coreference in the MISC column of CoNLL-U (the UA *compact* format).

The format of the CorefUD collection and of the CRAC shared tasks on multilingual coreference
(Nedoluzhko et al. 2022, *CorefUD 1.0: coreference meets Universal Dependencies*; the format
description ``corefud-1.0-format.pdf``; ``../shared/formats/UA_CONLL_U_proposal_compact.md``).
Rules this reader enforces, each violation a :class:`~anascore.core.errors.FormatError` naming the
file and line:

* CoNLL-U: token lines of 10 tab-separated columns (an empty cell reads as ``_``, as in UA
  files), sentences separated by blank lines,
  comment lines starting with ``#``. Word IDs are integers increasing from 1 within a
  sentence, empty nodes ``N.M`` after word N (``0.1`` before the first word) with M
  increasing, multiword-token ranges ``N-M`` (N < M, after the words before them; skipped:
  coreference is annotated on words). An ID 0, a repeated or decreasing one is an error, as
  for the CoNLL-U validator: no position can be given to it. ``# newdoc id = NAME`` starts
  a document (``# newdoc`` without a name, or sentences before any ``# newdoc``, make a
  document named by its ordinal, ``"1"``, ``"2"`` …); ``# sent_id = …`` names a sentence.
* Token positions: every word and every empty node is a position, numbered from 0 in file
  order across the document (see :class:`~anascore.core.model.ConlluNodes`, which keeps each
  position's CoNLL-U ID, sentence, DEPS and line).
* ``# global.Entity = eid-etype-head-other`` names the dash-separated fields of an opening
  bracket (that layout is assumed when the header is missing). ``eid`` is the entity ID;
  ``GRP`` is a document-local entity ID (GUM); ``etype`` (or ``entity``) the entity type;
  ``head`` the 1-based index of the mention's head among the mention's positions (when the
  field or its value is absent, the head is worked out of the dependency tree — the first
  position whose HEAD lies outside the mention —, else it is a one-position MIN or mention's
  position, else unknown: the rule of every reader,
  :func:`~anascore.formats.dependencies.mention_head`;
  such mentions are listed in ``Document.heads_not_given``); ``MIN`` a comma-separated list
  of such indices (the minimal span);
  every other field is kept as a mention attribute under its name.
* ``Entity=`` in MISC holds chunks (at least one), read left to right: ``(e1-person-2-`` opens
  a mention of ``e1``; ``e1)`` closes the most recently opened mention of ``e1``;
  ``(e1-person-1-)`` is a one-position mention. A mention covers every position from its
  opening to its closing node, empty nodes included, and must end in the sentence it starts
  in. A discontinuous mention is written in parts, ``e3[1/2]`` … ``e3[2/2]`` on the opening
  and closing chunks; its positions are the union of its parts (which may lie in different
  sentences), its head index counts over all of them and is taken from the last part. A chunk
  that closes with a part suffix closes the most recent open part with that suffix.
* ``SplitAnte=e3<e11,e4<e11`` (or the older ``Split=``): entity ``e11`` is a plural whose
  split antecedents are ``e3`` and ``e4`` (its accommodated set, ``Entity.elements``); a
  link given again (on another mention of the plural) is the same link.
* ``Bridge=e12<e124:part``: the mention of ``e124`` opened most recently at or before this
  node is a bridging anaphor whose antecedent is entity ``e12``, by relation ``part``.
* Every mention opened in a document closes in it; every entity named by ``SplitAnte`` or
  ``Bridge`` has a mention in the document. (Udapi, which the CorefUD scorer reads with,
  warns and deletes unclosed mentions; anascore refuses the file instead.)

Key and response files are checked to align (same documents, sentences and word forms,
empty nodes excepted) when they are paired: :mod:`anascore.formats.io.conllu_alignment`.

Writing: :mod:`anascore.formats.writers.corefud`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from types import MappingProxyType

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
from anascore.formats.conllu_ids import (
    COMMON_WORDS,
    INDEX_DIGITS,
    WORD_IDS,
    check_range,
    digits,
    empty_number,
    later_word,
)
from anascore.formats.dependencies import CYCLE, governors, id_positions, mention_head
from anascore.formats.io.text_files import open_text

#: The CorefUD 1.0 layout of an opening bracket when ``# global.Entity`` is absent.
DEFAULT_ENTITY_FIELDS: tuple[str, ...] = ("eid", "etype", "head", "other")
_CHUNK = re.compile(r"\([^()]+\)?|[^()]+\)")
_PART = re.compile(r"^([^\[\]]+)\[(\d+)/(\d+)\]$")
_GLOBAL_ENTITY = re.compile(r"#\s*global\.Entity\s*=\s*(\S+)")
_NEWDOC = re.compile(r"#\s*newdoc\b(?:\s*id\s*=\s*(.*))?")
_SENT_ID = re.compile(r"#\s*sent_id\s*=\s*(.*)")


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


@dataclass(eq=False)
class _DocumentBuilder:
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
    open_mentions: dict[str, list[_OpenMention]] = field(default_factory=dict)
    unfinished_parts: dict[str, list[_OpenMention]] = field(default_factory=dict)
    opened: dict[str, list[_OpenMention]] = field(default_factory=dict)
    bridges: list[tuple[_OpenMention, str, str, int]] = field(default_factory=list)
    headless: list[_OpenMention] = field(default_factory=list)  # no head given in the file


def newdoc_name(line: str) -> str | None:
    """The document a ``# newdoc id = NAME`` line begins, as :func:`read_corefud` names it
    (``None``: not such a line, or one without an id, which is named by its position)."""
    newdoc = _NEWDOC.match(line.rstrip("\r\n"))
    return ((newdoc.group(1) or "").strip() or None) if newdoc else None


def read_corefud(path: str | os.PathLike[str], *, token_columns: bool = False,
                 all_columns: bool = False) -> Iterator[Document]:
    """Yield the documents of a CorefUD 1.0 CoNLL-U file in file order; with
    ``token_columns``, each position's UPOS and whether it is an empty node
    (``Document.token_columns["upos"]``, ``["empty_node"]``: ``"1"`` or ``"0"``), which
    mention types are derived from (:mod:`anascore.comparison.mention_types`). With ``all_columns``
    (what ``anascore convert`` asks, to lose nothing), also every other column
    (:data:`KEPT_COLUMNS`), the rest of each MISC cell, and the comment and multiword-token
    lines before each position (``token_columns["before"]``)."""
    path = os.fspath(path)
    with open_text(path) as lines:
        yield from read_corefud_lines(enumerate(lines, start=1), path,
                                      token_columns=token_columns, all_columns=all_columns)


def read_corefud_lines(lines: Iterable[tuple[int, str]], path: str, *,
                       token_columns: bool = False, all_columns: bool = False,
                       ) -> Iterator[Document]:
    """:func:`read_corefud` of numbered lines of ``path`` (universal newlines): the whole
    file, or a stretch of it that begins with the ``# global.Entity`` line in force there
    (:mod:`anascore.scoring.parallel`)."""
    fields = DEFAULT_ENTITY_FIELDS
    builder: _DocumentBuilder | None = None
    ordinal = 0
    in_sentence = False
    pending_sent_id = ""
    pending_lines: list[str] = []
    line_number = 0
    word = empty = 0  # the sentence's last word ID, and the empty nodes after it so far
    for line_number, raw in lines:
        line = raw.rstrip("\r\n")
        if not line.strip():
            in_sentence = False
            continue
        if line[0] == "#":
            newdoc = _NEWDOC.match(line)
            if newdoc:
                if builder is not None:
                    yield _finish(builder, path)
                ordinal += 1
                name = (newdoc.group(1) or "").strip() or str(ordinal)
                builder = _DocumentBuilder(name, line_number, keep_upos=token_columns,
                                           keep_all=all_columns)
                in_sentence = False
                continue
            header = _GLOBAL_ENTITY.match(line)
            if header:
                fields = tuple(header.group(1).split("-"))
                if "eid" not in fields and "GRP" not in fields:
                    raise FormatError(
                        f"'# global.Entity = {shorten(header.group(1))}' names no entity ID field; "
                        "expected 'eid' or 'GRP' among its fields", path=path,
                        line=line_number)
                continue
            sent_id = _SENT_ID.match(line)
            if sent_id:
                pending_sent_id = sent_id.group(1).strip()
                in_sentence = False
            if all_columns:
                pending_lines.append(line)  # the sent_id too, in its place
            continue
        columns = line.split("\t")
        if len(columns) != 10:
            raise FormatError(
                f"a CoNLL-U token line has 10 tab-separated columns; this one has "
                f"{len(columns)}", path=path, line=line_number)
        if "" in columns:  # an empty cell reads as '_', as in UA files (and as written back)
            columns = [cell or "_" for cell in columns]
        if builder is None:
            ordinal += 1
            builder = _DocumentBuilder(str(ordinal), line_number, keep_upos=token_columns,
                                       keep_all=all_columns)
        node_id, misc = columns[0], columns[9]
        if "-" in node_id:
            check_range(node_id, word if in_sentence else 0, path, line_number)
            if "Entity=" in misc:
                raise FormatError(
                    f"Entity= on the multiword token {shorten(node_id)}; expected coreference on "
                    "its words", path=path, line=line_number)
            if builder.keep_all:
                pending_lines.append(line)
            continue
        if not in_sentence:  # a sentence opens at its first word (not a multiword-token line)
            in_sentence = True
            builder.sentence_ids.append(pending_sent_id)
            builder.sentence_lines.append(line_number)
            builder.sentence_starts.append(len(builder.forms))
            pending_sent_id = ""
            word = empty = 0
        is_empty = "." in node_id
        if is_empty:
            empty = empty_number(node_id, word, empty, path, line_number)
        else:
            word += 1
            if node_id != (WORD_IDS[word] if word < COMMON_WORDS else str(word)):
                word = later_word(node_id, word - 1, path, line_number)
            empty = 0
        position = len(builder.forms)
        builder.forms.append(columns[1])
        builder.ids.append(node_id)
        builder.sentence_of.append(len(builder.sentence_ids) - 1)
        builder.empty.append(is_empty)
        builder.deps.append(columns[8])
        builder.dependency_heads.append(columns[6])
        builder.lines.append(line_number)
        if builder.keep_upos:
            builder.upos.append(columns[3])
        if builder.keep_all:
            _keep_columns(builder, columns, pending_lines)
            pending_lines = []
        if misc != "_" and ("Entity=" in misc or "Split" in misc or "Bridge=" in misc):
            _read_misc(misc, position, fields, builder, path, line_number)
    if builder is not None:
        yield _finish(builder, path)
    elif ordinal == 0:
        raise FormatError("no token line found; expected CoNLL-U sentences (is this CorefUD?)",
                          path=path, line=line_number or None)


def _read_misc(misc: str, position: int, fields: tuple[str, ...], builder: _DocumentBuilder,
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
            if not opened:
                raise FormatError(f"Bridge link {shorten(link)!r}: entity {shorten(anaphor)} has "
                                  "no mention opened at or before this node to be the anaphor",
                                  path=path, line=line)
            builder.bridges.append((opened[-1], antecedent, relation, line))
            builder.named_at.setdefault(antecedent, line)


def _read_entity_chunks(value: str, position: int, fields: tuple[str, ...],
                        builder: _DocumentBuilder, path: str, line: int) -> None:
    if not value:
        raise FormatError("empty Entity=; expected brackets such as '(e1-person-1-', 'e1)' or "
                          "'(e1-person-1-)'", path=path, line=line)
    chunks = _CHUNK.findall(value)
    if "".join(chunks) != value:
        raise FormatError(
            f"Entity={shorten(value)!r}: expected brackets such as '(e1-person-1-', 'e1)' or "
            "'(e1-person-1-)' written back to back", path=path, line=line)
    for chunk in chunks:
        opening, closing = chunk[0] == "(", chunk[-1] == ")"
        text = chunk.strip("()")
        if opening:
            mention = _open(text, position, fields, builder, path, line)
            if closing:
                _close(mention, position, builder, path, line)
            else:
                builder.open_mentions.setdefault(mention.entity, []).append(mention)
        else:
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


def _open(text: str, position: int, fields: tuple[str, ...], builder: _DocumentBuilder,
          path: str, line: int) -> _OpenMention:
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
    builder.opened.setdefault(entity, []).append(mention)
    builder.named_at.setdefault(entity, line)
    return mention


def _close(mention: _OpenMention, position: int, builder: _DocumentBuilder, path: str,
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
        builder.headless.append(mention)


def _heads_from_tree(builder: _DocumentBuilder) -> None:
    """Heads for the mentions whose head the file does not give, by the rule of every reader
    (:func:`~anascore.formats.dependencies.mention_head`: the dependency tree, else a
    one-position MIN or mention). The head stays unknown (``None``) where none of these
    says, or where the mention's tokens govern each other."""
    numbered = list(zip(builder.ids, builder.sentence_of, strict=True))
    governor = governors(numbered, builder.dependency_heads, id_positions(numbered))
    replaced: dict[int, Mention] = {}
    for open_mention in builder.headless:
        old = open_mention.mention
        assert old is not None
        tokens = old.tokens
        head = mention_head(tokens, old.min_tokens, governor)
        if head is not None and head != CYCLE:
            new = Mention.made(tokens, old.line, head, old.min_tokens, old.attributes)
            open_mention.mention = replaced[id(old)] = new
    if replaced:
        for mentions in builder.mentions.values():
            mentions[:] = [replaced.get(id(mention), mention) for mention in mentions]


#: The CoNLL-U columns kept with ``all_columns``, by the names of ``Document.token_columns``
#: and their column index.
KEPT_COLUMNS: dict[str, int] = {"lemma": 2, "upos": 3, "xpos": 4, "feats": 5, "head": 6,
                                "deprel": 7}
#: MISC items anascore writes itself, from the annotation.
_COREFERENCE_MISC = ("Entity=", "SplitAnte=", "Bridge=")


def _keep_columns(builder: _DocumentBuilder, columns: list[str], before: list[str]) -> None:
    for name, index in KEPT_COLUMNS.items():
        builder.kept.setdefault(name, []).append(columns[index])
    rest = [item for item in columns[9].split("|")
            if item != "_" and not item.startswith(_COREFERENCE_MISC)]
    builder.kept.setdefault("misc", []).append("|".join(rest))
    builder.before.append("\n".join(before))


def _finish(builder: _DocumentBuilder, path: str) -> Document:
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
    heads_not_given = frozenset(mention.mention.tokens for mention in builder.headless
                                if mention.mention is not None)
    if builder.headless:
        _heads_from_tree(builder)
    entities = tuple(
        Entity(entity, tuple(mentions), tuple(builder.elements.get(entity, ())),
               MappingProxyType({"etype": builder.entity_types[entity]})
               if entity in builder.entity_types else NO_ATTRIBUTES)
        for entity, mentions in builder.mentions.items())
    bridging = []
    for anaphor, antecedent, relation, _ in builder.bridges:
        assert anaphor.mention is not None  # every opened mention closed (checked above)
        bridging.append(BridgingLink(anaphor.mention, None, antecedent, relation))
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
