"""One document through the pipeline: prepare, compare, count — the same for every entry point.

Every way anascore scores a document goes through this module, in three stages:

1. **prepare** — the response as read made comparable with its key document
   (:func:`prepare_response`: the conventions' document step, the response on the key's
   tokens, the pair checked), then the pair made countable (:func:`prepare_pair`: the
   conventions' document step on the key, what the input cannot hold refused, the
   warnings about identifiers and MIN spans, both sides on their common positions);
2. **compare** — every layer of entities selected, matched and tabulated
   (:func:`compare_pair`: the identity layer's :class:`Comparison`, with the other entity
   layers' comparisons in its ``layers``), in windows when ``options.window`` asks for them
   (:func:`document_comparisons`);
3. **count** — every computed metric's count vector of a comparison
   (:func:`count_comparison`), summed over the windows (:func:`count_document`).

File runs, the parallel workers, :func:`anascore.score_documents`, the error analysis,
grouped scores, :class:`anascore.CorefEvaluator`, the torchmetrics metric,
:func:`anascore.compute` and the lab all count here, so the error analysis classifies exactly
the comparison that the score counted. The reference scorers' conventions are looked up in
one place, :func:`document_conventions`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from functools import lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING

import numpy as np

from anascore.comparison.contingency import Comparison, compare_sides
from anascore.compat import conventions
from anascore.config.capabilities import (
    check_supported,
    min_span_warning,
    unheaded_response_warning,
)
from anascore.config.options import ENTITY_LAYERS, Options
from anascore.core.errors import OtherTokensError
from anascore.core.model import Document
from anascore.formats.io.chain_ids import id_warnings
from anascore.formats.io.conllu_alignment import check_conllu, check_same_words, common_positions
from anascore.metrics import metric_for
from anascore.metrics.split_counts import has_accommodated_sets
from anascore.selection.sides import layer_document, select_side
from anascore.selection.windows import window_pairs

if TYPE_CHECKING:
    from anascore.compat import Conventions
    from anascore.metrics.split_antecedents import SetAlignmentDetails

#: A metric's count function.
Count = Callable[[Comparison], np.ndarray]


def document_conventions(options: Options) -> Conventions:
    """The reference-scorer conventions of ``options.compat``
    (:class:`anascore.compat.Conventions`), as the pipeline applies them: the one place the
    per-document pipeline looks them up."""
    return conventions(options)


# -- 1. prepare ---------------------------------------------------------------------------

def prepare_response(key: Document, response: Document | None, response_path: str | None,
                     options: Options, warnings: list[str]) -> Document | None:
    """The response document as every entry point reads it against its key document: the
    conventions' document step on the response as read (under ``compat="ua"`` a mention
    without a given head is headed by its first word before its positions move), then on the
    key's tokens when it is on other tokens (``align_tokens``, or marked-up text:
    :func:`anascore.formats.io.token_alignment.project_onto_key`), then checked
    (:func:`check_pair`; ``response_path`` names the file in its warnings, ``None`` for
    documents in memory). A pair on other words is an error that suggests ``align_tokens``
    (``--align-tokens``), unless the response was read from mention records."""
    response = on_key_tokens(key, response, options, warnings)
    try:
        check_pair(key, response, response_path, warnings)
    except OtherTokensError as error:
        assert response is not None
        if "mentionjson" in (key.source_format, response.source_format):
            raise  # its tokens are laid out from its mentions; the error says so
        raise OtherTokensError(error.message + OTHER_TOKENS_HINT, path=error.path,
                               line=error.line) from None
    return response


#: What a pair on other words is told to try (:func:`prepare_response`; a response already
#: on the key's tokens, from ``align_tokens`` or marked-up text, has the key's words).
OTHER_TOKENS_HINT = "; for a response on other tokens, use --align-tokens"


def on_key_tokens(key: Document, response: Document | None, options: Options,
                  warnings: list[str]) -> Document | None:
    """The response on the key's tokens when it is on other tokens (``align_tokens``, or
    marked-up text): :func:`anascore.formats.io.token_alignment.project_onto_key`, after the
    conventions' document step (:meth:`anascore.compat.Conventions.document`) on the
    response as read. Unchecked: :func:`prepare_response` also checks the pair."""
    if response is None:
        return None
    response = document_conventions(options).document(response)
    if not (options.align_tokens or response.source_format == "markup"):
        return response
    from anascore.formats.io.token_alignment import project_onto_key

    return project_onto_key(key, response, options.cut_tokens, warnings)


def check_pair(key: Document, response: Document | None, response_path: str | None,
               warnings: list[str]) -> None:
    """Check a key document against its response document: ``None`` (the response lacks
    it) is scored as an empty response, with a warning, as the reference scorer does;
    the same tokens are needed (a different count is an error, different words a warning),
    and for CoNLL-U the same sentences and words
    (:func:`anascore.formats.io.conllu_alignment.check_conllu`; their empty nodes may
    differ)."""
    if response is None:
        where = f"{response_path}: " if response_path is not None else ""
        warnings.append(f"{where}document {key.name!r} of the key is missing from "
                        "the response; scored as an empty response")
    elif not check_conllu(key, response, warnings):
        check_same_words(key, response, warnings)


def prepare_pair(key: Document | None, response: Document | None, options: Options,
                 warnings: list[str]) -> tuple[Document | None, Document | None]:
    """A pair ready to compare (``None``: an empty side): the conventions' document step
    (a response from :func:`prepare_response` has had it, and it changes nothing twice),
    what the input cannot hold refused (:func:`anascore.config.capabilities.check_supported`),
    the warnings about MIN spans and entity identifiers, both sides on their common
    positions."""
    rules = document_conventions(options)
    key = None if key is None else rules.document(key)
    response = None if response is None else rules.document(response)
    check_supported(key, response, options)
    for said in (min_span_warning(key, options), unheaded_response_warning(response, options)):
        if said is not None:
            warnings.append(said)
    for role, document in (("key", key), ("response", response)):
        if document is not None:
            warnings.extend(id_warnings(document, role))
    if key is not None and response is not None:
        key, response = common_positions(key, response)
    return key, response


# -- 2. compare ---------------------------------------------------------------------------

def compare_layer(key: Document | None, response: Document | None, options: Options,
                  warnings: list[str], layer: str = "",
                  rules: Conventions | None = None) -> Comparison:
    """Select, match and tabulate one layer of one prepared pair (``layer``: its words in
    the warnings, `` (discourse deixis)``; empty for the identity layer), in the conventions
    ``rules`` (``None``: :func:`document_conventions`), which the comparison carries on to the
    metrics."""
    if rules is None:
        rules = document_conventions(options)
    key_side = select_side(key, options, "key" + layer, warnings, rules)
    response_side = select_side(response, options, "response" + layer, warnings, rules)
    return compare_sides(key_side, response_side, options, rules)


def compare_pair(key: Document | None, response: Document | None, options: Options,
                 warnings: list[str], rules: Conventions | None = None) -> Comparison:
    """Every layer of one prepared pair (a whole document or a window): the identity
    layer's comparison, with those of the other entity layers the options score in its
    ``layers``."""
    if rules is None:
        rules = document_conventions(options)
    comparison = compare_layer(key, response, options, warnings, rules=rules)
    layers = {layer: compare_layer(layer_document(key, layer), layer_document(response, layer),
                                   options, warnings, f" ({layer.replace('_', ' ')})", rules)
              for layer in ENTITY_LAYERS if getattr(options, layer)}
    if layers:
        comparison = replace(comparison, layers=MappingProxyType(layers))
    return comparison


def document_comparisons(key: Document | None, response: Document | None, options: Options,
                         warnings: list[str]) -> Iterator[Comparison]:
    """The comparisons of one document pair, prepared (:func:`prepare_pair`): one, or one
    per window with ``options.window``
    (:func:`anascore.selection.windows.window_pairs`), all in the conventions looked up
    once here."""
    rules = document_conventions(options)
    key, response = prepare_pair(key, response, options, warnings)
    for key_window, response_window in window_pairs(key, response, options):
        yield compare_pair(key_window, response_window, options, warnings, rules)


# -- 3. count -----------------------------------------------------------------------------

def count_comparison(comparison: Comparison, options: Options,
                     rules: Conventions | None = None) -> dict[str, np.ndarray]:
    """Every computed metric's count vector of one comparison, each metric counted in the
    conventions ``rules`` (``None``: :func:`document_conventions`)."""
    metrics = (_computed_metrics(options) if rules is None
               else _metrics_in(options, rules))
    return {name: count(comparison) for name, count in metrics}


def _metrics_in(options: Options, rules: Conventions) -> tuple[tuple[str, Count], ...]:
    """Every computed metric's count function under ``options``, in the conventions
    ``rules``."""
    return tuple((name, metric_for(name, options, rules).count)
                 for name in options.computed_metrics)


@lru_cache(maxsize=16)
def _counted_metrics(options: Options) -> tuple[tuple[str, Count], ...]:
    return _metrics_in(options, document_conventions(options))


def _computed_metrics(options: Options) -> tuple[tuple[str, Count], ...]:
    """:func:`_metrics_in` the run's own conventions, looked up once per run's options rather
    than once per document (nine metrics: as long as counting a small document's MUC); a
    look-up of options seen before costs a hash of their fields, about a microsecond."""
    try:
        return _counted_metrics(options)
    except TypeError:  # options that hold an unhashable value
        return _metrics_in(options, document_conventions(options))


def layer_alignment_details(comparison: Comparison) -> dict[str, SetAlignmentDetails]:
    """The alignments of split-antecedent sets each metric made in ``comparison`` (those of
    another layer of entities named ``LAYER.METRIC``: ``discourse_deixis.muc``)."""
    details = _alignment_details(comparison)
    for layer, layer_comparison in comparison.layers.items():
        details.update({f"{layer}.{name}": value
                        for name, value in _alignment_details(layer_comparison).items()})
    return details


def _alignment_details(comparison: Comparison) -> dict[str, SetAlignmentDetails]:
    """The alignments of one comparison: none without accommodated sets (the metrics align
    sets only where a side has some, :mod:`anascore.metrics.split_counts`), so that a run
    without them never imports the alignments' module."""
    if not has_accommodated_sets(comparison):
        return {}
    from anascore.metrics.split_antecedents import alignment_details

    return dict(alignment_details(comparison))


def count_document(key: Document | None, response: Document | None, options: Options,
                   warnings: list[str],
                   set_alignments: list[dict[str, SetAlignmentDetails]] | None = None,
                   ) -> dict[str, np.ndarray]:
    """Every computed metric's counts for one document (``None``: an empty side): prepared,
    compared and counted, the windows' counts summed (every entry point counts through
    here, so every one scores in windows alike).

    ``set_alignments``, when given, receives the document's alignments of split-antecedent
    sets by metric (empty when it has none), which the metrics computed anyway
    (:func:`layer_alignment_details`).
    """
    total: dict[str, np.ndarray] = {}
    details: dict[str, SetAlignmentDetails] = {}
    for comparison in document_comparisons(key, response, options, warnings):
        counts = count_comparison(comparison, options)  # in document_conventions(options)
        total = counts if not total else {name: total[name] + value
                                          for name, value in counts.items()}
        if set_alignments is not None:
            details.update(layer_alignment_details(comparison))
    if set_alignments is not None:
        set_alignments.append(details)
    return total
