"""Several responses scored against one key: the report a comparison of systems prints.

A :class:`SystemsReport` holds one :class:`~anascore.report.Report` per response (each with its
documents × fields count matrices, and its intervals when asked), the systems' names (the
first is the baseline) and the paired tests of every other system against the baseline. Every
output format renders this one object.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from anascore.config.options import Options
from anascore.config.presets import describe_mode
from anascore.core.errors import OptionsError
from anascore.core.version import __version__
from anascore.report import Report
from anascore.report.names import system_names  # noqa: F401  (its home before names.py)
from anascore.stats.bootstrap import confidence_intervals
from anascore.stats.significance import (
    APPROXIMATE_RANDOMIZATION,
    PAIRED_BOOTSTRAP,
    PairedResult,
    approximate_randomization,
    paired_bootstrap,
)


@dataclass(frozen=True)
class SystemsReport:
    """Scores of several responses against one key.

    Attributes
    ----------
    names
        One name per response, in the order given; the first is the baseline of the tests.
    reports
        One :class:`Report` per response, on the same documents.
    tests
        Every paired test result (system against baseline, per metric and test).
    test_warnings
        What the tests' results need said: tests that cannot reject at α whatever the systems
        do, or that rest on too few documents or resamples, or are not applicable
        (:mod:`anascore.stats.adequacy`); each result's own ``note`` says it too.
    """

    names: tuple[str, ...]
    reports: tuple[Report, ...]
    tests: tuple[PairedResult, ...] = field(default=())
    test_warnings: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        if len(self.names) != len(self.reports) or not self.reports:
            raise OptionsError("a systems report needs one name per report, and a report")
        if len(set(self.names)) != len(self.names):
            raise OptionsError(f"system names must differ: {', '.join(self.names)}")

    @property
    def options(self) -> Options:
        return self.reports[0].options

    @property
    def baseline(self) -> str:
        return self.names[0]

    @property
    def document_names(self) -> tuple[str, ...]:
        return self.reports[0].document_names

    @property
    def signature(self) -> str:
        return self.reports[0].signature

    @property
    def version(self) -> str:
        return __version__

    def report(self, name: str) -> Report:
        """The report of the system called ``name``."""
        try:
            return self.reports[self.names.index(name)]
        except ValueError:
            raise KeyError(f"no system {name!r}; expected one of {', '.join(self.names)}")\
                from None

    @property
    def warnings(self) -> tuple[str, ...]:
        """Every warning once: the reports' (input, intervals), then the tests'."""
        return tuple(dict.fromkeys([warning for report in self.reports
                                    for warning in report.warnings] + list(self.test_warnings)))

    def test_results(self, test: str) -> list[PairedResult]:
        """The results of one test (``paired-bs`` or ``paired-ar``), system by system."""
        return [result for result in self.tests if result.test == test]

    def with_statistics(self, *, progress: bool = False) -> SystemsReport:
        """A copy with what the options ask for: intervals for every system
        (``confidence``), paired bootstrap (``paired_bs``) and approximate randomization
        (``paired_ar``) tests of every system against the first.

        Raises
        ------
        OptionsError
            A paired test with fewer than two systems.
        """
        options = self.options
        suite = self.reports[0].suite
        if (options.paired_bs or options.paired_ar) and len(self.reports) < 2:
            raise OptionsError("paired tests compare responses with the first one; give at "
                               "least two responses")
        count_sets = [report.counts for report in self.reports]
        reports = self.reports
        if options.confidence:
            intervals = confidence_intervals(
                count_sets, options.reported_metrics, resamples=options.confidence,
                level=options.confidence_level, seed=options.seed, progress=progress,
                suite=suite)
            reports = tuple(report.with_interval_warnings(system_intervals)
                            for report, system_intervals in zip(reports, intervals, strict=True))
        tests: list[PairedResult] = []
        if options.paired_bs:
            for results in paired_bootstrap(count_sets, options.reported_metrics, self.names,
                                            resamples=options.paired_bs, seed=options.seed,
                                            level=options.confidence_level, progress=progress,
                                            suite=suite):
                tests.extend(results.values())
        if options.paired_ar:
            for results in approximate_randomization(count_sets, options.reported_metrics,
                                                     self.names, trials=options.paired_ar,
                                                     seed=options.seed, progress=progress,
                                                     suite=suite,
                                                     level=options.confidence_level):
                tests.extend(results.values())
        return replace(self, reports=reports, tests=tuple(tests),
                       test_warnings=tuple(test_warnings(tests)))

    def to_dict(self, *, per_document: bool = False, details: bool = False,
                sort_by: str | None = None) -> dict[str, Any]:
        """The JSON object ``anascore score KEY RESPONSE… --output json`` prints for several
        responses: the settings, then each system's report (as :meth:`Report.to_dict`
        without the shared fields), then the tests by test, system and metric."""
        shared = ("version", "signature", "mode", "options", "documents", "key_hash",
                  "key_sha256")
        systems: dict[str, Any] = {}
        for name, report in zip(self.names, self.reports, strict=True):
            system = report.to_dict(per_document=per_document, details=details,
                                    sort_by=sort_by)
            systems[name] = {key: value for key, value in system.items() if key not in shared}
        result: dict[str, Any] = {
            "version": self.version,
            "signature": self.signature,
            "mode": describe_mode(self.options),
            "options": self.options.to_dict(),
            "documents": len(self.document_names),
            **self.reports[0].key_fields(),
            "baseline": self.baseline,
            "systems": systems,
        }
        if self.tests:
            significance: dict[str, dict[str, dict[str, Any]]] = {}
            for test in (PAIRED_BOOTSTRAP, APPROXIMATE_RANDOMIZATION):
                for outcome in self.test_results(test):
                    significance.setdefault(test, {}).setdefault(outcome.system, {})[
                        outcome.metric] = outcome.to_dict()
            result["significance"] = significance
            result["test_warnings"] = list(self.test_warnings)
            result["correction"] = "holm (over the systems compared with the baseline, " \
                                   "per metric and test)"
        return result

    def to_json(self, *, per_document: bool = False, details: bool = False,
                sort_by: str | None = None) -> str:
        return json.dumps(self.to_dict(per_document=per_document, details=details,
                                       sort_by=sort_by), indent=2)

    # In a notebook (anascore.report.notebook): a line, a table, a DataFrame -----------------

    def __repr__(self) -> str:
        from anascore.report.notebook import f1_summary

        shown = "; ".join(f"{name}: {f1_summary(report.metrics, report.intervals, 3)}"
                          for name, report in zip(self.names[:4], self.reports, strict=False))
        more = f"; … {len(self.names) - 4} more" if len(self.names) > 4 else ""
        tests = f"; {len(self.tests)} tests" if self.tests else ""
        said = f"; {len(self.warnings)} warnings" if self.warnings else ""
        return (f"SystemsReport({len(self.names)} systems on {len(self.document_names)} "
                f"documents, F1 {shown}{more}{tests}{said})")

    def _repr_html_(self) -> str:
        """A row per system, its F1 on every reported metric with its interval."""
        from anascore.report.notebook import html_table, with_interval

        def f1(report: Report, metric: str) -> str:
            found = (report.intervals or {}).get(metric)
            return with_interval(report.metrics[metric].f1, None if found is None else found.f1)

        metrics = list(self.reports[0].metrics)
        rows = [(name, [f1(report, metric) for metric in metrics])
                for name, report in zip(self.names, self.reports, strict=True)]
        caption = (f"F1 (%) of {len(self.names)} systems on {len(self.document_names)} "
                   f"documents; {describe_mode(self.options)}")
        return html_table(caption, metrics, rows)

    def to_dataframe(self) -> Any:
        """A pandas DataFrame (the ``pandas`` extra): a row per system and metric with
        recall, precision and F1 (fractions; NaN where not applicable) and, with intervals,
        their ends (``f1_low``, ``f1_high`` …)."""
        from anascore.report.notebook import dataframe, score_record

        return dataframe({(name, metric): score_record(score,
                                                       (report.intervals or {}).get(metric))
                          for name, report in zip(self.names, self.reports, strict=True)
                          for metric, score in report.metrics.items()}, ["system", "metric"])


@dataclass(frozen=True)
class TestNote:
    """A note shared by some results of one test and system: why the test is not applicable
    (``applicable`` false), or what its p-values need said."""

    test: str
    system: str
    metrics: tuple[str, ...]
    note: str
    applicable: bool

    def text(self, *, test_name: bool = True) -> str:
        what = f"{self.test} of {self.system}" if test_name else self.system
        return (f"{what} against the baseline ({', '.join(self.metrics)}): "
                f"{'' if self.applicable else 'not applicable: '}{self.note}")


def test_notes(results: Sequence[PairedResult]) -> list[TestNote]:
    """The notes of test results, one per test, system and note, naming the metrics."""
    grouped: dict[tuple[str, str, str, bool], list[str]] = {}
    for result in results:
        if result.note is not None:
            grouped.setdefault((result.test, result.system, result.note, result.applicable),
                               []).append(result.metric)
    return [TestNote(test, system, tuple(metrics), note, applicable)
            for (test, system, note, applicable), metrics in grouped.items()]


def test_warnings(results: Sequence[PairedResult]) -> list[str]:
    """One line per test, system and note (cannot reject, too few documents or resamples,
    not applicable), naming the metrics it holds for."""
    return [note.text() for note in test_notes(results)]
