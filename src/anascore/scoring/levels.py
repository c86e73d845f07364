"""Scoring units above the document: the documents of a topic, a subtopic or the whole corpus
scored as one document (cross-document coreference: ECB+, WEC, SciCo, uCDCR).

At ``level="document"`` (the default) every document is its own unit, as the reference scorer
scores them. At ``topic`` (``subtopic``, ``corpus``) level the key's documents of one topic
(of one subtopic of a topic, of the whole key) form one unit, and each unit is scored as one
document: its documents are concatenated in key order (their token positions shifted by the
tokens before them) and their chains joined by chain ID, on key and response alike, so that a
chain that continues from one document into another is one chain — IDs are global across the
documents of a unit, as the cross-document corpora write them. The response's documents go
into the unit of their key document, in the key's order, whatever topic the response file
gives them.

A document's topic is :attr:`Document.topic` when its format gives one, else the first group of
``topic_pattern`` searched in its name (``'^([^_]+)_'`` names the topic ``36`` of ECB+'s
``36_1ecb``; a CoNLL-2012 name ``(36_1ecb); part 000`` is searched without its brackets and
part, :func:`anascore.scoring.document_names.bare_name`); its subtopic, :attr:`Document.subtopic` or
the pattern's second group. A key document without one at the level that needs it is an error
naming it: scored alone it would silently be a unit of its own and change the numbers.

:func:`scoring_units` is the one place units are made;
:func:`anascore.scoring.pipeline.pair_documents_many`
(every file entry point) and :func:`anascore.scoring.pipeline.score_documents` pass their pairs
through
it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from types import MappingProxyType

from anascore.config.options import Options
from anascore.core.errors import DocumentMismatchError, FormatError
from anascore.core.model import BridgingLink, ConlluNodes, Document, Entity, Mention
from anascore.formats.io.conllu_alignment import check_conllu, check_same_words
from anascore.scoring.document_names import bare_name

#: The name of the one unit at corpus level.
CORPUS_UNIT = "corpus"

#: A key document and its document in each response (``None``: the response lacks it).
Pair = tuple[Document, tuple[Document | None, ...]]


def scoring_units(pairs: Iterable[Pair], options: Options,
                  warn: Callable[[int, str], None] | None = None) -> Iterator[Pair]:
    """The pairs of ``pairs`` as scoring units at ``options.level``: the pairs themselves at
    document level (a stream stays a stream), else one merged pair per unit, in the order of
    the units' first key documents (every pair is read first).

    Each document pair of a unit is checked before it is merged (the same tokens, or for
    CoNLL-U the same sentences and words), so that a mismatch names its document. A response
    that lacks some of a unit's documents gets them empty (the key's tokens, no mention) and
    ``warn(i, message)`` is called for response ``i``; one that lacks them all is ``None``
    for the unit, which the usual check reports."""
    if options.level == "document":
        yield from pairs
        return
    units: dict[tuple[str, ...], list[Pair]] = {}
    for pair in pairs:
        units.setdefault(unit_of(pair[0], options), []).append(pair)
    for unit, members in units.items():
        name = unit_name(unit)
        keys = [key for key, _ in members]
        responses: list[Document | None] = []
        for index in range(len(members[0][1])):
            pieces = [read[index] for _, read in members]
            if all(piece is None for piece in pieces):
                responses.append(None)
                continue
            filled = []
            for key, piece in zip(keys, pieces, strict=True):
                if piece is None:
                    if warn is not None:
                        warn(index, f"document {key.name!r} of the key is missing from the "
                                    f"response; its part of unit {name!r} is scored as empty")
                    piece = replace(key, entities=(), non_referring=(), bridging=(),
                                    discourse_deixis=(), heads_not_given=frozenset())
                elif piece.source_format != "markup" and not check_conllu(key, piece):
                    # (Marked-up text is on its own tokens until the joined response is
                    # mapped onto the joined key's, anascore.scoring.document.on_key_tokens.)
                    check_same_words(key, piece)
                filled.append(piece)
            responses.append(merge_documents(name, filled))
        yield merge_documents(name, keys), tuple(responses)


def unit_of(document: Document, options: Options) -> tuple[str, ...]:
    """The unit a key document belongs to at ``options.level``: ``(topic,)``,
    ``(topic, subtopic)`` or ``()`` (the corpus); a document whose topic (subtopic) neither
    its format nor the pattern gives is a :class:`FormatError` naming it."""
    if options.level == "corpus":
        return ()
    match = (re.search(options.topic_pattern, bare_name(document.name))
             if options.topic_pattern is not None else None)
    topic = document.topic
    if topic is None and match is not None:
        topic = match.group(1)
    if options.level == "topic":
        if topic is None:
            raise FormatError(_no_unit(document, "topic", options), path=document.path,
                              line=document.line)
        return (topic,)
    subtopic = document.subtopic
    if subtopic is None and match is not None and (match.re.groups or 0) >= 2:
        subtopic = match.group(2)
    if topic is None or subtopic is None:
        raise FormatError(_no_unit(document, "subtopic", options), path=document.path,
                          line=document.line)
    return (topic, subtopic)


def _no_unit(document: Document, what: str, options: Options) -> str:
    group = "first" if what == "topic" else "second"
    pattern = ("no topic_pattern (--topic-pattern) is given" if options.topic_pattern is None
               else f"topic_pattern (--topic-pattern) {options.topic_pattern!r} does not "
                    f"give it")
    return (f"document {document.name!r} has no {what} for level {options.level}: its format "
            f"gives none and {pattern}; expected a {what} for every key document (a pattern "
            f"whose {group} group, searched in the name, is the {what})")


def unit_name(unit: Sequence[str]) -> str:
    """A unit's name in reports: the topic, ``TOPIC/SUBTOPIC``, or ``corpus``."""
    return "/".join(unit) if unit else CORPUS_UNIT


