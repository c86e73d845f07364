"""Key and response documents from CoNLL-U files: check that they align, and put both on
one scale of token positions.

The CorefUD scorer requires key and response to hold the same documents, sentences
(``# sent_id``) and words (``FORM``), and, since its version 1.2, lets their empty nodes
differ: a system predicts its own empty nodes (zeros), which may be missing from the key, or
placed elsewhere. anascore checks the same, sentence by sentence, and reports the first
difference with the line of each file (where the CorefUD scorer zips the two files and so
silently stops at the end of the shorter one).

Each file numbers its positions over its own words and empty nodes
(:class:`~anascore.core.model.ConlluNodes`), so when the empty nodes differ, positions after the
first difference would not name the same word. :func:`align_conllu` renumbers both documents
over the union of their nodes, in CoNLL-U order within each sentence (``0.1`` … word 1 …
``1.1``, ``1.2`` … word 2 …): a word keeps one position on both sides, an empty node of one
side gets a position the other side leaves unused, and an empty node of each side share a
position when they stand between the same two words, in the same sentence, with the same
decimal (the k-th empty node after a word, or before a sentence's first word). Where both
files number each sentence from 1, as CoNLL-U does, that is the same ID — what the CorefUD
scorer's ``linear`` zero matching compares (sentence and ``ID``); a UA file may also number
its words through the document (anascore's UA writer does: ``3.1`` for ``0.1`` of a second
sentence after three words), and its empty nodes are the same nodes all the same. Each side
keeps its own DEPS, used by ``dependent`` zero matching (:mod:`anascore.matching.zero_pairing`).

A response without CoNLL-U details (CoNLL-2012, jsonlines) aligns with a CoNLL-U key (or the
other way round) by words: the plain side must have as many tokens as the CoNLL-U side has
words (empty nodes aside), and its positions are mapped onto those words. The words
themselves are compared as for any other pair (:func:`check_same_words`): a different count
is an error, different forms a warning naming the first — whatever the two formats are.
"""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

from anascore.core.errors import DocumentMismatchError, OtherTokensError, shorten
from anascore.core.model import BridgingLink, ConlluNodes, Document, Entity, Mention


def check_conllu(key: Document, response: Document,
                 warnings: list[str] | None = None) -> bool:
    """Whether key and response are compared as CoNLL-U documents: both come from CoNLL-U,
    or one does and the other has exactly its words. Raises
    :class:`DocumentMismatchError` at the first difference in sentences or words. ``False``:
    the caller's ordinary token check applies (and reports any difference).

    A UA file (CoNLL-U Plus) is held to what the UA scorer asks, the same number of tokens:
    with the same nodes as the other side it gets the ordinary check; when the empty nodes
    differ, the sentences must hold the same number of words (to align the two sides), and
    the first different sentence ID or word is a warning (appended to ``warnings``)."""
    if key.nodes is None and response.nodes is None:
        return False
    if ("ua" in (key.source_format, response.source_format)
            and key.nodes is not None and response.nodes is not None
            and same_ids(key.nodes, response.nodes)):
        return False
    if key.nodes is None or response.nodes is None:
        check_same_words(key, response, warnings)
        return True
    _check_sentences(key, response, warnings)
    return True


def words(document: Document) -> tuple[str, ...]:
    """The document's word forms: its tokens, less the empty nodes of a CoNLL-U document."""
    if document.nodes is None or not document.nodes.has_empty_nodes:
        return document.tokens
    return tuple(form for form, empty in zip(document.tokens, document.nodes.empty,
                                             strict=True) if not empty)


def check_same_words(key: Document, response: Document,
                     warnings: list[str] | None = None) -> None:
    """The check of every pair not compared sentence by sentence as CoNLL-U (two plain
    documents, or a plain and a CoNLL-U one): a different number of words is an
    :class:`OtherTokensError`; different word forms are a warning naming the first
    (appended to ``warnings``), as the reference scorer leaves them."""
    key_words, response_words = words(key), words(response)
    unit = "words (empty nodes aside)" if (key.nodes or response.nodes) else "tokens"
    if len(key_words) != len(response_words):
        raise OtherTokensError(
            f"document {shorten(key.name)!r} has {len(key_words)} {unit.split()[0]} in the key "
            f"({key.path}:{key.line}) but {len(response_words)} in the response "
            f"({response.path}:{response.line}); expected the same {unit}"
            f"{_layout_hint(key, response)}", path=response.path, line=response.line)
    if key_words != response_words and warnings is not None:
        position = next(index for index, (gold, system) in
                        enumerate(zip(key_words, response_words, strict=True))
                        if gold != system)
        warnings.append(
            f"{response.path}: document {shorten(key.name)!r}: {unit.split()[0][:-1]} "
            f"{position + 1} is {shorten(response_words[position])!r} in the response but "
            f"{shorten(key_words[position])!r} in the key {key.path}")


