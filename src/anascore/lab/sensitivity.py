"""The metric sensitivity lab: how each metric reacts to each kind of error.

Moosavi & Strube (2016, *Which coreference evaluation metric do you trust? A proposal for a
link-based entity aware metric*, §6 "Analysis") score controlled responses against one key —
one entity of 20 mentions, two of 10, three of 5, one of 4 and ten of 2 (79 mentions, 326
coreference links) — and draw each metric's F1 as one kind of error grows (their Figures 2–8).
:func:`run_lab` rebuilds those experiments with every metric anascore has, through the same
per-document pipeline as ``anascore score`` (:func:`anascore.scoring.document.count_document`), and
:func:`observations` checks the observations the paper states for each figure.

The paper describes its responses in words, not as files; where it leaves a choice open, this
module makes it explicitly (each experiment's docstring says how):

* Figures 2–3, a share of the key's links resolved: each key entity keeps its first ``m``
  mentions, grown evenly (the entity with the smallest share of its own links resolved grows
  first) until the resolved links come closest to the share; the x value is the share
  actually reached. Figure 2 leaves the other mentions out; in
  Figure 3 they are linked in pairs (or triples) of mentions from different key entities.
* Figures 4–5: whole key entities, added largest first (4) or smallest first (5).
* Figure 6: one key entity split into parts of the sizes the label gives (18-2: the entity of
  20 as 18 + 2), everything else right.
* Figure 7: ``k-n`` adds ``k`` mentions found in no key entity to the entity of size ``n``
  (``k-0``: the ``k`` extra mentions form an entity of their own), everything else right.
* Figure 8: a share of the key mentions found (taken in turn from every entity), each alone
  (no link at all).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from anascore.config.metric_names import metric_title
from anascore.config.options import METRIC_NAMES, Options
from anascore.core.model import Document, Entity, Mention
from anascore.metrics.scores import MetricResult
from anascore.report import Report
from anascore.scoring.document import count_document

#: The key of every experiment: entity sizes (Moosavi & Strube 2016, §6).
KEY_SIZES: tuple[int, ...] = (20, 10, 10, 5, 5, 5, 4, *([2] * 10))
#: The shares of resolved links of Figures 2 and 3.
LINK_SHARES = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)
#: Figure 6: (label, size of the split entity, sizes of the parts).
SPLITS: tuple[tuple[str, int, tuple[int, ...]], ...] = (
    ("18-2", 20, (18, 2)), ("16-4", 20, (16, 4)), ("10-10", 20, (10, 10)),
    ("9-9-2", 20, (9, 9, 2)), ("9-5-6", 20, (9, 5, 6)), ("5-5", 10, (5, 5)),
    ("5-3-2", 10, (5, 3, 2)), ("3-2", 5, (3, 2)), ("2-2", 4, (2, 2)),
)
#: Figure 7: (extra mentions, size of the entity they join; 0: an entity of their own).
EXTRA_MENTIONS: tuple[tuple[int, int], ...] = (
    (1, 2), (1, 4), (1, 5), (1, 10), (1, 20), (2, 0), (3, 0), (2, 2), (2, 10), (3, 2), (3, 10),
)
#: Figure 8: shares of key mentions found.
MENTION_SHARES = (0.2, 0.4, 0.6, 0.8, 1.0)

Clusters = list[list[int]]


def links(size: int) -> int:
    """Coreference links among ``size`` mentions: ``size (size − 1) / 2``."""
    return size * (size - 1) // 2


@dataclass(frozen=True)
class Point:
    """One controlled response: its label, its x value, and every metric's score."""

    label: str
    x: float
    scores: dict[str, MetricResult]

    def f1(self, metric: str) -> float:
        return self.scores[metric].f1


