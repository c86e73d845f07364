"""The hook of split antecedents in every identity metric's count, without their machinery.

Each identity metric (MUC, B³, CEAF, BLANC, LEA) wraps its count function with
:func:`split_antecedent_counts` when its module is imported. The generalized counting itself
— comparing, aligning and crediting accommodated sets
(:mod:`anascore.metrics.split_antecedents`, :mod:`anascore.metrics.set_comparison`) — is
imported only when a document has sets to align under ``keep_split_antecedents``; a run
without split antecedents, nearly every run, never loads it (a twelfth of the start-up of a
one-document ``anascore score``). The metrics import what they compare sets with the same
way, inside the functions that use it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from anascore.comparison.contingency import Comparison

if TYPE_CHECKING:
    from anascore.metrics.set_comparison import SetMetric
    from anascore.metrics.split_antecedents import SetAlignment

#: A metric's count function: a document's comparison to its count fields.
Count = Callable[[Comparison], np.ndarray]


def has_accommodated_sets(comparison: Comparison) -> bool:
    """Whether either side of the comparison has an accommodated set (the only documents
    whose sets are aligned, and so the only ones with alignments to report)."""
    return comparison.key.accommodated is not None or comparison.response.accommodated is not None


def split_antecedent_counts(name: str, size: int, standard: Count,
                            set_metrics: Callable[[Comparison], tuple[SetMetric, ...]],
                            generalized: Callable[[Comparison, tuple[SetAlignment, ...]],
                                                  np.ndarray]) -> Count:
    """A metric's count function with split antecedents (``keep_split_antecedents``).

    ``standard`` counts a document without accommodated sets; ``set_metrics`` gives, for a
    document's options, how the metric compares sets (one :class:`SetMetric`, or one per
    separately aligned part); ``generalized`` counts with the alignments. ``size`` is the
    number of count fields.
    """

    def count(comparison: Comparison) -> np.ndarray:
        options = comparison.options
        if not options.keep_split_antecedents or not has_accommodated_sets(comparison):
            if options.only_split_antecedents:
                return np.zeros(size, dtype=np.float64)
            return standard(comparison)
        from anascore.metrics.split_antecedents import set_alignment

        alignments = tuple(set_alignment(comparison, name, metric)
                           for metric in set_metrics(comparison))
        if options.only_split_antecedents:
            counts = np.zeros(size, dtype=np.float64)
            for metric, alignment in zip(set_metrics(comparison), alignments, strict=True):
                fields = metric.split_fields or slice(None)
                assert alignment.split_counts is not None
                counts[fields] = alignment.split_counts[fields]
            return counts
        return generalized(comparison, alignments)

    count.__doc__ = standard.__doc__
    return count
