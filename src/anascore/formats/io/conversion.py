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
MIN spans              no         yes [1]  no         yes
empty nodes, zeros     no         yes      no         yes
split antecedents      no         yes      no         yes
bridging (entity)      no         yes      no         yes
bridging (mention)     no         no       no         yes
non-referring          no         no       no         yes
discourse deixis       no         no       no         yes
=====================  =========  =======  =========  ====

[1] inside their mention: CorefUD counts a MIN among the mention's positions.

The cross-document targets hold what CoNLL-2012 holds: ``cattan`` and ``scico`` contiguous
mentions with their text; ``mentionjson`` (mention records) and ``mentionconll`` (one line per
mention) mentions of any shape but no text outside them, so a document's other tokens and a
document without mentions are not written. Converting to ``conll2012`` or ``mentionconll``
maps chain IDs that are not plain integers to integers, the map written to ``OUT.ids.tsv``
(:func:`_with_integer_ids`), as the Perl scorer reads only digits.

A head is *lost* only when it is not the mention's first position, which is what every reader
assumes of a mention without a head. A CorefUD target writes the heads the source gives and
leaves the others out of their brackets (:func:`anascore.formats.writers.corefud.entity_fields`), so
that Udapi and the CorefUD scorer read every file it writes. Anything a target
cannot hold is refused with a message that lists it, unless ``drop_unsupported`` asks to drop
it; what is dropped is then listed as warnings. So a conversion that succeeds without
``drop_unsupported`` scores exactly as the original, in every metric and every matching mode
(the round-trip tests check this), but for one case it warns of: a CorefUD file that gives no
head for some mentions, converted to UA, which heads them by its tree (as anascore reads the
original) where ``compat="ua"`` heads the original's by their first words.

Dropping, for CoNLL-2012 and jsonlines: empty nodes are removed from the text (a zero mention
made only of empty nodes goes with them; a mention that also covers words keeps its words);
then discontinuous mentions are dropped whole, heads and MIN spans forgotten, split
antecedents, bridging, non-referring mentions and discourse deixis dropped; an entity left
without mentions goes. For CorefUD: non-referring mentions and discourse deixis are dropped,
MIN spans outside their mention forgotten, and a bridging link to an antecedent mention
becomes a link to that mention's entity. For UA: heads are forgotten (a UA file gives heads
only through its dependency columns, which a CoNLL-U source keeps, empty nodes and token IDs
included); everything else is kept.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import replace

from anascore.config.format_catalogue import BY_NAME, FORMAT_NAMES, names_where
from anascore.core.errors import FormatError, OptionsError
from anascore.core.model import BridgingLink, Document, Entity, Mention
from anascore.formats import READ_ONLY_FORMATS, read_documents, writer
from anascore.formats.io.chain_ids import escaped, integer_ids
from anascore.formats.io.output import (
    atomic_output,
    check_writable,
    refuse_overwriting_input,
    refuse_overwriting_inputs,
    require_path,
)
from anascore.formats.io.sources import local_inputs
from anascore.formats.sentences import sentence_of
from anascore.formats.writers.ua import heads_read_back

#: Targets that hold mentions of identity chains and nothing else (no heads, MIN spans,
#: empty nodes or other layers); mention records and mention-based CoNLL hold discontinuous
#: mentions too, the others contiguous ones only.
PLAIN_TARGETS = names_where(lambda facts: facts.writable and facts.identity_only)
#: Plain targets that hold a discontinuous mention (as one record, or one line).
_ANY_SHAPE = frozenset(name for name in PLAIN_TARGETS if BY_NAME[name].discontinuous)
#: Targets that hold mentions, not text: a document's tokens outside its mentions, and a
#: document without mentions, are not written.
MENTION_ONLY_TARGETS = names_where(lambda facts: facts.writable and not facts.holds_text)
#: Formats ``anascore convert`` writes.
CONVERT_TARGETS: tuple[str, ...] = tuple(name for name in FORMAT_NAMES
                                         if name not in READ_ONLY_FORMATS)
