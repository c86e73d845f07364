"""Windowed evaluation of long documents (``window``, ``window_rule``;
:mod:`anascore.selection.windows`).

Small documents whose windowed scores are worked out by hand for each rule (mentions at a
window's start, a mention crossing a window's end, a document whose length is a multiple of
the window, one shorter than a window); then BookCoref's own ``evaluate_split``
(``SapienzaNLP/bookcoref``, ``evaluate.py``; a checkout named by ``$ANASCORE_BOOKCOREF``,
default ``/tmp/ref/bookcoref``) run beside ``--window 1500 --window-rule bookcoref`` on books
laid end to end from LitBank documents, with perturbed responses: every metric it reports,
to 1e-9. Skipped when the checkout or the corpus is absent.
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
import subprocess
import sys
import types
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import anascore
from anascore.config.options import Options
from anascore.core.errors import OptionsError
from anascore.core.model import Document, Entity, Mention
from anascore.formats.conll2012 import read_conll2012, write_conll2012
from anascore.selection.windows import window_ends
from tests.support.paths import CORPORA, ROOT

BOOKCOREF = Path(os.environ.get("ANASCORE_BOOKCOREF", "/tmp/ref/bookcoref"))
LITBANK = CORPORA / "litbank" / "coref-conll"


def _document(name: str, length: int, clusters: list[list[tuple[int, int]]]) -> Document:
    return Document(name=name, tokens=tuple(f"w{index}" for index in range(length)),
                    entities=tuple(Entity(str(number), tuple(Mention.span(start, end)
                                                             for start, end in cluster))
                                   for number, cluster in enumerate(clusters)),
                    source_format="conll2012")


def _scores(key: Document, response: Document, **settings: Any) -> dict[str, anascore.Score]:
    report = anascore.score_documents([key], [response], metrics="muc,bcub", **settings)
    return report.metrics


# Seven words, windows of three. Key: {0, 3, 5-6} {1, 4} {6}; response: {0, 3} {1, 4, 5-6}
# {6}. The mention 5-6 crosses the end of the window [3, 6).
KEY = _document("d", 7, [[(0, 0), (3, 3), (5, 6)], [(1, 1), (4, 4)], [(6, 6)]])
RESPONSE = _document("d", 7, [[(0, 0), (3, 3)], [(1, 1), (4, 4), (5, 6)], [(6, 6)]])


def test_clean_windows_by_hand() -> None:
    # [0,3): key {0}{1}, response {0}{1}: B3 2/2 both ways, no links.
    # [3,6): key {3, 5-6}{4}, response {3}{4, 5-6}. MUC: the key's one link is cut in two,
    # R 0/1; the response's one link joins two key entities, P 0/1. B3 recall: 3 → 1/2,
    # 5-6 → 1/2, 4 → 1 (2/3); precision: 3 → 1, 4 → 1/2, 5-6 → 1/2 (2/3).
    # [6,7): {6} both: 1/1.
    scores = _scores(KEY, RESPONSE, window=3)
    muc, bcub = scores["muc"], scores["bcub"]
    assert (muc.recall_num, muc.recall_den, muc.precision_num, muc.precision_den) == (0, 1, 0, 1)
    assert (bcub.recall_num, bcub.recall_den) == pytest.approx((5, 6))
    assert (bcub.precision_num, bcub.precision_den) == pytest.approx((5, 6))
    assert window_ends(7, 3, "clean") == [3, 6, 7]


def test_bookcoref_windows_by_hand() -> None:
    # Windows end at 3, 6 and 7 (the document's end); the one ending at s keeps the starts
    # s-3 < start < s: (0,3) keeps 1; (3,6) keeps 4 and 5-6; (4,7) keeps 5-6 again and 6.
    # The mentions at 0 and 3 are in no window.
    # (0,3): {1} both: B3 1/1. (3,6): key {4}{5-6}, response {4, 5-6}: MUC R 0/0, P 0/1;
    # B3 R 2/2, P 1/2 + 1/2 = 1 of 2. (4,7): {5-6}{6} both: B3 2/2.
    scores = _scores(KEY, RESPONSE, window=3, window_rule="bookcoref")
    muc, bcub = scores["muc"], scores["bcub"]
    assert (muc.recall_num, muc.recall_den, muc.precision_num, muc.precision_den) == (0, 0, 0, 1)
    assert (bcub.recall_num, bcub.recall_den) == pytest.approx((5, 5))
    assert (bcub.precision_num, bcub.precision_den) == pytest.approx((4, 5))
    assert window_ends(7, 3, "bookcoref") == [3, 6, 7]
    # Eight words: the last window (5, 8) no longer holds 5-6, which the one before holds.
    longer = [replace(document, tokens=(*document.tokens, "w7")) for document in (KEY, RESPONSE)]
    assert _scores(*longer, window=3, window_rule="bookcoref")["bcub"].recall_den == 4


def test_bookcoref_repeats_the_last_window_of_a_whole_number_of_windows() -> None:
    # Six words, windows of three: the windows end at 3, 6 and 6 again. Mentions at 1, 2,
    # 4, 5 (0 and 3 in none): 1 and 2 once, 4 and 5 twice.
    document = _document("d", 6, [[(0, 0), (1, 1), (4, 4)], [(2, 2), (3, 3), (5, 5)]])
    assert window_ends(6, 3, "bookcoref") == [3, 6, 6]
    mentions = anascore.score_documents([document], [document], metrics="mentions",
                                        window=3, window_rule="bookcoref").metrics["mentions"]
    assert mentions.recall_den == 6
    clean = anascore.score_documents([document], [document], metrics="mentions",
                                     window=3).metrics["mentions"]
    assert clean.recall_den == 6  # every mention once


def test_bookcoref_keeps_the_first_mention_of_a_document_shorter_than_the_window() -> None:
    # Two words, windows of three: one window (-1, 2), which holds the mention at 0.
    document = _document("d", 2, [[(0, 0), (1, 1)]])
    assert window_ends(2, 3, "bookcoref") == [2]
    mentions = anascore.score_documents([document], [document], metrics="mentions",
                                        window=3, window_rule="bookcoref").metrics["mentions"]
    assert mentions.recall_den == 2


def test_windows_sum_as_documents() -> None:
    """A windowed document counts what its windows, scored as documents of their own, count."""
    windows = [(0, 3), (3, 6), (6, 7)]

    def cut(document: Document) -> list[Document]:
        return [replace(document, name=f"d#w{index}", entities=tuple(
            Entity(entity.id, kept) for entity in document.entities
            if (kept := tuple(mention for mention in entity.mentions
                              if start <= mention.start < end))))
            for index, (start, end) in enumerate(windows)]

    whole = anascore.score_documents([KEY], [RESPONSE], metrics="all", window=3)
    apart = anascore.score_documents(cut(KEY), cut(RESPONSE), metrics="all")
    assert set(whole.corpus_counts) == set(apart.corpus_counts)
    for name, counts in whole.corpus_counts.items():
        assert list(counts) == pytest.approx(list(apart.corpus_counts[name])), name
    assert whole.metrics["conll"].f1 == pytest.approx(apart.metrics["conll"].f1)


COREFUD = """# global.Entity = eid-etype-head-other
# newdoc id = d
# sent_id = 1
# text = a b c
1\ta\ta\tX\t_\t_\t0\troot\t0:root\tEntity=(e1--1)
{empty}2\tb\tb\tX\t_\t_\t1\tdep\t1:dep\tEntity=(e1--1)
3\tc\tc\tX\t_\t_\t1\tdep\t1:dep\t_

