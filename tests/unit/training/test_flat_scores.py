"""In-memory scoring for model code: the flat ``compute`` dictionary and the torchmetrics
metric give the numbers ``anascore score`` gives for the same clusters written to files;
the metric's state sums across two real ``torch.distributed`` (gloo) processes."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import anascore
from anascore.core.errors import OptionsError
from anascore.training.flat_scores import compute, flatten_scores
from tests.support.cluster_files import METRICS, file_scores
from tests.support.strategies import document_pairs


def test_flat_names_follow_one_rule() -> None:
    # Gold {[0,1], [3,3], [5,6]}; predicted {[0,1], [3,3]} {[5,6]}: MUC recall 1/2.
    flat = compute(predictions=[[[(0, 1), (3, 3)], [(5, 6)]]],
                   references=[[[(0, 1), (3, 3), (5, 6)]]], metrics="all")
    assert flat["muc_recall"] == 1 / 2 and flat["muc_precision"] == 1 / 1
    assert flat["muc_f1"] == 2 * (1 / 2) * 1 / (1 / 2 + 1)
    assert flat["conll_score"] == (flat["muc_f1"] + flat["bcub_f1"] + flat["ceafe_f1"]) / 3
    assert "blanc_coref_links_f1" in flat and "blanc_non_coref_links_recall" in flat
    assert not [name for name in flat if name.endswith(("_num", "_den"))]


def test_compute_refuses_text_and_unpaired_lists() -> None:
    with pytest.raises(OptionsError, match="1 predictions for 2 references"):
        compute(predictions=[[]], references=[[], []])
    with pytest.raises(OptionsError, match="not str"):
        compute(predictions="[[(0, 1)]]", references="[[(0, 1)]]")


# Generated documents repeat mentions; compute says so in a warning each, as files are warned.
@pytest.mark.filterwarnings("ignore::anascore.core.errors.AnascoreWarning")
@settings(max_examples=30, deadline=None)
@given(st.lists(document_pairs(), min_size=1, max_size=4))
def test_compute_equals_file_scoring(pairs) -> None:
    report = file_scores(pairs, metrics=METRICS)
    flat = compute(predictions=[response for _, response, _ in pairs],
                   references=[key for key, _, _ in pairs], metrics=METRICS)
    assert flat == flatten_scores(report.metrics)


def test_each_list_element_is_a_document() -> None:
    # HF's coval scores its input as one document; here two documents are two documents:
    # entities never link across them.
    one = [[(0, 0), (1, 1)]]
    flat = compute(predictions=[one, one], references=[one, one], metrics="muc")
    assert flat["muc_f1"] == 1.0
    merged = compute(predictions=[[[(0, 0), (1, 1)]]] * 2,
                     references=[[[(0, 0)], [(1, 1)]]] * 2, metrics="muc")
    assert merged["muc_precision"] == 0.0


def test_compute_passes_on_the_warnings_of_its_documents():
    # A mention in two predicted clusters is scored once, with a warning, as everywhere; the
    # warning stayed inside compute's evaluator, so its caller saw a perfect score for a
    # prediction linking mentions 1 and 3, which the key does not link, and no word.
    with pytest.warns(anascore.AnascoreWarning, match="repeated") as caught:
        scores = compute(predictions=[[[(0, 1), (3, 3)], [(3, 3), (5, 5)]]],
                         references=[[[(0, 1), (3, 3)], [(5, 5), (7, 7)]]], metrics="muc")
    assert len(caught) == 1
    assert str(caught[0].message).startswith("response: document 'document 0': repeated "
                                             "response mention [3, 3]")
    assert scores["muc_f1"] < 1
