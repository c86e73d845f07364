"""In-memory scoring for model code: the flat ``compute`` dictionary and the torchmetrics
metric give the numbers ``anascore score`` gives for the same clusters written to files;
the metric's state sums across two real ``torch.distributed`` (gloo) processes."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import document_pairs

import anascore
from anascore.flat_scores import compute, flatten_scores
from anascore.formats.jsonlines import write_jsonlines
from anascore.model import Document, Entity, Mention

METRICS = "all"


def documents(pairs, side: int) -> list[Document]:
    return [Document(name=f"d{index}", tokens=tuple(f"w{i}" for i in range(tokens)),
                     sentence_starts=(0,),
                     entities=tuple(Entity(str(number), tuple(Mention.span(start, end)
                                                              for start, end in cluster))
                                    for number, cluster in enumerate(pair[side])))
            for index, (*pair, tokens) in enumerate(pairs)]


def file_scores(pairs, **options) -> anascore.Report:
    """``anascore.score`` on the clusters written to jsonlines files."""
    with tempfile.TemporaryDirectory() as folder:
        key, response = Path(folder, "key.jsonl"), Path(folder, "response.jsonl")
        write_jsonlines(documents(pairs, 0), key)
        write_jsonlines(documents(pairs, 1), response)
        return anascore.score(key, response, **options)


def test_flat_names_follow_one_rule() -> None:
    # Gold {[0,1], [3,3], [5,6]}; predicted {[0,1], [3,3]} {[5,6]}: MUC recall 1/2.
    flat = compute(predictions=[[[(0, 1), (3, 3)], [(5, 6)]]],
                   references=[[[(0, 1), (3, 3), (5, 6)]]], metrics="all")
    assert flat["muc_recall"] == 1 / 2 and flat["muc_precision"] == 1 / 1
    assert flat["muc_f1"] == 2 * (1 / 2) * 1 / (1 / 2 + 1)
    assert flat["conll_score"] == (flat["muc_f1"] + flat["bcub_f1"] + flat["ceafe_f1"]) / 3
    assert "blanc_coref_links_f1" in flat and "blanc_non_coref_links_recall" in flat
    assert not [name for name in flat if name.endswith(("_num", "_den"))]


def test_compute_refuses_text_and_unpaired_lists() -> None:
    with pytest.raises(ValueError, match="1 predictions for 2 references"):
        compute(predictions=[[]], references=[[], []])
    with pytest.raises(TypeError, match="not text"):
        compute(predictions="[[(0, 1)]]", references="[[(0, 1)]]")


@settings(max_examples=30, deadline=None)
@given(st.lists(document_pairs(), min_size=1, max_size=4))
def test_compute_equals_file_scoring(pairs) -> None:
    report = file_scores(pairs, metrics=METRICS)
    flat = compute(predictions=[response for _, response, _ in pairs],
                   references=[key for key, _, _ in pairs], metrics=METRICS)
    assert flat == flatten_scores(report.metrics)


def test_each_list_element_is_a_document() -> None:
    # HF's coval scores its input as one document; here two documents are two documents:
    # entities never link across them.
    one = [[(0, 0), (1, 1)]]
    flat = compute(predictions=[one, one], references=[one, one], metrics="muc")
    assert flat["muc_f1"] == 1.0
    merged = compute(predictions=[[[(0, 0), (1, 1)]]] * 2,
                     references=[[[(0, 0)], [(1, 1)]]] * 2, metrics="muc")
    assert merged["muc_precision"] == 0.0


torch = pytest.importorskip("torch", reason="torch is an optional extra")
pytest.importorskip("torchmetrics", reason="torchmetrics is an optional extra")
from anascore.torchmetrics import CoreferenceMetric  # noqa: E402


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
        assert float(computed[name]) == pytest.approx(value, rel=1e-14, abs=1e-15), name


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
    from anascore.torchmetrics import CoreferenceMetric

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
    import json

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
            assert result["scores"][name] == pytest.approx(value, rel=1e-14, abs=1e-15), name
