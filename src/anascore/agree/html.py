"""``anascore agree --html FILE``: the adjudication page, every annotation of each document
side by side with the disagreements marked.

One self-contained HTML file (no script, no network): the annotators by name, α and the
pairwise CoNLL F1, then per document a column per annotation, its text with each mention in
brackets numbered by its chain. A mention is marked by how the annotations agree on it, as α
sees it (:func:`~anascore.agree.core.mention_key`): the same chain in every annotation
(``agree``), in every annotation but not in the same chain (``chain``), or not in every
annotation (``missing``: the ones that have it show it so). Every text from the files and the
command line is escaped (:func:`html.escape`).
"""

from __future__ import annotations

import html
import math
import os
from collections.abc import Hashable, Sequence
from typing import IO

from anascore.agree.core import (
    Agreement,
    aligned_documents,
    mention_key,
    selected_chains,
)
from anascore.config.options import Options
from anascore.core.model import Document, Mention
from anascore.formats.io.sources import local_inputs

#: A mention's state, its class on the page, and what the legend says of it.
STATES = {
    "agree": "the same chain in every annotation",
    "chain": "in every annotation, in different chains",
    "missing": "not in every annotation",
}

STYLE = """
body { font-family: sans-serif; margin: 1.5em; line-height: 1.8; }
table.doc { border-collapse: collapse; width: 100%; table-layout: fixed; }
table.doc td, table.doc th { border: 1px solid #ccc; padding: .5em; vertical-align: top; }
table.scores td, table.scores th { padding: .2em .8em; text-align: right; }
.m { border-radius: 3px; padding: 0 1px; font-weight: bold; }
.m sub { font-size: 70%; }
.agree { background: #e3f4e1; }
.chain { background: #ffe2b3; }
.missing { background: #ffc9c9; }
details { margin: .6em 0; }
summary { cursor: pointer; font-weight: bold; }
"""


def write_adjudication(result: Agreement, annotations: Sequence[str | os.PathLike[str]],
                       stream: IO[str]) -> None:
    """Write the page of ``result`` (its documents read again from ``annotations``) to
    ``stream``."""
    write = stream.write
    paths = [os.fspath(path) for path in annotations]
    warnings: list[str] = []
    write(_head(result))
    with local_inputs(paths) as (local, _):
        for documents, by_nodes in aligned_documents(local, paths, result.options, warnings):
            write(document_section(result.names, documents, by_nodes, result.options,
                                   _alpha_of(result, documents)))
    write("</body>\n</html>\n")


def _alpha_of(result: Agreement, documents: Sequence[Document | None]) -> str:
    first = documents[0]
    assert first is not None
    alpha = result.document_alpha(first.name)
    return ", ".join(f"{name} {_number(value)}" for name, value in alpha.items())


def _number(value: float) -> str:
    return "n/a" if math.isnan(value) else f"{value:.4f}"


def _head(result: Agreement) -> str:
    names = ", ".join(html.escape(name) for name in result.names)
    rows = "".join(f"<tr><th>{html.escape(name)}</th><td>{_number(value)}</td></tr>"
                   for name, value in result.alpha.items())
    pairs = "".join(
        f"<tr><th>{html.escape(pair.a)} – {html.escape(pair.b)}</th>"
        f"<td>{_percent(pair.f1().get('conll', math.nan))}</td>"
        f"<td>{_percent(pair.f1()['mentions'])}</td></tr>" for pair in result.pairs)
    legend = " ".join(f'<span class="m {state}">[ ]</span> {html.escape(text)}'
                      for state, text in STATES.items())
    return (f"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>anascore agree: {names}</title>\n<style>{STYLE}</style>\n</head>\n"
            f"<body>\n<h1>Agreement: {names}</h1>\n"
            f"<p>{len(result.document_names)} document"
            f"{'s' if len(result.document_names) != 1 else ''}; missing mentions: "
            f"{html.escape(result.missing)}.</p>\n"
            f"<table class=\"scores\"><tr><th>distance</th><th>alpha</th></tr>{rows}</table>\n"
            f"<table class=\"scores\"><tr><th>pair</th><th>CoNLL F1</th><th>Mentions F1</th>"
            f"</tr>{pairs}</table>\n<p>{legend}. A mention's number is its chain in that "
            "annotation.</p>\n")


