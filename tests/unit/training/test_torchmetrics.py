"""The torchmetrics metric gives the numbers ``anascore score`` gives for the same clusters
written to files; its state sums across two real ``torch.distributed`` (gloo) processes."""

from __future__ import annotations

import json
import math
import os
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import anascore
from anascore.training.flat_scores import flatten_scores
from tests.support.cluster_files import METRICS, file_scores
from tests.support.strategies import document_pairs


def agrees(computed: float, expected: float | None) -> bool:
    """A tensor's value against a flat score: NaN where the score is n/a (None)."""
    if expected is None:
        return math.isnan(computed)
    return computed == pytest.approx(expected, rel=1e-14, abs=1e-15)

torch = pytest.importorskip("torch", reason="torch is an optional extra")
pytest.importorskip("torchmetrics", reason="torchmetrics is an optional extra")
from anascore.training.torchmetrics import CoreferenceMetric  # noqa: E402


@settings(max_examples=25, deadline=None)
@given(st.lists(document_pairs(), min_size=1, max_size=5), st.integers(1, 3))
def test_metric_equals_file_scoring(pairs, batch) -> None:
    report = file_scores(pairs, metrics=METRICS)
    metric = CoreferenceMetric(metrics=METRICS)
    for start in range(0, len(pairs), batch):
        chunk = pairs[start:start + batch]
        metric.update([response for _, response, _ in chunk], [key for key, _, _ in chunk])
    computed = metric.compute()
    expected = flatten_scores(report.metrics)
    assert set(computed) == set(expected)
    for name, value in expected.items():
        assert agrees(float(computed[name]), value), name


@pytest.mark.filterwarnings("ignore:The ``compute`` method")
def test_metric_state_is_the_count_vectors() -> None:
    metric = CoreferenceMetric(metrics="muc,bcub,ceafe,conll")
    # The state: four counts per computed metric (mention identification always), summed.
    metric.update([[[(0, 1), (3, 3)]]], [[[(0, 1), (3, 3), (5, 6)]]])
    assert metric.counts_muc.tolist() == [1.0, 2.0, 1.0, 1.0]
    assert metric.counts_mentions.tolist() == [2.0, 3.0, 2.0, 2.0]
    metric.reset()
    assert metric.counts_muc.tolist() == [0.0] * 4
    with pytest.raises(anascore.AnascoreError, match="no document"):
        metric.compute()


def test_metric_settings_and_preset_resolve_as_elsewhere() -> None:
    metric = CoreferenceMetric(preset="conll12", dist_sync_on_step=False)
    assert metric.options == anascore.CorefEvaluator(preset="conll12").options


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


WORKER = textwrap.dedent("""
    import json, os, sys
    import torch.distributed as dist
    from anascore.training.torchmetrics import CoreferenceMetric

    rank = int(sys.argv[1])
    dist.init_process_group("gloo", init_method="tcp://127.0.0.1:" + sys.argv[2],
                            rank=rank, world_size=2)
    pairs = json.load(open(sys.argv[3]))
    mine = pairs[rank::2]
    synced = CoreferenceMetric(metrics="all")
    local = CoreferenceMetric(metrics="all", sync_on_compute=False)
    for metric in (synced, local):
        metric.update([response for _, response, _ in mine], [key for key, _, _ in mine])
    result = {name: float(value) for name, value in synced.compute().items()}
    alone = {name: float(value) for name, value in local.compute().items()}
    dist.destroy_process_group()
    json.dump({"scores": result, "alone": alone}, open(sys.argv[4] + str(rank), "w"))
""")


def test_two_process_gloo_run_equals_one_scoring_of_all_documents(tmp_path) -> None:
    pairs = [
        ([[(0, 1), (3, 3), (5, 6)], [(8, 8), (9, 9)]], [[(0, 1), (3, 3)], [(5, 6), (8, 8)]], 10),
        ([[(0, 0), (2, 2)]], [[(0, 0), (2, 2)], [(4, 4), (5, 5)]], 6),
        ([[(1, 2), (4, 4), (6, 6)]], [[(1, 2), (4, 4), (6, 6)]], 7),
        ([[(0, 0), (1, 1)], [(2, 2), (3, 3)]], [[(0, 0), (1, 1), (2, 2), (3, 3)]], 4),
        ([[(3, 3), (0, 1)]], [], 5),
    ]
    data, worker, out = tmp_path / "pairs.json", tmp_path / "worker.py", tmp_path / "out"
    data.write_text(json.dumps(pairs))
    worker.write_text(WORKER)
    port = str(_free_port())
    environment = {**os.environ, "OMP_NUM_THREADS": "1"}
    processes = [subprocess.Popen([sys.executable, str(worker), str(rank), port, str(data),
                                   str(out)], env=environment, stderr=subprocess.PIPE,
                                  text=True)
                 for rank in (0, 1)]
    for process in processes:
        _, error = process.communicate(timeout=120)
        assert process.returncode == 0, error
    results = [json.loads(Path(f"{out}{rank}").read_text()) for rank in (0, 1)]
    expected = flatten_scores(file_scores(
        [(key, response, tokens) for key, response, tokens in pairs],
        metrics="all").metrics)
    for result in results:
        # Without the sum across processes, each process scores only its own documents.
        assert result["alone"]["conll_score"] != pytest.approx(expected["conll_score"])
        for name, value in expected.items():
            assert agrees(result["scores"][name], value), name


