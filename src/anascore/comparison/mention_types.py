"""Mention types — name, nominal, pronoun, zero — for the linguistically aware metrics.

Chen & Ng 2013 (§3.1) weigh a coreference link by the types of its two mentions (a name is more
informative than a nominal, a nominal than a pronoun); Žitkus et al. 2023 (§4.2) rank the
mentions of an entity by type to find its dominant mention. Both need the type of every
mention, which most coreference formats do not state. A mention's type is taken, in order:

1. from the mention's ``mention_type`` attribute (:data:`MENTION_TYPE_ATTRIBUTE`, one of
   :data:`MENTION_TYPES`), for formats that carry mention attributes;
2. from the universal part of speech of its head (``Document.token_columns["upos"]`` at
   ``Mention.head``; CoNLL-U readers): :func:`type_from_upos`;
3. from the OntoNotes part-of-speech and named-entity columns of its tokens
   (``Document.token_columns["pos"]``, ``["ner"]``; CoNLL-2012 ``*_conll`` files):
   :func:`type_from_ptb`;
4. from ``Options.mention_type_function(mention, document)``, a function the caller supplies.

A response mention aligned with a key mention takes the key mention's type: the type is a fact
of the text, and the key is the gold annotation of it. A response mention with no key twin
takes its own (steps 1–4 on the response document, and steps 2–3 on the key document, whose
tokens are the same text). When none of these can tell, :func:`comparison_types` raises an
:class:`~anascore.core.errors.OptionsError` naming the file, the document and the mention: anascore
never guesses a type silently.

``zero`` (a dropped pronoun, an empty node of CoNLL-U) is its own type so that dominant
mentions can rank ellipses (Žitkus et al. §4.2); Chen & Ng's rules have no zero type, and
weigh a zero as a pronoun (their Rule 3: a link with neither a name nor a nominal).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from anascore.comparison.contingency import Comparison
from anascore.core.errors import FormatError, OptionsError
from anascore.core.model import Document, Mention
from anascore.selection.sides import Side

NAME, NOMINAL, PRONOUN, ZERO = "name", "nominal", "pronoun", "zero"
#: The mention types, in the order of their codes (0 … 3).
MENTION_TYPES: tuple[str, ...] = (NAME, NOMINAL, PRONOUN, ZERO)
CODE: dict[str, int] = {name: code for code, name in enumerate(MENTION_TYPES)}
#: The mention attribute that states a mention's type in the input (step 1 above).
MENTION_TYPE_ATTRIBUTE = "mention_type"

#: OntoNotes named-entity labels of names; the others (DATE, TIME, PERCENT, MONEY, QUANTITY,
#: ORDINAL, CARDINAL) label numbers and dates, not names.
NAME_ENTITY_LABELS = frozenset({
    "PERSON", "NORP", "FAC", "ORG", "GPE", "LOC", "PRODUCT", "EVENT", "WORK_OF_ART", "LAW",
    "LANGUAGE",
})
_PTB_PRONOUNS = frozenset({"PRP", "PRP$", "WP", "WP$", "WDT"})
#: One-token mentions with these tags are pro-forms: demonstratives ("this", "that"), the
#: existential and pro-adverbs ("there", "here", "then", "now").
_PTB_PRO_FORMS = frozenset({"DT", "EX", "RB", "WRB", "PDT"})
_PTB_NOUNS = frozenset({"NN", "NNS", "NNP", "NNPS", "PRP", "CD", "FW"})
#: Tokens that end the part of a noun phrase its head belongs to: prepositions, relative
#: clauses, punctuation, verbs ("the city of Jerusalem", "the man who came").
_PTB_POSTMODIFIER_STARTS = frozenset({
    "IN", "TO", "WDT", "WP", "WP$", "WRB", ",", ":", "-LRB-", "(", "``", "''", "MD",
    "VB", "VBD", "VBG", "VBN", "VBP", "VBZ",
})
_UPOS_PRONOUNS = frozenset({"PRON", "DET", "ADV"})
#: Cells that hold no tag: a column of these (LitBank's CoNLL files fill every column but the
#: word and the coreference with ``_``) tells nothing, and a mention whose tokens all have one
#: is typed by the next source, never by default.
_NO_TAG = frozenset({"_", "-", ""})
_UPOS_NAMES = frozenset({"PROPN"})


def type_from_upos(upos: str, *, empty_node: bool = False) -> str:
    """The type of a mention whose head has universal part of speech ``upos``.

    An empty node (the head of a zero mention in CoNLL-U) is ``zero``; ``PROPN`` is a name;
    ``PRON``, and ``DET`` and ``ADV`` as heads (demonstratives, "here", "there"), are
    pronouns; every other head (``NOUN``, ``NUM``, ``ADJ``, a verb heading an event mention)
    makes a nominal.

    >>> type_from_upos("PROPN"), type_from_upos("NOUN"), type_from_upos("PRON")
    ('name', 'nominal', 'pronoun')
    >>> type_from_upos("PRON", empty_node=True)
    'zero'
    """
    if empty_node:
        return ZERO
    if upos in _UPOS_NAMES:
        return NAME
    if upos in _UPOS_PRONOUNS:
        return PRONOUN
    return NOMINAL


def ptb_head(tags: Sequence[str]) -> int:
    """The index, within a mention, of its head by the part-of-speech tags alone.

    Without a parse tree: the head is the last noun (or personal pronoun, number) before the
    first post-modifier (a preposition, a relative pronoun, punctuation, a verb) that is not
    the mention's first token; without a noun there, the last token before it. The possessor
    of a possessive ("Obama 's mother", "your enemies") comes before the head, so it is
    passed over.

    >>> ptb_head(["DT", "NN", "IN", "NNP"])  # the city of Jerusalem
    1
    >>> ptb_head(["DT", "PRP$", "NNS"])  # all your people
    2
    """
    end = len(tags)
    for index in range(1, len(tags)):
        if tags[index] in _PTB_POSTMODIFIER_STARTS:
            end = index
            break
    for index in range(end - 1, -1, -1):
        if tags[index] in _PTB_NOUNS:
            return index
    return end - 1


def type_from_ptb(tags: Sequence[str], entity_labels: Sequence[str | None]) -> str:
    """The type of a mention from its tokens' Penn Treebank tags and named-entity labels
    (OntoNotes CoNLL-2012 columns 5 and 11; ``None``: outside a named entity).

    * ``zero``: every token is a trace or dropped argument (``-NONE-``);
    * ``pronoun``: the head is a pronoun (``PRP``, ``PRP$``, ``WP``, ``WP$``, ``WDT``), or the
      mention is one pro-form token (a demonstrative ``DT``, ``EX``, a pro-adverb ``RB``,
      ``WRB``: "this", "there", "now");
    * ``name``: the head is a proper noun (``NNP``, ``NNPS``) or lies in a named entity of a
      name label (:data:`NAME_ENTITY_LABELS`: PERSON, ORG, GPE, …, not DATE or CARDINAL);
    * ``nominal``: every other mention.

    Limits: a head found without a parse can be wrong in long noun phrases (coordinations,
    appositions), and a common noun inside a name ("the Supreme Court") counts as a name
    only when the named-entity column covers it.

    >>> type_from_ptb(["NNP"], ["PERSON"]), type_from_ptb(["DT", "NN"], [None, None])
    ('name', 'nominal')
    >>> type_from_ptb(["PRP$"], [None]), type_from_ptb(["RB"], [None])
    ('pronoun', 'pronoun')
    """
    if all(tag == "-NONE-" for tag in tags):
        return ZERO
    if len(tags) == 1 and tags[0] in _PTB_PRO_FORMS:
        return PRONOUN
    head = ptb_head(tags)
    if tags[head] in _PTB_PRONOUNS:
        return PRONOUN
    if tags[head] in ("NNP", "NNPS") or entity_labels[head] in NAME_ENTITY_LABELS:
        return NAME
    return NOMINAL


def entity_label_at(column: Sequence[str], position: int) -> str | None:
    """The named-entity label of token ``position`` in an OntoNotes named-entity column
    (``(PERSON*``, ``*``, ``*)``, ``(GPE)``), ``None`` outside named entities. Named entities
    do not nest, so the label is that of the nearest opening at or before the token, unless an
    entity closes between them.

    >>> column = ["(PERSON*", "*)", "*", "(GPE)"]
    >>> [entity_label_at(column, position) for position in range(4)]
    ['PERSON', 'PERSON', None, 'GPE']
    """
    for index in range(position, -1, -1):
        cell = column[index]
        if index < position and cell.endswith(")"):
            return None
        if cell.startswith("("):
            return cell[1:].rstrip("*)") or None
    return None


class _EntityLabels:
    """The named-entity labels of a mention's tokens, looked up only where asked."""

    def __init__(self, column: Sequence[str], tokens: Sequence[int]) -> None:
        self.column, self.tokens = column, tokens

    def __getitem__(self, index: int) -> str | None:
        return entity_label_at(self.column, self.tokens[index])


