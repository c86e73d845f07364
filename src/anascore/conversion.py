"""Converting annotated files between formats, losing nothing unless asked to.

``anascore convert IN OUT --to FORMAT`` (and :func:`convert`) reads every document of IN and
writes it with the target's writer. What each target can hold:

=====================  =========  =======  =========  ====
content                conll2012  corefud  jsonlines  ua
=====================  =========  =======  =========  ====
contiguous mentions    yes        yes      yes        yes
crossing mentions      other      other    yes        yes
                       entities   entities
discontinuous          no         yes      no         yes
heads                  no         yes      no         no
MIN spans              no         yes      no         yes
empty nodes, zeros     no         yes      no         no
split antecedents      no         yes      no         yes
bridging (entity)      no         yes      no         yes
bridging (mention)     no         no       no         yes
non-referring          no         no       no         yes
discourse deixis       no         no       no         yes
=====================  =========  =======  =========  ====

A head is *lost* only when it is not the mention's first position, which is what every reader
assumes of a mention without a head. Anything a target
cannot hold is refused with a message that lists it, unless ``drop_unsupported`` asks to drop
it; what is dropped is then listed as warnings. So a conversion that succeeds without
``drop_unsupported`` scores exactly as the original, in every metric and every matching mode
(the round-trip tests check this).

Dropping, for CoNLL-2012 and jsonlines: empty nodes are removed from the text (a zero mention
made only of empty nodes goes with them; a mention that also covers words keeps its words);
then discontinuous mentions are dropped whole, heads and MIN spans forgotten, split
antecedents, bridging, non-referring mentions and discourse deixis dropped; an entity left
without mentions goes. For CorefUD: non-referring mentions and discourse deixis are dropped,
and a bridging link to an antecedent mention becomes a link to that mention's entity. For UA:
empty nodes are removed from the text (a mention made only of empty nodes goes, with the
bridging links that name it) and heads forgotten; everything else is kept.
"""

from __future__ import annotations

import os
from dataclasses import replace

from anascore.errors import FormatError, OptionsError
from anascore.formats import FORMAT_MODULES, read_documents, writer
from anascore.formats.sources import local_inputs
from anascore.model import BridgingLink, Document, Entity, Mention
from anascore.output import check_writable, refuse_overwriting_input

#: Formats ``anascore convert`` writes.
CONVERT_TARGETS: tuple[str, ...] = tuple(FORMAT_MODULES)


def convert(input: str | os.PathLike[str], output: str | os.PathLike[str], *, to: str,
            format: str = "auto", drop_unsupported: bool = False,
            exclusive_ends: bool = False) -> list[str]:
    """Convert the file ``input`` to the format ``to``, written to ``output``.

    Returns the warnings (what was dropped). Raises :class:`FormatError` when the input
    holds what ``to`` cannot (unless ``drop_unsupported``), or is malformed.
    """
    if to not in CONVERT_TARGETS:
        raise OptionsError(f"unknown target format {to!r}; expected one of "
                           f"{', '.join(CONVERT_TARGETS)}")
    input_path, output_path = os.fspath(input), os.fspath(output)
    refuse_overwriting_input(input_path, output_path)
    check_writable(output_path)  # before reading, not after
    with local_inputs([input_path]) as ([local_path], inputs):
        return [inputs.rename(warning) for warning in _convert(
            local_path, output_path, to, format, drop_unsupported, exclusive_ends)]


def _convert(input_path: str, output_path: str, to: str, format: str, drop_unsupported: bool,
             exclusive_ends: bool) -> list[str]:
    """:func:`convert` of a file that can be read as often as needed."""
    warnings: list[str] = []
    documents = []
    for document in read_documents(input_path, format, exclusive_ends=exclusive_ends):
        lost = unsupported_content(document, to)
        if lost and not drop_unsupported:
            raise FormatError(
                f"document {document.name!r} has {', '.join(lost)}, which {to} cannot hold; "
                "use --drop-unsupported (drop_unsupported=True) to drop them",
                path=input_path, line=document.line)
        if lost:
            document = drop_content(document, to)
            warnings.append(f"{input_path}: document {document.name!r}: dropped "
                            f"{', '.join(lost)}")
        documents.append(document)
    if to == "jsonlines":
        writer(to)(documents, output_path, exclusive_ends=exclusive_ends)
    else:
        writer(to)(documents, output_path)
    return warnings


