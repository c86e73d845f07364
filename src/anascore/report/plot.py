"""Plots (the optional ``plot`` extra: ``pip install '.[plot]'`` in a checkout, which brings
matplotlib).

* :func:`plot_report` draws a JSON report of ``anascore score`` (one or several systems): each
  metric's F1 per system as bars, with the bootstrap interval as an error bar when the report
  has intervals; and, when the report has per-document scores, the distribution of one
  metric's per-document F1 per system (a box plot over the documents, every document a dot).
* :func:`plot_lab` draws the curves of ``anascore lab``: one panel per figure of Moosavi &
  Strube (2016), a line per metric.

The format follows the file name (``.png``, ``.svg`` or ``.pdf``). matplotlib is imported only
here and only when drawing, with its non-interactive Agg canvas (no display needed).
"""

from __future__ import annotations

import json
import math
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from anascore.config.metric_names import metric_title
from anascore.config.options import METRIC_NAMES, canonical_metric
from anascore.core.errors import AnascoreError, FormatError, OptionsError
from anascore.formats.io.output import atomic_output, check_writable, refuse_overwriting_inputs
from anascore.formats.io.sources import read_bounded

IMAGE_FORMATS = (".png", ".svg", ".pdf")
#: The most a JSON report may take (a device or a pipe without end is refused, not read).
REPORT_LIMIT = 64 * 2**20


def _title(metric: str) -> str:
    """A metric as the tables title it (the catalogue's title: ``B3``, ``DD MUC``)."""
    return metric_title(metric)


def _text(name: str) -> str:
    """A name from the input drawn as it is: matplotlib reads the text between two ``$`` as
    mathematics (and refuses what it cannot parse), an escaped ``\\$`` as a dollar."""
    return name.replace("$", r"\$")


