"""What each input format can hold, and the refusal of settings it cannot support.

A setting that needs information the input does not have must not silently do something else
(head matching on mentions without heads used to take each mention's first token; a bridging
score on CoNLL-2012 printed rows of 0.00 as if the layer had been scored). Every entry point
counts documents through :func:`anascore.scoring.document.count_document`, which calls
:func:`check_supported` first; so the CLI, ``score``, ``compare``, ``score_documents``,
``CorefEvaluator`` and the torchmetrics metric refuse alike, with one line naming the file:

=======================  =========  =========  ==========  =========================
setting                  conll2012  jsonlines  corefud     ua
=======================  =========  =========  ==========  =========================
``match="head"``         error      error      yes         where every markable has a
                                                           head (dependency HEAD
                                                           column, or a one-token Min)
``match="partial"``      error      error      yes         as for head (key side)
``match="min"``          error      error      yes (Min)   yes (``Min``)
``keep_bridging``        error      error      yes         yes
``discourse_deixis``     error      error      error       yes
``keep_non_referring``   error      error      error       yes
``keep_split_ant…``      error      error      yes         yes
=======================  =========  =========  ==========  =========================

What each format holds is a row of :data:`anascore.config.format_catalogue.CATALOGUE`; the
sets below are derived from it. The cross-document formats (``mentionjson``, ``cattan``,
``scico``) hold what CoNLL-2012 holds, and are refused alike.

``keep_zeros=False`` and ``zero_match="linear"`` need a key or response that can hold zeros
(CorefUD, UA). ``exclusive_ends`` needs a jsonlines key or response (what it changes is how
those files are read). Clusters of spans in memory (``CorefEvaluator``, ``compute``, the
torchmetrics metric) hold what jsonlines holds, and are refused alike.

Head matching needs the head of every key and response mention, partial matching the key's
(the CorefUD scorer ignores response heads there). Documents built in Python (no format) are
checked by their content: their mentions' heads. MIN matching matches a key mention without
a MIN span by its exact span, as the UA scorer does; a key document without any is said in a
warning (:func:`min_span_warning`).
"""

from __future__ import annotations

from collections.abc import Iterable

from anascore.config import format_catalogue
from anascore.config.format_catalogue import CATALOGUE, names_where
from anascore.core.errors import OptionsError
from anascore.core.model import Document, Mention

#: The ``source_format`` of documents made of clusters of spans in memory
#: (:class:`~anascore.training.evaluator.CorefEvaluator`, ``compute``, the torchmetrics metric):
#: they
#: hold what a jsonlines file holds, mentions and nothing else.
CLUSTERS = "clusters"
#: How messages name where the documents come from, when not "FORMAT files".
_SOURCE_NAMES = {CLUSTERS: "clusters of (start, end) spans", "": "documents built in Python"}
#: The layers each format can hold, and the setting that scores each (the catalogue's).
LAYER_SETTINGS: dict[str, str] = format_catalogue.LAYER_SETTINGS
FORMAT_LAYERS: dict[str, frozenset[str]] = {
    **{facts.name: facts.layers for facts in CATALOGUE}, CLUSTERS: frozenset()}
#: Formats whose mentions can have a head, and a MIN span.
HEADED_FORMATS = names_where(lambda facts: facts.heads)
#: Formats that can hold zero mentions (CoNLL-U empty nodes).
ZERO_FORMATS = names_where(lambda facts: facts.zeros)
MIN_FORMATS = names_where(lambda facts: facts.min_spans)
#: Formats read with ``exclusive_ends`` (jsonlines).
_EXCLUSIVE_ENDS_FORMATS = names_where(lambda facts: facts.exclusive_ends)
_HOW_TO_GIVE_HEADS = {
    "ua": ("give each markable a head through the dependency HEAD column (or a one-token Min; "
           "from Python, read the file with token_columns=True)"),
    "corefud": ("give every mention its head in Entity=, or the dependency tree (HEAD) it "
                "can be worked out of"),
}


def check_supported(key: Document | None, response: Document | None, options: object) -> None:
    """An :class:`OptionsError` naming the file when ``options`` ask for what the key's or the
    response's format cannot hold (the module docstring)."""
    match = getattr(options, "match", "exact")
    if (getattr(options, "exclusive_ends", False) and key is not None and response is not None
            and not _EXCLUSIVE_ENDS_FORMATS & {key.source_format, response.source_format}):
        raise OptionsError(
            "--exclusive-ends (exclusive_ends=True) reads the span ends of jsonlines files, "
            f"and {_source(key.source_format)} have none; leave out "
            "--exclusive-ends", path=key.path, line=key.line)
    for side, document in (("key", key), ("response", response)):
        if document is None:
            continue
        format = document.source_format
        for setting, layer in LAYER_SETTINGS.items():
            if (getattr(options, setting, False) and format in FORMAT_LAYERS
                    and setting not in FORMAT_LAYERS[format]):
                flag = "--" + setting.replace("_", "-")
                raise OptionsError(
                    f"{flag} ({setting}=True) scores {layer}, which {_source(format)} cannot "
                    f"hold; score a format that has them (UA) or leave out {flag}",
                    path=document.path, line=document.line)
        if match == "min" and format and format not in MIN_FORMATS and side == "key":
            raise OptionsError(
                f"--match min aligns mentions by their MIN spans, which {_source(format)} "
                "cannot hold; use UA or CorefUD input with MIN spans, or --match exact",
                path=document.path, line=document.line)
        if match in ("head", "partial") and (side == "key" or match == "head"):
            _check_heads(document, side, match)  # a headed response is said, not refused
    _check_zero_settings(key, response, options)


