"""The Perl reference scorer's TOTALS layout, for scripts that parse it.

For each metric, what ``scorer.pl METRIC KEY RESPONSE none`` prints after
``====== TOTALS =======``: the mention identification line, then ``Coreference:`` with
``Recall: (num / den) r%``, ``Precision: (num / den) p%`` and ``F1: f%``, percentages truncated
to two decimals as the Perl scorer does. BLANC prints its two halves and the combined line.
LEA, which the Perl scorer lacks, is printed in the same layout.

With ``per_document`` the blocks are those of ``scorer.pl METRIC KEY RESPONSE`` (no document
name: every document, verbose): for each document, its name, the mention counts the Perl
scorer prints (``Total key mentions`` … ``Invented``) and, but for BLANC (which prints no
per-document score), the document's coreference line; then the TOTALS. Two differences: the
Perl scorer lists documents in its hash order, which changes from run to run (anascore: key
order), and first traces each file's entities (``====> NAME:``, ``Entity 0: (1,1) …``), which
anascore does not print.
"""

from __future__ import annotations

from anascore.metrics.scores import BlancScore, Score
from anascore.report import Report
from anascore.stats.sums import scores_from_counts

_RULE = "-" * 74


def _number(value: float) -> str:
    """A count the way Perl prints a number: integers bare, others with 15 digits."""
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.15g}"


def _percent(value: float) -> str:
    """Perl's ``int($x * 10000) / 100``: truncated, with no rounding guard (0.7499999999999999
    prints as 74.99, as the reference scorer prints it)."""
    return _number(int(value * 10000) / 100)


def _rpf(recall_num: float, recall_den: float, precision_num: float, precision_den: float,
         recall: float, precision: float, f1: float) -> str:
    return (f"Recall: ({_number(recall_num)} / {_number(recall_den)}) {_percent(recall)}%\t"
            f"Precision: ({_number(precision_num)} / {_number(precision_den)}) "
            f"{_percent(precision)}%\tF1: {_percent(f1)}%\n{_RULE}")


def _score_line(score: Score) -> str:
    return _rpf(score.recall_num, score.recall_den, score.precision_num, score.precision_den,
                score.recall, score.precision, score.f1)


def _document_block(report: Report, index: int, metric: str) -> str:
    """One document's lines in the Perl scorer's verbose layout."""
    exact, key, _, response = (float(value) for value in report.counts["mentions"][index])
    lines = [f"{report.document_names[index]}:",
             f"Total key mentions: {_number(key)}",
             f"Total response mentions: {_number(response)}",
             f"Strictly correct identified mentions: {_number(exact)}",
             "Partially correct identified mentions: 0",
             f"No identified: {_number(key - exact)}",
             f"Invented: {_number(response - exact)}"]
    if metric != "blanc":
        score = scores_from_counts({metric: report.counts[metric][index]}, (metric,),
                                   report.suite)[metric]
        if isinstance(score, Score):
            lines.append(_score_line(score))
    return "\n".join(lines)


def render_reference_layout(report: Report, *, per_document: bool = False) -> str:
    """Every reported metric (but the derived CoNLL score) in the Perl scorer's layout;
    ``per_document``: each document's block before the TOTALS (the module docstring)."""
    mentions = scores_from_counts(report.corpus_counts, ("mentions",))["mentions"]
    assert isinstance(mentions, Score)
    identification = f"Identification of Mentions: {_score_line(mentions)}"
    blocks: list[str] = [f"version: anascore {report.version} (reference scorer v8.01 layout)"]
    for name, score in report.metrics.items():
        if name in ("mentions", "conll"):
            continue
        blocks.append(f"\nMETRIC {name}:")
        if per_document:
            blocks += [_document_block(report, index, name)
                       for index in range(len(report.document_names))]
        blocks.append(f"\n====== TOTALS =======\n{identification}")
        if isinstance(score, BlancScore):
            blocks.append("\nCoreference:")
            blocks.append(f"Coreference links: {_score_line(score.coref_links)}")
            blocks.append(f"Non-coreference links: {_score_line(score.non_coref_links)}")
            blocks.append("BLANC: " + _rpf(score.recall, 1, score.precision, 1, score.recall,
                                           score.precision, score.f1))
        elif isinstance(score, Score):
            blocks.append(f"Coreference: {_score_line(score)}")
    if "conll" in report.metrics:
        blocks.append(f"\nCoNLL score: {report.metrics['conll'].f1 * 100:.2f}")
    return "\n".join(blocks) + "\n"
