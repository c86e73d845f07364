"""``anascore evaluate --reports DIR``: every per-dataset report as JSON, in
``DIR/SYSTEM/DATASET.json`` (``DIR/SYSTEM/run-N/DATASET.json`` for a system of several runs).

The names in those paths come from the manifest, which refuses a name that is a path
(:mod:`.manifest`), so nothing is written outside ``DIR``; and nothing is written over one of
the task's inputs (the manifest, a key, a response): :func:`check_reports` refuses it before
anything is scored, with the file system's notion of the same file
(:func:`anascore.formats.io.output.refuse_overwriting_inputs`).
"""

from __future__ import annotations

import os

from anascore.core.errors import AnascoreError, OptionsError
from anascore.formats.io.output import atomic_output, refuse_overwriting_inputs
from anascore.leaderboard.manifest import Task
from anascore.leaderboard.ranking import Leaderboard


def report_path(folder: str, system: str, runs: int, run: int, dataset: str) -> str:
    """Where the report of ``dataset`` for run ``run`` (1-based) of ``system`` goes."""
    return os.path.join(folder, system, *([f"run-{run}"] if runs > 1 else []),
                        f"{dataset}.json")


def check_reports(task: Task, folder: str) -> None:
    """Refuse, before scoring, a ``folder`` that is a file, or a report that would be written
    over one of the task's inputs (an :class:`OptionsError` naming the manifest)."""
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise AnascoreError("is a file; --reports names a folder to write reports in",
                            path=folder)
    inputs = [os.fspath(task.path), *(os.fspath(dataset.key) for dataset in task.datasets),
              *(os.fspath(path) for system in task.systems for run in system.runs
                for path in run.values())]
    for system in task.systems:
        for run in range(1, len(system.runs) + 1):
            for dataset in task.datasets:
                output = report_path(folder, system.name, len(system.runs), run, dataset.name)
                try:
                    refuse_overwriting_inputs(inputs, output,
                                              what="--reports DIR would write over an input",
                                              then="write the reports elsewhere")
                except OptionsError as error:
                    raise OptionsError(error.message, path=task.path) from None


def write_reports(board: Leaderboard, folder: str) -> None:
    """Each per-dataset report as JSON, with every document's scores, written whole
    (:func:`anascore.formats.io.output.atomic_output`)."""
    for system, runs in board.reports.items():
        for number, run in enumerate(runs, start=1):
            for dataset, report in run.items():
                path = report_path(folder, system, len(runs), number, dataset)
                place = os.path.dirname(path)
                try:
                    os.makedirs(place, exist_ok=True)
                except OSError as error:
                    raise AnascoreError(f"cannot create the folder: {error.strerror}",
                                        path=place) from None
                with atomic_output(path) as stream:
                    stream.write(report.to_json(per_document=True) + "\n")