def _flat(scores: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """A JSON report's scores (or intervals) by metric name: a layer's metrics, nested under
    the layer's name (``{"discourse_deixis": {"muc": …}}``), as ``discourse_deixis.muc``; a
    bridging score by its entity level (the level its ``f1`` is)."""
    flat: dict[str, Any] = {}
    for name, value in scores.items():
        if not isinstance(value, dict) or "f1" in value:
            flat[prefix + name] = value
        elif isinstance(value.get("entity"), dict) and "f1" in value["entity"]:
            flat[prefix + name] = value["entity"]
        else:
            flat.update(_flat(value, f"{prefix}{name}."))
    return flat


def _figure_class() -> Any:
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise AnascoreError("plots need matplotlib: pip install matplotlib (the plot "
                            "extra: pip install '.[plot]' in anascore's checkout)") from None
    return Figure


def _check_output(path: str | os.PathLike[str]) -> Path:
    output = Path(path)
    if output.suffix.lower() not in IMAGE_FORMATS:
        raise OptionsError(f"cannot tell the image format of {output}; expected a file name "
                           f"ending in {', '.join(IMAGE_FORMATS[:-1])} or {IMAGE_FORMATS[-1]}")
    check_writable(output)  # before drawing, not after
    return output


def _save(figure: Any, target: Path, dpi: int) -> None:
    """The figure written whole to ``target`` (:func:`anascore.formats.io.output.atomic_output`)."""
    with atomic_output(target, binary=True) as stream:
        figure.savefig(stream, format=target.suffix.lower().lstrip("."), dpi=dpi)


@dataclass(frozen=True)
class PlottedSystem:
    """What a plot needs of one system of a JSON report."""

    name: str
    f1: dict[str, float]
    intervals: dict[str, tuple[float, float]] | None
    documents: dict[str, dict[str, float]] | None


def _score(value: Any, where: str, path: str) -> float:
    """A JSON score value: ``null`` (not applicable) is ``NaN``, which draws nothing. Anything
    but a number from 0 to 1 (a hand edit, another program's file) is an error rather than a
    bar drawn off the scale."""
    if value is None:
        return math.nan
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise FormatError(f"{where} {_shown(value)}; expected a score from 0 to 1, or null "
                          "(not applicable)", path=path)
    return float(value)


def _shown(value: Any) -> str:
    """A value of the report as JSON writes it, cut to a short prefix."""
    text = str(value) if type(value) is int else json.dumps(value)
    return text if len(text) <= 24 else text[:24] + "…"


def _metric_scores(scores: Any, where: str, path: str) -> dict[str, float]:
    """The F1 of each metric of a JSON ``metrics`` object, every metric one anascore scores."""
    f1 = {}
    for metric, score in _flat(scores).items():
        if metric not in METRIC_NAMES:
            raise FormatError(f"{where}: unknown metric {metric[:40]!r}; expected the "
                              f"metrics of 'anascore score' ({', '.join(METRIC_NAMES[:3])}, …)",
                              path=path)
        f1[metric] = _score(score["f1"], f"{where}, metric {metric!r}: F1", path)
    return f1


def _check_same_metrics(scores: dict[str, Any], f1: dict[str, float], where: str,
                        what: str, path: str) -> None:
    """``scores`` (intervals, a document's scores) cover the metrics of ``f1``."""
    if set(scores) == set(f1):
        return
    missing = sorted(set(f1) - set(scores))
    differ = (f"{', '.join(missing)} missing" if missing
              else f"{', '.join(sorted(set(scores) - set(f1)))} besides")
    raise FormatError(f"{where}: {what} ({differ}); expected the JSON output of one "
                      "'anascore score' run", path=path)


def systems_of(report: dict[str, Any], path: str = "report", name: str | None = None
               ) -> list[PlottedSystem]:
    """The systems of a JSON report of one response (``metrics`` at the top; named ``name``,
    else by its ``response`` field, else ``response``: a JSON that does not name it) or of
    several (``systems``), every score checked (:func:`_score`)."""
    if "systems" in report:
        if not isinstance(report["systems"], dict):
            raise FormatError("'systems' is not an object of systems; expected the JSON "
                              "output of 'anascore score'", path=path)
        entries = list(report["systems"].items())
    elif "metrics" in report:
        given = report.get("response", "response")
        if not isinstance(given, str):
            raise FormatError(f"'response' is {json.dumps(given)[:40]}, not the response's "
                              "name; expected the JSON output of 'anascore score'", path=path)
        entries = [(name or given, report)]
    else:
        raise FormatError("not a JSON report of 'anascore score': expected a 'metrics' or "
                          "'systems' field", path=path)
    systems = []
    for name, entry in entries:
        where = f"system {name[:40]!r}"
        try:
            f1 = _metric_scores(entry["metrics"], where, path)
            intervals = None
            if "intervals" in entry:
                intervals = {}
                for metric, value in _flat(entry["intervals"]).items():
                    bounds = value.get("f1") or {"low": None, "high": None}
                    at = f"{where}, metric {metric!r}: interval"
                    intervals[metric] = (_score(bounds["low"], f"{at} low", path),
                                         _score(bounds["high"], f"{at} high", path))
                _check_same_metrics(intervals, f1, where,
                                    "the intervals cover other metrics than the scores", path)
            documents = None
            if "per_document" in entry:
                documents = {}
                for document, value in entry["per_document"].items():
                    at = f"{where}, document {document[:40]!r}"
                    documents[document] = scores = _metric_scores(value["metrics"], at, path)
                    _check_same_metrics(scores, f1, at, "the scores cover other metrics than "
                                        "the corpus's", path)
        except (AttributeError, KeyError, TypeError, ValueError) as error:
            raise FormatError(f"system {name!r}: missing or malformed field {error}",
                              path=path) from None
        systems.append(PlottedSystem(name, f1, intervals, documents))
    if not systems:
        raise FormatError("no system to draw; expected the JSON output of 'anascore score'",
                          path=path)
    return systems


def _header(report: dict[str, Any], path: str) -> tuple[str, float]:
    """What the plot's title says besides the scores: the number of documents (``?`` when the
    report does not say) and the confidence level of the intervals."""
    documents = report.get("documents")
    if documents is not None and (isinstance(documents, bool) or not isinstance(documents, int)
                                  or documents < 0):
        raise FormatError(f"'documents' is {_shown(documents)}; expected a number of "
                          "documents", path=path)
    options = report.get("options", {})
    level = options.get("confidence_level", 0.95) if isinstance(options, dict) else None
    if isinstance(level, bool) or not isinstance(level, int | float) or not 0 < level < 1:
        raise FormatError(f"'confidence_level' is {_shown(level)}; expected a number between "
                          "0 and 1", path=path)
    return ("?" if documents is None else str(documents)), float(level)


def load_report(path: str | os.PathLike[str]) -> dict[str, Any]:
    """A JSON report from a file (``-``: standard input)."""
    name = os.fspath(path)
    try:
        text = read_bounded(name, REPORT_LIMIT, "a JSON report of 'anascore score'").decode(
            "utf-8")
    except OSError as error:
        raise FormatError(f"cannot read the report: {error.strerror}", path=name) from None
    except UnicodeDecodeError:
        raise FormatError("not UTF-8 text; expected a JSON report of 'anascore score'",
                          path=name) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise FormatError(f"not JSON: {error.msg}", path=name, line=error.lineno) from None
    except RecursionError:
        raise FormatError("not JSON: nested deeper than Python's JSON reader goes",
                          path=name) from None
    except ValueError:  # an integer of more digits than Python converts
        raise FormatError(f"not JSON: a number of more than {sys.get_int_max_str_digits()} "
                          "digits", path=name) from None
    if not isinstance(data, dict):
        raise FormatError("not a JSON report of 'anascore score'", path=name)
    return data


def plot_report(report: dict[str, Any], output: str | os.PathLike[str], *,
                metric: str | None = None, path: str = "report",
                name: str | None = None) -> None:
    """Draw a JSON report to ``output`` (see the module docstring); ``name``: the system's
    name, for a report of one response."""
    target = _check_output(output)
    systems = systems_of(report, path, name)
    documents, level = _header(report, path)
    metrics = [name for name in METRIC_NAMES if name in systems[0].f1] + [
        name for name in systems[0].f1 if name not in METRIC_NAMES]
    if not metrics:
        raise FormatError("no metric's F1 to draw; expected the JSON output of 'anascore "
                          "score'", path=path)
    for system in systems[1:]:
        if set(system.f1) != set(systems[0].f1):
            raise FormatError(f"systems {systems[0].name!r} and {system.name!r} report "
                              "different metrics; expected the JSON output of one 'anascore "
                              "score' run", path=path)
    with_documents = all(system.documents for system in systems)
    if metric is None:
        metric = "conll" if "conll" in metrics else metrics[-1]
    else:
        given, metric = metric, canonical_metric(metric)  # any spelling a table prints
        if metric not in metrics:
            raise OptionsError(f"metric {given!r} is not in the report; expected one of "
                               f"{', '.join(metrics)}", path=path)
        if not with_documents:
            raise OptionsError(f"--metric {given}: the report has no per-document scores to "
                               "draw; score with --per-document, or leave out --metric",
                               path=path)
    figure_class = _figure_class()
    panels = 2 if with_documents else 1
    width = max(7.0, 1.0 + 0.35 * len(metrics) * max(len(systems), 2))
    figure = figure_class(figsize=(width, 4.2 * panels), layout="constrained")
    axes = figure.subplots(panels, 1, squeeze=False)[:, 0]
    colors = [f"C{index % 10}" for index in range(len(systems))]

    bars = axes[0]
    positions = np.arange(len(metrics))
    bar_width = 0.8 / len(systems)
    missing: list[float] = []  # where a score is not applicable (0/0): "n/a", no bar
    drawn = []  # each system's bars, for the legend
    for index, system in enumerate(systems):
        values = np.array([system.f1[name] * 100 for name in metrics])
        offsets = positions - 0.4 + bar_width * (index + 0.5)
        errors = None
        if system.intervals is not None:
            lows = np.array([system.intervals[name][0] * 100 for name in metrics])
            highs = np.array([system.intervals[name][1] * 100 for name in metrics])
            errors = np.vstack([values - lows, highs - values])
        drawn.append(bars.bar(offsets, values, bar_width * 0.92, color=colors[index],
                              yerr=errors, capsize=3 if errors is not None else 0,
                              error_kw={"elinewidth": 1, "ecolor": "black"}))
        tops = values if errors is None else values + errors[1]
        labels = [f"{value:.1f}" for value in values]
        missing += [x for x, value in zip(offsets, values, strict=True) if math.isnan(value)]
        for x, label, top in zip(offsets, labels, tops, strict=True):
            if math.isnan(top):
                continue
            bars.annotate(label, (x, top), xytext=(0, 3),
                          textcoords="offset points", ha="center", va="bottom", fontsize=7,
                          rotation=90 if len(systems) > 2 else 0)
    if len(metrics) > 10:  # the UA layers' metrics too: slanted names do not overlap
        bars.set_xticks(positions, [_title(name) for name in metrics], rotation=30,
                        ha="right")
    else:
        bars.set_xticks(positions, [_title(name) for name in metrics])
    # From 0: a bar's length is its score (an axis cut at 40 makes 50 look twice 45).
    floor = 0.0
    bars.set_ylim(floor, 104 if len(systems) <= 2 else 108)
    for x in missing:
        bars.annotate("n/a", (x, floor), xytext=(0, 3), textcoords="offset points",
                      ha="center", va="bottom", fontsize=7, rotation=90)
    bars.set_ylabel("F1 (%)")
    interval_note = ""
    if systems[0].intervals is not None:
        interval_note = f"; error bars: {level:.0%} bootstrap intervals"
    bars.set_title(f"Corpus F1 per metric ({documents} documents"
                   f"{interval_note})", fontsize=10)
    bars.grid(axis="y", alpha=0.3)
    bars.set_axisbelow(True)
    # Labels given, not collected: a collected label starting with '_' is left out.
    bars.legend(drawn, [_text(system.name) for system in systems], fontsize=8,
                loc="lower right")

    if with_documents:
        spread = axes[1]
        data = [[scores[metric] * 100 for scores in system.documents.values()  # type: ignore[union-attr]
                 if not math.isnan(scores[metric])]  # documents where the metric is n/a: none
                for system in systems]
        box = spread.boxplot(data, tick_labels=[_text(system.name) for system in systems],
                             widths=0.5, showfliers=False, patch_artist=True,
                             medianprops={"color": "black"})
        for patch, color in zip(box["boxes"], colors, strict=True):
            patch.set_facecolor(color)
            patch.set_alpha(0.3)
        jitter = np.random.default_rng(0)
        for index, document_f1 in enumerate(data):
            xs = index + 1 + jitter.uniform(-0.15, 0.15, len(document_f1))
            spread.scatter(xs, document_f1, s=10, color=colors[index], alpha=0.7, zorder=3)
            spread.scatter([index + 1], [systems[index].f1[metric] * 100], marker="D", s=40,
                           color="black", zorder=4,
                           label="corpus F1" if index == 0 else None)
        spread.set_ylabel(f"{_title(metric)} F1 per document (%)")
        spread.set_title(f"Per-document {_title(metric)} F1 "
                         f"({len(data[0])} documents; boxes: quartiles)", fontsize=10)
        spread.grid(axis="y", alpha=0.3)
        spread.set_axisbelow(True)
        spread.legend(fontsize=8, loc="lower right")
    signature = report.get("signature")
    if signature:
        figure.text(0.01, 0.0, f"anascore signature: {signature}", fontsize=6, color="0.35",
                    ha="left", va="bottom")
        figure.get_layout_engine().set(rect=(0, 0.02, 1, 0.98))
    _save(figure, target, 150)


def plot_report_file(path: str | os.PathLike[str], output: str | os.PathLike[str], *,
                     metric: str | None = None) -> None:
    """:func:`plot_report` of a JSON report file (``-``: standard input), never drawn over
    that file."""
    refuse_overwriting_inputs([path], output)
    plot_report(load_report(path), output, metric=metric, path=os.fspath(path))


class LabPoint(Protocol):
    """What :func:`plot_lab` needs of one response of the lab
    (:class:`anascore.lab.sensitivity.Point`)."""

    @property
    def label(self) -> str: ...
    @property
    def x(self) -> float: ...
    @property
    def scores(self) -> Mapping[str, Any]: ...


class LabExperiment(Protocol):
    """What :func:`plot_lab` needs of one experiment of the lab, a figure of Moosavi &
    Strube (2016) (:class:`anascore.lab.sensitivity.Experiment`)."""

    @property
    def figure(self) -> int: ...
    @property
    def title(self) -> str: ...
    @property
    def x_label(self) -> str: ...
    @property
    def points(self) -> Sequence[LabPoint]: ...
    def curve(self, metric: str) -> list[float]: ...


def plot_lab(experiments: Sequence[LabExperiment], output: str | os.PathLike[str]) -> None:
    """The lab's curves: a panel per experiment (figure of the paper), a line per metric (the
    metrics its responses are scored with, in report order, but the CoNLL average)."""
    target = _check_output(output)
    present = experiments[0].points[0].scores
    metrics = [name for name in METRIC_NAMES if name in present and name != "conll"]
    figure_class = _figure_class()
    columns = 2
    rows = (len(experiments) + 1 + columns - 1) // columns
    figure = figure_class(figsize=(12, 3.6 * rows), layout="constrained")
    axes = figure.subplots(rows, columns, squeeze=False).ravel()
    markers = "os^vDPX*"
    handles: list[Any] = []
    for axis, experiment in zip(axes, experiments, strict=False):
        categorical = experiment.figure in (6, 7)
        counted = experiment.figure in (4, 5)
        xs = (np.arange(len(experiment.points)) if categorical or counted
              else np.array([point.x * 100 for point in experiment.points]))
        for index, name in enumerate(metrics):
            (line,) = axis.plot(xs, [value * 100 for value in experiment.curve(name)],
                                marker=markers[index % len(markers)], markersize=4,
                                linewidth=1.2, color=f"C{index}", label=_title(name),
                                linestyle="--" if name == "mentions" else "-")
            if len(handles) < len(metrics):
                handles.append(line)
        if categorical:
            axis.set_xticks(xs, [point.label for point in experiment.points], fontsize=8,
                            rotation=45 if experiment.figure == 7 else 0)
        if counted:
            axis.set_xticks(xs[::2])
            axis.set_xlabel("key entities resolved (number)", fontsize=8)
        else:
            axis.set_xlabel(experiment.x_label + ("" if categorical else " (%)"), fontsize=8)
        axis.set_ylabel("F1 (%)", fontsize=8)
        axis.set_title(f"Figure {experiment.figure}: {experiment.title}", fontsize=10)
        axis.grid(alpha=0.3)
        if experiment.figure in (6, 7):
            low = min(min(experiment.curve(name)) for name in metrics) * 100
            axis.set_ylim(max(0.0, np.floor(low) - 1), 100.5)
        else:
            axis.set_ylim(-2, 102)
    for axis in axes[len(experiments):]:
        axis.axis("off")
    legend_axis = axes[len(experiments)] if len(axes) > len(experiments) else axes[-1]
    legend_axis.legend(handles=handles, loc="center", fontsize=10, frameon=False,
                       title="metric (dashed: mention identification)")
    figure.suptitle("anascore lab: metric sensitivity (Moosavi & Strube 2016, §6); key "
                    "entities 1×20, 2×10, 3×5, 1×4, 10×2", fontsize=11)
    _save(figure, target, 130)
