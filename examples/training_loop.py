"""A training loop scored with anascore: a toy "model" that predicts clusters (the gold ones
with some of their mentions dropped or moved), scored every epoch with the e2e-style
evaluator and, when torch is installed, with the torchmetrics metric. Both give the numbers
``anascore score`` gives for the same clusters written to files.

    python examples/training_loop.py
"""

from __future__ import annotations

import random

from anascore import CorefEvaluator

Cluster = list[tuple[int, int]]

#: Three documents' gold clusters: inclusive (start, end) token spans.
GOLD: list[list[Cluster]] = [
    [[(0, 1), (7, 7), (12, 12)], [(3, 4), (15, 16)], [(20, 20)]],
    [[(2, 2), (5, 5)], [(8, 10), (14, 14), (18, 18)]],
    [[(0, 0), (3, 3), (6, 6), (9, 9)], [(11, 12), (20, 21)]],
]


def toy_model(gold: list[Cluster], epoch: int, rng: random.Random) -> list[Cluster]:
    """Clusters a little less wrong every epoch: each mention dropped or moved to another
    cluster with a probability that halves with each epoch."""
    error = 0.4 / (epoch + 1)
    clusters: list[Cluster] = [[] for _ in gold]
    for number, cluster in enumerate(gold):
        for span in cluster:
            draw = rng.random()
            if draw < error / 2:
                continue  # dropped
            target = rng.randrange(len(gold)) if draw < error else number
            clusters[target].append(span)
    return [cluster for cluster in clusters if cluster]


def predictions(epoch: int, seed: int = 0) -> list[list[Cluster]]:
    """Every document's predicted clusters at ``epoch``."""
    rng = random.Random(f"{seed}-{epoch}")
    return [toy_model(gold, epoch, rng) for gold in GOLD]


def evaluate_e2e_style(predicted: list[list[Cluster]]) -> CorefEvaluator:
    """Score as e2e-coref's loop does (its update call, maps from mention to cluster)."""
    evaluator = CorefEvaluator()
    for clusters, gold in zip(predicted, GOLD, strict=True):
        mention_to_predicted = {span: tuple(c) for c in clusters for span in c}
        mention_to_gold = {span: tuple(c) for c in gold for span in c}
        evaluator.update(clusters, gold, mention_to_predicted, mention_to_gold)
    return evaluator


def evaluate_torchmetrics(predicted: list[list[Cluster]]):  # type: ignore[no-untyped-def]
    """Score with the torchmetrics metric, one batch of two documents and one of one."""
    from anascore.training.torchmetrics import CoreferenceMetric

    metric = CoreferenceMetric()
    metric.update(predicted[:2], GOLD[:2])
    metric.update(predicted[2:], GOLD[2:])
    return metric.compute()


def main() -> None:
    for epoch in range(3):
        predicted = predictions(epoch)
        evaluator = evaluate_e2e_style(predicted)
        line = f"epoch {epoch}: CoNLL F1 {evaluator.get_f1():.4f}"
        try:
            line += f" (torchmetrics {float(evaluate_torchmetrics(predicted)['conll_score']):.4f})"
        except ImportError:
            line += " (torchmetrics: pip install 'anascore[torch]')"
        print(line)


if __name__ == "__main__":
    main()
