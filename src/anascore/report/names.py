"""The names a report gives the responses it scores, from their paths.

A module of its own, below :mod:`anascore.report.systems`: a one-response JSON report names its
response too, and need not import the comparison of systems (the paired tests and the
bootstrap) for that.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import PurePath


def system_names(paths: Sequence[str]) -> tuple[str, ...]:
    """Names for responses given as paths: the file names when they differ, else the paths
    as given (and a number after a path given twice)."""
    short = [PurePath(path).name or path for path in paths]
    names = short if len(set(short)) == len(short) else list(paths)
    seen: dict[str, int] = {}
    result = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        result.append(name if seen[name] == 1 else f"{name} ({seen[name]})")
    return tuple(result)