@dataclass(frozen=True)
class Experiment:
    """One figure of the paper: responses along one kind of error."""

    figure: int
    title: str
    x_label: str
    points: tuple[Point, ...]
    description: str = ""

    def point(self, label: str) -> Point:
        return next(point for point in self.points if point.label == label)

    def curve(self, metric: str) -> list[float]:
        return [point.f1(metric) for point in self.points]


@dataclass(frozen=True)
class Observation:
    """A statement the paper makes about a figure, and whether anascore's numbers agree."""

    figure: str
    statement: str
    holds: bool
    evidence: str
    number: int = field(default=0)


# The key and the responses ----------------------------------------------------------------

def key_clusters() -> Clusters:
    """Key entities as lists of mention numbers 0…78 (entity by entity, in size order)."""
    clusters, start = [], 0
    for size in KEY_SIZES:
        clusters.append(list(range(start, start + size)))
        start += size
    return clusters


def to_document(clusters: Iterable[Sequence[int]], name: str = "lab") -> Document:
    """A document whose mention number ``k`` is the one-token mention at token ``k``."""
    clusters = [list(cluster) for cluster in clusters if cluster]
    tokens = max((max(cluster) for cluster in clusters), default=-1) + 1
    tokens = max(tokens, sum(KEY_SIZES) + 10)
    return Document(
        name=name, tokens=tuple(f"w{index}" for index in range(tokens)),
        entities=tuple(Entity(str(number), tuple(Mention.span(k, k) for k in cluster))
                       for number, cluster in enumerate(clusters)))


def score_response(response: Clusters, options: Options | None = None) -> dict[str, MetricResult]:
    """Every metric's score of ``response`` against :func:`key_clusters`."""
    options = options or Options()
    warnings: list[str] = []
    record = count_document(to_document(key_clusters()), to_document(response), options,
                            warnings)
    return dict(Report.from_records(options, ["lab"], [record]).metrics)


def _prefix_sizes(share: float) -> list[int]:
    """How many mentions of each key entity are resolved so that the resolved links come
    closest to ``share`` of the key's links, spread evenly: the entity with the smallest
    share of its own links resolved grows first, by one mention (from none, by two)."""
    sizes = [0] * len(KEY_SIZES)
    target = share * sum(links(size) for size in KEY_SIZES)
    total = 0
    while True:
        open_entities = [index for index, size in enumerate(KEY_SIZES) if sizes[index] < size]
        if not open_entities:
            return sizes
        index = min(open_entities, key=lambda i: (links(sizes[i]) / links(KEY_SIZES[i]),
                                                  -KEY_SIZES[i], i))
        grown = 2 if sizes[index] == 0 else sizes[index] + 1
        added = links(grown) - links(sizes[index])
        if abs(total + added - target) >= abs(total - target):
            return sizes
        sizes[index], total = grown, total + added


def _linked_wrongly(leftovers: list[list[int]], resolved: Clusters) -> Clusters:
    """Groups of mentions from different key entities: pairs drawn from the two entities with
    most mentions left, a last mention joining a group without its entity."""
    pools = [list(pool) for pool in leftovers if pool]
    groups: Clusters = []
    while sum(1 for pool in pools if pool) >= 2:
        pools.sort(key=len, reverse=True)
        groups.append([pools[0].pop(), pools[1].pop()])
    key_of = {mention: index for index, cluster in enumerate(key_clusters())
              for mention in cluster}
    for mention in (mention for pool in pools for mention in pool):
        target = next((group for group in groups + resolved
                       if all(key_of[other] != key_of[mention] for other in group)), None)
        if target is None:
            groups.append([mention])
        else:
            target.append(mention)
    return groups


