"""One run counted in one process and in several: the parallel path must give the serial
report exactly (:mod:`anascore.scoring.parallel`), so tests of every format compare both."""

from __future__ import annotations

from anascore.config.options import Options
from anascore.scoring.pipeline import score_files


def both_ways(key: str, response: str, **settings: object) -> dict:
    """The one-process report, after checking that two and three processes give it exactly
    (numbers of every document, warnings and their order)."""
    serial = score_files(key, response, Options.create(jobs=1, **settings))
    expected = serial.to_dict(per_document=True)
    for jobs in (2, 3):
        report = score_files(key, response, Options.create(jobs=jobs, **settings))
        assert report.to_dict(per_document=True) == expected
        assert report.warnings == serial.warnings
    return expected
