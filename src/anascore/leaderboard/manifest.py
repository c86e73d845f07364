"""The task manifest of ``anascore evaluate``: datasets, systems and how they are ranked.

A manifest is a TOML file (TOML: comments, no indentation rules, in Python's standard library
since 3.11 as ``tomllib``). Paths in it are relative to the manifest's folder. Every mistake is
an :class:`~anascore.core.errors.OptionsError` naming the manifest and the entry (a TOML parser
gives no line for a semantic mistake, so the message names the table and key instead):

.. code-block:: toml

    name = "CRAC-style leaderboard"   # optional title
    metric = "conll"                  # the primary metric (default: conll)
    combine = "macro"                 # macro: weighted mean of the datasets' scores
                                      # micro: the metric of the counts summed over datasets
    resamples = 1000                  # bootstrap resamples (0: no intervals, ranks or tests)
    confidence_level = 0.95
    seed = 12345

    [settings]                        # every dataset's settings (those of anascore.score)
    preset = "crac24"

    [[datasets]]
    name = "gum"
    key = "keys/gum.conllu"
    weight = 1                        # optional, macro only
    settings = { match = "exact" }    # optional, changes [settings] for this dataset

    [[systems]]
    name = "baseline"
    responses = "baseline/{dataset}.conllu"      # {dataset}: each dataset's name

    [[systems]]
    name = "ours"                                 # several runs (seeds): a list
    runs = ["ours/seed1/{dataset}.conllu", "ours/seed2/{dataset}.conllu"]

A system's responses (and each run) are either a path template with ``{dataset}`` or a table
``{ gum = "…", litbank = "…" }`` naming a response for every dataset.

A manifest is untrusted input (a shared task's organiser runs it on what participants sent):

* Dataset and system names are names, not paths: ``evaluate --reports DIR`` writes
  ``DIR/SYSTEM/DATASET.json``, so a name with a path separator, a control character, or a
  leading ``.`` (``..``, a hidden file) is refused (:func:`_name`).
* A path template is not a format string: ``{dataset}`` is replaced literally, and any other
  brace is refused (``str.format`` would evaluate ``{dataset.x}``, ``{dataset[x]}`` or build
  ``{dataset:>10000000000}``, a 10 GB string). A path with braces is named in a table.
* Paths are relative to the manifest's folder; an absolute path, or one through ``..``, is
  taken as it is: it names a file to *read*, as a command-line argument would.
* ``resamples`` is capped as ``--confidence`` is (:func:`~anascore.stats.adequacy.check_resamples`),
  and a TOML file nested too deeply for the parser is one line, not a ``RecursionError``.
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from anascore.config.options import DEFAULT_SEED, STATISTICS_SETTINGS, Options
from anascore.core.errors import OptionsError
from anascore.formats.io.sources import read_bounded
from anascore.stats.adequacy import check_resamples

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

#: How datasets' scores are combined.
COMBINE_METHODS: tuple[str, ...] = ("macro", "micro")
_TOP_KEYS = frozenset({"name", "metric", "combine", "resamples", "confidence_level", "seed",
                       "settings", "datasets", "systems"})
_DATASET_KEYS = frozenset({"name", "key", "weight", "settings"})
_SYSTEM_KEYS = frozenset({"name", "responses", "runs"})
#: The most a manifest may take (a device or a pipe without end is refused, not read).
MANIFEST_LIMIT = 16 * 2**20
#: What a path template replaces (literally: a template is not a format string).
DATASET_PLACEHOLDER = "{dataset}"
#: Path separators refused in a name, whatever the system (a manifest travels).
_SEPARATORS = frozenset({"/", "\\", os.sep, *([os.altsep] if os.altsep else [])})
#: Resampled values the ranking keeps per system and resample (the scores, their copy while
#: the chunks are joined, and the ranks): what ``resamples`` is capped by.
_KEPT_PER_SYSTEM = 3


@dataclass(frozen=True)
class Dataset:
    """A key file, the settings it is scored with, and its weight in a macro average."""

    name: str
    key: Path
    options: Options
    weight: float = 1.0


@dataclass(frozen=True)
class System:
    """A system's responses: one run (or several, with different seeds), each naming a
    response file for every dataset."""

    name: str
    runs: tuple[Mapping[str, Path], ...]


@dataclass(frozen=True)
class Task:
    """Everything ``anascore evaluate`` needs, checked."""

    path: Path
    name: str
    metric: str
    combine: str
    datasets: tuple[Dataset, ...]
    systems: tuple[System, ...]
    resamples: int = 1000
    confidence_level: float = 0.95
    seed: int = DEFAULT_SEED


def read_task(path: str | os.PathLike[str], *, jobs: int = 1,
              need_systems: bool = True) -> Task:
    """Read and check a manifest (``jobs``: processes per dataset, as ``--jobs``;
    ``need_systems=False``: a manifest without ``[[systems]]`` is a task whose systems come
    later, as the Codabench program's submission does)."""
    return task_from_dict(read_manifest(path), Path(path), jobs=jobs,
                          need_systems=need_systems)


def read_manifest(path: str | os.PathLike[str]) -> dict[str, Any]:
    """A manifest's parsed TOML, unchecked (an :class:`OptionsError` when it cannot be read
    or is not TOML)."""
    path = Path(path)
    try:
        data = tomllib.loads(read_bounded(os.fspath(path), MANIFEST_LIMIT,
                                          "a TOML task manifest").decode("utf-8"))
    except FileNotFoundError:
        raise OptionsError("no such file", path=path) from None
    except IsADirectoryError:
        raise OptionsError("is a directory; expected a TOML task manifest", path=path) from None
    except OSError as error:
        raise OptionsError(f"cannot read: {error.strerror}", path=path) from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise OptionsError(f"not TOML: {error}", path=path) from None
    except RecursionError:  # tomllib parses nested arrays and tables by recursion
        raise OptionsError("not TOML: nested too deeply", path=path) from None
    return data


def task_from_dict(data: Mapping[str, Any], path: Path, *, jobs: int = 1,
                   need_systems: bool = True) -> Task:
    """A :class:`Task` from a manifest's parsed content (``path``: where it came from, for
    messages and relative paths; ``need_systems``: as for :func:`read_task`)."""

    def fail(message: str) -> OptionsError:
        return OptionsError(message, path=path)

    _no_unknown_keys(data, _TOP_KEYS, "the manifest", fail)
    name = _text(data.get("name", path.stem), "name", fail)
    metric = _text(data.get("metric", "conll"), "metric", fail).lower()
    combine = _text(data.get("combine", "macro"), "combine", fail)
    if combine not in COMBINE_METHODS:
        raise fail(f"combine = {combine!r}; expected one of {', '.join(COMBINE_METHODS)}")
    resamples = data.get("resamples", 1000)
    if isinstance(resamples, bool) or not isinstance(resamples, int) or resamples < 0:
        raise fail(f"resamples = {resamples!r}; expected a whole number (0: no statistics)")
    level = data.get("confidence_level", 0.95)
    if isinstance(level, bool) or not isinstance(level, int | float) or not 0 < level < 1:
        raise fail(f"confidence_level = {level!r}; expected a number between 0 and 1")
    seed = data.get("seed", DEFAULT_SEED)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise fail(f"seed = {seed!r}; expected a whole number")
    shared = _table(data.get("settings", {}), "[settings]", fail)

    folder = path.parent
    datasets = tuple(_dataset(entry, index, shared, metric, folder, jobs, fail)
                     for index, entry in enumerate(_array(data, "datasets", fail)))
    _unique([dataset.name for dataset in datasets], "dataset", fail)
    entries = _array(data, "systems", fail) if need_systems or "systems" in data else []
    systems = tuple(_system(entry, index, datasets, folder, fail)
                    for index, entry in enumerate(entries))
    _unique([system.name for system in systems], "system", fail)
    try:
        check_resamples(resamples, "resamples =", _KEPT_PER_SYSTEM * len(systems))
    except OptionsError as error:
        raise fail(error.message) from None
    if combine == "micro":
        first = datasets[0].options
        for dataset in datasets[1:]:
            if dataset.options.signature() != first.signature():
                raise fail(f"combine = 'micro' sums counts over datasets, so every dataset "
                           f"needs the same settings; dataset {dataset.name!r} has "
                           f"{dataset.options.signature()}, dataset {datasets[0].name!r} "
                           f"{first.signature()}; use combine = 'macro'")
    return Task(path, name, metric, combine, datasets, systems, resamples, float(level), seed)


def _dataset(entry: Any, index: int, shared: Mapping[str, Any], metric: str, folder: Path,
             jobs: int, fail: Any) -> Dataset:
    where = f"[[datasets]] {index + 1}"
    entry = _table(entry, where, fail)
    _no_unknown_keys(entry, _DATASET_KEYS, where, fail)
    name = _name(entry.get("name"), where, fail)
    where = f"dataset {name!r}"
    key = folder / _path(entry.get("key"), f"{where}: key", fail)
    weight = entry.get("weight", 1.0)
    if (isinstance(weight, bool) or not isinstance(weight, int | float)
            or not math.isfinite(weight) or weight <= 0):
        raise fail(f"{where}: weight = {weight!r}; expected a number above 0")
    settings = {**shared, **_table(entry.get("settings", {}), f"{where}: settings", fail)}
    if "jobs" in settings:
        raise fail(f"{where}: jobs is not a dataset's setting; give the processes on the "
                   "command line (anascore evaluate --jobs N)")
    statistics = [name for name in STATISTICS_SETTINGS if name in settings]
    if statistics:
        # The task resamples every dataset with its own settings; a dataset's would only
        # be carried, unused, into its signature.
        verb = "is not a dataset's setting" if len(statistics) == 1 else \
            "are not a dataset's settings"
        raise fail(f"{where}: {', '.join(statistics)} {verb}; the "
                   "task's statistics are set at the top of the manifest (resamples, "
                   "confidence_level, seed)")
    try:
        options = Options.create(**settings, jobs=jobs)
    except OptionsError as error:
        raise fail(f"{where}: {error.message}") from None
    reported = options.reported_metrics
    if metric not in reported:
        raise fail(f"{where}: the primary metric {metric!r} is not among its reported "
                   f"metrics ({', '.join(reported)}); add it to the settings' metrics")
    return Dataset(name, key, options, float(weight))


def _system(entry: Any, index: int, datasets: tuple[Dataset, ...], folder: Path,
            fail: Any) -> System:
    where = f"[[systems]] {index + 1}"
    entry = _table(entry, where, fail)
    _no_unknown_keys(entry, _SYSTEM_KEYS, where, fail)
    name = _name(entry.get("name"), where, fail)
    where = f"system {name!r}"
    if ("responses" in entry) == ("runs" in entry):
        raise fail(f"{where}: give either responses (one run) or runs (a list of runs)")
    if "responses" in entry:
        runs = [entry["responses"]]
    else:
        runs = entry["runs"]
        if not isinstance(runs, list) or not runs:
            raise fail(f"{where}: runs must be a non-empty list of path templates or tables")
    names = [dataset.name for dataset in datasets]
    return System(name, tuple(_run(run, number, len(runs), names, where, folder, fail)
                              for number, run in enumerate(runs)))


def _run(run: Any, number: int, count: int, datasets: list[str], where: str, folder: Path,
         fail: Any) -> dict[str, Path]:
    if count > 1:
        where = f"{where}, run {number + 1}"
    if isinstance(run, str):
        _path(run, where, fail)
        if DATASET_PLACEHOLDER not in run and len(datasets) > 1:
            raise fail(f"{where}: the path {_quoted(run)} has no {{dataset}}; every dataset "
                       "would be scored against the same file")
        if set("{}") & set(run.replace(DATASET_PLACEHOLDER, "")):
            raise fail(f"{where}: the path template {_quoted(run)} has a brace that is not "
                       "{dataset}; only {dataset} is replaced (name a file with braces in a "
                       'table: { dataset = "path" })')
        return {name: folder / run.replace(DATASET_PLACEHOLDER, name) for name in datasets}
    table = _table(run, where, fail)
    unknown = sorted(set(table) - set(datasets))
    if unknown:
        raise fail(f"{where}: response for {', '.join(map(repr, unknown))}, which is not a "
                   f"dataset ({', '.join(datasets)})")
    missing = [name for name in datasets if name not in table]
    if missing:
        raise fail(f"{where}: no response for dataset {', '.join(map(repr, missing))}")
    return {name: folder / _path(table[name], f"{where}: {name}", fail) for name in datasets}


def _no_unknown_keys(table: Mapping[str, Any], known: frozenset[str], where: str,
                     fail: Any) -> None:
    unknown = sorted(set(table) - known)
    if unknown:
        raise fail(f"{where}: unknown key {', '.join(map(repr, unknown))}; expected some of "
                   f"{', '.join(sorted(known))}")


def _array(data: Mapping[str, Any], key: str, fail: Any) -> list[Any]:
    value = data.get(key)
    if not isinstance(value, list) or not value:
        raise fail(f"no [[{key}]]; expected at least one [[{key}]] table")
    return value


def _table(value: Any, where: str, fail: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise fail(f"{where}: expected a table, not {type(value).__name__}")
    return value


def _text(value: Any, where: str, fail: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise fail(f"{where}: expected a non-empty string, not {value!r}")
    return value


def _name(value: Any, where: str, fail: Any) -> str:
    """A dataset's or system's name, which names a file (and a folder) in ``evaluate
    --reports DIR``: refused when it could name anything else (``..``, ``a/b``, ``/etc``, a
    hidden file) or carries a control character (a NUL, a terminal escape)."""
    name = _text(value, f"{where}: name", fail)
    why = (f"has a path separator ({next(c for c in name if c in _SEPARATORS)!r})"
           if _SEPARATORS & set(name) else
           "has a control character" if any(not c.isprintable() for c in name) else
           "starts with '.'" if name.startswith(".") else None)
    if why is not None:
        raise fail(f"{where}: name {_quoted(name)} {why}; a name names a file in evaluate "
                   "--reports DIR (DIR/SYSTEM/DATASET.json), so it must be a plain file name")
    return name


def _path(value: Any, where: str, fail: Any) -> str:
    """A path (or path template) read from the manifest: a non-empty string without NUL,
    which no file system accepts (``open`` would raise a bare ``ValueError``)."""
    path = _text(value, where, fail)
    if "\0" in path:
        raise fail(f"{where}: the path {_quoted(path)} contains a NUL character; expected a "
                   "file's path")
    return path


def _quoted(text: str, limit: int = 80) -> str:
    """``text`` quoted for a message, cut to ``limit`` characters (a manifest's value can be
    a megabyte long)."""
    return repr(text if len(text) <= limit else text[:limit] + "…")


def _unique(names: list[str], kind: str, fail: Any) -> None:
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise fail(f"two {kind}s are named {name!r}; names must be unique")
        seen.add(name)
