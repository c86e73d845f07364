"""What each group of ``anascore score --group-by`` states, and how it is shown.

:class:`GroupedScores` holds the counts of every group (:mod:`anascore.scoring.groups` says how
groups are made) and gives each group's scores, a micro row (the groups' counts summed, scored
as the plain score scores them) and a macro row (the mean over groups).

**Not applicable in a group.** A group is a slice of the corpus; many slices hold nothing for
some metric: a group the key has no mention of (two spurious zero mentions make a group
``zero`` when the key has none), MUC in a group of singletons (no link to find). A score over
nothing is not 0 (:mod:`anascore.metrics.scores`), and a 0 there would weigh in the macro mean as
much
as a group of thousands of mentions. So, per group and metric, with the project's
representation of *not applicable* (``NaN``, a reason, ``null`` in JSON, ``n/a`` in tables):

* where the key has nothing for the metric to find (recall 0/0), recall and F1 are n/a and
  the group is left out of the metric's macro mean: the macro is a mean over the groups the
  key has, never over groups only the response made. Precision shows what the response
  proposed there (0/2: two wrong mentions); those errors count in the micro row;
* where the response proposes nothing (precision 0/0), precision is n/a and F1 is 0 (the
  key's mentions of the group were all missed): the group stays in the macro;
* BLANC where the key has no link of either kind is n/a as a whole; the CoNLL average is n/a
  where one of its parts is.

Every group carries its counts — documents, key and response mentions, each metric's
numerators and denominators — in every output, so that a group resting on two mentions shows
as such.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from anascore.config.options import DERIVED_METRICS, Options
from anascore.core.float_sums import sum_in_order
from anascore.metrics.scores import (
    AverageScore,
    BlancScore,
    BridgingScore,
    MetricResult,
    Score,
    defined_ratio,
    json_number,
    not_applicable_reason,
)
from anascore.report import Report
from anascore.stats.metric_suite import MetricSuite
from anascore.stats.sums import column_sums, scores_from_counts

PARTS = ("recall", "precision", "f1")
#: The counts of a group besides its metrics' (``counts()``).
COUNT_NAMES = ("documents", "key_mentions", "response_mentions")


def in_group(score: MetricResult) -> MetricResult:
    """``score`` as a group states it (the module docstring): recall and F1 n/a where the
    key has nothing to find, precision n/a where the response proposes nothing; metrics
    with other results (the dominant-mention classes) as they are."""
    if isinstance(score, Score):
        if score.recall_den:
            return Score.from_counts(score.recall_num, score.recall_den, score.precision_num,
                                     score.precision_den, empty="n/a")
        return Score(math.nan, defined_ratio(score.precision_num, score.precision_den),
                     math.nan, score.recall_num, score.recall_den, score.precision_num,
                     score.precision_den, not_applicable_reason(0, score.precision_den))
    if isinstance(score, BlancScore):
        halves = (score.coref_links, score.non_coref_links)
        if any(half.recall_den for half in halves):
            return score
        # No link of either kind in the key: no response link can be right.
        proposed = any(half.precision_den for half in halves)
        return BlancScore(math.nan, 0.0 if proposed else math.nan, math.nan, *halves)
    if isinstance(score, BridgingScore):
        return BridgingScore(*(in_group(part) for part in  # type: ignore[arg-type]
                               (score.anaphor_recognition, score.mention, score.entity)))
    return score


def _reason(score: MetricResult) -> str | None:
    """Why a value of a group's ``score`` is n/a (``None`` when none is)."""
    if isinstance(score, BlancScore):
        if not math.isnan(score.recall):
            return None
        return not_applicable_reason(0, sum(half.precision_den for half in
                                            (score.coref_links, score.non_coref_links)))
    return getattr(score, "reason", None)


def in_macro(score: MetricResult) -> bool:
    """Whether a group's ``score`` (as :func:`in_group` states it) weighs in the macro mean:
    whether the key has something for the metric to find there."""
    recall = getattr(score, "recall", None)
    return not math.isnan(score.f1 if recall is None else recall)