#: Formats whose span ends ``exclusive_ends`` concerns (jsonlines).
_EXCLUSIVE_ENDS = names_where(lambda facts: facts.exclusive_ends)
#: Targets whose chain IDs are integers (the Perl scorer reads only digits).
_INTEGER_ID_TARGETS = names_where(lambda facts: facts.integer_ids)
#: Targets that write a document's name as a JSON string, whatever it holds.
_ANY_NAME_TARGETS = names_where(lambda facts: facts.any_name)
#: Targets that hold a document without a name.
_EMPTY_NAME_TARGETS = names_where(lambda facts: facts.empty_name)


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
    require_path(input, "the input")
    require_path(output, "the output")
    input_path, output_path = os.fspath(input), os.fspath(output)
    refuse_overwriting_input(input_path, output_path)
    check_writable(output_path)  # before reading, not after
    with local_inputs([input_path]) as ([local_path], inputs):
        return [inputs.rename(warning) for warning in _convert(
            local_path, output_path, to, format, drop_unsupported, exclusive_ends)]


def _convert(input_path: str, output_path: str, to: str, format: str, drop_unsupported: bool,
             exclusive_ends: bool) -> list[str]:
    """:func:`convert` of a file that can be read as often as needed."""
    dropped: Counter[str] = Counter()
    documents_with: Counter[str] = Counter()
    documents = []
    unheaded = unheaded_documents = 0  # mentions whose head a CorefUD source does not give
    for document in read_documents(input_path, format, exclusive_ends=exclusive_ends,
                                   all_columns=True):
        if exclusive_ends and not _EXCLUSIVE_ENDS & {to, document.source_format}:
            raise OptionsError(
                "--exclusive-ends (exclusive_ends=True) reads and writes the span ends of "
                f"jsonlines files, and neither {document.source_format} nor {to} is jsonlines; "
                "leave out --exclusive-ends", path=input_path, line=document.line)
        unwritable = unwritable_name(document.name, to)
        if unwritable:
            raise FormatError(
                f"document {document.name!r}: {to} cannot write back {unwritable}; name the "
                "document otherwise (marked-up text: '# newdoc id = NAME'), or convert to "
                "jsonlines", path=input_path, line=document.line)
        lost = unsupported_content(document, to)
        if lost and not drop_unsupported:
            raise FormatError(
                f"document {document.name!r} has {describe(lost)}, which {to} cannot hold; "
                "use --drop-unsupported (drop_unsupported=True) to drop them",
                path=input_path, line=document.line)
        if lost:
            document = drop_content(document, to)
            dropped.update(lost)
            documents_with.update(lost.keys())
        if to == "ua":
            document = ua_entity_names(document)
            unheaded += len(document.heads_not_given)
            unheaded_documents += bool(document.heads_not_given)
        documents.append(document)
    if to in _INTEGER_ID_TARGETS:
        documents = _with_integer_ids(documents, input_path, output_path)
    if BY_NAME[to].exclusive_ends:
        writer(to)(documents, output_path, exclusive_ends=exclusive_ends)
    else:
        writer(to)(documents, output_path)
    # What was dropped, once per kind over the whole file.
    said = [f"{input_path}: dropped {describe({kind: count})} ({documents_with[kind]} of "
            f"{len(documents)} documents), which {to} cannot hold"
            for kind, count in dropped.items()]
    if unheaded:
        # A UA file gives every head through its tree: "no head given" is not written.
        said.append(
            f"{input_path}: {unheaded} mention{'s' if unheaded != 1 else ''} "
            f"({unheaded_documents} of {len(documents)} documents) "
            f"{'have' if unheaded != 1 else 'has'} no head in the file, "
            "which UA cannot say: the UA file heads them by its tree, as anascore reads the "
            "original, but --compat ua (the CorefUD scorer) heads the original's by their "
            "first words, so head and partial matching under --compat ua score the two "
            "files differently")
    return said


def id_map_path(output: str) -> str:
    """Where ``convert --to conll2012`` writes the map of chain IDs to integers."""
    return f"{output}.ids.tsv"


