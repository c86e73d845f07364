"""anascore's CorefEvaluator beside the evaluators of e2e-coref and its descendants, each
imported from its own checkout and called exactly as its project calls it.

The checkouts are found through environment variables (a test skips when its checkout is
absent): ``ANASCORE_E2E_COREF`` (kentonl/e2e-coref), ``ANASCORE_SPANBERT_COREF``
(mandarjoshi90/coref), ``ANASCORE_COREF_HOI`` (lxucs/coref-hoi), ``ANASCORE_S2E_COREF``
(yuvalkirstain/s2e-coref), ``ANASCORE_FASTCOREF`` (shon-otmazgin/fastcoref) and
``ANASCORE_MAVERICK`` (SapienzaNLP/maverick-coref); each defaults to its folder under
/tmp/ref. Their ``metrics.py`` need only numpy and scipy, except the first three, which import
``linear_assignment`` from a module scikit-learn has since removed: the test gives them
scipy's ``linear_sum_assignment`` under that name (what s2e-coref's copy calls instead).

The copies of e2e-coref's (all but Maverick's) skip single-mention clusters in B³ and
predicted ones in CEAFe (docs/e2e-evaluator.md), which is the reference scorer with
singletons removed as long as the gold holds none: they are compared with
``keep_singletons=False`` on gold clusters of two mentions or more. Maverick's evaluator keeps
singletons, as anascore's default does.
"""

from __future__ import annotations

import importlib.util
import os
import random
import sys
import types
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from scipy.optimize import linear_sum_assignment

import anascore

Cluster = tuple[tuple[int, int], ...]
#: Each project: (environment variable, default folder, metrics module in the checkout).
PROJECTS = {
    "e2e-coref": ("ANASCORE_E2E_COREF", "/tmp/ref/e2e-coref", "metrics.py"),
    "spanbert-coref": ("ANASCORE_SPANBERT_COREF", "/tmp/ref/spanbert-coref", "metrics.py"),
    "coref-hoi": ("ANASCORE_COREF_HOI", "/tmp/ref/coref-hoi", "metrics.py"),
    "s2e-coref": ("ANASCORE_S2E_COREF", "/tmp/ref/s2e-coref", "metrics.py"),
    "fastcoref": ("ANASCORE_FASTCOREF", "/tmp/ref/fastcoref", "fastcoref/utilities/metrics.py"),
    "maverick": ("ANASCORE_MAVERICK", "/tmp/ref/maverick-coref", "maverick/common/metrics.py"),
}
E2E_COPIES = ("e2e-coref", "spanbert-coref", "coref-hoi", "s2e-coref", "fastcoref")
#: The copies that import scikit-learn's ``linear_assignment``, since removed from it.
NEED_LINEAR_ASSIGNMENT = ("e2e-coref", "spanbert-coref", "coref-hoi")


def _linear_assignment(cost: np.ndarray) -> np.ndarray:
    """scikit-learn's removed ``linear_assignment``: the matched (row, column) pairs."""
    rows, columns = linear_sum_assignment(cost)
    return np.column_stack([rows, columns]).astype(int).reshape(-1, 2)


