"""Clusters as model code holds them (lists of (start, end) spans per document), written to
jsonlines files and scored by :func:`anascore.score`: the file-based numbers the in-memory
entry points (``compute``, the torchmetrics metric) must equal."""

from __future__ import annotations

import tempfile
from pathlib import Path

import anascore
from anascore.core.model import Document, Entity, Mention
from anascore.formats.jsonlines import write_jsonlines

METRICS = "all"


def documents(pairs, side: int) -> list[Document]:
    """One side (0: key, 1: response) of ``document_pairs``' pairs, as documents."""
    return [Document(name=f"d{index}", tokens=tuple(f"w{i}" for i in range(tokens)),
                     sentence_starts=(0,),
                     entities=tuple(Entity(str(number), tuple(Mention.span(start, end)
                                                              for start, end in cluster))
                                    for number, cluster in enumerate(pair[side])))
            for index, (*pair, tokens) in enumerate(pairs)]


def file_scores(pairs, **options) -> anascore.Report:
    """``anascore.score`` on the clusters written to jsonlines files."""
    with tempfile.TemporaryDirectory() as folder:
        key, response = Path(folder, "key.jsonl"), Path(folder, "response.jsonl")
        write_jsonlines(documents(pairs, 0), key)
        write_jsonlines(documents(pairs, 1), response)
        return anascore.score(key, response, **options)