def _with_integer_ids(documents: list[Document], input_path: str,
                      output_path: str) -> list[Document]:
    """The documents with integer chain IDs, as the Perl scorer reads IDs
    (:func:`anascore.formats.io.chain_ids.integer_ids`), the map written to :func:`id_map_path` (a
    header line, then ``integer<TAB>original ID`` per chain); unchanged when every ID is an
    integer already."""
    numbers = integer_ids(documents)
    if numbers is None:
        return documents
    if output_path == "-":
        raise OptionsError("the chain IDs are not all integers, and the CoNLL-2012 output maps "
                           "them to integers with the map written beside it (OUT.ids.tsv); "
                           "name an output file instead of '-'", path=input_path)
    map_path = id_map_path(output_path)
    refuse_overwriting_inputs([input_path], map_path, what="the ID map OUT.ids.tsv is IN")
    with atomic_output(map_path) as stream:
        stream.write("integer\tid\n")
        for chain_id, number in numbers.items():
            stream.write(f"{number}\t{escaped(chain_id)}\n")
    return [replace(document, entities=tuple(replace(entity, id=str(numbers[entity.id]))
                                             for entity in document.entities))
            for document in documents]


def unwritable_name(name: str, target: str) -> str | None:
    """What in a document's ``name`` the format ``target`` would not read back as it is
    (``None``: nothing). CoNLL-2012, CorefUD and UA write the name on a line of its own and
    read it stripped; CorefUD names a nameless document by its ordinal, and UA refuses one.
    Cattan's CoNLL writes it in a tab-separated column, read stripped; the JSON formats hold
    any name (SciCo's paragraphs of a topic are named ``TOPIC/N``, whatever their name)."""
    if target in _ANY_NAME_TARGETS:
        return None
    if len((name + "x").splitlines()) > 1:
        return "a name with a line break"
    if name != name.strip():
        return "a name with white space at its ends"
    if not name and target not in _EMPTY_NAME_TARGETS:
        return "an empty name"
    if target == "cattan" and "\t" in name:
        return "a name with a tab (Cattan's columns are tab-separated)"
    return None


def ua_entity_names(document: Document) -> Document:
    """Entity IDs the UA format can write: characters it cannot hold (``( ) | @ =`` and white
    space) become ``_``, keeping IDs distinct. An ID is a label: no score depends on it."""
    used = {entity.id for layer in (document.entities, document.discourse_deixis)
            for entity in layer}
    names: dict[str, str] = {}
    for entity_id in sorted(used):
        if not entity_id or _UA_UNSAFE.search(entity_id):
            name = _UA_UNSAFE.sub("_", entity_id) or "entity"
            while name in used or name in names.values():
                name += "_"
            names[entity_id] = name
    if not names:
        return document

    def renamed(layer: tuple[Entity, ...]) -> tuple[Entity, ...]:
        return tuple(replace(entity, id=names.get(entity.id, entity.id),
                             elements=tuple(names.get(element, element)
                                            for element in entity.elements))
                     for entity in layer)

    bridging = tuple(replace(link, antecedent_entity=names.get(link.antecedent_entity,
                                                               link.antecedent_entity))
                     if link.antecedent_entity is not None else link
                     for link in document.bridging)
    return replace(document, entities=renamed(document.entities), bridging=bridging,
                   discourse_deixis=renamed(document.discourse_deixis))


def _is_contiguous(tokens: tuple[int, ...]) -> bool:
    return tokens[-1] - tokens[0] + 1 == len(tokens)


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


#: Kinds of content a target may not hold: singular and plural, as warnings and errors say.
KINDS: dict[str, tuple[str, str]] = {
    "empty": ("empty node", "empty nodes"),
    "heads": ("head not on its mention's first token", "heads not on their mention's first token"),
    "tree_heads": ("head that its dependency tree does not give",
                   "heads that their dependency tree does not give"),
    "discontinuous": ("discontinuous mention", "discontinuous mentions"),
    "min": ("MIN span", "MIN spans"),
    "min_outside": ("MIN span outside its mention", "MIN spans outside their mention"),
    "plurals": ("split-antecedent plural", "split-antecedent plurals"),
    "bridging": ("bridging link", "bridging links"),
    "anchored": ("bridging link's antecedent mention (the link now names its entity)",
                 "bridging links' antecedent mentions (the links now name their entity)"),
    "self": ("bridging link from an entity to itself", "bridging links from an entity to itself"),
    "elements": ("split-antecedent element that is no entity (a non-referring markable)",
                 "split-antecedent elements that are no entity (non-referring markables)"),
    "non_referring": ("non-referring mention", "non-referring mentions"),
    "deixis": ("discourse-deixis entity", "discourse-deixis entities"),
    "attributes": ("attribute value with ( ) | @ = (replaced by _)",
                   "attribute values with ( ) | @ = (replaced by _)"),
}
#: Characters the UA format cannot hold in an attribute value.
_UA_UNSAFE = re.compile(r"[()|@=\s]")