def _metrics_module(project: str, monkeypatch: pytest.MonkeyPatch) -> Any:
    variable, default, relative = PROJECTS[project]
    path = Path(os.environ.get(variable, default)) / relative
    if not path.is_file():
        pytest.skip(f"{project}'s checkout is absent (set {variable})")
    if project in NEED_LINEAR_ASSIGNMENT:
        stub = types.ModuleType("sklearn.utils.linear_assignment_")
        stub.linear_assignment = _linear_assignment  # type: ignore[attr-defined]
        for name in ("sklearn", "sklearn.utils"):
            monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
        monkeypatch.setitem(sys.modules, "sklearn.utils.linear_assignment_", stub)
    spec = importlib.util.spec_from_file_location(f"reference_metrics_{project}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _to_clusters(rng: random.Random, spans: list[tuple[int, int]], smallest: int) -> list[Cluster]:
    """``spans`` split into clusters of at least ``smallest`` mentions, in random order."""
    rng.shuffle(spans)
    clusters: list[Cluster] = []
    while len(spans) >= smallest:
        size = rng.randint(smallest, max(smallest, min(4, len(spans))))
        clusters.append(tuple(spans[:size]))
        spans = spans[size:]
    return clusters


def _document(rng: random.Random, gold_smallest: int) -> tuple[list[Cluster], list[Cluster]]:
    """Random gold and predicted clusters over 30 tokens: the prediction keeps some gold
    mentions, invents others and groups them anew."""
    every = sorted({(start, min(29, start + rng.randint(0, 2)))
                    for start in rng.sample(range(30), 16)})
    gold = _to_clusters(rng, rng.sample(every, 10), gold_smallest)
    gold_mentions = [span for cluster in gold for span in cluster]
    kept = rng.sample(gold_mentions, rng.randint(0, len(gold_mentions)))
    invented = [span for span in every if span not in gold_mentions][:rng.randint(0, 4)]
    return _to_clusters(rng, kept + invented, 1), gold


def _mention_map(clusters: list[Cluster]) -> dict[tuple[int, int], Cluster]:
    """The map as e2e-coref's descendants build it (a repeated mention: the last cluster)."""
    mention_to_cluster = {}
    for cluster in clusters:
        for mention in cluster:
            mention_to_cluster[mention] = cluster
    return mention_to_cluster


def _scored_once(clusters: list[Cluster]) -> list[Cluster]:
    """Each mention in one cluster only, the one ``update(P, G)`` keeps it in: the first
    cluster in text order (clusters ordered by their sorted token positions)."""
    def text_order(number: int) -> tuple[list[tuple[int, ...]], int]:
        return sorted({tuple(range(start, end + 1)) for start, end in clusters[number]}), number

    seen: set[tuple[int, int]] = set()
    kept = []
    for number in sorted(range(len(clusters)), key=text_order):
        cluster = tuple(sorted(set(clusters[number]) - seen))
        seen.update(cluster)
        if cluster:
            kept.append(cluster)
    return kept


def _feed(evaluator: Any, documents: list[tuple[list[Cluster], list[Cluster]]],
          keywords: bool = False) -> None:
    for predicted, gold in documents:
        arguments = (predicted, gold, _mention_map(predicted), _mention_map(gold))
        if keywords:
            evaluator.update(**dict(zip(("predicted", "gold", "mention_to_predicted",
                                         "mention_to_gold"), arguments, strict=True)))
        else:
            evaluator.update(*arguments)


def _equal(ours: Any, theirs: Any) -> None:
    assert tuple(ours) == pytest.approx(tuple(theirs), rel=1e-9, abs=1e-9)


def _compare(project: str, module: Any, ours: anascore.CorefEvaluator,
             documents: list[tuple[list[Cluster], list[Cluster]]]) -> None:
    """Every number the project reads from its evaluator fed ``documents``, and anascore's
    read the same way."""
    theirs = (module.OfficialCoNLL2012CorefEvaluator() if project == "maverick"
              else module.CorefEvaluator())
    _feed(theirs, documents)
    if project == "maverick":  # maverick/evaluate.py: evaluate_coref_scores
        for metric in ("muc", "b_cubed", "ceafe", "conll2012"):
            _equal(ours.get_prf(metric), theirs.get_prf(metric))
            assert ours.get_f1(metric) == pytest.approx(theirs.get_f1(metric), abs=1e-9)
    else:
        _equal(ours.get_prf(), theirs.get_prf())
        assert ours.get_f1() == pytest.approx(theirs.get_f1(), abs=1e-9)
    for mine, other in zip(ours.evaluators, theirs.evaluators, strict=True):
        assert mine.metric.__name__ == other.metric.__name__
        _equal(mine.get_counts(), other.get_counts())
        _equal((mine.p_num, mine.p_den, mine.r_num, mine.r_den),
               (other.p_num, other.p_den, other.r_num, other.r_den))
        _equal(mine.get_prf(), other.get_prf())


def _anascore_evaluator(project: str) -> anascore.CorefEvaluator:
    return anascore.CorefEvaluator(keep_singletons=False if project in E2E_COPIES else None)


@pytest.mark.parametrize("keywords", [False, True], ids=["positional", "keywords"])
@pytest.mark.parametrize("project", list(PROJECTS))
@pytest.mark.parametrize("seed", range(8))
def test_random_clusters_score_as_the_projects_own_evaluator(
        project: str, seed: int, keywords: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    module = _metrics_module(project, monkeypatch)
    rng = random.Random(seed)
    documents = [_document(rng, 2 if project in E2E_COPIES else 1) for _ in range(5)]
    ours = _anascore_evaluator(project)
    _feed(ours, documents, keywords)
    assert ours.warnings == []
    _compare(project, module, ours, documents)


@pytest.mark.parametrize("project", list(PROJECTS))
@pytest.mark.parametrize("seed", range(6))
def test_a_span_repeated_across_clusters_scores_as_without_the_maps(
        project: str, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # The maps the projects build keep a repeated mention's last cluster; anascore scores
    # the clusters as update(P, G) does (the mention once, in the cluster first in text
    # order, with a warning): what the project's own evaluator gives on those clusters.
    module = _metrics_module(project, monkeypatch)
    rng = random.Random(100 + seed)
    documents, once = [], []
    for _ in range(4):
        predicted, gold = _document(rng, 2 if project in E2E_COPIES else 1)
        predicted = predicted or [gold[0]]
        predicted = [*predicted, (predicted[0][0], (40, 41))]
        if project == "maverick":  # its gold may repeat one too (e2e's copies: no
            gold = [*gold, (gold[0][-1],)]  # singletons in the gold, as above)
        documents.append((predicted, gold))
        once.append((_scored_once(predicted), _scored_once(gold)))
    ours, without_maps = _anascore_evaluator(project), _anascore_evaluator(project)
    _feed(ours, documents)
    for predicted, gold in documents:
        without_maps.update(predicted, gold)
    assert ours.get_prf("conll") == without_maps.get_prf("conll")
    assert ours.warnings == without_maps.warnings
    assert len(ours.warnings) == 8 if project == "maverick" else 4
    assert sum("repeated response mention" in warning for warning in ours.warnings) == 4
    _compare(project, module, ours, once)


def test_the_e2e_interface_without_a_checkout() -> None:
    # Gold {a, c} {e}; predicted {a, c} {f}: the worked example of docs/e2e-evaluator.md.
    a, c, e, f = (0, 0), (2, 2), (4, 4), (5, 5)
    gold, predicted = [(a, c), (e,)], [(a, c), (f,)]
    evaluator = anascore.CorefEvaluator()
    assert [view.get_counts() for view in evaluator.evaluators] == [(0, 0, 0, 0)] * 3
    evaluator.update(predicted=predicted, gold=gold, mention_to_predicted=_mention_map(predicted),
                     mention_to_gold=_mention_map(gold))
    muc, bcub, ceafe = evaluator.evaluators
    assert [view.metric.__name__ for view in evaluator.evaluators] == ["muc", "b_cubed", "ceafe"]
    assert [view.metric for view in evaluator.evaluators] == ["muc", "bcub", "ceafe"]
    assert muc.get_counts() == (1, 1, 1, 1)
    assert (bcub.p_num, bcub.p_den, bcub.r_num, bcub.r_den) == (2, 3, 2, 3)
    assert ceafe.get_counts() == (1, 2, 1, 2)
    assert evaluator.get_prf("b_cubed") == bcub.get_prf() == (2 / 3, 2 / 3, 2 / 3)
    assert evaluator.get_prf("conll2012") == evaluator.get_prf()
    assert evaluator.get_recall("ceafe") == 1 / 2
    with pytest.raises(anascore.OptionsError, match=r"gold clusters once: as gold= .* not both"):
        evaluator.update(predicted, gold, gold_clusters=gold)
    with pytest.raises(anascore.OptionsError, match=r"predicted clusters once.*missing"):
        evaluator.update(gold=gold)

