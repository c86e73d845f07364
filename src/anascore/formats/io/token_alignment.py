"""Responses on other tokens: mapping a response's mentions onto the key's tokens through the
characters both tokenizations cover.

Systems tokenize differently from the key: another tokenizer splits ``don't`` as ``do n't``
or ``don ' t``, merges ``well-known``, or works on sub-word pieces; generative systems write
the text itself. The key and the response then cover the same *text* with different tokens.
:func:`project_onto_key` maps every response mention onto the key's tokens:

1. Both token sequences are read as text without white space: each character belongs to one
   token of each side. Tokens are compared after :func:`normalized` (Unicode NFC; the Penn
   Treebank escapes of OntoNotes, ``-LRB-`` for ``(`` …; sub-word markers ``##`` and ``▁``
   removed). The two texts must then be the same: where they are not (a system that changed
   a word), :func:`character_map` raises a :class:`~anascore.core.errors.DocumentMismatchError`
   naming the first differing key and response token, rather than guessing an alignment.
   An empty node of a CoNLL-U document (a zero) is no text and is left out of it; a
   response's empty node becomes the key's empty node at its place (after the same word, or
   before the same sentence-initial word, the same k-th one), and a zero mention on an empty
   node the key lacks is an error, as the key's tokens give it no place.
2. A response mention covers the characters of its tokens; it becomes the key tokens those
   characters belong to. A key token it covers only in part (the response splits ``don't``
   and a mention is ``do``) is *cut*; ``cut_tokens`` says what then happens:

   * ``"extend"`` (default) — the mention takes the whole key token (a response cannot be
     finer than the key's tokens: this is what scoring it on the key's tokens can mean);
   * ``"shrink"`` — the mention keeps only the key tokens it covers whole (a mention left
     without any is dropped, with a warning);
   * ``"refuse"`` — a cut token is an error naming the mention.

Each policy is stated in the warning that counts the mentions it changed, so a run says what
it did.
"""

from __future__ import annotations

import unicodedata
from dataclasses import replace

from anascore.config.options import CUT_POLICIES
from anascore.core.errors import DocumentMismatchError, OptionsError
from anascore.core.model import BridgingLink, Document, Entity, Mention

#: OntoNotes writes brackets and quotes as Penn Treebank escapes; raw text has the characters.
PTB_ESCAPES: dict[str, str] = {
    "-LRB-": "(", "-RRB-": ")", "-LSB-": "[", "-RSB-": "]", "-LCB-": "{", "-RCB-": "}",
    "``": '"', "''": '"', "`": "'",
}
_SUBWORD_PREFIXES = ("##", "▁", "Ġ")


def normalized(token: str) -> str:
    """A token as text to compare: PTB escapes undone, sub-word markers dropped, Unicode NFC,
    white space removed."""
    token = PTB_ESCAPES.get(token, token)
    for prefix in _SUBWORD_PREFIXES:
        if token.startswith(prefix) and len(token) > len(prefix):
            token = token[len(prefix):]
            break
    token = unicodedata.normalize("NFC", token)
    return "".join(token.split())


def _empty(document: Document) -> tuple[bool, ...]:
    """For each token position, whether it is an empty node (of a CoNLL-U document)."""
    if document.nodes is None:
        return (False,) * len(document.tokens)
    return document.nodes.empty


def _characters(document: Document) -> tuple[str, list[int]]:
    """The text without white space, and for each character the token it belongs to. An
    empty node (a CoNLL-U zero) is no text: its form is left out."""
    text: list[str] = []
    owner: list[int] = []
    for index, (token, empty) in enumerate(zip(document.tokens, _empty(document), strict=True)):
        if empty:
            continue
        piece = normalized(token)
        text.append(piece)
        owner.extend([index] * len(piece))
    return "".join(text), owner