def _check_zero_settings(key: Document | None, response: Document | None,
                         options: object) -> None:
    """Removing zeros, or aligning them otherwise, needs a side whose format can hold them."""
    if getattr(options, "keep_zeros", True) and getattr(options, "zero_match",
                                                        "dependent") == "dependent":
        return  # nothing about zeros changed (most runs): no flag to name
    changed = [(flag, setting) for flag, setting, given in (
        ("--remove-zeros", "keep_zeros=False", not getattr(options, "keep_zeros", True)),
        (f"--zero-match {getattr(options, 'zero_match', 'dependent')}",
         f"zero_match={getattr(options, 'zero_match', 'dependent')!r}",
         getattr(options, "zero_match", "dependent") != "dependent")) if given]
    documents = [document for document in (key, response) if document is not None]
    if not changed or not documents or any(
            not document.source_format or document.source_format in ZERO_FORMATS
            for document in documents):
        return
    flag, setting = changed[0]
    first = documents[0]
    raise OptionsError(
        f"{flag} ({setting}) is about zero mentions, which {_source(first.source_format)} "
        f"cannot hold; score CorefUD or UA input with empty nodes, or leave out "
        f"{flag.split()[0]}", path=first.path, line=first.line)


def min_span_warning(key: Document | None, options: object) -> str | None:
    """Under MIN matching, a warning for a key document none of whose mentions has a MIN span
    (GUM's files give none): each is matched by its exact span, as the UA scorer matches a
    key mention without one, so the run is exact matching under another name; else for key
    mentions whose MIN span lies outside them (real CODI-CRAC files hold thousands: LIGHT
    dev, 2,096 of its 4,124 Min values): only a response mention of exactly their span can
    match them, since a partial match must lie inside the key mention and cover its MIN.
    Kept as written, as the UA scorer reads them, but said."""
    if key is None or getattr(options, "match", "exact") != "min":
        return None
    mentions = list(_mentions(key))
    where = f"{key.path}: document {key.name!r}" if key.path else f"document {key.name!r}"
    if mentions and all(mention.min_tokens is None for mention in mentions):
        return (f"{where}: no key mention has a MIN span, so under --match min every mention "
                "is matched by its exact span")
    outside = [mention for mention in mentions if mention.min_tokens is not None
               and not set(mention.min_tokens) <= set(mention.tokens)]
    if not outside:
        return None
    first = f" (first: line {outside[0].line})" if outside[0].line is not None else ""
    return (f"{where}: {len(outside)} key mention"
            f"{'s have' if len(outside) != 1 else ' has'} a MIN span outside "
            f"{'themselves' if len(outside) != 1 else 'itself'}{first}; kept as written, "
            "so only a response mention of exactly their span matches them")


def unheaded_response_warning(response: Document | None, options: object) -> str | None:
    """Under head matching, a warning for the response mentions whose head is unknown (the
    file gives none and their words have no dependency tree to work it out of, as a mention
    covering only empty nodes): each is an unmatched response mention
    (:func:`anascore.matching.align` matches it with no key mention), counted in the
    response's mentions, so that one such mention does not refuse a whole response. A key
    mention without a head stays an error (:func:`check_supported`): the key is the
    standard. The CorefUD scorer (Udapi) heads such a mention by its first word, which
    ``--compat ua`` does too."""
    if response is None or getattr(options, "match", "exact") != "head":
        return None
    if response.source_format and response.source_format not in HEADED_FORMATS:
        return None  # refused by check_supported: the format holds no heads at all
    missing = [mention for mention in _mentions(response) if mention.head is None]
    if not missing:
        return None
    where = f"{response.path}: document {response.name!r}" if response.path else (
        f"document {response.name!r}")
    first = f" (first: line {missing[0].line})" if missing[0].line is not None else ""
    count = (f"{len(missing)} response mentions have" if len(missing) != 1
             else "1 response mention has")
    return (f"{where}: {count} no head{first}, so under --match head "
            f"{'they match' if len(missing) != 1 else 'it matches'} no key mention and "
            f"count{'' if len(missing) != 1 else 's'} as an unmatched response mention; "
            "--compat ua heads a mention by its first word, as the CorefUD scorer does")


def _check_heads(document: Document, side: str, match: str) -> None:
    mentions = list(_mentions(document))
    missing = [mention for mention in mentions if mention.head is None]
    if not missing:
        return
    format = document.source_format
    if format and format not in HEADED_FORMATS:
        raise OptionsError(
            f"--match {match} needs mention heads, and {_source(format)} give none ({side} "
            f"document {document.name!r}); use CorefUD or UA input with heads, or --match "
            "exact", path=document.path, line=document.line)
    if side == "response":
        return  # unmatched, with a warning (unheaded_response_warning)
    where = f" (first: line {missing[0].line})" if missing[0].line is not None else ""
    remedy = _HOW_TO_GIVE_HEADS.get(format, "give every mention a head")
    # --compat ua heads a CorefUD mention the file gives no head by its first word (Udapi's
    # rule); --match exact would change the official metric
    other = (", or --compat ua (the CorefUD scorer's heads: a mention's first word)"
             if format == "corefud" else ", or use --match exact")
    raise OptionsError(
        f"--match {match} needs the head of every {side} mention; {len(missing)} of the "
        f"{len(mentions)} mentions of document {document.name!r} have none{where}; "
        f"{remedy}{other}", path=document.path, line=document.line)


def _source(format: str) -> str:
    """What holds the documents of ``format``, as messages name it: ``conll2012 files``."""
    return _SOURCE_NAMES.get(format, f"{format} files")


def _mentions(document: Document) -> Iterable[Mention]:
    for entity in document.entities:
        yield from entity.mentions
