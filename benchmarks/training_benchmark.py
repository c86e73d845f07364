"""In a training loop: anascore's ``CorefEvaluator.update`` per document against e2e-coref's
own ``CorefEvaluator`` (its ``metrics.py``) on the same clusters, and anascore's torchmetrics
metric's ``update`` + ``compute``.

The documents are a real corpus's (LitBank's 100 books in CoNLL-2012 by default, or GUM's
281 documents, ``--corpus``), read with anascore: the key's clusters are the gold ones, and the
predicted ones are the same clusters with a seeded model's errors (``perturbed``: a tenth of
the mentions dropped, a tenth moved to another cluster, one in twenty with its end moved by a
token, a spurious single-mention cluster for every tenth mention). Each evaluator gets exactly
what e2e-coref's ``coref_model.evaluate`` gives its own: the clusters as tuples of ``(start,
end)`` tuples and the two mention → cluster maps, built before the clock starts.

Timed, per round, over every document, each in the same process (a training loop's cost is
the call, not a process's start):

- ``e2e-coref``: e2e-coref's ``CorefEvaluator().update(predicted, gold,
  mention_to_predicted, mention_to_gold)`` per document, then ``get_f1()``; its
  ``metrics.py`` is loaded from ``--e2e-coref`` (a checkout of ``kentonl/e2e-coref``), with
  scikit-learn's ``linear_assignment``, which it imports and scikit-learn has since removed,
  given as scipy's ``linear_sum_assignment`` (as the tests of ``tests/test_e2e_dropin.py``);
- ``anascore (e2e's three)``: ``anascore.CorefEvaluator(metrics="conll")`` — MUC, B³ and
  CEAFe, what e2e-coref computes — with the same four arguments, then ``get_f1()``;
- ``anascore (default)``: ``anascore.CorefEvaluator()``, every default metric (mentions,
  MUC, B³, CEAFm, CEAFe, BLANC, LEA);
- ``torchmetrics``: ``CoreferenceMetric(metrics="conll")``, ``update([predicted],
  [gold])`` per document, then ``compute()`` (when torch and torchmetrics are installed).

The rounds are interleaved (A, B, C, A, B, C …) after one untimed warm-up round; printed are
each evaluator's median seconds per document and its ratio to e2e-coref's, and the CoNLL F1
each gave (e2e-coref skips single-mention clusters in B³ and CEAFe, so its F1 differs:
``docs/e2e-evaluator.md``).

Usage::

    python benchmarks/training_benchmark.py [--e2e-coref /tmp/ref/e2e-coref]
        [--corpus litbank|gum] [--repeats 5] [--documents N]
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import sys
import time
import types
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))

from anascore.formats import read_documents  # noqa: E402
from anascore.training.evaluator import CorefEvaluator  # noqa: E402

Span = tuple[int, int]
Cluster = tuple[Span, ...]
CORPORA = {"litbank": ("litbank/coref-conll", "*.conll"),
           "gum": ("gum/coref-conll", "*.conll")}


def load_e2e_metrics(checkout: Path) -> types.ModuleType:
    """e2e-coref's ``metrics.py`` from ``checkout``, with scikit-learn's removed
    ``linear_assignment`` given as scipy's ``linear_sum_assignment`` (what it computed)."""
    from scipy.optimize import linear_sum_assignment

    def linear_assignment(cost: np.ndarray) -> np.ndarray:
        rows, columns = linear_sum_assignment(cost)
        return np.column_stack((rows, columns))

    stub = types.ModuleType("sklearn.utils.linear_assignment_")
    stub.linear_assignment = linear_assignment  # type: ignore[attr-defined]
    sys.modules.setdefault("sklearn", types.ModuleType("sklearn"))
    sys.modules.setdefault("sklearn.utils", types.ModuleType("sklearn.utils"))
    sys.modules["sklearn.utils.linear_assignment_"] = stub
    spec = importlib.util.spec_from_file_location("e2e_metrics", checkout / "metrics.py")
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {checkout / 'metrics.py'}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def gold_clusters(folder: Path, pattern: str, limit: int | None) -> list[list[Cluster]]:
    """Every document's key clusters, as inclusive ``(start, end)`` token spans."""
    documents: list[list[Cluster]] = []
    for path in sorted(folder.glob(pattern)):
        for document in read_documents(path):
            documents.append([tuple((mention.tokens[0], mention.tokens[-1])
                                    for mention in entity.mentions)
                              for entity in document.entities])
            if limit is not None and len(documents) >= limit:
                return documents
    return documents


def perturbed(clusters: Sequence[Cluster], rng: random.Random) -> list[Cluster]:
    """The clusters with a model's errors (the module docstring); every span once."""
    groups: list[list[Span]] = [[] for _ in clusters]
    spurious: list[list[Span]] = []
    seen: set[Span] = set()
    for number, cluster in enumerate(clusters):
        for start, end in cluster:
            roll = rng.random()
            if roll < 0.10:
                continue
            if roll < 0.15 and end > start:
                end -= 1
            elif roll < 0.20:
                end += 1
            target = rng.randrange(len(clusters)) if 0.20 <= roll < 0.30 else number
            if (start, end) not in seen:
                seen.add((start, end))
                groups[target].append((start, end))
            if rng.random() < 0.10 and (end + 2, end + 2) not in seen:
                seen.add((end + 2, end + 2))
                spurious.append([(end + 2, end + 2)])
    return [tuple(group) for group in groups + spurious if group]