def describe(lost: Mapping[str, int]) -> str:
    """Counts of kinds of content in words: ``3 empty nodes, 1 MIN span``."""
    return ", ".join(f"{count} {KINDS[kind][0 if count == 1 else 1]}"
                     for kind, count in lost.items() if count)


def unsupported_content(document: Document, target: str) -> Counter[str]:
    """How much of each kind of content of ``document`` the format ``target`` cannot hold
    (:data:`KINDS`; empty: nothing)."""
    lost: Counter[str] = Counter()
    mentions = [mention for entity in document.entities for mention in entity.mentions]
    if target in PLAIN_TARGETS:
        lost["empty"] = sum(document.nodes.empty) if document.nodes is not None else 0
    # A head the file does not give (worked out of its dependency tree or MIN: a CorefUD
    # mention without a head value, every UA markable) is not its content.
    headed = [mention for mention in mentions if mention.head is not None
              and mention.tokens not in document.heads_not_given
              and document.source_format != "ua"]
    if target in PLAIN_TARGETS:
        lost["heads"] = sum(1 for mention in headed if mention.head != mention.tokens[0])
    if target == "ua":
        # a UA file gives heads through its dependency columns (kept from a CoNLL-U source)
        read_back = heads_read_back(document)
        lost["tree_heads"] = sum(1 for mention in headed
                                 if mention.head != read_back.get(mention.tokens))
        lost["attributes"] = sum(
            1 for mention in (*mentions, *document.non_referring,
                              *(m for entity in document.discourse_deixis
                                for m in entity.mentions))
            for value in mention.attributes.values() if not value or _UA_UNSAFE.search(value))
        return +lost
    if target in PLAIN_TARGETS:
        words = _word_positions(document)
        lost["discontinuous"] = sum(1 for mention in mentions
                                    if target not in _ANY_SHAPE
                                    and not _contiguous_in(mention, words))
        lost["min"] = sum(1 for mention in mentions if mention.min_tokens is not None)
        lost["plurals"] = sum(1 for entity in document.entities if entity.elements)
        lost["bridging"] = len(document.bridging)
    elif target == "corefud":
        lost["min_outside"] = sum(1 for mention in mentions if _min_outside(mention))
        lost["anchored"] = sum(1 for link in document.bridging if link.antecedent is not None)
        lost["self"] = len(_self_links(document))
        names = {entity.id for entity in document.entities}
        lost["elements"] = sum(1 for entity in document.entities for element in entity.elements
                               if element not in names)
    lost["non_referring"] = len(document.non_referring)
    lost["deixis"] = len(document.discourse_deixis)
    return +lost


def _min_outside(mention: Mention) -> bool:
    """Whether ``mention`` has a MIN span not inside it (UA files have them; CorefUD counts
    MIN among the mention's positions)."""
    return mention.min_tokens is not None and not set(mention.min_tokens) <= set(mention.tokens)


def _self_links(document: Document) -> list[BridgingLink]:
    """Bridging links whose anaphor's entity is the antecedent's entity."""
    entity_of = {mention.tokens: entity.id for entity in document.entities
                 for mention in entity.mentions}
    result = []
    for link in document.bridging:
        anchor = link.antecedent_entity
        if anchor is None and link.antecedent is not None:
            anchor = entity_of.get(link.antecedent.tokens)
        if anchor is not None and entity_of.get(link.anaphor.tokens) == anchor:
            result.append(link)
    return result


