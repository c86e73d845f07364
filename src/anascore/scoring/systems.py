"""Several responses against one key: scores, confidence intervals and paired tests.

>>> import anascore
>>> systems = anascore.compare("key.conll", ["baseline.conll", "new.conll"],
...                            paired_bs=1000)  # doctest: +SKIP
>>> systems.test_results("paired-bs")[0].p_value  # doctest: +SKIP
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from typing import Any

from anascore.config.options import Options
from anascore.core.errors import OptionsError
from anascore.report.systems import SystemsReport, system_names
from anascore.scoring.pipeline import PathLike, require_path, score_files_many


def compare(key: PathLike, responses: Sequence[PathLike], *,
            names: Sequence[str] | None = None, format: str = "auto",
            metrics: str | Iterable[str] | None = None, keep_singletons: bool | None = None,
            match: str | None = None, progress: bool = False,
            **settings: Any) -> SystemsReport:
    """Score every response against the key (read once), with the statistics asked for.

    Parameters
    ----------
    key, responses
        The gold annotation and the system outputs; the first response is the baseline of
        the paired tests.
    names
        A name per response (default: the file names, or the paths when file names repeat).
    format, metrics, keep_singletons, match
        As for :func:`anascore.score` (``None``: the preset's, else the default).
    progress
        Show progress bars on stderr (only when it is a terminal).
    **settings
        Other :class:`~anascore.config.options.Options` fields: ``confidence`` (bootstrap resamples
        for intervals), ``confidence_level``, ``seed``, ``paired_bs`` (paired bootstrap
        resamples), ``paired_ar`` (approximate randomization trials).

    Returns
    -------
    SystemsReport
        One report per response, and the paired tests against the first.
    """
    options = Options.create(format=format, metrics=metrics, keep_singletons=keep_singletons,
                             match=match, **settings)
    return compare_files(key, responses, options, names=names, progress=progress)


def compare_files(key: PathLike, responses: Sequence[PathLike], options: Options, *,
                  names: Sequence[str] | None = None,
                  progress: bool = False) -> SystemsReport:
    """:func:`compare` with the settings already in one :class:`Options`."""
    if isinstance(responses, str | bytes | os.PathLike) or not isinstance(responses, Sequence):
        raise OptionsError(f"responses must be a list of paths, not {type(responses).__name__}"
                           "; one response: anascore.score")
    if not responses:
        raise OptionsError("no response to score")
    for number, response in enumerate(responses, 1):
        require_path(response, f"response {number}")
    if isinstance(names, str) or not (names is None or isinstance(names, Sequence)):
        raise OptionsError("names must be a list of names, one per response, not "
                           f"{type(names).__name__}")
    if names is None:
        names = system_names([os.fspath(response) for response in responses])
    elif len(names) != len(responses):
        raise OptionsError(f"{len(names)} names for {len(responses)} responses; expected one "
                           "name per response")
    reports = score_files_many(key, responses, options, progress=progress)
    return SystemsReport(tuple(names), tuple(reports)).with_statistics(progress=progress)
