"""Agreement between two or more annotations of the same documents: ``anascore.agreement``.

Two parts, from the modules below: Krippendorff's α over mentions (:mod:`.alpha`), read here
in one pass over every annotation's documents (paired by name and put on the first
annotation's tokens as ``score`` pairs a response with its key), and the pairwise metrics
(:mod:`.pairs`), which are ``anascore score A B`` on each pair.
"""

from __future__ import annotations

import math
import os
from collections.abc import Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from anascore.agree.alpha import (
    MISSING_DESCRIPTIONS,
    MISSING_RULES,
    DocumentCounts,
    DocumentValues,
    alpha_counts,
    check_distances,
    document_values,
)
from anascore.agree.pairs import PairAgreement, mean_f1, pair_agreements
from anascore.compat import conventions
from anascore.config.options import ENTITY_LAYERS, IDENTITY_METRICS, Options
from anascore.config.presets import describe_mode
from anascore.core.errors import DocumentMismatchError, OptionsError
from anascore.core.model import Document, Mention
from anascore.core.version import __version__
from anascore.formats.io.conllu_alignment import common_positions
from anascore.formats.io.sources import local_inputs
from anascore.report.systems import system_names
from anascore.scoring.document import prepare_response
from anascore.scoring.file_sets import document_pairs
from anascore.scoring.pipeline import PathLike, pair_documents_many, require_path
from anascore.selection.sides import layer_document, select_side
from anascore.stats.adequacy import check_resamples, interval_not_applicable
from anascore.stats.bootstrap import (
    NOT_APPLICABLE,
    Interval,
    chunk_sizes,
    percentile_interval,
    resample_weights,
)

#: Settings refused: no measure here is defined for them symmetrically (bridging's anchors,
#: split-antecedent plurals). Discourse deixis (α and the identity metrics on its chains)
#: and non-referring markables (the F1 of their identification) are measured.
LAYER_SETTINGS = {
    "keep_bridging": "bridging",
    "keep_split_antecedents": "split antecedents",
    "only_split_antecedents": "split antecedents",
}
#: How α identifies an item, for every output.
ITEMS = "mentions, identified by their tokens (exact spans, whatever --match says)"


@dataclass(frozen=True)
class Agreement:
    """Agreement of two or more annotations.

    Attributes
    ----------
    names
        The annotations' names, in the order given.
    options
        The settings (what is selected, how the pairs' mentions are matched).
    missing
        The rule for a mention an annotator lacks (:data:`~anascore.agree.alpha.MISSING_RULES`).
    document_names
        The first annotation's documents, in its order.
    counts
        Per distance, every document's numbers for α (:class:`~.alpha.DocumentCounts`);
        another layer's under ``LAYER.DISTANCE`` (``discourse_deixis.jaccard``).
    pairs
        Every pair of annotations, the earlier first (:class:`~.pairs.PairAgreement`).
    alpha_intervals
        Per distance, the bootstrap interval of α (``options.confidence``), else ``None``.
    items
        The items α is computed over (mentions).
    """

    names: tuple[str, ...]
    options: Options
    missing: str
    document_names: tuple[str, ...]
    counts: dict[str, DocumentCounts]
    pairs: tuple[PairAgreement, ...]
    warnings: tuple[str, ...] = ()
    alpha_intervals: dict[str, Interval] | None = None
    items: int = 0

    @property
    def distances(self) -> tuple[str, ...]:
        """The distances of α (each layer has them all)."""
        return tuple(name for name in self.counts if "." not in name)

    @property
    def alpha(self) -> dict[str, float]:
        """Krippendorff's α of the corpus, by distance."""
        return {name: counts.corpus_alpha() for name, counts in self.counts.items()}

    def document_alpha(self, document: str) -> dict[str, float]:
        """α of one document alone, by distance."""
        index = self._document_index[document]
        return {name: float(values[index]) for name, values in self._document_alphas.items()}

    @cached_property
    def _document_index(self) -> dict[str, int]:
        return {name: index for index, name in enumerate(self.document_names)}

    @cached_property
    def _document_alphas(self) -> dict[str, np.ndarray]:
        return {name: counts.document_alphas() for name, counts in self.counts.items()}

    def mean_f1(self, document: str | None = None) -> dict[str, float]:
        """Each metric's F1 averaged over the pairs."""
        return mean_f1(self.pairs, document)

    def pair_documents(self) -> tuple[str, ...]:
        """The documents every pair's report has (all of them, unless an annotation lacks
        some and ``key_documents_only`` let it)."""
        names = set.intersection(*(set(pair.report.document_names) for pair in self.pairs))
        return tuple(name for name in self.document_names if name in names)

    def to_dict(self) -> dict[str, Any]:
        """The JSON object ``anascore agree --output json`` prints."""
        documents = self.pair_documents()
        result: dict[str, Any] = {
            "version": __version__,
            "signature": self.options.signature(),
            "mode": describe_mode(self.options),
            "annotations": list(self.names),
            "documents": len(self.document_names),
            "missing": self.missing,
            "missing_rule": MISSING_DESCRIPTIONS[self.missing],
            "alpha_items": ITEMS,
            "items": self.items,
            "alpha": _nested({name: _number(value) for name, value in self.alpha.items()}),
        }
        if self.alpha_intervals is not None:
            result["alpha_intervals"] = _nested({
                name: {"level": self.options.confidence_level,
                       "resamples": self.options.confidence, **interval.to_dict()}
                for name, interval in self.alpha_intervals.items()})
        result["pairs"] = [pair.to_dict() for pair in self.pairs]
        if len(self.pairs) > 1:
            from anascore.agree.pairs import f1_objects

            result["pairwise_mean"] = f1_objects(self.mean_f1())
        result["per_document"] = [
            {"document": name,
             "alpha": _nested({distance: _number(value)
                               for distance, value in self.document_alpha(name).items()}),
             "pairs": [pair.to_dict(name) for pair in self.pairs] if name in documents
             else []}
            for name in self.document_names]
        result["warnings"] = list(self.warnings)
        return result


