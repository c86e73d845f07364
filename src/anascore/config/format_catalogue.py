"""Every fact about the input and output formats, in one table: one row per format.

What a format can hold (heads, MIN spans, zeros, layers other than identity, discontinuous
mentions, the text around mentions), whether anascore writes it, whether its reader keeps
token columns, whether the parallel workers split its files: each of these was once a set of
format names of its own, in the module that used it (the readers' registry, the refusal of
settings a format cannot support, the conversion, the chain-ID warnings, the parallel run,
the command line), and a new format had to be added to each by hand. Now they are columns of
:data:`CATALOGUE`, and those sets are derived from it (:func:`names_where`).

Why here, in ``config/`` (layer 1), and not in ``formats/`` (layer 2): the settings layer
needs these facts (:mod:`anascore.config.capabilities` refuses a setting the input cannot
support; :data:`anascore.config.options.FORMATS` lists the ``format`` choices), and a layer
imports only from below. So the table is plain data that imports nothing of anascore; the
functions — readers, writers, format detection, the lookup of a format's reader
(:func:`anascore.formats.reader`) — stay in ``formats/``, which reads this table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

#: The name of a marked-up text's document without ``# newdoc id`` (the reader's,
#: :mod:`anascore.formats.readers.markup`): it is paired with the key's document when the key
#: has exactly one. Here, with the other facts, so that pairing documents does not import
#: that reader.
UNNAMED = ""
#: The settings that score a layer other than identity, and the layer each scores (as
#: messages name it).
LAYER_SETTINGS: dict[str, str] = {
    "keep_bridging": "bridging", "discourse_deixis": "discourse deixis",
    "keep_non_referring": "non-referring markables",
    "keep_split_antecedents": "split-antecedent plurals",
}


class FormatFacts(NamedTuple):
    """What one format is and holds. The defaults are CoNLL-2012's: identity mentions of
    contiguous spans in running text, nothing else.

    A row of a constant table, so a named tuple: every command imports the table, and a
    frozen dataclass of these 19 fields took ten times as long to create (its generated
    methods are compiled at import)."""

    #: The format's name, as ``--format``, ``--to`` and ``Document.source_format`` say it.
    name: str
    #: A choice of ``--format`` and ``Options.format`` (mention-based CoNLL is CoNLL-2012,
    #: read as such: only ``read_documents(..., "mentionconll")`` names it).
    choosable: bool = True
    #: Written by a writer (``anascore convert --to``); marked-up text is read only.
    writable: bool = True
    #: Holds identity mentions and nothing else: no heads, MIN spans, empty nodes or other
    #: layers (the conversion drops the rest for it).
    identity_only: bool = True
    #: Holds a discontinuous mention.
    discontinuous: bool = False
    #: Holds the text around mentions (the mention-only formats write a document's mentions,
    #: not its other tokens, and no document without mentions).
    holds_text: bool = True
    #: Mentions can have a head.
    heads: bool = False
    #: Mentions can have a MIN span.
    min_spans: bool = False
    #: Holds zero mentions (CoNLL-U empty nodes).
    zeros: bool = False
    #: CoNLL-U based: the reader keeps the file's node IDs (empty nodes included).
    conllu: bool = False
    #: The settings of :data:`LAYER_SETTINGS` whose layer the format can hold.
    layers: frozenset[str] = frozenset()
    #: Chain IDs are strings that other scorers read by their digits (a warning says when
    #: two would merge there).
    string_ids: bool = False
    #: Chain IDs are written as integers (the Perl scorer reads only digits): others are
    #: mapped, the map written beside the output.
    integer_ids: bool = False
    #: Holds any document name as written (JSON strings).
    any_name: bool = False
    #: Holds a document without a name.
    empty_name: bool = False
    #: Its reader (and writer) take ``exclusive_ends`` and ``role``: span ends as written by
    #: systems that count them exclusively.
    exclusive_ends: bool = False
    #: Its reader keeps per-token annotation columns when asked (``token_columns=True``),
    #: and every column when converting (``all_columns=True``).
    token_columns: bool = False
    #: Its files are split between worker processes by document
    #: (:mod:`anascore.scoring.parallel`).
    parallel: bool = False


#: One row per format, in the order messages and ``--help`` list them.
CATALOGUE: tuple[FormatFacts, ...] = (
    FormatFacts("conll2012", integer_ids=True, empty_name=True, token_columns=True,
                parallel=True),
    FormatFacts("corefud", identity_only=False, discontinuous=True, heads=True,
                min_spans=True, zeros=True, conllu=True,
                layers=frozenset({"keep_bridging", "keep_split_antecedents"}),
                token_columns=True, parallel=True),
    FormatFacts("jsonlines", any_name=True, exclusive_ends=True),
    FormatFacts("ua", identity_only=False, discontinuous=True, heads=True, min_spans=True,
                zeros=True, conllu=True, layers=frozenset(LAYER_SETTINGS), token_columns=True,
                parallel=True),
    FormatFacts("markup", writable=False),
    FormatFacts("mentionjson", discontinuous=True, holds_text=False, string_ids=True,
                any_name=True),
    FormatFacts("cattan", string_ids=True),
    FormatFacts("scico", string_ids=True, any_name=True),
    FormatFacts("mentionconll", choosable=False, discontinuous=True, holds_text=False,
                integer_ids=True, empty_name=True),
)
#: The row of each format, by name.
BY_NAME: dict[str, FormatFacts] = {facts.name: facts for facts in CATALOGUE}
#: Every format's name, in catalogue order.
FORMAT_NAMES: tuple[str, ...] = tuple(BY_NAME)


def names_where(test: Callable[[FormatFacts], bool]) -> frozenset[str]:
    """The names of the formats whose row passes ``test``: ``names_where(lambda f: f.zeros)``."""
    return frozenset(facts.name for facts in CATALOGUE if test(facts))
