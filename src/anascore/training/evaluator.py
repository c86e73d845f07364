"""Scoring inside a training loop, from clusters in memory.

:class:`CorefEvaluator` is a drop-in for the ``CorefEvaluator`` of e2e-coref's ``metrics.py``,
which most neural coreference repositories copy: ``update(predicted, gold,
mention_to_predicted, mention_to_gold)``, ``get_f1()``, ``get_precision()``, ``get_recall()``,
``get_prf()`` (the mean over MUC, B³ and CEAFe) and ``evaluators`` (one per metric, each with
its own ``get_prf``, ``get_counts`` and ``p_num`` … ``r_den``), and Maverick's metric names
(``get_prf("b_cubed")``, ``get_prf("conll2012")``). Code written for e2e's runs unchanged,
and gets the numbers ``anascore score`` gives for the same clusters written to files — the
reference scorer's, singletons as the options say — where e2e's copy skips single-mention
clusters in B³ and CEAFe (``docs/e2e-evaluator.md`` works an example through).
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

import numpy as np

from anascore.config.capabilities import CLUSTERS
from anascore.config.options import (
    FILE_SETTINGS,
    STATISTICS_SETTINGS,
    UNIT_SETTINGS,
    Options,
    refuse_unused,
)
from anascore.core.errors import AnascoreError, OptionsError
from anascore.core.float_sums import sum_in_order
from anascore.core.model import Document, Entity, Mention, SpanTokens
from anascore.metrics.scores import AverageScore, RecallPrecisionResult, Score
from anascore.scoring.document import count_document
from anascore.stats.count_table import CountTable
from anascore.stats.metric_suite import MetricSuite
from anascore.stats.sums import scores_from_counts

Span = tuple[int, int]
Clusters = Iterable[Iterable[Span]]


#: The default of ``update``'s arguments, told apart from ``None`` (which is refused as
#: clusters, in words).
_MISSING: Any = object()


class PRF(NamedTuple):
    """Precision, recall, F1 — in the order e2e-coref's ``get_prf`` returns them."""

    precision: float
    recall: float
    f1: float


#: The longest mention a span may give: a mention holds its token positions, so a span of a
#: billion tokens (a wrong end) would exhaust memory before anything could say so.
LONGEST_MENTION = 100_000


def clusters_to_document(clusters: Clusters, name: str = "document") -> Document:
    """A document from clusters of ``(start, end)`` token spans, both ends **inclusive**.

    Each cluster is a list of spans (or an integer array or tensor of shape ``(k, 2)``), each
    span two whole numbers (Python or numpy integers, 0-d integer tensors) with
    ``0 <= start <= end``: anything else — a flat cluster of numbers, a span of one
    number or three, a float such as ``0.5``, a negative or reversed span, a span longer than
    :data:`LONGEST_MENTION` tokens — is an :class:`OptionsError` naming the cluster and the
    span, never truncated or guessed."""
    if (isinstance(clusters, str | bytes | dict) or not isinstance(clusters, Iterable)
            or getattr(clusters, "ndim", 1) == 0):
        raise OptionsError(f"clusters must be a list of clusters, not {type(clusters).__name__}")
    entities = []
    spans = SpanTokens()  # copies of a span share its positions
    for number, cluster in enumerate(clusters):
        if (isinstance(cluster, str | bytes | dict) or not isinstance(cluster, Iterable)
                or getattr(cluster, "ndim", 1) == 0):
            raise OptionsError(f"cluster {number} is {cluster!r}; expected a list of "
                               "(start, end) spans")
        mentions = []
        for span in cluster:
            start, end = _span(span, number, cluster)
            mentions.append(Mention.span(start, end, spans=spans))
        entities.append(Entity(str(number), tuple(mentions)))
    return Document(name=name, tokens=(), entities=tuple(entities), source_format=CLUSTERS)


