"""A Codabench (or CodaLab) scoring program made from an ``anascore evaluate`` task manifest.

``anascore codabench TASK.toml OUT`` (:func:`write_bundle`) writes

* ``OUT/scoring_program/``: ``metadata.yaml`` (the ``command:`` Codabench runs), ``score.py``
  (the entry script), ``task.json`` (the manifest's settings, its ``[[systems]]`` left out)
  and ``anascore/``, a copy of this package's own source, so that the program needs nothing
  but Python ≥ 3.10 with numpy and scipy on the competition's Docker image;
* ``OUT/reference_data/``: each dataset's key, named after the dataset (``gum.conllu``; a
  folder or pattern of keys as the folder ``gum/``), byte for byte, so the keys' hashes
  (:mod:`anascore.scoring.key_hash`) are those ``anascore evaluate`` records;
* ``OUT/leaderboard.yaml``: the ``leaderboards:`` entry of ``competition.yaml`` whose column
  keys are those of ``scores.json``.

How Codabench runs it (its compute worker, ``compute_worker/compute_worker.py``): the scoring
program is unpacked into ``/app/program`` (the working folder), the reference data into
``/app/input/ref`` and the participant's submission into ``/app/input/res``; the
``command`` of ``metadata.yaml`` runs with ``$program``, ``$input`` and ``$output`` replaced
by ``/app/program``, ``/app/input`` and ``/app/output``. It then reads
``/app/output/scores.json`` (a JSON object; each key whose name is a leaderboard column's
``key`` is that column's number, the others are ignored) and shows
``/app/output/detailed_results.html`` beside the leaderboard; a non-zero exit status fails
the submission, and the program's stderr is what the participant sees of it.

The program (:func:`run_program`) reads one submission: for each dataset a file named after
it (``gum.conllu``, ``gum.txt``: any extension, or none) or a folder ``gum/`` at the top of the
submitted zip (or inside its one folder). It scores it as ``anascore evaluate`` scores a
system (:func:`~anascore.leaderboard.ranking.evaluate_task`, the same code), and writes
``scores.json`` — the task's primary metric combined over the datasets under the metric's
name (``conll``) and each dataset's score under the dataset's name, as fractions in [0, 1],
equal to ``evaluate --output json`` (one unit in every JSON anascore writes) — the HTML
report of the submission on every dataset (``detailed_results.html``) and ``anascore.json``: the
leaderboard's JSON of ``evaluate``, which names each dataset's key by its hash. A submission
that lacks a dataset, names an unknown one or cannot be read ends with one line on stderr
and exit status 1.
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Mapping, Sequence
from html import escape
from pathlib import Path
from typing import Any

from anascore.core.errors import AnascoreError, OptionsError, printable
from anascore.leaderboard.manifest import Task, read_manifest, task_from_dict
from anascore.leaderboard.ranking import Leaderboard, evaluate_task
from anascore.scoring.file_sets import is_file_set, members

#: What Codabench runs: ``$program``, ``$input`` and ``$output`` are its folders.
COMMAND = "python3 $program/score.py $input $output"
#: The name the submission goes by in the program's leaderboard and report.
SUBMISSION = "submission"
#: A dataset's name is a file name in the reference data and the submission, and a key of
#: ``scores.json`` and of ``competition.yaml``: letters, digits, ``_``, ``-`` and inner dots.
_SAFE_NAME = re.compile(r"[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*")
#: Entries of an unpacked zip that are not the participant's files (macOS's resource forks).
_ZIP_LITTER = frozenset({"__MACOSX", "Thumbs.db", "desktop.ini"})

_SCORE_PY = '''\
"""The scoring program of a Codabench competition, written by `anascore codabench`.

Usage (Codabench's metadata.yaml): python3 $program/score.py $input $output
Reads the reference data from INPUT/ref and the submission from INPUT/res; writes
OUTPUT/scores.json, OUTPUT/detailed_results.html and OUTPUT/anascore.json.
anascore {version} is bundled beside this script (needs Python >= {python}, numpy and scipy).
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)  # the bundled anascore, before any installed one

from anascore.leaderboard.codabench import run_program  # noqa: E402

if __name__ == "__main__":
    sys.exit(run_program(os.path.join(HERE, "task.json"), sys.argv[1:]))