def _layout_hint(key: Document, response: Document) -> str:
    """Why a document read from mention records can have other tokens than its key
    (:mod:`anascore.formats.readers.mentionjson`): its tokens are laid out from its mentions."""
    if "mentionjson" not in (key.source_format, response.source_format):
        return ""
    return ("; mention records lay a document's tokens out from its mentions, so a response "
            "must hold the key's mentions (score predicted mentions in a token format)")


def common_positions(key: Document, response: Document) -> tuple[Document, Document]:
    """Key and response on one position scale (the module docstring), for a pair that
    :func:`check_conllu` accepted; any other pair is returned as it is."""
    if key.nodes is None and response.nodes is None:
        return key, response
    if key.nodes is None or response.nodes is None:
        return _align_with_plain(key, response) or (key, response)
    if same_ids(key.nodes, response.nodes):
        return key, response
    if not (key.nodes.has_empty_nodes or response.nodes.has_empty_nodes):
        # Only words, the same on both sides: the positions already coincide, whatever IDs
        # each file gives them (a CoNLL-U key numbers each sentence from 1, a UA response
        # may number the document through).
        return key, response
    return _on_union(key, response)


def same_ids(key: ConlluNodes, response: ConlluNodes) -> bool:
    """Whether both sides give every position the same CoNLL-U ID, remembered for the last
    pair of ID tuples by identity: :func:`check_conllu` and :func:`common_positions` both ask
    it of one pair, and each asking compares every position's ID."""
    known = _last_same_ids[0] if _last_same_ids else None
    if known is not None and known[0] is key.ids and known[1] is response.ids:
        return known[2]
    same = key.ids == response.ids
    _last_same_ids[:] = [(key.ids, response.ids, same)]
    return same


_last_same_ids: list[tuple[tuple[str, ...], tuple[str, ...], bool]] = []


def align_conllu(key: Document, response: Document) -> tuple[Document, Document] | None:
    """:func:`check_conllu`, then :func:`common_positions` (``None`` when the pair is not
    compared as CoNLL-U)."""
    if not check_conllu(key, response):
        return None
    return common_positions(key, response)


def _where(document: Document, line: int | None) -> str:
    return f"{document.path}:{line}" if line is not None else str(document.path)


def _check_sentences(key: Document, response: Document,
                     warnings: list[str] | None = None) -> None:
    assert key.nodes is not None and response.nodes is not None
    if (key.tokens == response.tokens and key.nodes.empty == response.nodes.empty
            and key.nodes.sentence_of == response.nodes.sentence_of
            and key.nodes.sentence_ids == response.nodes.sentence_ids):
        return  # the same words in the same sentences (most pairs): nothing to compare
    # UA: only the number of words counts; the first other difference is a warning
    lenient = "ua" in (key.source_format, response.source_format)
    differences: list[str] = []
    key_sentences = _words_by_sentence(key)
    response_sentences = _words_by_sentence(response)
    for index in range(max(len(key_sentences), len(response_sentences))):
        if index >= len(key_sentences) or index >= len(response_sentences):
            longer, side = ((key, "key") if index < len(key_sentences)
                            else (response, "response"))
            shorter = response if longer is key else key
            assert longer.nodes is not None and shorter.nodes is not None
            raise OtherTokensError(
                f"document {shorten(key.name)!r}: the {side} has {len(longer.nodes.sentence_ids)} "
                f"sentences, the other file {len(shorter.nodes.sentence_ids)}; sentence "
                f"{index + 1} ({_where(longer, longer.nodes.sentence_lines[index])}) has no "
                f"counterpart in {shorter.path}; expected the same sentences",
                path=response.path, line=_last_line(response))
        key_id = key.nodes.sentence_ids[index]
        response_id = response.nodes.sentence_ids[index]
        key_line = key.nodes.sentence_lines[index]
        response_line = response.nodes.sentence_lines[index]
        if key_id != response_id and lenient:
            differences.append(
                f"sentence {index + 1} has sent_id {shorten(key_id)!r} in the key "
                f"({_where(key, key_line)}) but {shorten(response_id)!r} in the response")
        elif key_id != response_id:
            raise DocumentMismatchError(
                f"document {shorten(key.name)!r}: sentence {index + 1} has sent_id "
                f"{shorten(key_id)!r} in the key ({_where(key, key_line)}) but "
                f"{shorten(response_id)!r} in the response ({_where(response, response_line)}); "
                "expected the same sentences",
                path=response.path, line=response_line)
        key_words, response_words = key_sentences[index], response_sentences[index]
        if [form for form, _ in key_words] == [form for form, _ in response_words]:
            continue
        if lenient and len(key_words) == len(response_words):
            word = next(word for word, ((key_form, _), (response_form, _)) in
                        enumerate(zip(key_words, response_words, strict=True))
                        if key_form != response_form)
            differences.append(
                f"sentence {index + 1}, word {word + 1} is {key_words[word][0]!r} in the key "
                f"({_where(key, key_words[word][1])}) but {response_words[word][0]!r} in the "
                "response")
            continue
        for word in range(max(len(key_words), len(response_words))):
            key_form, key_at = key_words[word] if word < len(key_words) else (None, key_line)
            response_form, response_at = (response_words[word] if word < len(response_words)
                                          else (None, response_line))
            if key_form != response_form:
                raise OtherTokensError(
                    f"document {shorten(key.name)!r}: sentence {index + 1}, word {word + 1} is "
                    f"{_shown(key_form)} in the key ({_where(key, key_at)}) but "
                    f"{_shown(response_form)} in the response ({_where(response, response_at)}); "
                    "expected the same words (empty nodes may differ)",
                    path=response.path, line=response_at)
    if differences and warnings is not None:
        warnings.append(f"{response.path}: document {shorten(key.name)!r}: {differences[0]}")