def stated_scores(counts: Mapping[str, np.ndarray], names: Sequence[str], options: Options
                  ) -> tuple[dict[str, MetricResult], dict[str, str]]:
    """Each metric of ``names`` on a group's summed ``counts`` as the group states it, and
    the reason of each metric with a value n/a."""
    bases = list(dict.fromkeys(part for name in names
                               for part in DERIVED_METRICS.get(name, (name,))))
    found = {name: in_group(score)
             for name, score in scores_from_counts(counts, bases, MetricSuite.of(options)).items()}
    reasons = {name: reason for name, score in found.items() if (reason := _reason(score))}
    scores: dict[str, MetricResult] = {}
    for name in names:
        if name not in DERIVED_METRICS:
            scores[name] = found[name]
            continue
        parts = DERIVED_METRICS[name]
        f1_values = [found[part].f1 for part in parts]
        scores[name] = AverageScore(sum_in_order(f1_values) / len(f1_values), parts)
        missing = [part for part in parts if math.isnan(found[part].f1)]
        if missing:
            reasons[name] = f"{', '.join(missing)} not applicable"
    return scores, {name: reasons[name] for name in names if name in reasons}


def count_fields(score: MetricResult) -> dict[str, float]:
    """The numerators and denominators a score comes from, by name (BLANC: of its two
    halves; bridging: of its entity level; none for an average)."""
    if isinstance(score, Score):
        return {"recall_num": score.recall_num, "recall_den": score.recall_den,
                "precision_num": score.precision_num, "precision_den": score.precision_den}
    if isinstance(score, BlancScore):
        return {f"{half}_{name}": value
                for half, part in (("coref", score.coref_links),
                                   ("non_coref", score.non_coref_links))
                for name, value in count_fields(part).items()}
    if isinstance(score, BridgingScore):
        return count_fields(score.entity)
    return {}


def _percent(value: float) -> str:
    return "n/a" if math.isnan(value) else f"{100 * value:.2f}"


def _count(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}"