def resolved_links(with_wrong_links: bool) -> Experiment:
    """Figures 2 and 3: a growing share of the key's links resolved, with the other mentions
    left out (2) or linked to mentions of other entities (3)."""
    key = key_clusters()
    total_links = sum(links(size) for size in KEY_SIZES)
    points = []
    for share in LINK_SHARES:
        sizes = _prefix_sizes(share)
        resolved = [cluster[:m] for cluster, m in zip(key, sizes, strict=True) if m]
        reached = sum(links(m) for m in sizes) / total_links
        response = [list(cluster) for cluster in resolved]
        if with_wrong_links:
            leftovers = [cluster[m:] for cluster, m in zip(key, sizes, strict=True)]
            response += _linked_wrongly(leftovers, response)
        points.append(Point(f"{reached:.0%}", reached, score_response(response)))
    if with_wrong_links:
        return Experiment(3, "Resolved links, the other mentions linked wrongly",
                          "share of key links resolved", tuple(points),
                          "Each key entity keeps a prefix of its mentions; every other mention "
                          "is linked to mentions of other key entities.")
    return Experiment(2, "Resolved links, no wrong link", "share of key links resolved",
                      tuple(points), "Each key entity keeps a prefix of its mentions; the "
                                     "other mentions are not in the response.")


def resolved_entities(decreasing: bool) -> Experiment:
    """Figures 4 and 5: whole key entities resolved, largest (4) or smallest (5) first."""
    key = sorted(key_clusters(), key=len, reverse=decreasing)
    total_links = sum(links(size) for size in KEY_SIZES)
    points = []
    for count in range(len(key) + 1):
        response = [list(cluster) for cluster in key[:count]]
        share = sum(links(len(cluster)) for cluster in response) / total_links
        points.append(Point(str(count), share, score_response(response)))
    order = "decreasing" if decreasing else "increasing"
    return Experiment(4 if decreasing else 5, f"Entities resolved in {order} size",
                      "share of key links resolved", tuple(points),
                      f"The first n key entities in {order} order of size, each complete; "
                      "x: the share of key links they hold.")


def split_entities() -> Experiment:
    """Figure 6: one key entity split into parts (no singleton), the rest right."""
    points = []
    for number, (label, size, parts) in enumerate(SPLITS):
        key = key_clusters()
        index = next(index for index, cluster in enumerate(key) if len(cluster) == size)
        entity, response, start = key[index], [c for i, c in enumerate(key) if i != index], 0
        for part in parts:
            response.append(entity[start:start + part])
            start += part
        points.append(Point(label, number, score_response(response)))
    return Experiment(6, "Splitting one entity", "split (sizes of the parts)", tuple(points),
                      "18-2: the entity of 20 mentions answered as two entities of 18 and 2.")


def extra_mentions() -> Experiment:
    """Figure 7: mentions that are in no key entity, added to one entity or on their own."""
    points = []
    first_extra = sum(KEY_SIZES)
    for number, (extra, size) in enumerate(EXTRA_MENTIONS):
        response = key_clusters()
        added = list(range(first_extra, first_extra + extra))
        if size == 0:
            response.append(added)
        else:
            next(cluster for cluster in response if len(cluster) == size).extend(added)
        points.append(Point(f"{extra}-{size}", number, score_response(response)))
    return Experiment(7, "Extra mentions", "extra mentions - size of the entity they join",
                      tuple(points),
                      "k-n: k mentions that are in no key entity join the entity of n "
                      "mentions (k-0: an entity of their own).")


def mention_identification() -> Experiment:
    """Figure 8: a growing share of key mentions found, none linked to another."""
    points = []
    key = key_clusters()
    in_turn = [cluster[position] for position in range(max(KEY_SIZES)) for cluster in key
               if position < len(cluster)]
    for share in MENTION_SHARES:
        found = in_turn[:round(share * len(in_turn))]
        reached = len(found) / len(in_turn)
        points.append(Point(f"{reached:.0%}", reached,
                            score_response([[mention] for mention in found])))
    return Experiment(8, "Mention identification, no correct link",
                      "share of key mentions found", tuple(points),
                      "Key mentions taken in turn from every entity (first mentions first), "
                      "each in an entity of its own.")


