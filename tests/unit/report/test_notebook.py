"""What a notebook shows: short reprs, HTML tables, DataFrames (pandas is optional)."""

from __future__ import annotations

import math

import pytest

import anascore
from anascore.core.model import Document, Entity, Mention
from anascore.scoring.pipeline import score_documents


def _pair() -> tuple[list[Document], list[Document]]:
    words = tuple(f"w{position}" for position in range(6))
    key = Document("d", words, (Entity("a", (Mention.span(0, 0), Mention.span(2, 2))),
                                Entity("b", (Mention.span(4, 4), Mention.span(5, 5)))))
    response = Document("d", words, (Entity("a", (Mention.span(0, 0), Mention.span(2, 2),
                                                  Mention.span(4, 4))),))
    return [key], [response]


def test_report_repr_and_html_show_the_scores() -> None:
    report = score_documents(*_pair())
    # MUC: key links 2, response links 2, one right: R = P = 1/2.
    assert report.metrics["muc"].f1 == 0.5
    assert "1 documents" in repr(report) and "muc 50.00" in repr(report)
    html = report._repr_html_()
    assert html.startswith("<table>") and "<th style='text-align:left'>muc</th>" in html
    assert "50.00" in html


def test_report_dataframe() -> None:
    pytest.importorskip("pandas")
    report = score_documents(*_pair())
    frame = report.to_dataframe()
    assert frame.loc["muc", "recall"] == 0.5 and frame.loc["mentions", "precision"] == 1.0
    assert math.isnan(frame.loc["conll", "recall"])  # an average of F1s has no recall
    per_document = report.to_dataframe(per_document=True)
    assert per_document.loc[("d", "muc"), "f1"] == 0.5


def test_grouped_scores_and_error_analysis_in_a_notebook(tmp_path) -> None:
    pytest.importorskip("pandas")
    key = tmp_path / "key.conll"
    key.write_text("#begin document (bc/a); part 000\nw\t(1)\nw\t(1)\nw\t(2)\nw\t(2)\n"
                   "#end document\n")
    response = tmp_path / "response.conll"
    response.write_text("#begin document (bc/a); part 000\nw\t(1)\nw\t(1)\nw\t(1)\nw\t-\n"
                        "#end document\n")
    groups = anascore.score_groups(str(key), str(response), "genre")
    assert "genre: 1 groups: bc" in repr(groups)
    frame = groups.to_dataframe()
    assert list(frame.index) == ["bc", "micro", "macro"]
    assert frame.loc["micro", ("muc", "f1")] == pytest.approx(
        anascore.score(str(key), str(response)).metrics["muc"].f1)
    analysis = anascore.analyse_errors(str(key), str(response))
    errors = analysis.to_dataframe()
    assert errors.loc["missing_mention", "errors"] == 1  # the fourth token's mention
    # fractions, as the JSON and Report.to_dataframe give them (it printed percents: 100.0)
    assert errors.loc["all", "muc_f1"] == 1.0
    assert errors.loc["all", "muc_delta_f1"] == pytest.approx(
        1.0 - anascore.score(str(key), str(response)).metrics["muc"].f1)
    assert "missing_mention" in analysis._repr_html_()
