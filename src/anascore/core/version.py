"""The version of anascore, recorded in every result's signature, and the oldest Python it runs
on (pyproject's ``requires-python``; the Codabench program anascore writes says it too)."""

__version__ = "0.1.0"
#: The oldest Python anascore runs on (the whole suite passes on it).
REQUIRED_PYTHON = "3.10"