"""


def test_windows_count_words_not_empty_nodes(tmp_path: Path) -> None:
    # Words a b c, the key with an empty node 1.1 between a and b, the response without:
    # windows of two words put a and b in window 0 on both sides (the empty node is not a
    # word), so the key's one link a-b is found (MUC 1/1). Counted as a position, the empty
    # node would push b into window 1, and the link would be in no window (MUC 0/0).
    key, response = tmp_path / "key.conllu", tmp_path / "response.conllu"
    key.write_text(COREFUD.format(empty="1.1\t_\t_\t_\t_\t_\t_\t_\t1:nsubj\t_\n"))
    response.write_text(COREFUD.format(empty=""))
    for other in (key, response):
        muc = anascore.score(key, other, metrics="muc", window=2).metrics["muc"]
        assert (muc.recall_num, muc.recall_den, muc.precision_num, muc.precision_den) == (
            1, 1, 1, 1)


def test_settings_are_checked_and_signed() -> None:
    options = Options(window=1500, window_rule="bookcoref")
    assert "window:1500/bookcoref" in options.signature()
    assert options.to_dict()["window"] == 1500
    assert "window" not in Options().signature()
    for settings, said in (({"window": -1}, "whole number"), ({"window": True}, "whole number"),
                           ({"window": 3, "window_rule": "sliding"}, "unknown window_rule"),
                           ({"window_rule": "bookcoref"}, "none is asked for"),
                           ({"window": 3, "keep_bridging": True}, "keep_bridging")):
        with pytest.raises(OptionsError, match=said):
            Options(**settings)
    with pytest.raises(OptionsError, match="no tokens"):
        anascore.CorefEvaluator(window=3).update([[(0, 0), (2, 2)]], [[(0, 0), (2, 2)]])
    with pytest.raises(OptionsError, match="not in windows"):
        anascore.analyse_errors(ROOT / "examples" / "key.conll",
                                ROOT / "examples" / "response.conll", window=50)


def test_command_line(tmp_path: Path) -> None:
    key, response = tmp_path / "key.conll", tmp_path / "response.conll"
    write_conll2012([KEY], key)
    write_conll2012([RESPONSE], response)
    done = subprocess.run([sys.executable, "-m", "anascore", "score", str(key), str(response),
                           "--window", "3", "--window-rule", "bookcoref", "--metrics", "bcub",
                           "--output", "json"], capture_output=True, text=True, check=True)
    data = json.loads(done.stdout)
    assert "window:3/bookcoref" in data["signature"]
    assert data["metrics"]["bcub"]["precision"] == pytest.approx(4 / 5)
    refused = subprocess.run([sys.executable, "-m", "anascore", "score", str(key),
                              str(response), "--window-rule", "bookcoref"],
                             capture_output=True, text=True)
    assert refused.returncode == 2
    assert refused.stderr.splitlines()[-1] == (
        "anascore: error: --window-rule='bookcoref': it says how documents are cut into "
        "windows, and none is asked for (--window=0)")


# -- beside BookCoref's evaluate_split ------------------------------------------------------


def _bookcoref_module() -> types.ModuleType:
    """BookCoref's ``evaluate.py``, imported with its dataset-loading and printing imports
    (``datasets``, ``rich``, ``tap``) stubbed: ``evaluate_split`` uses none of them but
    ``print``, whose table we take from ``print_results`` instead."""
    if not ((BOOKCOREF / "evaluate.py").is_file()
            and (BOOKCOREF / "src" / "metrics.py").is_file()):
        pytest.skip(f"no BookCoref checkout at {BOOKCOREF} (set ANASCORE_BOOKCOREF)")
    pytest.importorskip("scipy")

    def load(name: str, path: Path) -> types.ModuleType:
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module

    stubs = {name: types.ModuleType(name) for name in ("datasets", "rich", "tap", "src")}
    stubs["datasets"].DatasetDict = dict  # type: ignore[attr-defined]
    stubs["datasets"].load_dataset = None  # type: ignore[attr-defined]
    stubs["rich"].print = print  # type: ignore[attr-defined]
    stubs["tap"].Tap = object  # type: ignore[attr-defined]
    saved = {name: sys.modules.get(name) for name in (*stubs, "src.metrics")}
    try:
        sys.modules.update(stubs)
        metrics = load("src.metrics", BOOKCOREF / "src" / "metrics.py")
        sys.modules["src.metrics"] = metrics
        stubs["src"].metrics = metrics  # type: ignore[attr-defined]
        return load("bookcoref_evaluate", BOOKCOREF / "evaluate.py")
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module


def _book(name: str, parts: list[Document], length: int | None = None) -> Document:
    """LitBank documents laid end to end as one document (cut to ``length`` words when
    given, mentions running past the cut left out), every span annotated once."""
    tokens: list[str] = []
    starts: list[int] = []
    entities: list[Entity] = []
    for number, part in enumerate(parts):
        offset = len(tokens)
        tokens += part.tokens
        starts += [offset + start for start in part.sentence_starts]
        for entity in part.entities:
            entities.append(Entity(f"{number}-{entity.id}", tuple(
                Mention.span(mention.start + offset, mention.end + offset)
                for mention in entity.mentions)))
    if length is not None:
        tokens = tokens[:length]
        starts = [start for start in starts if start < length]
    book = Document(name=name, tokens=tuple(tokens), entities=tuple(entities),
                    sentence_starts=tuple(starts), source_format="conll2012")
    return _once(book, len(tokens))


def _once(document: Document, length: int) -> Document:
    """``document`` with each span in its first entity only and within ``length`` words:
    BookCoref and the reference scorer count a span annotated twice differently, which is
    not what is compared here."""
    seen: set[tuple[int, ...]] = set()
    entities = []
    for entity in document.entities:
        kept = []
        for mention in entity.mentions:
            if mention.tokens not in seen and mention.end < length:
                seen.add(mention.tokens)
                kept.append(mention)
        if kept:
            entities.append(Entity(entity.id, tuple(kept)))
    return replace(document, entities=tuple(entities))


def _as_bookcoref(document: Document) -> dict[str, Any]:
    """BookCoref's JSON line of a document: its words (as one sentence: evaluate_split only
    counts them) and its clusters of inclusive [start, end] spans."""
    return {"doc_key": document.name, "sentences": [list(document.tokens)],
            "clusters": [[[mention.start, mention.end] for mention in entity.mentions]
                         for entity in document.entities]}


def test_equal_to_bookcoref_evaluate_split(tmp_path: Path) -> None:
    module = _bookcoref_module()
    files = sorted(LITBANK.glob("*.conll"))
    if len(files) < 12:
        pytest.skip(f"no LitBank corpus at {LITBANK}")
    documents = [document for path in files[:12] for document in read_conll2012(path)]
    keys = [_book("book-a", documents[0:5]), _book("book-b", documents[5:9], length=6000),
            _book("book-c", documents[9:10], length=1200), _book("book-d", documents[10:12])]
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from perturb_response import perturb
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    for seed, rate in ((1, 0.1), (2, 0.3)):
        rng = random.Random(seed)
        responses = [_once(perturb(key, rate, rng), len(key.tokens)) for key in keys]
        key_path, response_path = tmp_path / f"key{seed}.conll", tmp_path / f"sys{seed}.conll"
        write_conll2012(keys, key_path)
        write_conll2012(responses, response_path)
        ours = anascore.score(key_path, response_path, metrics="muc,bcub,ceafe,conll",
                              window=1500, window_rule="bookcoref").metrics
        _compare_with_bookcoref(module, [_as_bookcoref(key) for key in keys],
                                [_as_bookcoref(response) for response in responses], ours)
        # Not the whole-document score, nor the clean windows': the rule is what is compared.
        assert ours["conll"].f1 != pytest.approx(anascore.score(
            key_path, response_path, metrics="conll").metrics["conll"].f1, abs=1e-6)


def _compare_with_bookcoref(module: types.ModuleType, key: list[dict[str, Any]],
                            response: list[dict[str, Any]],
                            ours: dict[str, anascore.Score]) -> None:
    """BookCoref's ``evaluate_split`` of ``key`` and ``response`` at 1500 words against
    anascore's scores ``ours``: every number it reports, to 1e-9."""
    printed: list[dict[str, dict[str, float]]] = []
    module.print_results = printed.append  # type: ignore[attr-defined]
    module.evaluate_split(key, response, 1500)
    [theirs] = printed
    assert set(theirs) == {"muc", "b_cubed", "ceafe", "conll2012"}
    for their_name, name in (("muc", "muc"), ("b_cubed", "bcub"), ("ceafe", "ceafe")):
        score = ours[name]
        assert (theirs[their_name]["precision"], theirs[their_name]["recall"],
                theirs[their_name]["f1"]) == pytest.approx(
            (score.precision, score.recall, score.f1), abs=1e-9), their_name
    parts = [ours[name] for name in ("muc", "bcub", "ceafe")]
    assert theirs["conll2012"]["f1"] == pytest.approx(ours["conll"].f1, abs=1e-9)
    assert theirs["conll2012"]["precision"] == pytest.approx(
        sum(part.precision for part in parts) / 3, abs=1e-9)
    assert theirs["conll2012"]["recall"] == pytest.approx(
        sum(part.recall for part in parts) / 3, abs=1e-9)


@pytest.mark.parametrize(("key", "response"), [
    ("finetuned_bookcoref/maverick_xl.jsonl", "off_the_shelf/booknlp.jsonl"),
    ("off_the_shelf/maverick_xl.jsonl", "off_the_shelf/booknlp.jsonl"),
])
def test_equal_to_bookcoref_on_its_own_prediction_files(key: str, response: str) -> None:
    """BookCoref's repository holds systems' predictions on its three test books (35,000 to
    143,000 words each, in its JSON lines); one system's taken as the key, another's as the
    response, both tools read the same files."""
    module = _bookcoref_module()
    paths = [BOOKCOREF / "predictions" / name for name in (key, response)]
    if not all(path.is_file() and path.stat().st_size > 1000 for path in paths):
        pytest.skip("the BookCoref checkout lacks its prediction files")
    books = [[json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
             for path in paths]
    ours = anascore.score(paths[0], paths[1], metrics="muc,bcub,ceafe,conll", window=1500,
                          window_rule="bookcoref").metrics
    _compare_with_bookcoref(module, books[0], books[1], ours)