def run_lab() -> list[Experiment]:
    """Every experiment, in the order of the paper's figures (2–8)."""
    return [resolved_links(False), resolved_links(True), resolved_entities(True),
            resolved_entities(False), split_entities(), extra_mentions(),
            mention_identification()]


# The paper's observations -----------------------------------------------------------------

IDENTITY = ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea")


def _f(value: float) -> str:
    return f"{value * 100:.2f}"


def _ranking(experiment: Experiment, metric: str, labels: Sequence[str]) -> str:
    values = [(experiment.point(label).f1(metric), label) for label in labels]
    return " > ".join(f"{label} ({_f(value)})" for value, label in
                      sorted(values, key=lambda item: -item[0]))


def _strictly_ordered(experiment: Experiment, metric: str, labels: Sequence[str]) -> bool:
    values = [experiment.point(label).f1(metric) for label in labels]
    return all(first > second for first, second in itertools.pairwise(values))


def observations(experiments: Sequence[Experiment]) -> list[Observation]:
    """The observations Moosavi & Strube (2016, §6) state for Figures 2–8, each checked on
    the lab's numbers, with the numbers that decide it."""
    by_figure = {experiment.figure: experiment for experiment in experiments}
    checks: list[tuple[str, str, Callable[[], tuple[bool, str]]]] = []

    fig2, fig3 = by_figure[2], by_figure[3]

    def zero_without_links() -> tuple[bool, str]:
        none = fig3.points[0]
        zero = [metric for metric in IDENTITY if none.f1(metric) == 0]
        return zero == ["muc", "lea"], (
            "F1 with no correct link (Figure 3, 0%): "
            + ", ".join(f"{metric_title(m)} {_f(none.f1(m))}" for m in IDENTITY))

    checks.append(("2-3", "MUC and LEA are the only metrics that give 0 to a response with no "
                   "correct coreference link", zero_without_links))

    def ceafe_step() -> tuple[bool, str]:
        steps = {m: fig2.points[1].f1(m) - fig2.points[0].f1(m) for m in IDENTITY}
        return max(steps, key=steps.__getitem__) == "ceafe", (
            f"Figure 2, F1 change from {fig2.points[0].label} to {fig2.points[1].label}: "
            + ", ".join(f"{metric_title(m)} {steps[m] * 100:+.2f}" for m in IDENTITY))

    checks.append(("2", "CEAFe changes unreasonably between 0% and 20% of correct links "
                   "(reading: its step is the largest of all metrics, Figure 2)", ceafe_step))

    def ceafe_drop() -> tuple[bool, str]:
        before, after = fig3.points[0], fig3.points[1]
        return after.f1("ceafe") < before.f1("ceafe"), (
            f"Figure 3, {before.label} → {after.label}: "
            + ", ".join(f"{metric_title(m)} {_f(before.f1(m))} → {_f(after.f1(m))}"
                        for m in IDENTITY))

    checks.append(("3", "CEAFe drops between 0% and 20% of correct links (reading: it is "
                   "lower at 20% than at 0%, Figure 3)", ceafe_drop))

    def blanc_below() -> tuple[bool, str]:
        worst = max(fig2.points, key=lambda p: p.f1("blanc") - min(p.f1("bcub"), p.f1("lea")))
        holds = all(p.f1("blanc") <= min(p.f1("bcub"), p.f1("lea")) + 1e-12
                    for p in fig2.points)
        return holds, (f"largest BLANC − min(B3, LEA) at {worst.label}: BLANC "
                       f"{_f(worst.f1('blanc'))}, B3 {_f(worst.f1('bcub'))}, LEA "
                       f"{_f(worst.f1('lea'))}")

    checks.append(("2", "BLANC F1 is at most B3's and LEA's at every point of Figure 2",
                   blanc_below))

    def blanc_above() -> tuple[bool, str]:
        below = [p for p in fig3.points if p.x < 1]
        best = {p.label: max(p.f1(m) for m in IDENTITY if m != "blanc") for p in below}
        points = min((p.f1("blanc") - best[p.label], p.label) for p in below)
        ratio = min((p.f1("blanc") / best[p.label] if best[p.label] else float("inf"),
                     p.label) for p in below)
        holds = points[0] >= 0.20 or ratio[0] >= 1.2
        return holds, (f"smallest lead of BLANC over the best other metric: "
                       f"{points[0] * 100:.2f} points at {points[1]}; smallest ratio "
                       f"{ratio[0]:.2f} at {ratio[1]}")

    checks.append(("3", "BLANC F1 is at least 20% higher than every other metric's at every "
                   "point of Figure 3 below 100% (in points or relative)", blanc_above))

    fig4, fig5 = by_figure[4], by_figure[5]

    def ceafe_sizes() -> tuple[bool, str]:
        gap = max(abs(a - b) for a, b in zip(fig4.curve("ceafe"), fig5.curve("ceafe"),
                                             strict=True))
        return gap < 1e-12, f"largest CEAFe difference at equal entity counts: {gap:.2e}"

    checks.append(("4-5", "CEAFe gives the same F1 whatever the size of the entities "
                   "resolved or missing", ceafe_sizes))

    def same_three() -> tuple[bool, str]:
        gap = max(abs(p.f1(a) - p.f1(b)) for experiment in (fig4, fig5)
                  for p in experiment.points for a in ("bcub", "ceafm", "lea")
                  for b in ("bcub", "ceafm", "lea"))
        return gap < 1e-12, f"largest difference among B3, CEAFm and LEA: {gap:.2e}"

    checks.append(("4-5", "B3, CEAFm and LEA give the same F1", same_three))

    def blanc_links() -> tuple[bool, str]:
        gaps = {m: max(abs(a - b) for a, b in zip(fig4.curve(m), fig5.curve(m), strict=True))
                for m in IDENTITY}
        return max(gaps, key=gaps.__getitem__) == "blanc", (
            "largest F1 gap between resolving the same number of entities largest-first and "
            "smallest-first: " + ", ".join(f"{metric_title(m)} {gaps[m] * 100:.1f}" for m in
                                           IDENTITY))

    checks.append(("4-5", "BLANC is the most sensitive to the number of links resolved "
                   "(largest gap between Figures 4 and 5)", blanc_links))

    fig6 = by_figure[6]

    def muc_splits() -> tuple[bool, str]:
        two = {fig6.point(label).f1("muc") for label, _, parts in SPLITS if len(parts) == 2}
        three = {fig6.point(label).f1("muc") for label, _, parts in SPLITS if len(parts) == 3}
        holds = len(two) == 1 and len(three) == 1 and max(three) < min(two)
        return holds, (f"MUC F1 of two-part splits {sorted(_f(v) for v in two)}, of "
                       f"three-part splits {sorted(_f(v) for v in three)}")

    checks.append(("6", "MUC only sees the number of splits, whatever the sizes", muc_splits))

    def ceafe_splits() -> tuple[bool, str]:
        pairs = [("2-2", "10-10"), ("9-9-2", "9-5-6")]
        holds = all(abs(fig6.point(a).f1("ceafe") - fig6.point(b).f1("ceafe")) < 1e-12
                    for a, b in pairs)
        return holds, ", ".join(f"{a} {_f(fig6.point(a).f1('ceafe'))} vs {b} "
                                f"{_f(fig6.point(b).f1('ceafe'))}" for a, b in pairs)

    checks.append(("6", "CEAFe does not tell 2-2 from 10-10, nor 9-9-2 from 9-5-6",
                   ceafe_splits))

    for metric, order in (("bcub", ("18-2", "5-3-2", "16-4")),
                          ("blanc", ("5-3-2", "18-2", "16-4")),
                          ("ceafm", ("18-2", "16-4", "5-3-2")),
                          ("ceafe", ("18-2", "16-4", "5-3-2")),
                          ("lea", ("18-2", "16-4", "5-3-2"))):
        def ranking(metric: str = metric, order: tuple[str, ...] = order) -> tuple[bool, str]:
            return _strictly_ordered(fig6, metric, order), _ranking(fig6, metric, order)

        name = "CEAF (CEAFm)" if metric == "ceafm" else "CEAF (CEAFe)" if metric == "ceafe" \
            else metric_title(metric)
        checks.append(("6", f"{name} ranks {' > '.join(order)}", ranking))

    fig7 = by_figure[7]
    labels7 = [point.label for point in fig7.points]

    def least_discriminative() -> tuple[bool, str]:
        distinct = {m: len({round(v, 12) for v in fig7.curve(m)}) for m in IDENTITY}
        fewest = min(distinct.values())
        holds = distinct["muc"] == fewest and distinct["ceafm"] == fewest and all(
            distinct[m] > fewest for m in IDENTITY if m not in ("muc", "ceafm"))
        return holds, "distinct F1 values over the outputs: " + ", ".join(
            f"{metric_title(m)} {distinct[m]}" for m in IDENTITY)

    checks.append(("7", "MUC and CEAFm are the least discriminative with extra mentions",
                   least_discriminative))

    def worst_3_10() -> tuple[bool, str]:
        lowest = {m: min(fig7.curve(m)) for m in IDENTITY}
        worst = {m: [label for label in labels7 if fig7.point(label).f1(m) <= lowest[m] + 1e-12]
                 for m in IDENTITY}
        holds = all("3-10" in worst[m] for m in IDENTITY if m != "ceafe") and \
            "3-10" not in worst["ceafe"]
        return holds, "worst outputs: " + "; ".join(
            f"{metric_title(m)} {', '.join(worst[m])}" for m in IDENTITY)

    checks.append(("7", "every metric but CEAFe ranks 3-10 as the worst output (ties "
                   "included)", worst_3_10))

    def ceafe_worst() -> tuple[bool, str]:
        lowest = min(fig7.curve("ceafe"))
        worst = [label for label in labels7 if fig7.point(label).f1("ceafe") <= lowest + 1e-12]
        return sorted(worst) == ["2-0", "3-0"], f"CEAFe's worst outputs: {', '.join(worst)}"

    checks.append(("7", "CEAFe ranks 2-0 and 3-0 as the worst outputs", ceafe_worst))

    def lea_only() -> tuple[bool, str]:
        better = [m for m in IDENTITY
                  if fig7.point("2-0").f1(m) > max(fig7.point("1-2").f1(m),
                                                   fig7.point("1-10").f1(m))]
        return better == ["lea"], ("metrics scoring 2-0 above both 1-2 and 1-10: "
                                   + (", ".join(metric_title(m) for m in better) or "none"))

    checks.append(("7", "LEA is the only metric that finds 2-0 less harmful than 1-2 and 1-10",
                   lea_only))

    def lea_one_extra() -> tuple[bool, str]:
        values = {label: fig7.point(label).f1("lea") for label in labels7
                  if label.startswith("1-")}
        holds = max(values.values()) - min(values.values()) < 1e-12
        return holds, "LEA F1 of one extra mention: " + ", ".join(
            f"{label} {_f(value)}" for label, value in values.items())

    checks.append(("7", "LEA gives the same F1 whichever entity one extra mention joins",
                   lea_one_extra))

    fig8 = by_figure[8]

    def mention_effect() -> tuple[bool, str]:
        zero = all(p.f1("muc") == 0 and p.f1("lea") == 0 for p in fig8.points)
        rewarded = [m for m in ("bcub", "ceafm", "ceafe", "blanc")
                    if all(p.f1(m) > 0 for p in fig8.points)]
        holds = zero and rewarded == ["bcub", "ceafm", "ceafe", "blanc"]
        return holds, "F1 with no correct link, by share of mentions found: " + "; ".join(
            f"{metric_title(m)} " + "/".join(_f(v) for v in fig8.curve(m)) for m in IDENTITY)

    checks.append(("8", "with no correct link, B3, CEAFm, CEAFe and BLANC still give non-zero "
                   "F1 (against interpretability); MUC and LEA give 0", mention_effect))

    result = []
    for number, (figure, statement, check) in enumerate(checks, start=1):
        holds, evidence = check()
        result.append(Observation(figure, statement, holds, evidence, number))
    return result