def _nested(values: dict[str, Any]) -> dict[str, Any]:
    """Values by distance, another layer's (``discourse_deixis.jaccard``) under the layer's
    name, as ``anascore score``'s JSON nests a layer's metrics."""
    result: dict[str, Any] = {}
    for name, value in values.items():
        layer, dot, distance = name.rpartition(".")
        (result.setdefault(layer, {}) if dot else result)[distance] = value
    return result


def _number(value: float) -> float | None:
    return None if math.isnan(value) else value


def agreement(annotations: Sequence[PathLike], *, names: Sequence[str] | None = None,
              distance: str | Iterable[str] | None = None, missing: str = "empty",
              format: str = "auto", match: str | None = None,
              keep_singletons: bool | None = None, **settings: Any) -> Agreement:
    """How far apart two or more annotations of the same documents are.

    Parameters
    ----------
    annotations
        Two or more files (or folders), in any format anascore reads, annotating the same
        documents on the same tokens.
    names
        A name per annotation (default: the file names).
    distance
        The set distances of α: ``"jaccard"``, ``"masi"`` (NLTK's), ``"masi-dkpro"`` (DKPro
        Statistics'), ``"binary"``, a list or comma-separated string of them (default: all).
    missing
        ``"empty"`` (a mention an annotator lacks has the empty set as value; Passonneau's
        rule) or ``"shared"`` (only the mentions every annotator has).
    format, match, keep_singletons
        As for :func:`anascore.score`; ``match`` aligns the mentions of the pairwise metrics
        (α identifies mentions by their exact spans).
    **settings
        Other :class:`~anascore.config.options.Options` fields: ``confidence`` (bootstrap resamples
        of the documents, for intervals of α and of every pair's F1), ``confidence_level``,
        ``seed``, ``keep_zeros``, ``metrics`` (identity metrics only) …

    Returns
    -------
    Agreement
        α by distance (corpus and per document), every pair's F1, their mean.
    """
    if isinstance(annotations, str | bytes | os.PathLike) or not isinstance(annotations,
                                                                              Sequence):
        raise OptionsError("annotations must be a list of two or more paths, not "
                           f"{type(annotations).__name__}")
    for number, path in enumerate(annotations, 1):
        require_path(path, f"annotation {number}")
    options = Options.create(format=format, match=match, keep_singletons=keep_singletons,
                             **settings)
    return agreement_files(annotations, options, names=names, distance=distance,
                           missing=missing)