@dataclass(frozen=True)
class ComparisonTypes:
    """The type codes (indices into :data:`MENTION_TYPES`) of a comparison's key and response
    mentions, parallel to ``Side.mentions``."""

    key: np.ndarray
    response: np.ndarray


class _TypeSource:
    """What one document can say about the types of its mentions (steps 1–4)."""

    def __init__(self, document: Document | None, function: object) -> None:
        self.document = document
        columns = document.token_columns if document is not None else {}
        self.upos = columns.get("upos")
        self.empty = columns.get("empty_node")
        self.tags = columns.get("pos")
        self.ner = columns.get("ner")
        self.function = function

    def from_attribute(self, mention: Mention) -> str | None:
        value = mention.attributes.get(MENTION_TYPE_ATTRIBUTE)
        if value is None:
            return None
        value = value.strip().lower()
        if value not in CODE:
            document = self.document
            raise FormatError(
                f"mention {mention} has {MENTION_TYPE_ATTRIBUTE}={value!r}; expected one of "
                f"{', '.join(MENTION_TYPES)}",
                path=document.path if document is not None else None, line=mention.line)
        return value

    def from_columns(self, mention: Mention) -> str | None:
        if self.upos is not None and mention.head is not None:
            empty = self.empty is not None and self.empty[mention.head] not in _NO_TAG | {"0"}
            upos = self.upos[mention.head]
            if empty or upos not in _NO_TAG:
                return type_from_upos(upos, empty_node=empty)
        if self.tags is not None and self.ner is not None:
            tokens = mention.tokens
            tags = [self.tags[token] for token in tokens]
            if any(tag not in _NO_TAG for tag in tags):
                return type_from_ptb(tags, _EntityLabels(self.ner, tokens))  # type: ignore[arg-type]
        return None

    def from_function(self, mention: Mention) -> str | None:
        if self.function is None or self.document is None:
            return None
        value = self.function(mention, self.document)  # type: ignore[operator]
        if value is None:
            return None
        if value not in CODE:
            raise OptionsError(f"mention_type_function returned {value!r} for mention "
                               f"{mention}; expected one of {', '.join(MENTION_TYPES)} or None")
        return str(value)