def _shown(form: str | None) -> str:
    return "missing" if form is None else repr(shorten(form))


def _last_line(document: Document) -> int | None:
    assert document.nodes is not None
    return document.nodes.lines[-1] if document.nodes.lines else document.line


def _words_by_sentence(document: Document) -> list[list[tuple[str, int]]]:
    nodes = document.nodes
    assert nodes is not None
    sentences: list[list[tuple[str, int]]] = [[] for _ in nodes.sentence_ids]
    for position, form in enumerate(document.tokens):
        if not nodes.empty[position]:
            sentences[nodes.sentence_of[position]].append((form, nodes.lines[position]))
    return sentences


#: Where an empty node stands: its sentence, and the word and decimal of its ID
#: (:func:`_magnitude`).
OrderKey = tuple[int, tuple[int, str], tuple[int, str]]


def _order_key(sentence: int, node_id: str) -> OrderKey:
    word, _, decimal = node_id.partition(".")
    return sentence, _magnitude(word), _magnitude(decimal)


def _magnitude(digits: str) -> tuple[int, str]:
    """The digits of an ID as a key that orders as their number does, without ``int``, which
    refuses more than 4,300 digits (a file may hold any number of them)."""
    significant = digits.lstrip("0")
    return len(significant), significant


def _gaps(document: Document) -> list[list[tuple[OrderKey, int]]]:
    """The empty nodes of ``document`` between consecutive words: entry ``k`` lists those
    before the ``k``-th word (the last entry: after the last word), each with its order key
    and position."""
    nodes = document.nodes
    assert nodes is not None
    gaps: list[list[tuple[OrderKey, int]]] = [[]]
    for position, is_empty in enumerate(nodes.empty):
        if is_empty:
            gaps[-1].append((_order_key(nodes.sentence_of[position], nodes.ids[position]),
                             position))
        else:
            gaps.append([])
    return gaps


#: An empty node within its gap: its key among the gap's nodes, and its position.
_GapKey = tuple[int, tuple[int, str]] | OrderKey
_GapNode = tuple[_GapKey, int]


def _within_gap(key_gap: list[tuple[OrderKey, int]],
                response_gap: list[tuple[OrderKey, int]],
                ) -> tuple[list[_GapNode], list[_GapNode]]:
    """The empty nodes of one gap on each side, keyed by (sentence, decimal): between two given
    words the word part of an ID only says how the file numbers its words (``1.1`` and
    ``4.1`` after the same word). Where two nodes of one side would share that key (IDs out
    of CoNLL-U order), the gap keeps the full IDs on both sides."""
    short: tuple[list[_GapNode], list[_GapNode]] = (
        [((order[0], order[2]), position) for order, position in key_gap],
        [((order[0], order[2]), position) for order, position in response_gap])
    if any(len({order for order, _ in side}) < len(side) for side in short):
        return list(key_gap), list(response_gap)
    return short