def character_map(key: Document, response: Document) -> tuple[list[int], list[list[int]],
                                                                list[int]]:
    """For each response token, the key token of each of its characters; with the character
    count of each key token (to tell a whole token from a cut one). An empty node of the
    response counts as one character of the key's empty node at its place
    (:func:`_empty_nodes_onto_key`), and has none where the key has no empty node there.

    Raises :class:`DocumentMismatchError` where the two texts differ."""
    key_text, key_owner = _characters(key)
    response_text, response_owner = _characters(response)
    if key_text != response_text:
        raise DocumentMismatchError(_first_difference(key, response, key_text, key_owner,
                                                      response_text, response_owner),
                                    path=response.path, line=response.line)
    per_token: list[list[int]] = [[] for _ in response.tokens]
    for position, token in enumerate(response_owner):
        per_token[token].append(key_owner[position])
    sizes = [0] * len(key.tokens)
    for token in key_owner:
        sizes[token] += 1
    for response_node, key_node in _empty_nodes_onto_key(key, response, key_owner,
                                                         response_owner).items():
        per_token[response_node].append(key_node)
        sizes[key_node] = 1
    return key_owner, per_token, sizes


def _places(document: Document, owner: list[int]) -> dict[int, tuple[str, int, int]]:
    """Where each empty node of ``document`` stands: ``("after", c, k)``, the k-th empty node
    after the word whose last character is character ``c`` of the text, or ``("before", c,
    k)`` before the first word of its sentence, which starts at character ``c``."""
    empty = _empty(document)
    if not any(empty):
        return {}
    assert document.nodes is not None
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    for offset, token in enumerate(owner):
        first.setdefault(token, offset)
        last[token] = offset
    sentence_of = document.nodes.sentence_of
    places: dict[int, tuple[str, int, int]] = {}
    pending: list[int] = []  # empty nodes before the first word of the current sentence
    previous: int | None = None  # the last word with text in the current sentence
    ordinal = 0
    for position, is_empty in enumerate(empty):
        if position and sentence_of[position] != sentence_of[position - 1]:
            pending, previous, ordinal = [], None, 0
        if is_empty:
            if previous is None:
                pending.append(position)
            else:
                places[position] = ("after", last[previous], ordinal)
                ordinal += 1
        elif position in first:
            if previous is None:
                for index, node in enumerate(pending):
                    places[node] = ("before", first[position], index)
                pending = []
            previous, ordinal = position, 0
    return places


def _empty_nodes_onto_key(key: Document, response: Document, key_owner: list[int],
                          response_owner: list[int]) -> dict[int, int]:
    """Each response empty node that stands where a key empty node does, with that node:
    after the same character of the common text (the k-th after the word ending there), or
    before a sentence's first word starting at the same character."""
    response_places = _places(response, response_owner)
    if not response_places:
        return {}
    key_nodes = {place: node for node, place in _places(key, key_owner).items()}
    return {node: key_nodes[place] for node, place in response_places.items()
            if place in key_nodes}


def _first_difference(key: Document, response: Document, key_text: str, key_owner: list[int],
                      response_text: str, response_owner: list[int]) -> str:
    at = next((index for index, (first, second) in enumerate(
        zip(key_text, response_text, strict=False)) if first != second),
        min(len(key_text), len(response_text)))
    if at >= len(key_text) or at >= len(response_text):
        shorter = "key" if at >= len(key_text) else "response"
        return (f"document {key.name!r}: the {shorter} text ends after {at} characters "
                "(white space aside) where the other goes on; responses on other tokens "
                "must cover the key's text")
    key_token, response_token = key_owner[at], response_owner[at]
    return (f"document {key.name!r}: the texts differ at character {at + 1} (white space "
            f"aside): key token {key_token + 1} {key.tokens[key_token]!r}, response token "
            f"{response_token + 1} {response.tokens[response_token]!r}; responses on other "
            "tokens must cover the key's text")


