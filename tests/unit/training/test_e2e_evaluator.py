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
