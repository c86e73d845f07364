"""anascore against the Perl reference scorer v8.01, on random key/response pairs.

Why: the published reference cases are few and small; a differential test reaches the corners
they miss (nested and crossing mentions, singletons, empty sides, many documents, partly
missing response documents, boundary errors). Every case is a small seeded random CoNLL-2012
key and a perturbed response; the Perl scorer runs on them with ``all … none`` (totals only)
in its own process, because it counts repeated mentions in a global that outlives one scoring
run, and its printed counts are compared with :func:`anascore.score` to 1e-9.

Compared, for every case: mention identification (the ``Identification of Mentions:`` line,
the same in every block), the ``Coreference:`` recall and precision counts of MUC, B³, CEAFm
and CEAFe, BLANC's coreference and non-coreference link counts and its combined recall and
precision, and every F1, computed from Perl's printed counts with Perl's formulas (Perl prints
F1 only truncated to two decimals), including the CoNLL average of MUC, B³ and CEAFe.

Not generated: a span annotated twice in one file (anascore keeps one copy and warns, Perl
keeps both in the key and refuses to score more than ten in a response — a documented
difference, ``docs/differences.md``), and two mentions of one entity that cross (their
brackets are ambiguous).

Skipped unless ``ANASCORE_PERL_SCORER`` names an existing ``scorer.pl`` and ``perl`` is on
PATH. A failing case prints its key and response files, a ready reproduction.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import anascore
from tests.support.perl_scorer import (
    COREFERENCE_METRICS,
    Counts,
    differences,
    parse_perl,
    requires_perl,
    run_perl,
)

CASES = 200
SEED = 801

Span = tuple[int, int]
"""A mention's first and last token, inclusive, counted from the start of its document."""


# --------------------------------------------------------------------------------------------
# Random cases


@dataclass
class Document:
    """One document: sentence lengths and each side's mentions (span → entity id)."""

    name: str
    sentence_lengths: list[int]
    key: dict[Span, int] = field(default_factory=dict)
    response: dict[Span, int] = field(default_factory=dict)

    @property
    def tokens(self) -> int:
        """The number of tokens of the document."""
        return sum(self.sentence_lengths)


@dataclass
class Case:
    """A key and a response: documents, and which documents the response leaves out."""

    documents: list[Document]
    response_order: list[int]
    """Indices of the documents written into the response file, in order."""


def crosses(a: Span, b: Span) -> bool:
    """Whether two distinct spans overlap without one containing the other."""
    overlap = a[0] <= b[1] and b[0] <= a[1]
    nested = (a[0] <= b[0] and b[1] <= a[1]) or (b[0] <= a[0] and a[1] <= b[1])
    return overlap and not nested


def sentence_bounds(document: Document) -> list[Span]:
    """The first and last token of every sentence."""
    bounds = []
    start = 0
    for length in document.sentence_lengths:
        bounds.append((start, start + length - 1))
        start += length
    return bounds


def random_span(rng: random.Random, document: Document) -> Span:
    """A span inside one sentence: mostly short, sometimes the whole sentence."""
    first, last = rng.choice(sentence_bounds(document))
    length = min(1 + int(rng.expovariate(0.7)), last - first + 1)
    start = rng.randint(first, last - length + 1)
    return start, start + length - 1


def allowed(span: Span, entity: int, mentions: dict[Span, int], crossing: bool) -> bool:
    """Whether ``span`` may join ``mentions`` as a mention of ``entity``: never a span twice,
    never crossing a mention of its own entity, and crossing others only when ``crossing``."""
    if span in mentions:
        return False
    return not any(crosses(span, other) and (not crossing or mentions[other] == entity)
                   for other in mentions)


def add_mention(rng: random.Random, mentions: dict[Span, int], span: Span,
                entities: list[int], crossing: bool) -> bool:
    """Add ``span`` to one of ``entities`` (tried in random order) where it is allowed."""
    for entity in rng.sample(entities, len(entities)):
        if allowed(span, entity, mentions, crossing):
            mentions[span] = entity
            return True
    return False