def comparison_types(comparison: Comparison, needed_by: str) -> ComparisonTypes:
    """The types of every key and response mention of ``comparison`` (computed once per
    comparison, whichever metric asks first); ``needed_by`` names the metric, for messages."""
    cached = comparison.derived.get("mention_types")
    if cached is not None:
        return cached
    function = comparison.options.mention_type_function
    key_source = _TypeSource(comparison.key.document, function)
    key_codes = _side_codes(comparison.key, range(comparison.key.mention_count),
                            [key_source], needed_by)
    response_codes = np.full(comparison.response.mention_count, -1, dtype=np.int8)
    alignment = comparison.alignment
    response_codes[alignment.response] = key_codes[alignment.key]
    twinless = np.flatnonzero(response_codes < 0).tolist()
    if twinless:
        response_source = _TypeSource(comparison.response.document, function)
        key_columns = _TypeSource(comparison.key.document, None)
        if comparison.response.document is None or comparison.key.document is None or (
                len(comparison.key.document.tokens) != len(comparison.response.document.tokens)):
            key_columns = _TypeSource(None, None)
        codes = _side_codes(comparison.response, twinless,
                            [response_source, key_columns], needed_by)
        response_codes[twinless] = codes[twinless]
    result = ComparisonTypes(key_codes, response_codes)
    comparison.derived["mention_types"] = result
    return result


def _side_codes(side: Side, indices: Sequence[int] | range, sources: list[_TypeSource],
                needed_by: str) -> np.ndarray:
    codes = np.full(side.mention_count, -1, dtype=np.int8)
    for index in indices:
        mention = side.mentions[index]
        kind = sources[0].from_attribute(mention)
        if kind is None:
            for source in sources:
                kind = source.from_columns(mention)
                if kind is not None:
                    break
        if kind is None:
            kind = sources[0].from_function(mention)
        if kind is None:
            raise _cannot_tell(side, mention, needed_by)
        codes[index] = CODE[kind]
    return codes


def _cannot_tell(side: Side, mention: Mention, needed_by: str) -> OptionsError:
    document = side.document
    where = f"document {document.name!r}: " if document is not None else ""
    return OptionsError(
        f"{where}{needed_by} needs the type (name, nominal, pronoun, zero) of every mention, "
        f"and nothing tells the type of mention {mention}: no '{MENTION_TYPE_ATTRIBUTE}' "
        "attribute, no UPOS of its head, no part-of-speech and named-entity columns (CoNLL-2012 "
        "files in the OntoNotes layout have 12 or more columns); give anascore.score() a "
        "mention_type_function, or score input that carries them",
        path=document.path if document is not None else None, line=mention.line)