# Output -----------------------------------------------------------------------------------

def lab_metrics(experiments: Sequence[Experiment]) -> list[str]:
    """The metrics the lab reports, in report order."""
    present = experiments[0].points[0].scores
    return [name for name in METRIC_NAMES if name in present]


def lab_tables(experiments: Sequence[Experiment]) -> list[Any]:
    """One table per figure (a row per response, a column per metric's F1), then the
    observations."""
    from anascore.report.tables import Column, Percent, Table

    metrics = lab_metrics(experiments)
    tables = []
    for experiment in experiments:
        first = "entities" if experiment.figure in (4, 5) else "response"
        columns = (Column(first, numeric=False), Column(experiment.x_label),
                   *(Column(metric_title(name)) for name in metrics))
        rows = tuple((point.label, Percent(point.x) if experiment.figure not in (6, 7)
                      else None, *(Percent(point.f1(name)) for name in metrics))
                     for point in experiment.points)
        if experiment.figure in (6, 7):
            columns = (columns[0], *columns[2:])
            rows = tuple((row[0], *row[2:]) for row in rows)
        tables.append(Table(f"Figure {experiment.figure}: {experiment.title} (F1, %)",
                            columns, rows, experiment.description, kind="lab"))
    found = observations(experiments)
    tables.append(Table(
        "Observations of Moosavi & Strube (2016, §6), checked",
        (Column("#"), Column("figure", numeric=False), Column("holds", numeric=False),
         Column("observation", numeric=False), Column("evidence", numeric=False)),
        tuple((str(o.number), o.figure, "yes" if o.holds else "no", o.statement, o.evidence)
              for o in found), kind="observations"))
    return tables