def mention_map(clusters: Sequence[Cluster]) -> dict[Span, Cluster]:
    """e2e-coref's mention → cluster map (``coref_model.evaluate`` builds it so)."""
    return {mention: cluster for cluster in clusters for mention in cluster}


Pair = tuple[list[Cluster], list[Cluster], dict[Span, Cluster], dict[Span, Cluster]]


def runners(e2e: types.ModuleType | None) -> dict[str, Callable[[Sequence[Pair]], float]]:
    """Each evaluator's round: every document's update, then the F1 (returned)."""

    def e2e_round(pairs: Sequence[Pair]) -> float:
        assert e2e is not None
        evaluator = e2e.CorefEvaluator()
        for predicted, gold, to_predicted, to_gold in pairs:
            evaluator.update(predicted, gold, to_predicted, to_gold)
        return float(evaluator.get_f1())

    def anascore_round(metrics: str | None) -> Callable[[Sequence[Pair]], float]:
        def round_(pairs: Sequence[Pair]) -> float:
            evaluator = CorefEvaluator(metrics=metrics)
            for predicted, gold, to_predicted, to_gold in pairs:
                evaluator.update(predicted, gold, to_predicted, to_gold)
            return evaluator.get_f1()
        return round_

    found: dict[str, Callable[[Sequence[Pair]], float]] = {}
    if e2e is not None:
        found["e2e-coref"] = e2e_round
    found["anascore (e2e's three)"] = anascore_round("conll")
    found["anascore (default)"] = anascore_round(None)
    try:
        from anascore.training.torchmetrics import CoreferenceMetric
    except ImportError:  # torch or torchmetrics missing
        return found

    def torch_round(pairs: Sequence[Pair]) -> float:
        metric = CoreferenceMetric(metrics="conll")
        for predicted, gold, _, _ in pairs:
            metric.update([predicted], [gold])
        return float(metric.compute()["conll_score"])

    found["torchmetrics (e2e's three)"] = torch_round
    return found


def measure(rounds: dict[str, Callable[[Sequence[Pair]], float]], pairs: Sequence[Pair],
            repeats: int) -> tuple[dict[str, list[float]], dict[str, float]]:
    """Seconds per round of each evaluator (interleaved, after a warm-up) and its F1."""
    times: dict[str, list[float]] = {name: [] for name in rounds}
    f1: dict[str, float] = {}
    for number in range(repeats + 1):
        for name, round_ in rounds.items():
            start = time.perf_counter()
            f1[name] = round_(pairs)
            seconds = time.perf_counter() - start
            if number:
                times[name].append(seconds)
    return times, f1


def render(times: dict[str, list[float]], f1: dict[str, float], documents: int,
           corpus: str) -> str:
    """A Markdown table: per-document median time, ratio to e2e-coref's, CoNLL F1."""
    base = statistics.median(times["e2e-coref"]) if "e2e-coref" in times else None
    rows = ["| evaluator | ms per document | / e2e-coref | CoNLL F1 |",
            "|---|---:|---:|---:|"]
    for name, seconds in times.items():
        median = statistics.median(seconds)
        ratio = f"{median / base:.2f}" if base else ""
        rows.append(f"| {name} | {median / documents * 1000:.3f} | {ratio} | "
                    f"{f1[name] * 100:.2f} |")
    repeats = len(next(iter(times.values())))
    rows += ["", f"{corpus}: {documents} documents; median of {repeats} interleaved rounds "
             "after a warm-up; update per document and the F1 at the end."]
    if base:
        slower = [name for name in times if name != "e2e-coref"
                  and statistics.median(times[name]) > base]
        rows.append("anascore slower than e2e-coref: " + (", ".join(slower) or "none") + ".")
    return "\n".join(rows)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--e2e-coref", type=Path, default=Path("/tmp/ref/e2e-coref"),
                        help="a checkout of kentonl/e2e-coref (its metrics.py)")
    parser.add_argument("--shared", type=Path, default=HERE.parent.parent / "shared",
                        help="the shared folder holding corpora/ (default: ../shared)")
    parser.add_argument("--corpus", choices=sorted(CORPORA), default="litbank")
    parser.add_argument("--documents", type=int, default=None,
                        help="only the first N documents")
    parser.add_argument("--repeats", type=int, default=5, help="timed rounds (default: 5)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    folder, pattern = CORPORA[args.corpus]
    golds = gold_clusters(args.shared / "corpora" / folder, pattern, args.documents)
    if not golds:
        parser.error(f"no documents under {args.shared / 'corpora' / folder}")
    e2e = load_e2e_metrics(args.e2e_coref) if (args.e2e_coref / "metrics.py").exists() else None
    if e2e is None:
        print(f"no e2e-coref metrics.py under {args.e2e_coref}: anascore alone",
              file=sys.stderr)
    rng = random.Random(args.seed)
    pairs: list[Pair] = []
    for gold in golds:
        predicted = perturbed(gold, rng)
        pairs.append((predicted, gold, mention_map(predicted), mention_map(gold)))
    times, f1 = measure(runners(e2e), pairs, args.repeats)
    print(render(times, f1, len(pairs), args.corpus))
    return 0


if __name__ == "__main__":
    sys.exit(main())