def _span(span: object, number: int, cluster: object) -> tuple[int, int]:
    if type(span) is tuple and len(span) == 2 and type(span[0]) is int \
            and type(span[1]) is int:
        # Two Python ints (not bools), the common case: only the range is left to check.
        start, end = span
        return _checked_range(span, number, start, end)
    if (isinstance(span, str | bytes) or not isinstance(span, Iterable)
            or getattr(span, "ndim", 1) == 0):
        raise OptionsError(f"cluster {number} holds {span!r}, not a (start, end) span; a "
                           "cluster is a list of spans (is it flat?)")
    values = list(span)
    if len(values) != 2:
        raise OptionsError(f"span {span!r} of cluster {number} has {len(values)} "
                           f"number{'s' if len(values) != 1 else ''}; expected (start, end)")
    positions = [_position(value) for value in values]
    if None in positions:
        raise OptionsError(f"span {span!r} of cluster {number}: positions must be whole "
                           "numbers (int), not " + ", ".join(sorted({_kind(value)
                                                                     for value in values})))
    start, end = positions[0], positions[1]
    assert start is not None and end is not None
    return _checked_range(span, number, start, end)


def _checked_range(span: object, number: int, start: int, end: int) -> tuple[int, int]:
    """``(start, end)`` when ``0 <= start <= end`` and the span is not longer than
    :data:`LONGEST_MENTION`; else the error naming the span and its cluster."""
    if start < 0 or end < start:
        raise OptionsError(f"span {span!r} of cluster {number} is not (start, end) with "
                           "0 <= start <= end (ends are inclusive)")
    if end - start >= LONGEST_MENTION:
        raise OptionsError(f"span {span!r} of cluster {number} is {end - start + 1} tokens "
                           f"long; mentions of more than {LONGEST_MENTION} tokens are refused "
                           "(is its end wrong?)")
    return start, end


def _position(value: object) -> int | None:
    """A token position as a Python ``int``, or ``None`` when ``value`` is not one.

    A whole number is a Python or numpy integer, or a 0-d integer tensor (torch's, as a model
    gives it; anything with ``__index__`` and no dimensions, so this module needs no torch);
    ``bool``, a float, a tensor of floats or of more than one element are not positions."""
    if isinstance(value, bool | np.bool_) or "bool" in str(getattr(value, "dtype", "")):
        return None
    if isinstance(value, int | np.integer):
        return int(value)
    if getattr(value, "ndim", None) != 0 or not hasattr(value, "__index__"):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]  # checked by hasattr
    except TypeError:  # a 0-d float tensor has __index__ and refuses it
        return None


def _kind(value: object) -> str:
    """The type of a refused position, with its element type when it is a tensor."""
    kind = type(value).__name__
    dtype = getattr(value, "dtype", None)
    if dtype is not None and str(dtype) != kind:
        shape = tuple(getattr(value, "shape", ()))
        return f"{kind} of {dtype}" + (f" with shape {shape}" if shape else "")
    return kind


