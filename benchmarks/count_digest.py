"""A digest of everything the per-document counting gives for a key and a response, to tell
two versions of anascore apart bit for bit (the differential check of a speed-up).

For each option set, every key document is counted against its response document as a file
run counts it (``anascore.scoring.pipeline.count_key_document``), and one SHA-256 digest is
taken over, document by document: every metric's count vector (each count as ``float.hex``,
so that the last bit counts), every warning's text, the names of the split-antecedent
alignments, and the error's class and text where counting fails. Run it once with each
version first on ``PYTHONPATH`` and compare the lines::

    PYTHONPATH=/old/src python benchmarks/count_digest.py KEY RESPONSE > old.txt
    PYTHONPATH=src python benchmarks/count_digest.py KEY RESPONSE > new.txt
    diff old.txt new.txt

``--options`` takes option sets as JSON objects (the fields of
:class:`anascore.config.options.Options`, as ``Options.create`` takes them); by default
every metric under exact, head and partial matching, without singletons, and under
``compat="ua"``. A set the files cannot be scored with is reported by its error, as any
difference would be.
"""

from __future__ import annotations

import argparse
import hashlib
import json

from anascore.config.options import Options
from anascore.core.errors import AnascoreError
from anascore.formats import read_documents
from anascore.scoring.pipeline import count_key_document

DEFAULT_OPTIONS = (
    {"metrics": "all"},
    {"metrics": "all", "match": "head"},
    {"metrics": "all", "match": "partial"},
    {"metrics": "all", "keep_singletons": False},
    {"metrics": "all", "compat": "ua"},
)


def digest(key: str, response: str, settings: dict[str, object]) -> str:
    """The digest of counting every key document against ``response``'s under ``settings``
    (the module docstring)."""
    try:
        options = Options.create(**settings)  # type: ignore[arg-type]
    except AnascoreError as error:
        return f"options refused: {error}"
    responses = {document.name: document for document in read_documents(response, "auto")}
    total = hashlib.sha256()
    for document in read_documents(key, "auto"):
        try:
            [(counts, warnings, details)] = count_key_document(
                document, [responses.get(document.name)], [response], options)
        except AnascoreError as error:
            total.update(f"{type(error).__name__}: {error}\n".encode())
            continue
        total.update(f"document {document.name}\n".encode())
        for name in sorted(counts):
            values = " ".join(float(value).hex() for value in counts[name].tolist())
            total.update(f"{name} {values}\n".encode())
        for warning in warnings:
            total.update(f"warning {warning}\n".encode())
        total.update(f"alignments {sorted(details)}\n".encode())
    return total.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("key")
    parser.add_argument("response")
    parser.add_argument("--options", nargs="+", type=json.loads, default=None,
                        help="option sets as JSON objects (default: five sets)")
    arguments = parser.parse_args()
    for settings in arguments.options or DEFAULT_OPTIONS:
        print(json.dumps(settings, sort_keys=True), digest(arguments.key, arguments.response,
                                                           settings))


if __name__ == "__main__":
    main()
