"""Scoring conventions: anascore's own, or another scorer's (``Options.compat``).

The default code path never asks which scorer it imitates. Where another scorer departs from
anascore's conventions (the papers', the reference scorer v8.01's), the default path calls a
*hook*. Each stage defines the hooks it calls, as a protocol in its own layer, with anascore's
own answers beside it: :class:`~anascore.selection.sides.SelectionRules`,
:class:`~anascore.matching.MatchingRules`,
:class:`~anascore.comparison.contingency.ComparisonRules` and
:class:`~anascore.metrics.rules.MetricRules`. A :class:`Conventions` object answers all of them,
and the pipeline's :meth:`Conventions.document` step besides; the pipeline chooses it once per
run from ``options.compat`` (:func:`conventions`) and hands it down: to ``select_side``, to the
matching, and through the document's ``Comparison`` to the metrics. No stage below this layer
looks the conventions up, or imports this package.

The base class is anascore's own conventions: every stage's defaults, each leaving the default
path as it is. :class:`anascore.compat.ua_scorer.UAConventions` (``compat="ua"``) overrides them
and holds every departure of the UA scorer 2.0 and the CorefUD scorer 1.2 that anascore
reproduces, in one module, in the order of ``docs/differences-ua.md`` ("What ``compat="ua"``
reproduces").

A hook returns ``None`` where anascore's default path has nothing to replace (the caller then
takes its own), or the value the default path would use. The mode's module is imported at the
first run that asks for it, so a default run never loads it.
"""

from __future__ import annotations

from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING

from anascore.comparison.contingency import ComparisonDefaults
from anascore.metrics import metric_for
from anascore.metrics.rules import MetricDefaults
from anascore.selection.sides import SelectionDefaults

if TYPE_CHECKING:
    from anascore.config.options import Options
    from anascore.core.model import Document
    from anascore.metrics.base import Metric


class Conventions(SelectionDefaults, ComparisonDefaults, MetricDefaults):
    """anascore's own conventions: every stage's hooks (selection, matching, the comparison,
    the metrics), each leaving the default path as it is, and the document step. Subclasses
    override the hooks of the departures they reproduce."""

    #: The ``compat`` mode (``Options.compat``).
    name = "none"

    def document(self, document: Document) -> Document:
        """A document as this mode reads it, before anything is checked or counted (the
        pipeline's first step on a document read)."""
        return document


#: The module of each ``compat`` mode's conventions (its ``CONVENTIONS``).
MODULES: dict[str, str] = {"ua": "anascore.compat.ua_scorer"}


@cache
def conventions_named(mode: str) -> Conventions:
    """The conventions of ``compat=mode`` (imported on first use)."""
    module = MODULES.get(mode)
    if module is None:
        return Conventions()
    conventions: Conventions = import_module(module).CONVENTIONS
    return conventions


def conventions(options: Options) -> Conventions:
    """The conventions a run with ``options`` scores in."""
    return conventions_named(options.compat)


def metric_in_conventions(name: str, options: Options | None) -> Metric:
    """The metric ``name`` as a run with ``options`` counts and scores it: configured, in the
    conventions of ``options.compat`` (:func:`anascore.metrics.metric_for` given
    :func:`conventions`; ``None``: the registered metric). For the layers above this one
    that know a run by its options (statistics, reports)."""
    if options is None:
        return metric_for(name, None)
    return metric_for(name, options, conventions(options))


__all__ = ["MODULES", "Conventions", "conventions", "conventions_named",
           "metric_in_conventions"]
