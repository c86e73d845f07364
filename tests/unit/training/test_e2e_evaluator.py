"""anascore's CorefEvaluator is a drop-in for e2e-coref's, with the reference scorer's
numbers; the training-loop example gives, with the e2e-style evaluator and with the
torchmetrics metric, the numbers of ``anascore score`` on the same clusters in files."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

import anascore
from anascore.core.model import Document, Entity, Mention
from anascore.formats.jsonlines import write_jsonlines
from anascore.training.flat_scores import flatten_scores
from tests.support.paths import EXAMPLES


def test_the_e2e_calls_and_the_worked_example_of_the_docs():
    # Gold {a, c} {e}; predicted {a, c} {f} (docs/e2e-evaluator.md).
    a, c, e, f = (0, 0), (2, 2), (4, 4), (5, 5)
    gold, predicted = [(a, c), (e,)], [(a, c), (f,)]
    evaluator = anascore.CorefEvaluator()
    evaluator.update(predicted, gold, {m: cl for cl in predicted for m in cl},
                     {m: cl for cl in gold for m in cl})
    muc, bcub, ceafe = (view.get_prf() for view in evaluator.evaluators)
    assert [view.metric for view in evaluator.evaluators] == ["muc", "bcub", "ceafe"]
    assert muc.f1 == 1.0
    assert bcub.recall == (2 ** 2 / 2) / 3 and bcub.precision == (2 ** 2 / 2) / 3
    assert ceafe.recall == 1 / 2 and ceafe.precision == 1 / 2
    assert evaluator.get_f1() == pytest.approx((1 + 2 / 3 + 1 / 2) / 3)
    precision, recall, f1 = evaluator.get_prf()
    assert precision == evaluator.get_precision() == pytest.approx((1 + 2 / 3 + 1 / 2) / 3)
    assert recall == evaluator.get_recall() and f1 == evaluator.get_f1()


def test_mention_maps_that_disagree_with_the_clusters_are_errors():
    evaluator = anascore.CorefEvaluator()
    gold = [((0, 0), (2, 2))]
    with pytest.raises(anascore.OptionsError, match=r"mention \(2, 2\) of predicted cluster 0 "
                                                    "is missing from mention_to_predicted"):
        evaluator.update(gold, gold, {(0, 0): gold[0]}, {m: gold[0] for m in gold[0]})
    with pytest.raises(anascore.OptionsError, match="mention_to_gold maps"):
        evaluator.update(gold, gold, {m: gold[0] for m in gold[0]},
                         {(0, 0): gold[0], (2, 2): ((2, 2),)})


def test_checking_the_mention_maps_reads_each_mapped_cluster_once(monkeypatch):
    # One cluster of 2,000 mentions, mapped as e2e-coref maps it (every mention to the one
    # cluster tuple): the check read the mapped cluster again for each of its mentions, 2,000
    # x 2,000 spans on each side (8 million positions; LitBank's clusters made update 8x
    # slower than e2e-coref's own). Each distinct mapped cluster is now read once: the spans
    # read stay linear in the mentions (the clusters twice, the mapped cluster once, per side).
    import anascore.training.evaluator as evaluator_module

    cluster = tuple((2 * number, 2 * number + 1) for number in range(2000))
    mapping = {mention: cluster for mention in cluster}
    read = []
    key = evaluator_module._key
    monkeypatch.setattr(evaluator_module, "_key", lambda span: read.append(span) or key(span))
    evaluator = anascore.CorefEvaluator(metrics="muc")
    evaluator.update([cluster], [cluster], mapping, mapping)
    assert evaluator.get_f1("muc") == 1.0
    assert len(read) == 2 * 3 * len(cluster)


def test_a_map_giving_a_new_cluster_object_at_each_lookup_is_checked_as_before():
    # The mapped clusters are read once per object: a map that builds a new (equal or
    # different) cluster at each lookup must still have every one of them checked.
    from collections.abc import Mapping

    class Fresh(Mapping):
        def __init__(self, clusters, wrong=None):
            self.of = {mention: cluster for cluster in clusters for mention in cluster}
            self.wrong = wrong

        def __getitem__(self, mention):
            if mention == self.wrong:
                return [(9, 9)]
            return list(self.of[mention])

        def __iter__(self):
            return iter(self.of)

        def __len__(self):
            return len(self.of)

    gold = [((0, 0), (2, 2), (4, 4)), ((6, 6),)]
    evaluator = anascore.CorefEvaluator(metrics="muc")
    evaluator.update(gold, gold, Fresh(gold), Fresh(gold))
    assert evaluator.get_f1("muc") == 1.0
    with pytest.raises(anascore.OptionsError, match=r"mention_to_gold maps \(4, 4\) to a "
                                                    "cluster other than gold cluster 0"):
        evaluator.update(gold, gold, Fresh(gold), Fresh(gold, wrong=(4, 4)))


def _example():
    spec = importlib.util.spec_from_file_location("training_loop",
                                                  EXAMPLES / "training_loop.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["training_loop"] = module
    spec.loader.exec_module(module)
    return module


def _file_scores(example, predicted, folder: Path):
    def documents(clusters_of):
        return [Document(name=f"d{index}", tokens=tuple(f"w{i}" for i in range(30)),
                         sentence_starts=(0,), entities=tuple(
                             Entity(str(number), tuple(Mention.span(*span) for span in cluster))
                             for number, cluster in enumerate(clusters)))
                for index, clusters in enumerate(clusters_of)]

    write_jsonlines(documents(example.GOLD), folder / "key.jsonl")
    write_jsonlines(documents(predicted), folder / "response.jsonl")
    return anascore.score(folder / "key.jsonl", folder / "response.jsonl")


@pytest.mark.parametrize("epoch", [0, 2])
def test_the_training_loop_example_equals_file_scoring(tmp_path, epoch):
    example = _example()
    predicted = example.predictions(epoch)
    report = _file_scores(example, predicted, tmp_path)
    evaluator = example.evaluate_e2e_style(predicted)
    assert evaluator.get_f1() == report.metrics["conll"].f1
    for view in evaluator.evaluators:
        score = report.metrics[view.metric]
        assert view.get_prf() == (score.precision, score.recall, score.f1)


@pytest.mark.parametrize("epoch", [0, 2])
def test_the_training_loop_example_with_torchmetrics_equals_file_scoring(tmp_path, epoch):
    pytest.importorskip("torch", reason="torch is an optional extra")
    pytest.importorskip("torchmetrics", reason="torchmetrics is an optional extra")
    example = _example()
    predicted = example.predictions(epoch)
    report = _file_scores(example, predicted, tmp_path)
    computed = example.evaluate_torchmetrics(predicted)
    expected = flatten_scores(report.metrics)
    assert float(computed["conll_score"]) == pytest.approx(expected["conll_score"], abs=1e-15)
    assert float(computed["muc_f1"]) == pytest.approx(expected["muc_f1"], abs=1e-15)