class CorefEvaluator:
    """Accumulates per-document counts from in-memory clusters.

    >>> evaluator = CorefEvaluator()
    >>> evaluator.update(predicted_clusters=[[(0, 1), (5, 5)]], gold_clusters=[[(0, 1), (5, 5)]])
    >>> evaluator.get_conll_f1()
    1.0

    Counts add up, so evaluators filled in different processes combine with :meth:`merge`.
    """

    def __init__(self, *, metrics: str | Iterable[str] | None = None,
                 keep_singletons: bool | None = None, **settings: Any) -> None:
        self.options = Options.create(metrics=metrics, keep_singletons=keep_singletons,
                                      **settings)
        refuse_unused(self.options, STATISTICS_SETTINGS + FILE_SETTINGS,
                      "clusters scored in memory are only counted and summed (no intervals, "
                      "tests, files or processes); leave it out, or score files with "
                      "anascore.score or anascore.compare")
        refuse_unused(self.options, UNIT_SETTINGS,
                      "clusters scored in memory are counted document by document, never "
                      "joined by topic or corpus; leave it out, or score documents with "
                      "anascore.score_documents or files with anascore.score")
        self.warnings: list[str] = []
        self.suite = MetricSuite.of(self.options)
        self._table = CountTable(self.suite)

    def update(self, predicted: Clusters = _MISSING, gold: Clusters = _MISSING,
               mention_to_predicted: Mapping[Any, Any] | None = None,
               mention_to_gold: Mapping[Any, Any] | None = None, *,
               predicted_clusters: Clusters = _MISSING,
               gold_clusters: Clusters = _MISSING) -> None:
        """Add one document, given as clusters of inclusive ``(start, end)`` spans.

        The arguments are e2e-coref's, by position or by name (``predicted=``, ``gold=``,
        ``mention_to_predicted=``, ``mention_to_gold=``); ``predicted_clusters=`` and
        ``gold_clusters=`` are anascore's own names for the first two.
        ``mention_to_predicted`` and ``mention_to_gold`` are e2e-coref's maps from each
        mention to its cluster; they say nothing the clusters do not, so they are only
        checked: a mention mapped to a cluster that does not hold it, or a clustered mention
        missing from the map, is an error (it means the two were built from different
        clusters). A mention repeated in several clusters may be mapped to any of them (the
        e2e-coref way of building the map keeps the last); the clusters are scored as
        without the maps, the mention once, with the warning that says so."""
        predicted = _one_of(predicted, predicted_clusters, "predicted")
        gold = _one_of(gold, gold_clusters, "gold")
        for clusters, mapping, side in ((predicted, mention_to_predicted, "predicted"),
                                        (gold, mention_to_gold, "gold")):
            if mapping is not None:
                listed: list[list[Any]] = [list(cluster) for cluster in clusters]
                _check_mention_map(listed, mapping, side)
                if side == "predicted":
                    predicted = listed
                else:
                    gold = listed
        name = f"document {len(self._table)}"
        self._table.append(name, count_document(
            clusters_to_document(gold, name),
            clusters_to_document(predicted, name), self.options, self.warnings))

    @property
    def counts(self) -> dict[str, np.ndarray]:
        """The summed counts of every metric (plain arrays, to send between processes)."""
        if not len(self._table):
            return {name: np.zeros(0) for name in self.options.computed_metrics}
        return self._table.sums()

    @property
    def document_counts(self) -> list[dict[str, np.ndarray]]:
        """Every document's counts, in update order."""
        return self._table.rows()

    def merge(self, other: CorefEvaluator) -> None:
        """Add the documents another evaluator (with the same options) has seen."""
        if not isinstance(other, CorefEvaluator):
            raise OptionsError(f"merge takes another CorefEvaluator, not "
                               f"{type(other).__name__}")
        if other.options != self.options:
            raise OptionsError("cannot merge evaluators with different options")
        self._table.extend(other._table)
        self.warnings.extend(other.warnings)

    def reset(self) -> None:
        self._table = CountTable(self.suite)
        self.warnings.clear()

    def _check_scored(self) -> None:
        """Nothing scored yet is an error for every score, not zeros: a score of 0 would be
        a number no document gave (an evaluation loop that fed no batch); the torchmetrics
        metric's ``compute`` says the same."""
        if not len(self._table):
            raise AnascoreError("no document scored yet; call update() first")

    def scores(self) -> dict[str, Any]:
        """The corpus score of every reported metric over the documents so far, by name (as
        ``Report.metrics`` gives them for the same documents in files)."""
        self._check_scored()
        return self.suite.scores(self.counts)

    def get_prf(self, metric: str = "conll") -> PRF:
        """``(precision, recall, f1)`` of a metric over every document so far (the CoNLL
        average gives the mean of MUC, B³ and CEAFe for each); an error before any
        :meth:`update`, as :meth:`scores`. Maverick's names are taken too
        (``"b_cubed"``, ``"conll2012"``: :data:`E2E_METRIC_NAMES`)."""
        metric = E2E_METRIC_NAMES.get(metric, metric)
        if metric not in self.options.metrics:
            raise OptionsError(f"metric {metric!r} is not computed; "
                               f"expected one of {', '.join(self.options.metrics)}")
        self._check_scored()
        scores = self.suite.scores(self.counts, self.options.metrics)
        result = scores[metric]
        if isinstance(result, AverageScore):
            parts: list[Score] = []
            for name in result.of:
                part = scores_from_counts(self.counts, (name,))[name]
                assert isinstance(part, Score)
                parts.append(part)
            precision = sum_in_order(part.precision for part in parts) / len(parts)
            recall = sum_in_order(part.recall for part in parts) / len(parts)
            return PRF(precision, recall, result.f1)
        assert isinstance(result, RecallPrecisionResult)
        return PRF(result.precision, result.recall, result.f1)

    def get_conll_f1(self) -> float:
        """The CoNLL score: the mean F1 of MUC, B³ and CEAFe."""
        return self.get_prf("conll").f1

    # e2e-coref's names (and Maverick's, which name the metric) --------------------------------

    def get_f1(self, metric: str = "conll") -> float:
        """The mean F1 of MUC, B³ and CEAFe (the CoNLL score), as e2e-coref's ``get_f1``;
        with a metric, its F1 (Maverick's ``get_f1(metric)``)."""
        return self.get_prf(metric).f1

    def get_precision(self, metric: str = "conll") -> float:
        """The mean precision of MUC, B³ and CEAFe, as e2e-coref's ``get_precision``; with
        a metric, its precision."""
        return self.get_prf(metric).precision

    def get_recall(self, metric: str = "conll") -> float:
        """The mean recall of MUC, B³ and CEAFe, as e2e-coref's ``get_recall``; with a
        metric, its recall."""
        return self.get_prf(metric).recall

    def __len__(self) -> int:
        return len(self._table)

    # In a notebook (anascore.report.notebook): a line, a table, a DataFrame -----------------

    def __repr__(self) -> str:
        from anascore.config.presets import describe_mode
        from anascore.report.notebook import f1_summary

        if not len(self._table):
            return f"CorefEvaluator(no document yet; {describe_mode(self.options)})"
        documents = f"{len(self)} document{'s' if len(self) != 1 else ''}"
        said = f"; {len(self.warnings)} warnings" if self.warnings else ""
        return (f"CorefEvaluator({documents}; {describe_mode(self.options)}: F1 "
                f"{f1_summary(self.scores())}{said})")

    def _repr_html_(self) -> str:
        """The scores so far as a small table (a notebook shows it)."""
        from anascore.config.presets import describe_mode
        from anascore.report.notebook import html_table, score_cells

        if not len(self._table):
            return html_table(f"no document yet; {describe_mode(self.options)}", [], [])
        return html_table(f"{len(self)} documents; {describe_mode(self.options)}",
                          ["recall", "precision", "F1"],
                          [(name, score_cells(score)) for name, score in self.scores().items()])

    def to_dataframe(self) -> Any:
        """The scores so far as a pandas DataFrame (the ``pandas`` extra): a row per metric
        with recall, precision and F1 (fractions; NaN where not applicable)."""
        from anascore.report.notebook import dataframe, score_record

        return dataframe({name: score_record(score) for name, score in self.scores().items()},
                         ["metric"])

    @property
    def evaluators(self) -> list[MetricView]:
        """One view per metric of the CoNLL score (MUC, B³, CEAFe, in e2e-coref's order),
        each with ``get_prf``, ``get_f1``, ``get_precision`` and ``get_recall``."""
        return [MetricView(self, name) for name in ("muc", "bcub", "ceafe")]