def _is_contiguous(tokens: tuple[int, ...]) -> bool:
    return tokens[-1] - tokens[0] + 1 == len(tokens)


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def unsupported_content(document: Document, target: str) -> list[str]:
    """What of ``document`` the format ``target`` cannot hold, in words (empty: nothing)."""
    lost: list[str] = []
    mentions = [mention for entity in document.entities for mention in entity.mentions]
    if target in ("conll2012", "jsonlines", "ua"):
        empty = document.nodes.empty if document.nodes is not None else ()
        empty_count = sum(empty)
        if empty_count:
            lost.append(_plural(empty_count, "empty node"))
        heads = sum(1 for mention in mentions
                    if mention.head is not None and mention.head != mention.tokens[0])
        if heads:
            lost.append(f"heads ({_plural(heads, 'mention')} not headed by their first token)")
    if target == "ua":
        return lost
    if target in ("conll2012", "jsonlines"):
        words = _word_positions(document)
        discontinuous = sum(1 for mention in mentions
                            if not _contiguous_in(mention, words))
        if discontinuous:
            lost.append(_plural(discontinuous, "discontinuous mention"))
        minimal = sum(1 for mention in mentions if mention.min_tokens is not None)
        if minimal:
            lost.append(f"MIN spans ({_plural(minimal, 'mention')})")
        plurals = sum(1 for entity in document.entities if entity.elements)
        if plurals:
            lost.append(_plural(plurals, "split-antecedent plural"))
        if document.bridging:
            lost.append(_plural(len(document.bridging), "bridging link"))
    elif target == "corefud":
        anchored = sum(1 for link in document.bridging if link.antecedent is not None)
        if anchored:
            lost.append(f"{_plural(anchored, 'bridging link')} to an antecedent mention")
    if document.non_referring:
        lost.append(_plural(len(document.non_referring), "non-referring mention"))
    if document.discourse_deixis:
        lost.append(f"discourse deixis ({_plural(len(document.discourse_deixis), 'entity')})")
    return lost


def _word_positions(document: Document) -> dict[int, int]:
    """Old position → position among words only (empty nodes removed)."""
    if document.nodes is None:
        return {position: position for position in range(len(document.tokens))}
    mapping: dict[int, int] = {}
    for position, is_empty in enumerate(document.nodes.empty):
        if not is_empty:
            mapping[position] = len(mapping)
    return mapping


def _contiguous_in(mention: Mention, words: dict[int, int]) -> bool:
    kept = tuple(words[token] for token in mention.tokens if token in words)
    return not kept or _is_contiguous(kept)


def drop_content(document: Document, target: str) -> Document:
    """``document`` without what ``target`` cannot hold (see the module docstring)."""
    if target == "corefud":
        return _drop_for_corefud(document)
    if target == "ua":
        return _drop_for_ua(document)
    words = _word_positions(document)

    def kept(mention: Mention) -> Mention | None:
        tokens = tuple(words[token] for token in mention.tokens if token in words)
        if not tokens or not _is_contiguous(tokens):
            return None
        return Mention(tokens, mention.line, None, None, mention.attributes)

    entities = []
    for entity in document.entities:
        mentions = tuple(mention for mention in map(kept, entity.mentions) if mention)
        if mentions:
            entities.append(Entity(entity.id, mentions, (), entity.attributes))
    tokens = tuple(form for position, form in enumerate(document.tokens) if position in words)
    starts = sorted({words[start] for start in document.sentence_starts if start in words})
    return replace(document, tokens=tokens, entities=tuple(entities), non_referring=(),
                   bridging=(), discourse_deixis=(), sentence_starts=tuple(starts),
                   nodes=None)


def _drop_for_corefud(document: Document) -> Document:
    entity_of = {mention.tokens: entity.id for entity in document.entities
                 for mention in entity.mentions}
    bridging = []
    for link in document.bridging:
        if link.antecedent is None:
            bridging.append(link)
        elif link.antecedent.tokens in entity_of:
            bridging.append(BridgingLink(link.anaphor, None, entity_of[link.antecedent.tokens],
                                         link.relation))
    return replace(document, non_referring=(), discourse_deixis=(), bridging=tuple(bridging))


def _drop_for_ua(document: Document) -> Document:
    """Empty nodes removed from the text (every layer renumbered) and heads forgotten."""
    words = _word_positions(document)

    def kept(mention: Mention | None) -> Mention | None:
        if mention is None:
            return None
        tokens = tuple(words[token] for token in mention.tokens if token in words)
        if not tokens:
            return None
        minimal = None
        if mention.min_tokens is not None:
            minimal = tuple(words[token] for token in mention.min_tokens
                            if token in words) or None
        return Mention(tokens, mention.line, None, minimal, mention.attributes)

    def entities(layer: tuple[Entity, ...]) -> tuple[Entity, ...]:
        result = []
        for entity in layer:
            mentions = tuple(mention for mention in map(kept, entity.mentions) if mention)
            if mentions:
                result.append(replace(entity, mentions=mentions))
        # an entity gone may no longer be named as an element of a plural
        names = {entity.id for entity in result}
        return tuple(replace(entity, elements=tuple(element for element in entity.elements
                                                    if element in names))
                     for entity in result)

    bridging = []
    for link in document.bridging:
        anaphor, antecedent = kept(link.anaphor), kept(link.antecedent)
        if anaphor is not None and (antecedent is not None or link.antecedent is None):
            bridging.append(replace(link, anaphor=anaphor, antecedent=antecedent))
    tokens = tuple(form for position, form in enumerate(document.tokens) if position in words)
    starts = sorted({words[start] for start in document.sentence_starts if start in words})
    return replace(document, tokens=tokens, entities=entities(document.entities),
                   non_referring=tuple(mention for mention in map(kept, document.non_referring)
                                       if mention),
                   bridging=tuple(bridging), discourse_deixis=entities(document.discourse_deixis),
                   sentence_starts=tuple(starts), nodes=None)