def lab_to_dict(experiments: Sequence[Experiment]) -> dict[str, Any]:
    return {
        "key_entity_sizes": list(KEY_SIZES),
        "signature": Options().signature(),
        "experiments": [
            {"figure": e.figure, "title": e.title, "x_label": e.x_label,
             "description": e.description,
             "points": [{"label": p.label, "x": p.x,
                         "metrics": {name: score.to_dict() for name, score in p.scores.items()}}
                        for p in e.points]}
            for e in experiments],
        "observations": [{"number": o.number, "figure": o.figure, "statement": o.statement,
                          "holds": o.holds, "evidence": o.evidence}
                         for o in observations(experiments)],
    }


def render_lab(experiments: Sequence[Experiment], output: str = "text") -> str:
    """The lab's tables in one of ``anascore score``'s output formats."""
    import json

    signature = Options().signature()
    if output == "json":
        return json.dumps(lab_to_dict(experiments), indent=2) + "\n"
    if output == "csv":
        from anascore.formats.io.csv_output import csv_rows

        return csv_rows([["figure", "response", "x", "metric", "recall", "precision", "f1"],
                         *([e.figure, p.label, p.x, name, getattr(score, "recall", ""),
                            getattr(score, "precision", ""), score.f1]
                           for e in experiments for p in e.points
                           for name, score in p.scores.items())])
    tables = lab_tables(experiments)
    if output == "markdown":
        from anascore.report.markdown import render_markdown

        return render_markdown(tables, signature)
    if output == "latex":
        from anascore.report.latex import render_latex

        return render_latex(tables, signature)
    from anascore.report.tables import render_text_tables

    return render_text_tables(tables, signature)
