"""The in-memory evaluator gives exactly the file-based numbers for the same clusters."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import anascore
from anascore.formats.conll2012 import write_conll2012
from tests.support.paths import EXAMPLES
from tests.support.strategies import document_pairs, to_document, without_crossing

EXAMPLE_KEY = str(EXAMPLES / "key.conll")


@settings(max_examples=40, deadline=None)
@given(st.lists(document_pairs(), min_size=1, max_size=4))
def test_evaluator_equals_file_scoring(pairs) -> None:
    pairs = [(without_crossing(key), without_crossing(response), tokens)
             for key, response, tokens in pairs]
    evaluator = anascore.CorefEvaluator()
    for key, response, _ in pairs:
        evaluator.update(predicted_clusters=response, gold_clusters=key)
    with tempfile.TemporaryDirectory() as folder:
        key_path, response_path = Path(folder, "key.conll"), Path(folder, "response.conll")
        write_conll2012([to_document(key, tokens, f"(d{index}); part 000")
                         for index, (key, _, tokens) in enumerate(pairs)], key_path)
        write_conll2012([to_document(response, tokens, f"(d{index}); part 000")
                         for index, (_, response, tokens) in enumerate(pairs)], response_path)
        report = anascore.score(key_path, response_path)
    for name, score in report.metrics.items():
        if name == "conll":
            assert evaluator.get_conll_f1() == score.f1
        else:
            assert evaluator.get_prf(name) == (score.precision, score.recall, score.f1)


def test_get_prf_returns_precision_recall_f1_by_name() -> None:
    evaluator = anascore.CorefEvaluator(metrics=["muc"])
    # Gold {[0,1], [3,3], [5,6]}; predicted {[0,1], [3,3]} {[5,6]}: 1 of 2 links found.
    evaluator.update(predicted_clusters=[[(0, 1), (3, 3)], [(5, 6)]],
                     gold_clusters=[[(0, 1), (3, 3), (5, 6)]])
    prf = evaluator.get_prf("muc")
    assert (prf.precision, prf.recall) == (1 / 1, 1 / 2)
    precision, recall, f1 = prf
    assert (precision, recall, f1) == (1.0, 0.5, pytest.approx(2 / 3))


def test_spans_are_inclusive() -> None:
    evaluator = anascore.CorefEvaluator(metrics=["mentions"])
    evaluator.update(predicted_clusters=[[(2, 4)]], gold_clusters=[[(2, 4)]])
    evaluator.update(predicted_clusters=[[(2, 3)]], gold_clusters=[[(2, 4)]])
    assert evaluator.get_prf("mentions").recall == 1 / 2


def test_evaluators_merge_across_processes_and_reset() -> None:
    gold, predicted = [[(0, 0), (2, 2)], [(4, 5)]], [[(0, 0), (2, 2), (4, 5)]]
    whole = anascore.CorefEvaluator()
    whole.update(predicted, gold)
    whole.update(gold, gold)
    first, second = anascore.CorefEvaluator(), anascore.CorefEvaluator()
    first.update(predicted, gold)
    second.update(gold, gold)
    first.merge(second)
    assert first.get_conll_f1() == whole.get_conll_f1()
    assert {name: counts.tolist() for name, counts in first.counts.items()} == \
        {name: counts.tolist() for name, counts in whole.counts.items()}
    first.reset()
    assert len(first) == 0
    with pytest.raises(anascore.AnascoreError, match="no document scored yet"):
        first.get_prf("muc")


def test_merging_evaluators_with_different_options_is_refused() -> None:
    with pytest.raises(anascore.OptionsError):
        anascore.CorefEvaluator().merge(anascore.CorefEvaluator(keep_singletons=False))


def test_a_bad_span_is_refused() -> None:
    with pytest.raises(anascore.OptionsError, match="inclusive"):
        anascore.CorefEvaluator().update([[(3, 1)]], [[(0, 0)]])


def test_documents_pickle_for_parallel_runs(tmp_path: Path) -> None:
    """A map over documents in other processes needs documents (and their read-only attribute
    mappings) to pickle; the copy scores exactly as the original."""
    import pickle

    from anascore.core.model import Mention, read_only
    from anascore.formats import read_documents

    documents = list(read_documents(EXAMPLES / "key.conll"))
    copies = pickle.loads(pickle.dumps(documents))
    assert copies == documents
    mention = Mention((1, 2), attributes=read_only({"mention_type": "pronoun"}))
    assert pickle.loads(pickle.dumps(mention)).attributes == {"mention_type": "pronoun"}


def test_nothing_scored_yet_is_one_behaviour() -> None:
    # get_prf() and its e2e-coref names returned zeros before any update() while scores(),
    # anascore.compute and the torchmetrics metric raised: a score no document gave.
    evaluator = anascore.CorefEvaluator()
    for call in (evaluator.scores, evaluator.get_prf, evaluator.get_f1, evaluator.get_conll_f1,
                 evaluator.get_precision, evaluator.get_recall,
                 evaluator.evaluators[0].get_prf, lambda: anascore.compute(predictions=[],
                                                                           references=[])):
        with pytest.raises(anascore.AnascoreError) as error:
            call()
        assert str(error.value) == "no document scored yet; call update() first"
    evaluator.update([[(0, 0), (2, 2)]], [[(0, 0), (2, 2)]])
    assert evaluator.get_prf() == (1.0, 1.0, 1.0)


@pytest.mark.parametrize(("call", "message"), [
    (lambda: anascore.CorefEvaluator().merge(5),
     "merge takes another CorefEvaluator, not int"),
    (lambda: anascore.CorefEvaluator().merge(None),
     "merge takes another CorefEvaluator, not NoneType"),
    (lambda: anascore.CorefEvaluator().update(None, None),
     "clusters must be a list of clusters, not NoneType"),
    (lambda: anascore.compute(predictions=[5], references=[[]]),
     "clusters must be a list of clusters, not int"),
    (lambda: anascore.convert(None, "out.ua", to="ua"),
     "the input must be a path (str or os.PathLike), not NoneType"),
    (lambda: anascore.convert(EXAMPLE_KEY, None, to="ua"),
     "the output must be a path (str or os.PathLike), not NoneType"),
    (lambda: anascore.analyse_errors(None, None),
     "the key must be a path (str or os.PathLike), not NoneType"),
    (lambda: anascore.analyse_errors(EXAMPLE_KEY, 5),
     "the response must be a path (str or os.PathLike), not int"),
    (lambda: anascore.write_ua(None, "out.ua"),
     "the documents to write must be documents (anascore.core.model.Document), not NoneType"),
    (lambda: anascore.write_ua([1], "out.ua"),
     "the documents to write must be documents (anascore.core.model.Document), not a list "
     "holding int"),
    (lambda: anascore.write_ua([], None),
     "the output must be a path (str or os.PathLike), not NoneType"),
])
def test_the_python_api_refuses_wrong_arguments_in_words(call, message, tmp_path,
                                                         monkeypatch) -> None:
    # These were bare AttributeError and TypeError tracebacks from deep inside.
    monkeypatch.chdir(tmp_path)
    with pytest.raises(anascore.OptionsError) as error:
        call()
    assert str(error.value) == message
    assert not (tmp_path / "out.ua").exists()


@pytest.mark.parametrize("writer", ["write_conll2012", "write_corefud", "write_jsonlines",
                                    "write_ua"])
def test_every_writer_checks_its_documents(writer, tmp_path) -> None:
    from importlib import import_module

    format = writer.removeprefix("write_")
    write = getattr(import_module(f"anascore.formats.{format}"), writer)
    with pytest.raises(anascore.OptionsError, match=r"the documents to write must be "
                                                     r"documents .*, not int"):
        write(5, tmp_path / "out")
    with pytest.raises(anascore.OptionsError, match="the output must be a path"):
        write([], None)
    assert list(tmp_path.iterdir()) == []
