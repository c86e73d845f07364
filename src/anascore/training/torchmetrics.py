"""A torchmetrics metric that gives the official coreference scores during training.

From a checkout: ``pip install torch --index-url https://download.pytorch.org/whl/cpu``
(torch's CPU build), then ``pip install '.[torch]'``. :class:`CoreferenceMetric` keeps, as its
state, the summed count vector of every metric (the additive counts of ``docs/design.md``:
numerators and denominators, a few numbers per metric), registered with
``dist_reduce_fx="sum"``. So under distributed data-parallel training each process scores its
own documents and the processes exchange a few dozen numbers when the metric is computed, never
predictions or clusters; and the result is that of :func:`anascore.score` on all the documents
together, because a corpus score is a function of the summed counts alone.

>>> metric = CoreferenceMetric(metrics="muc,bcub,ceafe,conll")  # doctest: +SKIP
>>> metric.update(predicted=[[[(0, 1), (4, 4)]]], gold=[[[(0, 1), (4, 4)]]])  # doctest: +SKIP
>>> metric.compute()["conll_score"]  # doctest: +SKIP
tensor(1., dtype=torch.float64)

Counts are summed in float64. The file scorer sums them correctly rounded (``math.fsum``); a
sum in another order can differ in the last bits of a fractional count (B³, CEAFe), so scores
agree to about 1e-15, not always to the last digit.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import torch
from torchmetrics import Metric

from anascore.config.options import Options
from anascore.core.errors import AnascoreError, OptionsError
from anascore.scoring.document import count_document
from anascore.stats.metric_suite import MetricSuite
from anascore.training.evaluator import Clusters, clusters_to_document
from anascore.training.flat_scores import flatten_scores

#: Keyword arguments that configure the torchmetrics machinery, not the scoring.
_TORCHMETRICS_ARGUMENTS = frozenset({
    "compute_on_cpu", "dist_sync_on_step", "process_group", "dist_sync_fn",
    "distributed_available_fn", "sync_on_compute", "compute_with_cache",
})


class CoreferenceMetric(Metric):
    """Coreference scores (MUC, B³, CEAF, BLANC, LEA, CoNLL …) as a torchmetrics ``Metric``.

    Parameters
    ----------
    metrics
        As for :func:`anascore.score`: ``None`` (the default metrics, or the preset's),
        ``"all"``, a comma-separated string or a list of names.
    **settings
        Any setting of :func:`anascore.score` (``preset``, ``keep_singletons`` …), and the
        keyword arguments of ``torchmetrics.Metric`` (``process_group``,
        ``dist_sync_on_step`` …).
    """

    is_differentiable = False
    higher_is_better = True
    full_state_update = False

    def __init__(self, metrics: str | Iterable[str] | None = None, **settings: Any) -> None:
        machinery = {name: settings.pop(name) for name in list(settings)
                     if name in _TORCHMETRICS_ARGUMENTS}
        super().__init__(**machinery)
        from anascore.training.evaluator import CorefEvaluator

        # The evaluator resolves options exactly as every other entry point does.
        self.options: Options = CorefEvaluator(metrics=metrics, **settings).options
        self.suite = MetricSuite.of(self.options)
        # The state: the column sums of the count table (anascore.stats.count_table) of the
        # documents seen, a tensor per counted metric, which torchmetrics sums across
        # processes (a table of rows could not be synchronised as cheaply).
        self._states: dict[str, str] = {}
        for name, size in self.suite.widths:
            state = "counts_" + name.replace(".", "__")
            self.add_state(state, default=torch.zeros(size, dtype=torch.float64),
                           dist_reduce_fx="sum")
            self._states[name] = state
        self.add_state("documents", default=torch.zeros((), dtype=torch.float64),
                       dist_reduce_fx="sum")
        self.warnings: list[str] = []

    def update(self, predicted: Sequence[Clusters], gold: Sequence[Clusters]) -> None:
        """Add a batch of documents: ``predicted[i]`` and ``gold[i]`` are the clusters of
        document ``i`` (lists of inclusive ``(start, end)`` token spans). A cluster may be an
        integer tensor of shape ``(k, 2)`` and a position a 0-d integer tensor, as a model
        gives them; a tensor of floats or booleans is refused, naming its type."""
        if len(predicted) != len(gold):
            raise OptionsError(f"a batch of {len(predicted)} predicted documents and "
                               f"{len(gold)} gold documents; expected one of each per "
                               "document")
        for index, (predicted_clusters, gold_clusters) in enumerate(
                zip(predicted, gold, strict=True)):
            name = f"batch document {index}"
            counts = count_document(clusters_to_document(gold_clusters, name),
                                    clusters_to_document(predicted_clusters, name),
                                    self.options, self.warnings)
            # The document's row of the count table, added to the column sums.
            for metric, state in self._states.items():
                total = self._state(state)
                total += torch.as_tensor(counts[metric], dtype=torch.float64,
                                         device=total.device)
        self._state("documents").add_(len(gold))

    def _state(self, name: str) -> torch.Tensor:
        """A state tensor (``add_state`` makes them attributes, which typing cannot see)."""
        value = getattr(self, name)
        assert isinstance(value, torch.Tensor)
        return value

    def compute(self) -> dict[str, torch.Tensor]:
        """Flat scores of every reported metric (``{"muc_f1": …, "conll_score": …}``, as
        :func:`anascore.compute`), over every document seen by every process."""
        if float(self._state("documents")) == 0:
            raise AnascoreError("no document scored yet; call update() first")
        counts = {metric: self._state(state).detach().cpu().numpy()
                  for metric, state in self._states.items()}
        scores = self.suite.scores(counts)
        # A score that is not applicable (None) is NaN: a tensor cannot hold None.
        return {name: torch.tensor(float("nan") if value is None else value,
                                   dtype=torch.float64)
                for name, value in flatten_scores(scores).items()}