def _word_positions(document: Document) -> dict[int, int]:
    """Old position → position among words only (empty nodes removed)."""
    if document.nodes is None:
        return {position: position for position in range(len(document.tokens))}
    mapping: dict[int, int] = {}
    for position, is_empty in enumerate(document.nodes.empty):
        if not is_empty:
            mapping[position] = len(mapping)
    return mapping


def _kept_sentence_starts(document: Document, words: dict[int, int]) -> list[int]:
    """The sentence starts among the positions kept (``words``: old → new position): a
    sentence that begins with an empty node begins at its first word."""
    sentences = sentence_of(document)
    starts = []
    previous = None
    for old, new in sorted(words.items()):
        if sentences[old] != previous:
            starts.append(new)
            previous = sentences[old]
    return starts


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
        if not tokens or (target not in _ANY_SHAPE and not _is_contiguous(tokens)):
            return None
        return Mention(tokens, mention.line, None, None, mention.attributes)

    entities = []
    for entity in document.entities:
        mentions = tuple(mention for mention in map(kept, entity.mentions) if mention)
        if mentions:
            entities.append(Entity(entity.id, mentions, (), entity.attributes))
    tokens = tuple(form for position, form in enumerate(document.tokens) if position in words)
    starts = _kept_sentence_starts(document, words)
    return replace(document, tokens=tokens, entities=tuple(entities), non_referring=(),
                   bridging=(), discourse_deixis=(), sentence_starts=tuple(starts),
                   nodes=None, token_columns={})


def _drop_for_corefud(document: Document) -> Document:
    """Non-referring mentions and discourse deixis dropped, MIN spans outside their mention
    forgotten, bridging anchored on entities (see the module docstring)."""
    document = _without_outside_min(document)
    entity_of = {mention.tokens: entity.id for entity in document.entities
                 for mention in entity.mentions}
    itself = {id(link) for link in _self_links(document)}
    names = set(entity_of.values()) | {entity.id for entity in document.entities}
    entities = tuple(replace(entity, elements=tuple(element for element in entity.elements
                                                    if element in names))
                     if entity.elements else entity for entity in document.entities)
    bridging = []
    for link in document.bridging:
        if id(link) in itself:
            continue
        if link.antecedent is None:
            bridging.append(link)
        elif link.antecedent.tokens in entity_of:
            bridging.append(BridgingLink(link.anaphor, None, entity_of[link.antecedent.tokens],
                                         link.relation))
    return replace(document, entities=entities, non_referring=(), discourse_deixis=(),
                   bridging=tuple(bridging))


def _without_outside_min(document: Document) -> Document:
    """``document`` with the MIN spans that lie outside their mention forgotten (in its
    entities and its bridging anaphors alike)."""
    made: dict[int, Mention] = {}

    def kept(mention: Mention) -> Mention:
        if not _min_outside(mention):
            return mention
        if id(mention) not in made:
            made[id(mention)] = replace(mention, min_tokens=None)
        return made[id(mention)]

    entities = tuple(replace(entity, mentions=tuple(map(kept, entity.mentions)))
                     for entity in document.entities)
    bridging = tuple(replace(link, anaphor=kept(link.anaphor)) for link in document.bridging)
    return replace(document, entities=entities, bridging=bridging)


def _drop_for_ua(document: Document) -> Document:
    """Heads forgotten, and attribute values UA cannot write replaced by ``_``."""

    def kept(mention: Mention) -> Mention:
        attributes = {name: _UA_UNSAFE.sub("_", value) or "_"
                      for name, value in mention.attributes.items()}
        return Mention(mention.tokens, mention.line, None, mention.min_tokens, attributes)

    def entities(layer: tuple[Entity, ...]) -> tuple[Entity, ...]:
        return tuple(replace(entity, mentions=tuple(map(kept, entity.mentions)))
                     for entity in layer)

    bridging = tuple(replace(link, anaphor=kept(link.anaphor),
                             antecedent=None if link.antecedent is None
                             else kept(link.antecedent))
                     for link in document.bridging)
    return replace(document, entities=entities(document.entities),
                   non_referring=tuple(map(kept, document.non_referring)),
                   bridging=bridging, discourse_deixis=entities(document.discourse_deixis))