@dataclass(frozen=True)
class GroupedScores:
    """The scores of every group (``reports[GROUP]``, a :class:`Report` of the group's
    counts), in the order groups were first met (mention groups: in a fixed order)."""

    kind: str
    reports: Mapping[str, Report]
    options: Options
    #: What the groups were made in spite of (distances in documents that mark no sentence).
    warnings: tuple[str, ...] = ()
    #: The documents each group has a mention in (mention groups; a document group has its
    #: documents).
    documents: Mapping[str, int] = field(default_factory=dict)

    def __repr__(self) -> str:
        return (f"GroupedScores({self.kind}: {len(self.reports)} groups: "
                f"{', '.join(list(self.reports)[:6])}{', …' if len(self.reports) > 6 else ''})")

    @cached_property
    def _stated(self) -> dict[str, tuple[dict[str, MetricResult], dict[str, str]]]:
        return {group: stated_scores(report.corpus_counts, self.options.reported_metrics,
                                     self.options)
                for group, report in self.reports.items()}

    def scores(self) -> dict[str, dict[str, MetricResult]]:
        """Each group's scores, by metric, as the group states them (the module docstring:
        ``NaN`` where not applicable)."""
        return {group: scores for group, (scores, _) in self._stated.items()}

    def reasons(self) -> dict[str, dict[str, str]]:
        """Why a value is n/a, by group and metric (only those with one)."""
        return {group: reasons for group, (_, reasons) in self._stated.items() if reasons}

    def micro(self) -> dict[str, MetricResult]:
        """The scores of the groups' counts summed (as the plain score scores counts)."""
        summed = {name: column_sums(np.vstack([report.corpus_counts[name]
                                               for report in self.reports.values()]))
                  for name in self.options.computed_metrics}
        return scores_from_counts(summed, self.options.reported_metrics,
                                  MetricSuite.of(self.options))

    def macro_groups(self) -> dict[str, tuple[str, ...]]:
        """The groups in each metric's macro mean: those where the key has something for
        it to find."""
        scores = self.scores()
        return {name: tuple(group for group in scores if in_macro(scores[group][name]))
                for name in self.options.reported_metrics}

    def macro(self) -> dict[str, dict[str, float]]:
        """The mean of each metric's recall, precision and F1 over :meth:`macro_groups` (a
        value n/a in one of them is left out of its mean; ``NaN`` when none has it)."""
        scores = self.scores()
        found: dict[str, dict[str, float]] = {}
        for name, groups in self.macro_groups().items():
            found[name] = {}
            for part in PARTS:
                values = [getattr(scores[group][name], part, math.nan) for group in groups]
                values = [value for value in values if not math.isnan(value)]
                found[name][part] = (sum_in_order(values) / len(values) if values
                                     else math.nan)
        return found

    def counts(self) -> dict[str, dict[str, int]]:
        """Each group's documents, key mentions and response mentions (after selection),
        then ``micro``: every document, every mention."""
        found = {}
        for group, report in self.reports.items():
            mentions = report.corpus_counts["mentions"]
            found[group] = {"documents": self.documents.get(group,
                                                            len(report.document_names)),
                            "key_mentions": int(mentions[1]),
                            "response_mentions": int(mentions[3])}
        documents = (len(next(iter(self.reports.values())).document_names)
                     if self.documents and self.reports
                     else sum(row["documents"] for row in found.values()))
        found["micro"] = {"documents": documents,
                          **{name: sum(row[name] for row in found.values())
                             for name in COUNT_NAMES[1:]}}
        return found

    def to_dict(self) -> dict[str, Any]:
        """``{"kind", "groups": {GROUP: {METRIC: {recall, precision, f1, numerators and
        denominators, "not_applicable": why}}}, "counts": {GROUP: {documents, key_mentions,
        response_mentions}}, "micro", "macro": {METRIC: {recall, precision, f1, "groups":
        how many groups its mean is over}}, "warnings"}`` (``null`` where not applicable)."""
        def row(scores: Mapping[str, MetricResult], reasons: Mapping[str, str]
                ) -> dict[str, dict[str, Any]]:
            found: dict[str, dict[str, Any]] = {}
            for name, score in scores.items():
                found[name] = {part: json_number(getattr(score, part, math.nan))
                               for part in PARTS}
                found[name].update(count_fields(score))
                if name in reasons:
                    found[name]["not_applicable"] = reasons[name]
            return found

        reasons = self.reasons()
        macro_groups = self.macro_groups()
        return {"kind": self.kind,
                "groups": {group: row(scores, reasons.get(group, {}))
                           for group, scores in self.scores().items()},
                "counts": self.counts(),
                "micro": row(self.micro(), {}),
                "macro": {name: {**{part: json_number(value) for part, value in values.items()},
                                 "groups": len(macro_groups[name])}
                          for name, values in self.macro().items()},
                "warnings": list(self.warnings)}

    def table(self) -> list[tuple[str, dict[str, float]]]:
        """Rows of F1 by metric: each group, then ``micro`` and ``macro``."""
        rows = [(group, {name: score.f1 for name, score in scores.items()})
                for group, scores in self.scores().items()]
        rows.append(("micro", {name: score.f1 for name, score in self.micro().items()}))
        rows.append(("macro", {name: values["f1"] for name, values in self.macro().items()}))
        return rows

    def _f1_rows(self) -> tuple[list[str], list[list[str]]]:
        """The F1 table as cells: the group, its counts, each metric's F1 in percent."""
        names = list(self.options.reported_metrics)
        counts = self.counts()
        header = [self.kind, "documents", "key", "response", *names]
        rows = [[group, *([str(counts[group][name]) for name in COUNT_NAMES]
                          if group in counts else ["", "", ""]),
                 *(_percent(values[name]) for name in names)]
                for group, values in self.table()]
        return header, rows

    def _count_rows(self) -> tuple[list[str], list[list[str]]]:
        """Each metric's recall and precision as numerator/denominator, per group and micro
        (BLANC: of coreference and non-coreference links)."""
        stated = {**self.scores(), "micro": self.micro()}
        columns: list[tuple[str, str, str]] = []  # metric, numerator field, heading
        for name, score in next(iter(stated.values())).items():
            fields = count_fields(score)
            for numerator in (key for key in fields if key.endswith("_num")):
                side = numerator[:-len("_num")]
                label = side.replace("non_coref_", "non-coref ").replace("coref_", "coref ")
                label = label.replace("recall", "R").replace("precision", "P")
                columns.append((name, numerator, f"{name} {label}"))
        rows = []
        for group, scores in stated.items():
            found = {name: count_fields(score) for name, score in scores.items()}
            rows.append([group, *(f"{_count(found[name][numerator])}/"
                                  f"{_count(found[name][numerator[:-4] + '_den'])}"
                                  for name, numerator, _ in columns)])
        return [self.kind, *(heading for _, _, heading in columns)], rows

    def _notes(self) -> list[tuple[str, str]]:
        """``(group, note)`` for each reason a group has values n/a: which metrics, why,
        and whether the group is in their macro mean."""
        found = []
        scores = self.scores()
        for group, reasons in self.reasons().items():
            by_reason: dict[tuple[str, bool], list[str]] = {}
            for name, reason in reasons.items():
                by_reason.setdefault((reason, in_macro(scores[group][name])), []).append(name)
            for (reason, counted), names in by_reason.items():
                found.append((group, f"{', '.join(names)}: precision n/a, {reason}" if counted
                              else f"{', '.join(names)}: n/a, {reason}, not in the macro"))
        return found

    def notes(self) -> list[str]:
        """A line per group and reason of values n/a (``GROUP: METRICS: …``)."""
        return [f"{group}: {note}" for group, note in self._notes()]

    def to_text(self) -> str:
        """The F1 table with each group's counts (percent), then each metric's numerators
        and denominators, then what is n/a and why."""
        def aligned(header: list[str], rows: list[list[str]]) -> list[str]:
            widths = [max(len(row[index]) for row in [header, *rows])
                      for index in range(len(header))]
            return ["  ".join(cell.ljust(width) if index == 0 else cell.rjust(width)
                              for index, (cell, width) in enumerate(zip(row, widths,
                                                                        strict=True)))
                    for row in [header, *rows]]

        lines = aligned(*self._f1_rows())
        notes = self.notes()
        if notes:
            lines += ["", *notes]
        lines += ["", "Counts (recall R and precision P: numerator/denominator)", "",
                  *aligned(*self._count_rows())]
        return "\n".join(lines)

    def to_markdown(self) -> str:
        from anascore.report.markdown import escape

        def table(header: list[str], rows: list[list[str]]) -> list[str]:
            return ["| " + " | ".join(map(escape, header)) + " |",
                    "|---|" + "---:|" * (len(header) - 1),
                    *("| " + " | ".join(map(escape, row)) + " |" for row in rows)]

        lines = table(*self._f1_rows())
        notes = self.notes()
        if notes:
            lines += ["", *(f"- {escape(note)}" for note in notes)]
        lines += ["", "Counts (recall R and precision P: numerator/denominator)", "",
                  *table(*self._count_rows())]
        return "\n".join(lines)

    def to_csv(self) -> str:
        """A row per group, then ``micro`` and ``macro``: the counts, each metric's recall,
        precision and F1 (fractions; empty where n/a) and numerators and denominators, and
        a ``note`` saying what is n/a and why."""
        from anascore.formats.io.csv_output import csv_rows

        data = self.to_dict()
        names = list(self.options.reported_metrics)
        rows = {**data["groups"], "micro": data["micro"], "macro": data["macro"]}
        fields = {name: [key for key in rows["micro"][name] if key not in PARTS]
                  for name in names}
        header = ["group", *COUNT_NAMES,
                  *(f"{name}_{part}" for name in names for part in (*PARTS, *fields[name])),
                  "note"]
        notes: dict[str, list[str]] = {}
        for group, note in self._notes():
            notes.setdefault(group, []).append(note)

        def number(value: float | None) -> str:
            return "" if value is None else f"{value:.6f}"

        lines = [header]
        for group, scores in rows.items():
            counts = data["counts"].get(group, {})
            lines.append([group, *(counts.get(name, "") for name in COUNT_NAMES),
                          *(cell for name in names
                            for cell in (*(number(scores[name][part]) for part in PARTS),
                                         *(scores[name].get(key, "") for key in fields[name]))),
                          "; ".join(notes.get(group, []))])
        return csv_rows(lines)

    def _repr_html_(self) -> str:
        from html import escape

        from anascore.report.notebook import html_table

        header, rows = self._f1_rows()
        header[1:4] = ["documents", "key mentions", "response mentions"]
        f1 = html_table(f"F1 by {self.kind}", header[1:], [(row[0], row[1:]) for row in rows])
        notes = "".join(f"<p class='note'>{escape(note)}</p>" for note in self.notes())
        header, rows = self._count_rows()
        counts = html_table("Counts (recall R and precision P: numerator/denominator)",
                            header[1:], [(row[0], row[1:]) for row in rows])
        # Wide tables (the counts have two columns per metric) scroll, not the page.
        return (f"<div style='overflow-x:auto'>{f1}</div>{notes}"
                f"<div style='overflow-x:auto'>{counts}</div>")

    def to_dataframe(self) -> Any:
        """A pandas DataFrame (the ``pandas`` extra): a row per group (and micro, macro), a
        column per metric and part, then the counts."""
        from anascore.report.notebook import dataframe

        data = self.to_dict()
        rows = {**data["groups"], "micro": data["micro"], "macro": data["macro"]}
        return dataframe({group: {**{(name, part): (math.nan if value is None else value)
                                     for name, parts in scores.items()
                                     for part, value in parts.items()
                                     if part in PARTS},
                                  **{("counts", name): value for name, value in
                                     data["counts"].get(group, {}).items()}}
                          for group, scores in rows.items()}, [self.kind])