def merge_documents(name: str, documents: Sequence[Document]) -> Document:
    """The documents as one document called ``name``: tokens concatenated in order, every
    position shifted by the tokens before its document, entities (and discourse-deixis
    entities) joined by ID, in the order their IDs first come; the rest of each layer kept.
    Sentence starts, CoNLL-U nodes and token columns are joined where every document has
    them; the path and line are the first document's."""
    first = documents[0]
    if len(documents) == 1:
        return replace(first, name=name)
    offsets = []
    total = 0
    for document in documents:
        offsets.append(total)
        total += len(document.tokens)
    shifted = [_Shift(offset) for offset in offsets]
    tokens = tuple(token for document in documents for token in document.tokens)
    return replace(
        first, name=name, tokens=tokens,
        entities=_joined_entities(documents, shifted, "entities"),
        discourse_deixis=_joined_entities(documents, shifted, "discourse_deixis"),
        non_referring=tuple(shift.mention(mention) for document, shift
                            in zip(documents, shifted, strict=True)
                            for mention in document.non_referring),
        bridging=tuple(shift.link(link) for document, shift in zip(documents, shifted,
                                                                   strict=True)
                       for link in document.bridging),
        sentence_starts=tuple(start + offset for document, offset
                              in zip(documents, offsets, strict=True)
                              for start in (document.sentence_starts or (0,))
                              if start < len(document.tokens)),
        nodes=_joined_nodes(documents),
        token_columns=_joined_columns(documents),
        heads_not_given=frozenset(shift.positions(tokens_of) for document, shift
                                  in zip(documents, shifted, strict=True)
                                  for tokens_of in document.heads_not_given),
        topic=first.topic if all(document.topic == first.topic for document in documents)
        else None,
        subtopic=first.subtopic if all(document.subtopic == first.subtopic
                                       for document in documents) else None)


class _Shift:
    """Mentions and links of one document, moved ``offset`` positions on."""

    def __init__(self, offset: int) -> None:
        self.offset = offset

    def positions(self, positions: tuple[int, ...]) -> tuple[int, ...]:
        offset = self.offset
        return tuple(position + offset for position in positions)

    def mention(self, mention: Mention) -> Mention:
        if not self.offset:
            return mention
        return Mention.made(self.positions(mention.tokens), mention.line,
                            None if mention.head is None else mention.head + self.offset,
                            None if mention.min_tokens is None
                            else self.positions(mention.min_tokens), mention.attributes)

    def link(self, link: BridgingLink) -> BridgingLink:
        return replace(link, anaphor=self.mention(link.anaphor),
                       antecedent=None if link.antecedent is None
                       else self.mention(link.antecedent))


def _joined_entities(documents: Sequence[Document], shifted: Sequence[_Shift],
                     layer: str) -> tuple[Entity, ...]:
    """The entities of one layer of every document, those with one ID joined (the first's
    accommodated set and attributes kept)."""
    joined: dict[str, tuple[Entity, list[Mention]]] = {}
    for document, shift in zip(documents, shifted, strict=True):
        for entity in getattr(document, layer):
            found = joined.get(entity.id)
            if found is None:
                found = joined[entity.id] = (entity, [])
            found[1].extend(shift.mention(mention) for mention in entity.mentions)
    return tuple(entity if len(mentions) == len(entity.mentions)
                 and all(a is b for a, b in zip(mentions, entity.mentions, strict=True))
                 else replace(entity, mentions=tuple(mentions))
                 for entity, mentions in joined.values())


def _joined_nodes(documents: Sequence[Document]) -> ConlluNodes | None:
    """The CoNLL-U details of the joined documents (sentences numbered on), when every
    document has them."""
    nodes = [document.nodes for document in documents]
    if any(node is None for node in nodes):
        return None
    sentence_of: list[int] = []
    sentences = 0
    for node in nodes:
        assert node is not None
        sentence_of.extend(sentence + sentences for sentence in node.sentence_of)
        sentences += len(node.sentence_ids)
    present = [node for node in nodes if node is not None]
    return ConlluNodes(
        ids=tuple(value for node in present for value in node.ids),
        sentence_of=tuple(sentence_of),
        empty=tuple(value for node in present for value in node.empty),
        deps=tuple(value for node in present for value in node.deps),
        lines=tuple(value for node in present for value in node.lines),
        sentence_ids=tuple(value for node in present for value in node.sentence_ids),
        sentence_lines=tuple(value for node in present for value in node.sentence_lines))


def _joined_columns(documents: Sequence[Document]) -> MappingProxyType[str, tuple[str, ...]]:
    """The token columns every document with tokens has, joined."""
    with_tokens = [document for document in documents if document.tokens]
    if not with_tokens:
        return MappingProxyType({})
    names = set(with_tokens[0].token_columns)
    for document in with_tokens[1:]:
        names &= set(document.token_columns)
    return MappingProxyType({name: tuple(value for document in with_tokens
                                         for value in document.token_columns[name])
                             for name in sorted(names)})


def refuse_file_sets(options: Options) -> None:
    """Units are made within one key file: folders of key files are scored file by file,
    which at another level than ``document`` would split a topic that spans files."""
    if options.level != "document":
        raise DocumentMismatchError(
            f"level {options.level} joins documents across a key file; folders and patterns "
            "of files are scored file by file: give one key file and one response file")