def _on_union(key: Document, response: Document) -> tuple[Document, Document]:
    """Both documents renumbered over the union of their nodes. Words are the same on both
    sides (checked before), so the union is merged gap by gap: the empty nodes between two
    words, from both sides, in CoNLL-U order, one position per distinct node
    (:func:`_within_gap`)."""
    key_nodes, response_nodes = key.nodes, response.nodes
    assert key_nodes is not None and response_nodes is not None
    key_gaps, response_gaps = _gaps(key), _gaps(response)
    key_map = [0] * len(key_nodes.ids)
    response_map = [0] * len(response_nodes.ids)
    ids: list[str] = []
    forms: list[str] = []
    sentence_of: list[int] = []
    empty: list[bool] = []
    key_words = [position for position, is_empty in enumerate(key_nodes.empty) if not is_empty]
    response_words = [position for position, is_empty in enumerate(response_nodes.empty)
                      if not is_empty]
    for gap, (key_gap, response_gap) in enumerate(zip(key_gaps, response_gaps, strict=True)):
        if key_gap or response_gap:
            key_here, response_here = _within_gap(key_gap, response_gap)
            merged: dict[_GapKey, tuple[list[int], list[int]]] = {}
            for order, position in key_here:
                merged.setdefault(order, ([], []))[0].append(position)
            for order, position in response_here:
                merged.setdefault(order, ([], []))[1].append(position)
            for order in sorted(merged):
                from_key, from_response = merged[order]
                for position in from_key:
                    key_map[position] = len(ids)
                for position in from_response:
                    response_map[position] = len(ids)
                source, nodes, position = ((key, key_nodes, from_key[0]) if from_key
                                           else (response, response_nodes, from_response[0]))
                ids.append(nodes.ids[position])
                forms.append(source.tokens[position])
                sentence_of.append(order[0])
                empty.append(True)
        if gap < len(key_words):
            key_position, response_position = key_words[gap], response_words[gap]
            key_map[key_position] = response_map[response_position] = len(ids)
            ids.append(key_nodes.ids[key_position])
            forms.append(key.tokens[key_position])
            sentence_of.append(key_nodes.sentence_of[key_position])
            empty.append(False)
    aligned = []
    for document, nodes, mapping in ((key, key_nodes, key_map),
                                     (response, response_nodes, response_map)):
        deps = ["_"] * len(ids)
        lines = [0] * len(ids)
        for old, new in enumerate(mapping):
            deps[new] = nodes.deps[old]
            lines[new] = nodes.lines[old]
        starts = sorted({mapping[start] for start in document.sentence_starts})
        new_nodes = ConlluNodes(tuple(ids), tuple(sentence_of), tuple(empty), tuple(deps),
                                tuple(lines), nodes.sentence_ids, nodes.sentence_lines)
        aligned.append(_renumbered(document, mapping, tuple(forms), new_nodes, tuple(starts)))
    return aligned[0], aligned[1]


def _align_with_plain(key: Document, response: Document) -> tuple[Document, Document] | None:
    conllu, plain = (key, response) if key.nodes is not None else (response, key)
    nodes = conllu.nodes
    assert nodes is not None
    words = [position for position, is_empty in enumerate(nodes.empty) if not is_empty]
    if len(words) != len(plain.tokens):
        return None
    if not any(nodes.empty):
        return key, response
    plain = _renumbered(plain, words, conllu.tokens, replace(
        nodes, deps=("_",) * len(nodes.ids), lines=(0,) * len(nodes.ids)),
        conllu.sentence_starts)
    return (conllu, plain) if key is conllu else (plain, conllu)


def _renumbered(document: Document, mapping: list[int], tokens: tuple[str, ...],
                nodes: ConlluNodes, sentence_starts: tuple[int, ...]) -> Document:
    """``document`` with every position ``p`` replaced by ``mapping[p]``."""
    renamed: dict[int, Mention] = {}

    def moved(mention: Mention) -> Mention:
        key = id(mention)
        if key not in renamed:
            renamed[key] = Mention(
                tuple(mapping[token] for token in mention.tokens), mention.line,
                None if mention.head is None else mapping[mention.head],
                None if mention.min_tokens is None
                else tuple(mapping[token] for token in mention.min_tokens),
                mention.attributes)
        return renamed[key]

    def moved_entities(entities: tuple[Entity, ...]) -> tuple[Entity, ...]:
        return tuple(replace(entity, mentions=tuple(moved(m) for m in entity.mentions))
                     for entity in entities)

    columns = document.token_columns
    if columns:
        moved_columns = {}
        for name, values in columns.items():
            column = ["_"] * len(tokens)
            for old, new in enumerate(mapping):
                column[new] = values[old]
            moved_columns[name] = tuple(column)
        columns = MappingProxyType(moved_columns)
    return replace(
        document, tokens=tokens, entities=moved_entities(document.entities),
        token_columns=columns,
        non_referring=tuple(moved(mention) for mention in document.non_referring),
        bridging=tuple(BridgingLink(moved(link.anaphor),
                                    None if link.antecedent is None else moved(link.antecedent),
                                    link.antecedent_entity, link.relation)
                       for link in document.bridging),
        discourse_deixis=moved_entities(document.discourse_deixis),
        sentence_starts=sentence_starts, nodes=nodes,
        heads_not_given=frozenset(tuple(mapping[token] for token in tokens)
                                  for tokens in document.heads_not_given))
