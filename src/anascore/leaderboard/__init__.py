"""Shared-task mode: many datasets, many systems, one leaderboard with its statistics.

``anascore evaluate TASK.toml`` (:func:`evaluate`): the manifest (:mod:`.manifest`) names the
datasets and the systems' responses; :mod:`.ranking` scores and ranks them; :mod:`.render`
prints the leaderboard.
"""

from __future__ import annotations

import os

from anascore.leaderboard.manifest import Task, read_task
from anascore.leaderboard.ranking import Leaderboard, evaluate_task


def evaluate(manifest: str | os.PathLike[str] | Task, *, jobs: int = 1,
             progress: bool = False) -> Leaderboard:
    """Score every system of a task manifest on every dataset and rank them.

    >>> board = evaluate("task.toml")  # doctest: +SKIP
    >>> board.standings[0].system, board.standings[0].ranks  # doctest: +SKIP
    ('ours', (1, 2))
    """
    task = manifest if isinstance(manifest, Task) else read_task(manifest, jobs=jobs)
    return evaluate_task(task, progress=progress)


__all__ = ["Leaderboard", "Task", "evaluate", "read_task"]
