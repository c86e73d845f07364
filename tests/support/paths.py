"""Where the suite's inputs are: this checkout's folders, and ``../shared`` beside it.

One place for the paths every test module used to compute from its own ``__file__`` (so a
test module can move between folders of ``tests/`` without counting ``parents``). ``SHARED``
holds the real corpora and the reference scorers' published cases; it may be absent (an
unpacked sdist, a fresh clone): the tests that need it skip, through :func:`corpus_files` or
the ``corpora`` fixture of ``tests/conftest.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

#: The checkout's root (the folder holding src/, tests/, examples/).
ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
#: The suite's own small input files.
FIXTURES = TESTS / "fixtures"
#: The files the README runs (examples/key.conll and examples/response.conll among them).
EXAMPLES = ROOT / "examples"
#: ``../shared``: corpora/ (GUM, LitBank, CODI-CRAC 2022) and reference-cases/.
SHARED = ROOT.parent / "shared"
CORPORA = SHARED / "corpora"
REFERENCE_CASES = SHARED / "reference-cases"


def corpus_files(*parts: str, pattern: str = "*", limit: int | None = None) -> list[Path]:
    """The files of ``../shared/corpora/<parts…>`` matching ``pattern``, sorted, the first
    ``limit`` of them; the calling test is skipped when there is none."""
    folder = CORPORA.joinpath(*parts)
    files = sorted(folder.glob(pattern))[:limit]
    if not files:
        pytest.skip(f"no {pattern} in {folder} (../shared/corpora is absent)")
    return files