#: The metric names of e2e-coref's functions (``muc``, ``b_cubed``, ``ceafe``, ``lea``) and
#: Maverick's CoNLL average (``conll2012``), as anascore's.
E2E_METRIC_NAMES = {"b_cubed": "bcub", "conll2012": "conll"}
_E2E_NAMES = {value: key for key, value in E2E_METRIC_NAMES.items()}


class MetricName(str):
    """A metric's anascore name (``"bcub"``) that also answers ``__name__`` with e2e-coref's
    name for it (``"b_cubed"``): e2e's ``Evaluator.metric`` is the metric function, and
    code written for it logs ``evaluator.metric.__name__``."""

    __slots__ = ()

    @property
    def __name__(self) -> str:  # type: ignore[override]  # a str has no __name__ to override
        return _E2E_NAMES.get(str(self), str(self))


class MetricView:
    """One metric of a :class:`CorefEvaluator`, shaped like e2e-coref's per-metric
    ``Evaluator``: ``get_prf``, ``get_counts`` and the counts ``p_num``, ``p_den``, ``r_num``
    and ``r_den`` (the reference scorer's numerators and denominators, summed over the
    documents so far; zeros before any)."""

    def __init__(self, evaluator: CorefEvaluator, metric: str) -> None:
        self.evaluator = evaluator
        self.metric = MetricName(metric)

    def get_prf(self) -> PRF:
        return self.evaluator.get_prf(self.metric)

    def get_f1(self) -> float:
        return self.get_prf().f1

    def get_precision(self) -> float:
        return self.get_prf().precision

    def get_recall(self) -> float:
        return self.get_prf().recall

    def get_counts(self) -> tuple[float, float, float, float]:
        """``(p_num, p_den, r_num, r_den)``, in the order of e2e-coref's ``get_counts``."""
        if not len(self.evaluator):
            return 0.0, 0.0, 0.0, 0.0
        score = scores_from_counts(self.evaluator.counts, (str(self.metric),))[self.metric]
        assert isinstance(score, Score)
        return (score.precision_num, score.precision_den, score.recall_num, score.recall_den)

    @property
    def p_num(self) -> float:
        return self.get_counts()[0]

    @property
    def p_den(self) -> float:
        return self.get_counts()[1]

    @property
    def r_num(self) -> float:
        return self.get_counts()[2]

    @property
    def r_den(self) -> float:
        return self.get_counts()[3]

    def __repr__(self) -> str:
        return f"MetricView({str(self.metric)!r})"