def project_onto_key(key: Document, response: Document, cut_tokens: str = "extend",
                     warnings: list[str] | None = None) -> Document:
    """``response`` with every mention on the key's tokens (and the key's tokens, sentence
    starts and token columns): see the module docstring."""
    if cut_tokens not in CUT_POLICIES:
        raise OptionsError(f"unknown cut_tokens {cut_tokens!r}; expected one of "
                           f"{', '.join(CUT_POLICIES)}")
    _, per_token, sizes = character_map(key, response)
    changed = dropped = 0
    cache: dict[tuple[int, ...], tuple[int, ...]] = {}

    def moved(mention: Mention) -> Mention | None:
        nonlocal changed, dropped
        tokens = cache.get(mention.tokens)
        if tokens is None:
            tokens = _key_tokens(mention, response, per_token, sizes, cut_tokens)
            cache[mention.tokens] = tokens
            if tokens and not _whole(mention, per_token, sizes):
                changed += 1  # a mention left without tokens is counted as dropped only
        if not tokens:
            dropped += 1
            return None

        def onto(positions: tuple[int, ...] | None) -> tuple[int, ...] | None:
            if positions is None:
                return None
            mapped = sorted({key_token for position in positions
                             for key_token in per_token[position]})
            return tuple(token for token in mapped if token in tokens) or tokens[:1]

        head = None
        if mention.head is not None and per_token[mention.head]:
            head = per_token[mention.head][0]
            if head not in tokens:
                head = tokens[0]
        return replace(mention, tokens=tokens, head=head,
                       min_tokens=onto(mention.min_tokens))

    def moved_entities(entities: tuple[Entity, ...]) -> tuple[Entity, ...]:
        result = []
        for entity in entities:
            mentions = tuple(mention for mention in map(moved, entity.mentions)
                             if mention is not None)
            if mentions:
                result.append(replace(entity, mentions=mentions))
        return tuple(result)

    bridging = []
    for link in response.bridging:
        anaphor = moved(link.anaphor)
        if anaphor is None:
            continue
        antecedent = moved(link.antecedent) if link.antecedent is not None else None
        bridging.append(BridgingLink(anaphor, antecedent, link.antecedent_entity,
                                     link.relation))
    projected = replace(
        response, tokens=key.tokens, entities=moved_entities(response.entities),
        non_referring=tuple(mention for mention in map(moved, response.non_referring)
                            if mention is not None),
        bridging=tuple(bridging), discourse_deixis=moved_entities(response.discourse_deixis),
        sentence_starts=key.sentence_starts, nodes=key.nodes, token_columns=key.token_columns)
    if warnings is not None and (changed or dropped):
        what = {"extend": "extended to the whole key tokens they cut",
                "shrink": "shrunk to the key tokens they cover whole"}[cut_tokens]
        parts = []
        if changed:
            parts.append(f"{changed} mention{'s' if changed != 1 else ''} on other tokens "
                         f"{what}")
        if dropped:
            parts.append(f"{dropped}{'' if changed else ' mention' + 's' * (dropped != 1)}"
                         f"{'' if changed else ' on other tokens'} covering no whole key "
                         "token dropped")
        warnings.append(f"{response.path or 'response'}: document {key.name!r}: "
                        + "; ".join(parts))
    return projected


def _whole(mention: Mention, per_token: list[list[int]], sizes: list[int]) -> bool:
    covered: dict[int, int] = {}
    for position in mention.tokens:
        for key_token in per_token[position]:
            covered[key_token] = covered.get(key_token, 0) + 1
    return all(count == sizes[token] for token, count in covered.items())


def _key_tokens(mention: Mention, response: Document, per_token: list[list[int]],
                sizes: list[int], cut_tokens: str) -> tuple[int, ...]:
    covered: dict[int, int] = {}
    for position in mention.tokens:
        if position >= len(per_token):
            raise DocumentMismatchError(
                f"mention at token {position + 1} is beyond the document's "
                f"{len(per_token)} tokens", path=response.path, line=response.line)
        for key_token in per_token[position]:
            covered[key_token] = covered.get(key_token, 0) + 1
    if not covered and response.nodes is not None and all(
            response.nodes.empty[position] for position in mention.tokens):
        position = mention.tokens[0]
        raise DocumentMismatchError(
            f"document {response.name!r}: the response's empty node "
            f"{response.nodes.ids[position]} (line {response.nodes.lines[position]}) stands "
            "where the key has none; a response on other tokens is scored on the key's "
            "tokens, which give its zero mention no place (score it on the key's tokens, "
            "without --align-tokens)", path=response.path,
            line=response.nodes.lines[position] or response.line)
    if cut_tokens == "extend" or not covered:
        return tuple(sorted(covered))
    cut = [token for token, count in covered.items() if count < sizes[token]]
    if cut and cut_tokens == "refuse":
        words = " ".join(response.tokens[position] for position in mention.tokens)
        raise DocumentMismatchError(
            f"document {response.name!r}: the mention {words!r} covers part of a key token; "
            "use cut_tokens='extend' or 'shrink' (--cut-tokens) to say what it means",
            path=response.path, line=response.line)
    return tuple(sorted(token for token in covered if token not in cut))