'''


def check_name(name: str, fail: Any) -> None:
    """Refuse a dataset name that cannot be a file name of its own in any folder (a path
    separator, ``..``, a leading dot, white space or control characters) or a key of
    ``scores.json`` beside the metric's."""
    if not _SAFE_NAME.fullmatch(name):
        raise fail(f"dataset {name!r}: a Codabench dataset's name is a file name and a "
                   "leaderboard column key; use letters, digits, '_', '-' and inner dots")


def write_bundle(manifest: str | os.PathLike[str], out: str | os.PathLike[str]) -> list[str]:
    """Write the scoring program and the reference data of ``manifest``'s task into the new
    folder ``out`` (see the module docstring); the paths written, relative to ``out``.

    ``out`` must not exist, or be an empty folder: nothing is written over. The bundle is
    built in a temporary folder beside it and renamed, so a failure leaves no half."""
    path, target = Path(manifest), Path(out)
    data = read_manifest(path)
    task = task_from_dict(data, path, need_systems=False)

    def fail(message: str) -> OptionsError:
        return OptionsError(message, path=path)

    for dataset in task.datasets:
        check_name(dataset.name, fail)
        if dataset.name == task.metric:
            raise fail(f"dataset {dataset.name!r} is named as the primary metric; scores.json "
                       "holds the combined score under the metric's name")
        key = os.fspath(dataset.key)
        if not (os.path.isfile(key) or is_file_set(key)):
            raise fail(f"dataset {dataset.name!r}: no key file {key}")
    if target.exists() and not (target.is_dir() and not any(target.iterdir())):
        raise AnascoreError("exists; expected a new (or empty) folder to write the bundle in",
                            path=target)
    parent = target.absolute().parent
    if not parent.is_dir():
        raise AnascoreError(f"cannot write: no folder {parent}", path=target)
    building = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=parent))
    try:
        written = _build(task, data, building)
        if target.exists():
            target.rmdir()
        os.rename(building, target)
    except OSError as error:
        shutil.rmtree(building, ignore_errors=True)
        raise AnascoreError(f"cannot write the bundle: {error.strerror or error}",
                            path=target) from None
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise
    return written


def _build(task: Task, data: Mapping[str, Any], folder: Path) -> list[str]:
    program, reference = folder / "scoring_program", folder / "reference_data"
    program.mkdir()
    reference.mkdir()
    datasets = []
    for dataset, entry in zip(task.datasets, data["datasets"], strict=True):
        datasets.append({**entry, "key": _copy_key(os.fspath(dataset.key), dataset.name,
                                                   reference)})
    settings = {name: value for name, value in data.items() if name != "systems"}
    settings.update(name=task.name, datasets=datasets)
    (program / "task.json").write_text(json.dumps(settings, indent=2) + "\n",
                                       encoding="utf-8")
    (program / "metadata.yaml").write_text(
        "# Written by anascore codabench: Codabench replaces $program, $input and $output.\n"
        f"command: {COMMAND}\n", encoding="utf-8")
    from anascore.core.version import REQUIRED_PYTHON, __version__

    (program / "score.py").write_text(_SCORE_PY.format(version=__version__,
                                                         python=REQUIRED_PYTHON),
                                      encoding="utf-8")
    _copy_package(program / "anascore")
    (folder / "leaderboard.yaml").write_text(leaderboard_yaml(task), encoding="utf-8")
    bundled = program / "anascore"
    return sorted([*(path.relative_to(folder).as_posix() for path in folder.rglob("*")
                     if path.is_file() and bundled not in path.parents),
                   "scoring_program/anascore/"])


def _copy_key(key: str, name: str, reference: Path) -> str:
    """Copy a dataset's key into the reference data under the dataset's name; its path
    there. A file keeps its extension (``.conllu``, ``.conll.gz``); a folder or pattern
    becomes a folder of its files at their relative paths."""
    if not is_file_set(key):
        suffixes = Path(key).suffixes
        extension = "".join(suffixes[-2:]) if suffixes[-1:] == [".gz"] else "".join(
            suffixes[-1:])
        if not re.fullmatch(r"(\.[A-Za-z0-9_-]+)*", extension):
            extension = ""
        shutil.copyfile(key, reference / f"{name}{extension}")
        return f"{name}{extension}"
    for relative, full in members(key).items():
        destination = reference / name / relative
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(full, destination)
    return name


def _copy_package(target: Path) -> None:
    """This package's own source files (no caches), so the program imports this anascore."""
    source = Path(__file__).resolve().parents[1]
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


def leaderboard_yaml(task: Task) -> str:
    """The ``leaderboards:`` entry of ``competition.yaml``: a column for the combined score
    (key: the metric's name) and one per dataset (key: its name), as ``scores.json``
    writes them."""
    title = f"{_metric_title(task)} ({task.combine})"
    lines = ["# The leaderboard of competition.yaml for the program of anascore codabench:",
             "# each column's key is a key of the scores.json the program writes.",
             "leaderboards:", f"  - title: {json.dumps(task.name)}", "    key: main",
             "    columns:"]
    columns = [(title, task.metric)] + [(dataset.name, dataset.name)
                                        for dataset in task.datasets]
    for index, (column, key) in enumerate(columns):
        lines += [f"      - title: {json.dumps(column)}", f"        key: {json.dumps(key)}",
                  f"        index: {index}", "        sorting: desc", "        precision: 4"]
    return "\n".join(lines) + "\n"


def _metric_title(task: Task) -> str:
    from anascore.leaderboard.render import task_metric_title

    return task_metric_title(task.metric)


# The program, run by Codabench.

def run_program(task_json: str, arguments: Sequence[str]) -> int:
    """Score the submission in ``INPUT/res`` against ``INPUT/ref`` and write ``OUTPUT``'s
    files (``arguments``: ``[INPUT, OUTPUT]``); 0, or 1 with one line on stderr (2 for a
    wrong command line)."""
    if len(arguments) != 2:
        print("anascore: error: usage: score.py INPUT OUTPUT (Codabench: $input $output)",
              file=sys.stderr)
        return 2
    source, output = Path(arguments[0]).absolute(), Path(arguments[1])
    try:
        board = score_submission(Path(task_json), source / "ref", source / "res")
        pages = detailed_results(board)
        output.mkdir(parents=True, exist_ok=True)
        _write(output / "scores.json", json.dumps(scores(board), indent=2) + "\n")
        _write(output / "anascore.json", json.dumps(board.to_dict(), indent=2) + "\n")
        _write(output / "detailed_results.html", pages)
    except AnascoreError as error:
        # The path may be a name from the participant's zip: escaped, so it stays one line.
        print(f"anascore: error: {printable(error.location_message())}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"anascore: error: {printable(str(output))}: cannot write: "
              f"{error.strerror or error}", file=sys.stderr)
        return 1
    for warning in board.warnings[:20]:
        print(f"anascore: warning: {printable(warning)}", file=sys.stderr)
    if len(board.warnings) > 20:
        print(f"anascore: warning: … and {len(board.warnings) - 20} more warnings (all are "
              "in detailed_results.html and anascore.json)", file=sys.stderr)
    return 0


def score_submission(task_json: Path, reference: Path, submission: Path) -> Leaderboard:
    """The leaderboard of the one submission, scored as ``anascore evaluate`` scores a
    system (no resampling: one system has no ranks to test)."""
    try:
        data = json.loads(task_json.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise OptionsError(f"cannot read the task: {error}", path=task_json) from None
    names = [entry["name"] for entry in data["datasets"]]
    responses = submission_files(submission, names)
    data = {**data, "resamples": 0,
            "datasets": [{**entry, "key": os.fspath(reference / entry["key"])}
                         for entry in data["datasets"]],
            "systems": [{"name": SUBMISSION,
                         "responses": {name: os.fspath(path)
                                       for name, path in responses.items()}}]}
    task = task_from_dict(data, task_json, jobs=0)
    return evaluate_task(task)


def submission_files(folder: Path, datasets: Sequence[str]) -> dict[str, Path]:
    """Each dataset's file (``NAME`` or ``NAME.EXT``) or folder (``NAME/``) in the unpacked
    submission; a zip of one folder is looked into. A dataset without one, two for one
    dataset, or an entry naming no dataset is an :class:`AnascoreError` naming them."""
    entries = _entries(folder)
    if (len(entries) == 1 and entries[0].is_dir() and _dataset_of(entries[0], datasets) is None):
        entries = _entries(entries[0])
    found: dict[str, Path] = {}
    for entry in entries:
        name = _dataset_of(entry, datasets)
        if name is None:
            raise AnascoreError(f"the submission's {'folder' if entry.is_dir() else 'file'} "
                                f"{entry.name!r} names no dataset; expected a file NAME.EXT "
                                f"or a folder NAME/ for each of {', '.join(datasets)}",
                                path=entry)
        if name in found:
            raise AnascoreError(f"the submission has two entries for dataset {name!r}: "
                                f"{found[name].name!r} and {entry.name!r}; expected one",
                                path=entry)
        found[name] = entry
    missing = [name for name in datasets if name not in found]
    if missing:
        shown = ", ".join(repr(entry.name) for entry in entries[:5]) or "nothing"
        raise AnascoreError(f"the submission has no file for dataset "
                            f"{', '.join(map(repr, missing))}; expected a file NAME.EXT or a "
                            f"folder NAME/ for each of {', '.join(datasets)} (found {shown})",
                            path=folder)
    return found


def _entries(folder: Path) -> list[Path]:
    try:
        return sorted(entry for entry in folder.iterdir()
                      if not entry.name.startswith(".") and entry.name not in _ZIP_LITTER)
    except OSError as error:
        raise AnascoreError(f"cannot read the submission: {error.strerror or error}",
                            path=folder) from None


def _dataset_of(entry: Path, datasets: Sequence[str]) -> str | None:
    """The dataset an entry is for: a folder by its name, a file by its name or its name
    before an extension (the longest dataset name that fits, so ``a.b.conllu`` is ``a.b``'s
    when both ``a`` and ``a.b`` are datasets)."""
    if entry.is_dir():
        return entry.name if entry.name in datasets else None
    fits = [name for name in datasets
            if entry.name == name or entry.name.startswith(name + ".")]
    return max(fits, key=len, default=None)


def scores(board: Leaderboard) -> dict[str, float | None]:
    """``scores.json``: the combined score under the metric's name, each dataset's under its
    name, as a fraction as in ``evaluate --output json`` (``None`` for a score not
    applicable: 0/0)."""
    [standing] = board.standings
    values = {board.task.metric: standing.score, **dict(standing.datasets)}
    return {name: None if math.isnan(value) else value for name, value in values.items()}


def detailed_results(board: Leaderboard) -> str:
    """``detailed_results.html``: the scores with each dataset's key hash and signature,
    then the HTML report of the submission on each dataset (``anascore report``'s page,
    in a frame of its own)."""
    from anascore.analysis.analyse import check_options
    from anascore.analysis.report_page import report_files

    task = board.task
    [standing] = board.standings
    run = board.reports[SUBMISSION][0]
    rows = [f"<tr><th>{escape(_metric_title(task))} ({escape(task.combine)})</th>"
            f"<td>{_percent(standing.score)}</td><td></td><td></td></tr>"]
    sections = []
    for dataset in task.datasets:
        report = run[dataset.name]
        rows.append(f"<tr><td>{escape(dataset.name)}</td>"
                    f"<td>{_percent(standing.datasets[dataset.name])}</td>"
                    f"<td><code>{escape(report.key_fields().get('key_hash', ''))}</code></td>"
                    f"<td><code>{escape(board.dataset_signature(dataset))}</code></td></tr>")
        response = os.fspath(task.systems[0].runs[0][dataset.name])
        try:
            check_options(dataset.options)
        except OptionsError as error:
            sections.append(f"<h2>{escape(dataset.name)}</h2><p>No detailed report: "
                            f"{escape(error.message)}</p>")
            continue
        page = report_files(os.fspath(dataset.key), [response], [SUBMISSION], dataset.options)
        sections.append(f"<h2>{escape(dataset.name)}</h2><iframe title='{escape(dataset.name)}'"
                        f" srcdoc=\"{escape(page, quote=True)}\"></iframe>")
    warnings = "".join(f"<li>{escape(warning)}</li>" for warning in board.warnings)
    return (
        "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
        f"<title>{escape(task.name)}: detailed results</title><style>"
        "body{font-family:system-ui,sans-serif;margin:1em}table{border-collapse:collapse}"
        "td,th{border:1px solid #ccc;padding:.2em .6em;text-align:left}"
        "iframe{width:100%;height:85vh;border:1px solid #ccc}</style></head><body>"
        f"<h1>{escape(task.name)}: detailed results</h1>"
        "<table><thead><tr><th>Dataset</th><th>Score (%)</th><th>Key (SHA-256)</th>"
        f"<th>Signature</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
        + (f"<h2>Warnings</h2><ul>{warnings}</ul>" if warnings else "")
        + "".join(sections) + "</body></html>\n")


def _percent(value: float) -> str:
    return "n/a" if math.isnan(value) else f"{100 * value:.2f}"


def _write(path: Path, text: str) -> None:
    from anascore.formats.io.output import atomic_output

    with atomic_output(path) as stream:
        stream.write(text)