def _percent(value: float) -> str:
    return "n/a" if math.isnan(value) else f"{100 * value:.2f}"


def document_section(names: Sequence[str], documents: Sequence[Document | None],
                     by_nodes: bool, options: Options, alpha: str) -> str:
    """One document: a column per annotation (an annotation that lacks the document shows
    nothing), with the counts of disagreeing mentions in the summary."""
    first = documents[0]
    assert first is not None
    chains: list[list[list[Mention]] | None] = [
        None if document is None else selected_chains(document, "", options, index, [])
        for index, document in enumerate(documents)]
    values: list[dict[Hashable, frozenset[Hashable]]] = []
    for document, found in zip(documents, chains, strict=True):
        by_mention: dict[Hashable, frozenset[Hashable]] = {}
        if document is not None and found is not None:
            for chain in found:
                keys = frozenset(mention_key(mention, document, by_nodes) for mention in chain)
                for key in keys:
                    by_mention[key] = keys
        values.append(by_mention)
    every = set().union(*values)
    states = {key: ("missing" if any(key not in found for found in values) else
                    "agree" if len({found[key] for found in values}) == 1 else "chain")
              for key in every}
    counts = {state: sum(1 for value in states.values() if value == state) for state in STATES}
    columns = []
    for document, found in zip(documents, chains, strict=True):
        if document is None or found is None:
            columns.append("<td><em>(not in this annotation)</em></td>")
            continue
        columns.append(f"<td>{_marked_text(document, found, by_nodes, states)}</td>")
    heads = "".join(f"<th>{html.escape(name)}</th>" for name in names)
    summary = (f"{html.escape(first.name)} — alpha {html.escape(alpha)}; "
               f"{counts['chain']} in other chains, {counts['missing']} not in every "
               "annotation")
    return (f"<details{' open' if counts['chain'] or counts['missing'] else ''}>"
            f"<summary>{summary}</summary>\n<table class=\"doc\"><tr>{heads}</tr>"
            f"<tr>{''.join(columns)}</tr></table></details>\n")


def _marked_text(document: Document, chains: list[list[Mention]], by_nodes: bool,
                 states: dict[Hashable, str]) -> str:
    """The document's tokens, a bracket before each mention's first token and one numbered by
    its chain after its last (brackets, not nested elements: mentions may cross), both
    coloured by the mention's state; a line per sentence."""
    opening: dict[int, list[tuple[int, str]]] = {}
    closing: dict[int, list[tuple[int, str, int]]] = {}
    numbers = chain_numbers(chains)
    for number, chain in zip(numbers, chains, strict=True):
        for mention in chain:
            state = states[mention_key(mention, document, by_nodes)]
            opening.setdefault(mention.start, []).append((mention.end, state))
            closing.setdefault(mention.end, []).append((mention.start, state, number))
    starts = set(document.sentence_starts[1:])
    parts = []
    for position, token in enumerate(document.tokens):
        if position in starts:
            parts.append("<br>\n")
        for _, state in sorted(opening.get(position, []), reverse=True):  # outer first
            parts.append(f'<span class="m {state}">[</span>')
        parts.append(html.escape(token))
        for _, state, number in sorted(closing.get(position, []), reverse=True):  # inner first
            parts.append(f'<span class="m {state}">]<sub>{number}</sub></span>')
        parts.append(" ")
    return "".join(parts)


def chain_numbers(chains: Sequence[Sequence[Mention]]) -> list[int]:
    """Chains numbered from 1 in the order of their first mention (what the page shows)."""
    order = sorted(range(len(chains)), key=lambda index: min(
        mention.tokens for mention in chains[index]))
    numbers = [0] * len(chains)
    for number, index in enumerate(order, start=1):
        numbers[index] = number
    return numbers