def agreement_files(annotations: Sequence[PathLike], options: Options, *,
                    names: Sequence[str] | None = None,
                    distance: str | Iterable[str] | None = None,
                    missing: str = "empty") -> Agreement:
    """:func:`agreement` with the settings already in one :class:`Options`."""
    paths = [os.fspath(path) for path in annotations]
    if len(paths) < 2:
        raise OptionsError(f"agreement needs two or more annotations, not {len(paths)}")
    if names is None:
        names = system_names(paths)
    elif isinstance(names, str) or len(names) != len(paths):
        raise OptionsError(f"names must be a list of {len(paths)} names, one per annotation")
    if len(set(names)) != len(names):
        raise OptionsError("names must differ from each other")
    if missing not in MISSING_RULES:
        raise OptionsError(f"missing must be one of {', '.join(MISSING_RULES)}, not "
                           f"{missing!r}")
    try:
        distances = check_distances(distance)
    except ValueError as error:
        raise OptionsError(str(error)) from None
    check_agreement_options(options)
    warnings: list[str] = []
    with local_inputs(paths) as (local, inputs):
        document_names, values = read_values(local, paths, options, missing, warnings)
        pairs = tuple(pair_agreements(local, list(names), options))
    counts: dict[str, DocumentCounts] = {}
    for layer, found in values.items():
        counts.update({(f"{layer}.{name}" if layer else name): layer_counts
                       for name, layer_counts in alpha_counts(found, distances).items()})
    for pair in pairs:
        warnings.extend(pair.report.warnings)
    if inputs.names:
        warnings = [inputs.rename(warning) for warning in warnings]
    result = Agreement(tuple(names), options, missing, tuple(document_names), counts, pairs,
                       tuple(dict.fromkeys(warnings)),
                       items=sum(len(data.items) for data in values[""]))
    if options.confidence:
        intervals, reason = alpha_intervals(counts, options)
        said = list(result.warnings)
        if reason is not None:
            said.append(f"confidence intervals of alpha not applicable: {reason}")
        result = Agreement(result.names, options, missing, result.document_names, counts,
                           pairs, tuple(dict.fromkeys(said)), intervals, result.items)
    return result


def check_agreement_options(options: Options) -> None:
    """Refuse what agreement does not measure: another layer than identity coreference, a
    metric that is not an identity metric, paired tests."""
    for setting, layer in LAYER_SETTINGS.items():
        if getattr(options, setting):
            raise OptionsError(f"agreement on {layer} is not measured: no symmetric measure "
                               "is defined for it here; agreement covers identity "
                               "coreference, discourse deixis and non-referring markables")
    other = [name for name in options.metrics if name not in IDENTITY_METRICS]
    if other:
        raise OptionsError(f"agreement reports the identity metrics, whose F1 is symmetric; "
                           f"not {', '.join(other)}")
    if options.paired_bs or options.paired_ar:
        raise OptionsError("paired tests compare systems against a key; agreement has none")


def read_values(local: Sequence[str], paths: Sequence[str], options: Options, missing: str,
                warnings: list[str]) -> tuple[list[str], dict[str, list[DocumentValues]]]:
    """Every document's items and values (:func:`~.alpha.document_values`), the documents
    as :func:`aligned_documents` gives them. By layer: ``""`` identity coreference, and
    ``discourse_deixis`` when ``options`` asks for it."""
    names: list[str] = []
    layers = [""] + [layer for layer in ENTITY_LAYERS if getattr(options, layer)]
    values: dict[str, list[DocumentValues]] = {layer: [] for layer in layers}
    for documents, by_nodes in aligned_documents(local, paths, options, warnings):
        for layer in layers:
            chains: list[list[list[Hashable]] | None] = []
            for index, document in enumerate(documents):
                if document is None:
                    chains.append(None)
                    continue
                chains.append([[mention_key(mention, document, by_nodes) for mention in chain]
                               for chain in selected_chains(document, layer, options,
                                                            index, warnings)])
            values[layer].append(document_values(chains, missing))
        assert documents[0] is not None
        names.append(documents[0].name)
    return names, values


