"""Scoring conventions: anascore's own, or another scorer's (``Options.compat``).

The default code path never asks which scorer it imitates. Where another scorer departs from
anascore's conventions (the papers', the reference scorer v8.01's), the default path calls a
*hook* of a :class:`Conventions` object, chosen once per run from ``options.compat`` by
:func:`conventions`. The base class is anascore's own conventions: every hook leaves the
default path as it is. :class:`anascore.compat.ua_scorer.UAConventions` (``compat="ua"``) overrides
them and holds every departure of the UA scorer 2.0 and the CorefUD scorer 1.2 that anascore
reproduces, in one module, in the order of ``docs/differences-ua.md`` ("What ``compat="ua"``
reproduces").

A hook returns ``None`` where anascore's default path has nothing to replace (the caller then
takes its own), or the value the default path would use. The mode's module is imported at the
first run that asks for it, so a default run never loads it.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

    from anascore.comparison.contingency import Comparison
    from anascore.config.options import Options
    from anascore.core.model import BridgingLink, Document, Entity, Mention
    from anascore.matching.exact import Matcher
    from anascore.matching.optimal import Pairing
    from anascore.metrics.base import Metric
    from anascore.metrics.split_antecedents import ElementTables, SetMetric
    from anascore.selection.sides import Side


class Conventions:
    """anascore's own conventions: the hooks the default path calls, each leaving it as it
    is. Subclasses override the hooks of the departures they reproduce."""

    #: The ``compat`` mode (``Options.compat``).
    name = "none"

    # -- scores ------------------------------------------------------------------------

    def metric(self, name: str, metric: Metric, options: Options) -> Metric:
        """The metric ``name`` as a run with ``options`` counts and scores it
        (:func:`anascore.metrics.metric_for`)."""
        return metric

    # -- documents as read --------------------------------------------------------------

    def document(self, document: Document) -> Document:
        """A document as this mode reads it, before anything is checked or counted."""
        return document

    # -- repeated mentions (selection, the comparison) ----------------------------------

    def keeps_every_copy(self, document: Document, options: Options) -> bool:
        """Whether a span annotated twice keeps every copy (else one,
        :mod:`anascore.selection.sides`)."""
        return False

    def copies_as_sets(self, entities: list[Entity]) -> list[Entity]:
        """With split antecedents on, the entities of a side that keeps every copy (only
        called when :meth:`keeps_every_copy`)."""
        return entities

    def warn_copies_kept(self, entities: list[Entity], document: Document, role: str,
                         warnings: list[str]) -> None:
        """Warn of the copies a side keeps (only called when :meth:`keeps_every_copy`)."""

    def comparison(self, key: Side, response: Side, options: Options) -> Comparison | None:
        """A comparison built another way than by alignment (``None``: align)."""
        return None

    # -- matching ----------------------------------------------------------------------

    def matcher(self, match: str) -> Matcher | None:
        """The matcher replacing ``MATCHERS[match]`` (``None``: that one)."""
        return None

    def mention_pairing(self) -> Pairing | None:
        """How head, partial and dependent-zero matching choose among scored pairs
        (``None``: :func:`anascore.matching.optimal.best_pairs`)."""
        return None

    # -- layers: non-referring markables, bridging --------------------------------------

    def non_referring_match(self, options: Options) -> str:
        """The matching method for non-referring markables."""
        return options.match

    def non_referring_markables(self, markables: tuple[Mention, ...]) -> tuple[Mention, ...]:
        """The non-referring markables scored."""
        return markables

    def bridging_links(self, links: tuple[BridgingLink, ...]) -> tuple[BridgingLink, ...]:
        """The bridging links scored."""
        return links

    def bridging_match(self, options: Options) -> str:
        """The matching method for bridging anaphors and anchors."""
        return options.match

    def bridging_entity_test(self, comparison: Comparison) -> Callable[
            [BridgingLink, BridgingLink], bool | None] | None:
        """A test of whether a response link finds the key link's anchor entity, or
        ``None`` (anascore's); the test may answer ``None`` for a pair it leaves to
        anascore's."""
        return None

    # -- zeros -------------------------------------------------------------------------

    #: Zero mentions removed after singletons (``keep_zeros=False``), not before.
    zeros_removed_after_singletons = False

    def zero_counterparts(self, comparison: Comparison,
                          counterpart: dict[int, int]) -> dict[int, int]:
        """Key mention → its response counterpart, for the zero score."""
        return counterpart

    # -- split antecedents ---------------------------------------------------------------

    def set_metrics(self, name: str, metrics: tuple[SetMetric, ...]) -> tuple[SetMetric, ...]:
        """How metric ``name`` compares accommodated sets."""
        return metrics

    def set_pairs(self, comparison: Comparison, tables: ElementTables,
                  weights: np.ndarray) -> list[tuple[int, int]] | None:
        """The pairing of the accommodated sets (``None``: anascore's)."""
        return None


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


__all__ = ["MODULES", "Conventions", "conventions", "conventions_named"]