def random_key(rng: random.Random, document: Document, crossing: bool,
               singletons_only: bool) -> dict[Span, int]:
    """Key mentions: nested (crossing only when ``crossing``), entities of any size."""
    wanted = rng.randint(1, max(1, document.tokens // 2))
    count = wanted if singletons_only else rng.randint(1, wanted)
    entities = rng.sample(range(1000 if rng.random() < 0.8 else 10**6), count)
    mentions: dict[Span, int] = {}
    for _ in range(3 * wanted):
        if len(mentions) >= wanted:
            break
        if singletons_only:
            free = [entity for entity in entities if entity not in mentions.values()]
            if not free:
                break
            add_mention(rng, mentions, random_span(rng, document), free[:1], crossing)
        else:
            add_mention(rng, mentions, random_span(rng, document), entities, crossing)
    return mentions


def perturbed_boundary(rng: random.Random, span: Span, document: Document) -> Span:
    """``span`` with one boundary moved by one or two tokens, inside its sentence."""
    first, last = next(bound for bound in sentence_bounds(document)
                       if bound[0] <= span[0] <= bound[1])
    start, end = span
    step = rng.choice((1, 2))
    side = rng.randrange(4)
    if side == 0:
        start = max(first, start - step)
    elif side == 1:
        end = min(last, end + step)
    elif side == 2:
        start = min(end, start + step)
    else:
        end = max(start, end - step)
    return start, end


def random_response(rng: random.Random, document: Document, crossing: bool,
                    singletons_only: bool) -> dict[Span, int]:
    """The key with errors: missed mentions, moved boundaries, relinked, split and merged
    entities, spurious mentions and singletons; entity ids renumbered."""
    missing, boundary, relink, spurious = (rng.random() * 0.4 for _ in range(4))
    key_entities = sorted(set(document.key.values()))
    fresh = iter(range(2000, 10**7))
    merge = {entity: rng.choice(key_entities) if rng.random() < 0.2 else entity
             for entity in key_entities}
    mentions: dict[Span, int] = {}
    for span, entity in sorted(document.key.items()):
        if rng.random() < missing:
            continue
        if rng.random() < boundary:
            span = perturbed_boundary(rng, span, document)
        target = merge[entity]
        if singletons_only:
            target = next(fresh)
        elif rng.random() < relink:
            target = rng.choice([*key_entities, next(fresh)])
        add_mention(rng, mentions, span, [target], crossing)
    for _ in range(round(spurious * (len(document.key) + 2))):
        entities = [next(fresh)]
        if not singletons_only and mentions and rng.random() < 0.5:
            entities.append(rng.choice(list(mentions.values())))
        add_mention(rng, mentions, random_span(rng, document), entities[-1:], crossing)
    renumber = {entity: new for entity, new in zip(
        sorted(set(mentions.values())), rng.sample(range(10**6), len(set(mentions.values()))),
        strict=True)}
    return {span: renumber[entity] for span, entity in mentions.items()}


def random_case(seed: int) -> Case:
    """A case of one to four documents, each of a random kind (see the module docstring)."""
    rng = random.Random(seed)
    documents = []
    for number in range(rng.randint(1, 4)):
        if rng.random() < 0.15:  # a longer document, with larger entities
            lengths = [rng.randint(5, 30) for _ in range(rng.randint(3, 8))]
        else:
            lengths = [rng.randint(1, 14) for _ in range(rng.randint(1, 4))]
        document = Document(f"(case{seed}/doc_{number}); part {number:03d}", lengths)
        crossing = rng.random() < 0.2
        kind = rng.choices(
            ("normal", "key-empty", "response-empty", "both-empty", "key-singletons",
             "response-singletons", "perfect"),
            weights=(60, 7, 7, 3, 8, 8, 7))[0]
        if kind not in ("key-empty", "both-empty"):
            document.key = random_key(rng, document, crossing, kind == "key-singletons")
        if kind in ("key-empty", "response-singletons"):
            document.response = random_response(
                rng, Document(document.name, lengths,
                              key=random_key(rng, document, crossing, False)),
                crossing, kind == "response-singletons")
        elif kind == "perfect":
            document.response = dict(document.key)
        elif kind not in ("response-empty", "both-empty"):
            document.response = random_response(rng, document, crossing, False)
        documents.append(document)
    order = list(range(len(documents)))
    if rng.random() < 0.3:
        rng.shuffle(order)
    if len(order) > 1 and rng.random() < 0.1:
        order.remove(rng.choice(order))
    return Case(documents, order)


def coreference_column(mentions: dict[Span, int], tokens: int) -> list[str]:
    """Every token's last column: openings (longest first), one-token mentions, closings
    (shortest first), joined by ``|``; ``-`` when empty."""
    cells: list[list[tuple[int, int, str]]] = [[] for _ in range(tokens)]
    for (start, end), entity in mentions.items():
        if start == end:
            cells[start].append((1, 0, f"({entity})"))
        else:
            cells[start].append((0, -end, f"({entity}"))
            cells[end].append((2, -start, f"{entity})"))
    return ["|".join(text for *_, text in sorted(cell)) or "-" for cell in cells]


def conll_text(documents: list[Document], side: str) -> str:
    """One side of ``documents`` in CoNLL-2012 (the reference scorer's five columns)."""
    lines = []
    for document in documents:
        lines.append(f"#begin document {document.name}")
        column = coreference_column(getattr(document, side), document.tokens)
        token = 0
        for length in document.sentence_lengths:
            for index in range(length):
                lines.append(f"doc\t0\t{index}\tw{token}\t{column[token]}")
                token += 1
            lines.append("")
        lines.append("#end document")
    return "\n".join(lines) + "\n"


@requires_perl
@pytest.mark.parametrize("case_number", range(CASES))
def test_anascore_equals_perl(case_number: int, tmp_path: Path) -> None:
    case = random_case(SEED * 1000 + case_number)
    key, response = tmp_path / "key.conll", tmp_path / "response.conll"
    key.write_text(conll_text(case.documents, "key"), encoding="utf-8")
    response.write_text(conll_text([case.documents[i] for i in case.response_order],
                                   "response"), encoding="utf-8")
    perl = run_perl(key, response)
    report = anascore.score(key, response, format="conll2012")
    found = differences(report, perl)
    assert not found, "\n".join([*found, "", "key:", key.read_text(), "response:",
                                 response.read_text()])



@requires_perl
@pytest.mark.parametrize("header", ["#begin document(x);", "#begin document\t(x);"])
def test_a_header_without_the_space_is_no_document_for_perl(tmp_path: Path,
                                                            header: str) -> None:
    """docs/differences.md: the Perl scorer reads nothing from ``#begin document(x);`` (every
    metric 0/0), where anascore reads a document named ``(x);``."""
    key = tmp_path / "key.conll"
    key.write_text(f"{header}\nx\t0\t0\tAnna\t(1)\nx\t0\t1\tmet\t-\n"
                   "x\t0\t2\therself\t(1)\n#end document\n", encoding="utf-8")
    perl = run_perl(key, key)
    assert all(counts == Counts(0, 0, 0, 0)
               for metric in COREFERENCE_METRICS for counts in perl[metric].values())
    report = anascore.score(key, key, format="conll2012")
    assert report.document_names == ("(x);",)
    assert report.metrics["muc"].f1 == report.metrics["bcub"].f1 == 1.0

def test_parse_perl_reads_every_totals_line() -> None:
    """The parser on the Perl scorer's own layout (a fixed sample of its TOTALS output)."""
    line = "Recall: ({} / {}) 50%\tPrecision: ({} / {}) 50%\tF1: 50%"
    rule = "-" * 74
    blocks = []
    for metric in COREFERENCE_METRICS:
        blocks += [f"METRIC {metric}:", "", "====== TOTALS =======",
                   "Identification of Mentions: " + line.format(3, 4, 3, 5), rule,
                   "Coreference: " + line.format(1.5, 3, 1.25, 2.5), rule]
    blocks += ["METRIC blanc:", "", "====== TOTALS =======",
               "Identification of Mentions: " + line.format(3, 4, 3, 5), rule, "",
               "Coreference:", "Coreference links: " + line.format(1, 2, 1, 3), rule,
               "Non-coreference links: " + line.format(4, 4, 4, 7), rule,
               "BLANC: " + line.format(0.75, 1, 0.452380952380952, 1), rule]
    parsed = parse_perl("\n".join(["version: 8.01 lib/CorScorer.pm", *blocks]))
    assert parsed["ceafe"]["coreference"] == Counts(1.5, 3, 1.25, 2.5)
    assert parsed["blanc"]["non_coref_links"] == Counts(4, 4, 4, 7)
    assert parsed["blanc"]["blanc"].recall_num == 0.75
    assert parsed["muc"]["mentions"].precision == 3 / 5