def aligned_documents(local: Sequence[str], paths: Sequence[str], options: Options,
                      warnings: list[str]) -> Iterator[tuple[list[Document | None], bool]]:
    """Each document of the files ``local`` (named ``paths`` in messages) in every
    annotation, paired by name as ``score`` pairs them, the first annotation's in its order
    (``None``: a later annotation lacks it, noted in ``warnings``), each later one checked
    against the first and put on its tokens as ``score`` puts a response on its key's; and
    whether every one is CoNLL-U (then :func:`mention_key` names a mention by its nodes)."""
    rules = conventions(options)
    ignored: list[list[str]] = [[] for _ in paths[1:]]
    for first, others in document_pairs(local[0], local[1:], options, pair_documents_many,
                                        ignored):
        first = rules.document(first)
        documents: list[Document | None] = [first]
        for path, other in zip(paths[1:], others, strict=True):
            if other is not None:
                other = rules.document(other)
            documents.append(prepare_response(first, other, path, options, warnings))
        by_nodes = all(document.nodes is not None for document in documents
                       if document is not None)
        if not by_nodes:
            documents = [first, *(None if other is None else _on_positions_of(first, other, path)
                                  for path, other in zip(paths[1:], documents[1:],
                                                         strict=True))]
        yield documents, by_nodes
    warnings[:0] = [warning for found in ignored for warning in found]


def selected_chains(document: Document, layer: str, options: Options, index: int,
                    warnings: list[str]) -> list[list[Mention]]:
    """The chains of one annotation of a document as scoring selects them (repeated mentions,
    singletons, zeros), of the identity layer (``""``) or another (``discourse_deixis``);
    ``index`` numbers the annotation in warnings."""
    role = f"annotation {index + 1}" + (f" ({layer.replace('_', ' ')})" if layer else "")
    side = select_side(layer_document(document, layer) if layer else document, options, role,
                       warnings, conventions(options))
    chains: list[list[Mention]] = [[] for _ in side.entity_ids]
    for mention, entity in zip(side.mentions, side.entity_of.tolist(), strict=True):
        chains[entity].append(mention)
    return chains


def mention_key(mention: Mention, document: Document, by_nodes: bool) -> Hashable:
    """What identifies a mention across annotations: its token positions, or in CoNLL-U
    (``by_nodes``) its nodes, sentence and node ID (``15.1`` for an empty node), the same in
    every annotation whichever empty nodes each has."""
    return _identity(mention, document) if by_nodes else mention.tokens


def _identity(mention: Mention, document: Document) -> Hashable:
    """A mention of a CoNLL-U document by its nodes (sentence and node ID, ``15.1`` for an
    empty node): the same in every annotation, whichever empty nodes each has."""
    nodes = document.nodes
    assert nodes is not None
    return tuple((nodes.sentence_of[position], nodes.ids[position])
                 for position in mention.tokens)


def _on_positions_of(first: Document, other: Document, path: str) -> Document:
    """``other`` on the first annotation's token positions, when not every annotation is
    CoNLL-U (a plain one beside one with empty nodes); refused when the first annotation
    would have to move (its positions are every annotation's items)."""
    moved_first, moved_other = common_positions(first, other)
    if moved_first is not first:
        raise DocumentMismatchError(
            f"document {first.name!r} has empty nodes the first annotation lacks; agreement "
            "needs every annotation on the first one's tokens and empty nodes", path=path)
    return moved_other


def alpha_intervals(counts: dict[str, DocumentCounts], options: Options
                    ) -> tuple[dict[str, Interval], str | None]:
    """Percentile bootstrap intervals of α per distance, documents resampled with the
    weights and seed ``score --confidence`` uses; not applicable (with the reason) where
    an interval cannot mean anything."""
    resamples, level = options.confidence, options.confidence_level
    documents = len(next(iter(counts.values())).values) if counts else 0
    reason = interval_not_applicable(documents, resamples, level)
    if reason is not None:
        return {name: Interval(NOT_APPLICABLE, NOT_APPLICABLE) for name in counts}, reason
    check_resamples(resamples, "--confidence (confidence=)", len(counts))
    rng = np.random.default_rng(options.seed)
    values: dict[str, list[np.ndarray]] = {name: [] for name in counts}
    for size in chunk_sizes(resamples, documents):
        weights = resample_weights(documents, size, rng)
        for name, found in counts.items():
            values[name].append(found.alpha(weights))
    return {name: percentile_interval(np.concatenate(found), level)
            for name, found in values.items()}, None
