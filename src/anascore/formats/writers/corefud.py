"""Writing CorefUD 1.0 CoNLL-U, which Udapi and the CorefUD scorer read.

The format, and the rules its reader enforces: :mod:`anascore.formats.readers.corefud`. A
mention's head is written only where the source gives it (:func:`entity_fields`), and the
file's own columns and comments are written back when the source kept them.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from typing import IO

from anascore.core.errors import FormatError
from anascore.core.model import (
    Document,
    Mention,
    checked_documents,
)
from anascore.formats.io.output import atomic_output
from anascore.formats.sentences import kept_lines, sentence_ids
from anascore.formats.sentences import sentence_of as sentences_of

_SAFE_ID = re.compile(r"^[A-Za-z0-9_.:]+$")
_UNSAFE_VALUE = re.compile(r"[-()|=\s\[\],<]")


def write_corefud(documents: Iterable[Document], path: str | os.PathLike[str]) -> None:
    """Write documents as CorefUD 1.0 CoNLL-U, readable by
    :func:`~anascore.formats.readers.corefud.read_corefud` and Udapi.

    Layout: ``# newdoc id``, ``# global.Entity`` (:func:`entity_fields`), ``# sent_id``
    per sentence (the source's, none where it had none; ``NAME-N`` for a source without
    CoNLL-U sentences, :func:`~anascore.formats.sentences.sentence_ids`), then the token
    lines: the
    columns a CorefUD source kept (``read_corefud(all_columns=True)``: LEMMA … DEPREL, the
    other MISC items, comment and multiword-token lines), else ``_`` with ``HEAD`` 0 for
    words (the CorefUD scorer's placeholder) and ``_`` for empty nodes; DEPS from a CoNLL-U
    source (:func:`conllu_line`). In
    ``Entity=``, the chunks of a node are written closing brackets first (the latest opened
    first), then opening brackets (the longest mention first), then one-position mentions, so
    that nested mentions of one entity read back as written. A mention that skips positions
    (discontinuous, or crossing a sentence boundary) is written in parts ``[i/n]``.
    Refused (:class:`FormatError`): two mentions of one entity that cross, which CorefUD
    brackets cannot hold; bridging links whose antecedent is a mention rather than an
    entity, non-referring mentions, discourse deixis, a MIN span not inside its mention
    (see :mod:`anascore.formats.io.conversion`, which can drop them first).
    """
    documents = checked_documents(documents, "the documents to write")
    documents = list(documents)
    fields = entity_fields(documents)
    with atomic_output(path) as stream:
        for number, document in enumerate(documents):
            stream.write(f"# newdoc id = {document.name}\n")
            if number == 0:
                stream.write(f"# global.Entity = {'-'.join(fields)}\n")
            _write_document(document, fields, stream)


def written_head(document: Document, mention: Mention) -> int | None:
    """The 1-based index among its positions of the head :func:`write_corefud` writes for
    ``mention`` (``None``: none). A head is written where it is known, except one that the
    CorefUD reader worked out of the dependency tree (``Document.heads_not_given``) when the
    tree is written with it (its HEAD column kept), which gives it again."""
    if mention.head is None or mention.head not in mention.tokens:
        return None
    if mention.tokens in document.heads_not_given and "head" in document.token_columns:
        return None
    return mention.tokens.index(mention.head) + 1


def entity_fields(documents: list[Document]) -> tuple[str, ...]:
    """The fields of ``# global.Entity`` that :func:`write_corefud` writes for ``documents``.

    ``eid-etype-head-other`` (the CorefUD 1.0 layout), then ``MIN`` when a mention has a
    MIN span, then one field per other mention attribute. Udapi (and so the CorefUD scorer)
    refuses an empty head field, and reads a bracket that stops before the head field as
    headed by its first word; so where some mention has no head to write
    (:func:`written_head`), ``head`` is the last field, left out of that mention's bracket
    (anascore's reader then works the head out of the tree, or leaves it unknown, as it was
    in the source), and where no mention has one, there is no ``head`` field."""
    mentions = [(document, mention) for document in documents for entity in document.entities
                for mention in entity.mentions]
    heads = [written_head(document, mention) is not None for document, mention in mentions]
    extra = sorted({name for _, mention in mentions for name in mention.attributes
                    if name not in ("other", "eid", "etype", "head", "MIN")})
    rest = ("other", *(("MIN",) if any(mention.min_tokens for _, mention in mentions) else ()),
            *extra)
    if all(heads):
        return ("eid", "etype", "head", *rest)
    return ("eid", "etype", *rest, *(("head",) if any(heads) else ()))


def _write_document(document: Document, fields: tuple[str, ...], stream: IO[str]) -> None:
    if document.non_referring:
        raise FormatError(f"document {document.name!r} has non-referring mentions; CorefUD "
                          "cannot hold them")
    if document.discourse_deixis:
        raise FormatError(f"document {document.name!r} has discourse deixis; CorefUD cannot "
                          "hold it")
    count = len(document.tokens)
    nodes = document.nodes
    if nodes is not None:
        sentence_of = list(nodes.sentence_of)
        ids = list(nodes.ids)
        empty = list(nodes.empty)
        deps = list(nodes.deps)
        sentence_names = list(nodes.sentence_ids)
    else:
        sentence_of = sentences_of(document)
        ids = []
        for position, sentence in enumerate(sentence_of):
            first = position == 0 or sentence != sentence_of[position - 1]
            ids.append("1" if first else str(int(ids[-1]) + 1))
        empty, deps = [False] * count, ["_"] * count
        sentence_names = sentence_ids(document, (sentence_of[-1] + 1) if count else 0)
    entity_names = _entity_names(document)
    misc = _entity_cells(document, entity_names, fields, sentence_of)
    for position, (ante, plural) in _split_antecedent_cells(document, entity_names).items():
        misc.setdefault(position, []).append(("SplitAnte", ",".join(
            f"{element}<{plural}" for element in ante)))
    for position, links in _bridge_cells(document, entity_names).items():
        misc.setdefault(position, []).append(("Bridge", ",".join(links)))
    sentence = -1
    for position in range(count):
        if sentence_of[position] != sentence:
            if sentence >= 0:
                stream.write("\n")
            sentence = sentence_of[position]
            name = sentence_names[sentence] if sentence < len(sentence_names) else ""
            # A source's own comment lines (``before``) hold its sent_id in its place; a
            # CoNLL-U source's sentence without a sent_id keeps none.
            if name and "before" not in document.token_columns:
                stream.write(f"# sent_id = {name}\n")
        form = document.tokens[position].replace("\t", " ").replace("\n", " ") or "_"
        stream.write(conllu_line(document, position, ids[position], form, deps[position],
                                 empty[position], misc.get(position, [])))
    if count:
        stream.write("\n")


def conllu_line(document: Document, position: int, node_id: str, form: str, deps: str,
                empty: bool, annotation: list[tuple[str, str]]) -> str:
    """One CoNLL-U token line (preceded by the lines a CorefUD source had before it): the
    source's columns where the document kept them (``all_columns``), else ``_``, with
    ``HEAD`` 0 for a word (the CorefUD scorer's placeholder for an unknown head) and ``_``
    for an empty node; MISC is the source's other items, then ``annotation``."""
    columns = document.token_columns
    before = columns.get("before")
    text = kept_lines(before[position], 10) if before and before[position] else ""
    kept = [columns[name][position] if name in columns else "_"
            for name in ("lemma", "upos", "xpos", "feats")]
    head = columns["head"][position] if "head" in columns else ("_" if empty else "0")
    deprel = columns["deprel"][position] if "deprel" in columns else "_"
    kept_misc = columns["misc"][position] if "misc" in columns else "_"
    items = [kept_misc] if kept_misc not in ("", "_") else []
    items += [f"{key}={value}" for key, value in annotation]
    misc = "|".join(items) or "_"
    return (text + "\t".join([node_id, form, *kept, head, deprel, deps, misc]) + "\n")


def _entity_names(document: Document) -> dict[str, str]:
    names: dict[str, str] = {}
    used: set[str] = set()
    for number, entity in enumerate(document.entities):
        name = entity.id if _SAFE_ID.match(entity.id) and entity.id not in used else ""
        while not name or name in used:
            name = f"e{number}" if not name else name + "_"
        names[entity.id] = name
        used.add(name)
    return names


def _runs(mention: Mention, sentence_of: list[int]) -> list[tuple[int, int]]:
    """Maximal runs of consecutive positions within one sentence."""
    runs: list[tuple[int, int]] = []
    start = previous = mention.tokens[0]
    for token in mention.tokens[1:]:
        if token != previous + 1 or sentence_of[token] != sentence_of[previous]:
            runs.append((start, previous))
            start = token
        previous = token
    runs.append((start, previous))
    return runs


def _value(text: str) -> str:
    return _UNSAFE_VALUE.sub("_", text)


def _entity_cells(document: Document, names: dict[str, str], fields: tuple[str, ...],
                  sentence_of: list[int]) -> dict[int, list[tuple[str, str]]]:
    closing: dict[int, list[tuple[int, int, str]]] = {}
    opening: dict[int, list[tuple[int, int, str]]] = {}
    single: dict[int, list[str]] = {}
    for entity in document.entities:
        name = names[entity.id]
        etype = _value(entity.attributes.get("etype", ""))
        runs_of_entity: list[tuple[int, int]] = []
        discontinuous: list[tuple[int, int]] = []
        for mention in entity.mentions:
            if not mention.tokens:
                continue
            if max(mention.tokens) >= len(sentence_of):
                raise FormatError(f"document {document.name!r}: mention {mention} of entity "
                                  f"{entity.id} lies beyond its {len(sentence_of)} tokens")
            runs = _runs(mention, sentence_of)
            runs_of_entity.extend(runs)
            if len(runs) > 1:
                discontinuous.append((mention.tokens[0], mention.tokens[-1]))
            head = written_head(document, mention)
            values = {"etype": etype, "head": "" if head is None else str(head),
                      **{key: _value(value) for key, value in mention.attributes.items()}}
            if mention.min_tokens:
                values["MIN"] = _min_indices(document, entity.id, mention)
            # a mention without a head to write stops before the head field (the last one)
            written = fields if head is not None or "head" not in fields else fields[:-1]
            for index, (start, end) in enumerate(runs, start=1):
                label = name if len(runs) == 1 else f"{name}[{index}/{len(runs)}]"
                text = "-".join(label if key == "eid" else values.get(key, "")
                                for key in written)
                if start == end:
                    single.setdefault(start, []).append(f"({text})")
                else:
                    size = end - start
                    opening.setdefault(start, []).append((-size, len(opening.get(start, [])),
                                                          f"({text}"))
                    closing.setdefault(end, []).append((size, -len(closing.get(end, [])),
                                                        f"{label})"))
        _refuse_crossing(document.name, entity.id, runs_of_entity)
        discontinuous.sort()
        reach = -1
        for start, end in discontinuous:
            if start <= reach:
                raise FormatError(f"document {document.name!r}: entity {entity.id} has two "
                                  "discontinuous mentions that overlap; CorefUD readers "
                                  "(Udapi) cannot tell their parts apart")
            reach = max(reach, end)
    cells: dict[int, list[tuple[str, str]]] = {}
    for position in set(closing) | set(opening) | set(single):
        chunks = [text for *_, text in sorted(closing.get(position, []))]
        chunks += [text for *_, text in sorted(opening.get(position, []))]
        chunks += single.get(position, [])
        cells[position] = [("Entity", "".join(chunks))]
    return cells


def _min_indices(document: Document, entity_id: str, mention: Mention) -> str:
    """A mention's MIN as CorefUD writes it: the 1-based indices of its positions, comma
    separated; a MIN span not inside its mention (UA files have them) is refused."""
    assert mention.min_tokens is not None
    if not set(mention.min_tokens) <= set(mention.tokens):
        raise FormatError(f"document {document.name!r}: mention {mention} of entity "
                          f"{entity_id} has a MIN span outside itself; CorefUD counts MIN "
                          "among the mention's positions")
    return ",".join(str(mention.tokens.index(token) + 1) for token in mention.min_tokens)


def _refuse_crossing(name: str, entity_id: str, runs: list[tuple[int, int]]) -> None:
    enclosing: list[tuple[int, int]] = []
    for start, end in sorted(runs, key=lambda run: (run[0], -run[1])):
        while enclosing and enclosing[-1][1] < start:
            enclosing.pop()
        if enclosing and enclosing[-1][1] < end:
            raise FormatError(f"document {name!r}: entity {entity_id} has crossing mentions "
                              f"(positions {enclosing[-1][0]}–{enclosing[-1][1]} and "
                              f"{start}–{end}); CorefUD brackets cannot hold them")
        enclosing.append((start, end))


def _split_antecedent_cells(document: Document,
                            names: dict[str, str]) -> dict[int, tuple[list[str], str]]:
    cells: dict[int, tuple[list[str], str]] = {}
    for entity in document.entities:
        if not entity.elements or not entity.mentions:
            continue
        missing = [element for element in entity.elements if element not in names]
        if missing:
            raise FormatError(f"document {document.name!r}: entity {entity.id} has split "
                              f"antecedent {missing[0]}, which is not an entity")
        first = min(mention.tokens[0] for mention in entity.mentions)
        while first in cells:  # one SplitAnte cell per node: another plural starts here
            raise FormatError(f"document {document.name!r}: two split-antecedent plurals start "
                              f"at position {first}; CorefUD writes one SplitAnte per node")
        cells[first] = ([names[element] for element in entity.elements], names[entity.id])
    return cells


def _bridge_cells(document: Document, names: dict[str, str]) -> dict[int, list[str]]:
    entity_of = {id(mention): entity.id for entity in document.entities
                 for mention in entity.mentions}
    cells: dict[int, list[str]] = {}
    for link in document.bridging:
        anaphor_entity = entity_of.get(id(link.anaphor))
        if anaphor_entity is None:
            anaphor_entity = next((entity.id for entity in document.entities
                                   if link.anaphor in entity.mentions), None)
        if anaphor_entity is None or link.antecedent is not None:
            raise FormatError(f"document {document.name!r}: a bridging link whose anaphor is "
                              "not a mention of an entity, or whose antecedent is a mention; "
                              "CorefUD links entities")
        if link.antecedent_entity not in names:
            raise FormatError(f"document {document.name!r}: bridging antecedent "
                              f"{link.antecedent_entity} is not an entity")
        relation = f":{_value(link.relation)}" if link.relation else ""
        cells.setdefault(link.anaphor.tokens[0], []).append(
            f"{names[link.antecedent_entity]}<{names[anaphor_entity]}{relation}")
    return cells