def test_resampling_and_file_settings_are_refused() -> None:
    """CoreferenceMetric(confidence=1000) was accepted and did nothing."""
    with pytest.raises(anascore.OptionsError, match=r"^confidence=1000: clusters scored in "
                                                    r"memory are only counted and summed"):
        CoreferenceMetric(confidence=1000)
    # The torchmetrics machinery's own keywords are not anascore settings.
    CoreferenceMetric(dist_sync_on_step=True)


def test_integer_tensors_are_clusters_and_positions() -> None:
    # Gold {a, b} {c, d}; predicted {a, b, c}: MUC R = 1/2 (c and d split), P = 1/2.
    a, b, c, d = (0, 1), (4, 4), (6, 6), (8, 9)
    gold, predicted = [[a, b], [c, d]], [[a, b, c]]
    as_lists = CoreferenceMetric(metrics="muc,bcub,ceafe,conll")
    as_lists.update(predicted=[predicted], gold=[gold])
    expected = as_lists.compute()
    assert float(expected["muc_recall"]) == float(expected["muc_precision"]) == 0.5
    for dtype in (torch.int64, torch.int32, torch.uint8):
        # a cluster as a (k, 2) tensor; a span as two 0-d tensors
        metric = CoreferenceMetric(metrics="muc,bcub,ceafe,conll")
        metric.update(predicted=[[torch.tensor(cluster, dtype=dtype) for cluster in predicted]],
                      gold=[[[(torch.tensor(start, dtype=dtype), torch.tensor(end, dtype=dtype))
                              for start, end in cluster] for cluster in gold]])
        assert {name: float(value) for name, value in metric.compute().items()} == {
            name: float(value) for name, value in expected.items()}
    evaluator = anascore.CorefEvaluator(metrics="muc,bcub,ceafe,conll")
    evaluator.update([torch.tensor(cluster) for cluster in predicted],
                     [torch.tensor(cluster) for cluster in gold])
    assert evaluator.get_conll_f1() == float(expected["conll_score"])


@pytest.mark.parametrize(("clusters", "message"), [
    ([torch.tensor([[0.0, 1.0]])], "positions must be whole numbers (int), not Tensor of "
                                   "torch.float32"),
    ([torch.tensor([[True, True]])], "not Tensor of torch.bool"),
    ([torch.tensor([0, 1])], "cluster 0 holds tensor(0), not a (start, end) span; a cluster "
                             "is a list of spans (is it flat?)"),
    ([[(torch.tensor([0]), 1)]], "not Tensor of torch.int64 with shape (1,), int"),
    ([torch.tensor(3)], "cluster 0 is tensor(3); expected a list of (start, end) spans"),
    (torch.tensor(3), "clusters must be a list of clusters, not Tensor"),
])
def test_tensors_that_are_not_integer_positions_are_refused_in_words(clusters, message) -> None:
    metric = CoreferenceMetric()
    with pytest.raises(anascore.OptionsError) as refused:
        metric.update(predicted=[clusters], gold=[[[(0, 1)]]])
    assert message in str(refused.value)


def test_tensor_clusters_with_e2e_maps_of_ints() -> None:
    # A model's clusters as tensors, its maps keyed by int tuples (e2e-coref's way).
    predicted, gold = [torch.tensor([[0, 1], [4, 4]])], [((0, 1), (4, 4))]
    evaluator = anascore.CorefEvaluator()
    evaluator.update(predicted, gold, {(0, 1): gold[0], (4, 4): gold[0]},
                     {m: gold[0] for m in gold[0]})
    assert evaluator.get_f1() == 1.0
    with pytest.raises(anascore.OptionsError, match=r"mention \(4, 4\) of predicted cluster 0 "
                                                    "is missing from mention_to_predicted"):
        evaluator.update(predicted, gold, {(0, 1): gold[0]}, {m: gold[0] for m in gold[0]})