def _one_of(e2e: Clusters, anascore: Clusters, side: str) -> Clusters:
    """The clusters given as ``predicted``/``gold`` (e2e-coref's name) or as
    ``predicted_clusters``/``gold_clusters`` (anascore's), exactly one of the two."""
    if (e2e is _MISSING) == (anascore is _MISSING):
        raise OptionsError(f"update takes the {side} clusters once: as {side}= (or by "
                           f"position) or as {side}_clusters=, "
                           + ("not both" if e2e is not _MISSING else "and they are missing"))
    return e2e if e2e is not _MISSING else anascore


def _check_mention_map(clusters: list[list[Any]], mapping: Mapping[Any, Any],
                       side: str) -> None:
    """e2e-coref's mention → cluster map agrees with the clusters: every clustered mention is
    mapped to a cluster that holds it (one of them, for a mention repeated in several)."""
    holders: dict[Any, list[set[Any]]] = {}
    for cluster in clusters:
        members = {_key(span) for span in cluster}
        for key in members:
            holders.setdefault(key, []).append(members)
    # Every mention of a cluster maps to the same cluster object (e2e-coref's maps do): its
    # keys are read once per object, not once per mention (which made the check quadratic in
    # a cluster's size). The object is kept beside its keys, so that its id cannot be reused
    # by another while the check runs (a map may build a new cluster at each lookup).
    read: dict[int, tuple[Any, set[Any]]] = {}
    for number, cluster in enumerate(clusters):
        for span in cluster:
            key = _key(span)
            if key not in mapping:
                raise OptionsError(f"mention {key} of {side} cluster {number} is missing from "
                                   f"mention_to_{side}; expected every clustered mention")
            target = mapping[key]
            known = read.get(id(target))
            if known is None:
                known = read[id(target)] = (target, {_key(other) for other in target})
            mapped = known[1]
            if not any(mapped == members for members in holders[key]):
                raise OptionsError(f"mention_to_{side} maps {key} to a cluster other than "
                                   f"{side} cluster {number}; the map and the clusters "
                                   "disagree")


def _key(span: Any) -> tuple[Any, ...]:
    """A span as a map's key: its positions as Python ints where they are whole numbers (a
    model's clusters may hold tensors, whose hash is their identity, and its map ints)."""
    if type(span) is tuple and len(span) == 2 and type(span[0]) is int \
            and type(span[1]) is int:
        return span  # two Python ints (not bools): the key is the span itself
    values = tuple(span) if isinstance(span, Iterable) else (span,)
    positions = tuple(_position(value) for value in values)
    return values if None in positions else positions
