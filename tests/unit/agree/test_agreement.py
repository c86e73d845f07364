"""``anascore agree`` and ``anascore.agreement`` (issue 27): Krippendorff's α over mentions
with set-valued labels, equal to NLTK's where NLTK is installed and to a hand computation
(the worked example of docs/agreement.md), and every pair of annotations scored as
``anascore score A B``."""

from __future__ import annotations

import csv
import io
import json
import random
import re
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import anascore
from anascore.agree.alpha import (
    DISTANCE_FUNCTIONS,
    alpha_counts,
    document_values,
    jaccard_distance,
    masi_distance,
    masi_dkpro_distance,
)
from anascore.agree.pairs import PairAgreement
from anascore.cli.main import main
from anascore.core.model import Document, Entity, Mention
from anascore.formats import read_documents, writer
from tests.support.paths import FIXTURES, ROOT, corpus_files

#: The worked example of docs/agreement.md: ten tokens, five mentions.
WORDS = ["Ann", "told", "her", "sister", "that", "she", "and", "the", "girl", "won"]
#: Annotator A: {Ann, her, she}, {sister, the girl}.
CELLS_A = {0: "(1)", 2: "(1)", 3: "(2)", 5: "(1)", 7: "(2", 8: "2)"}
#: Annotator B: {Ann, her}, {sister, she}; no mention "the girl".
CELLS_B = {0: "(1)", 2: "(1)", 3: "(2)", 5: "(2)"}


def conll(path: Path, cells: dict[int, str], words: list[str] = WORDS,
          name: str = "story") -> Path:
    lines = [f"#begin document ({name}); part 000",
             *(f"{name} 0 {index} {word} {cells.get(index, '-')}"
               for index, word in enumerate(words)), "#end document", ""]
    path.write_text("\n".join(lines))
    return path


@pytest.fixture
def example(tmp_path: Path) -> tuple[Path, Path]:
    return conll(tmp_path / "A.conll", CELLS_A), conll(tmp_path / "B.conll", CELLS_B)


# -- the distances ------------------------------------------------------------------------

def test_masi_variants_on_the_issue_pair():
    # {1, 2} against {1, 2, 3, 4}: J = 1/2, one set inside the other. NLTK: 1 - J * 2/3
    # (0.665 with the rounded 0.67 of earlier NLTK releases); DKPro: (1 - J) * 1/3.
    small, large = frozenset({1, 2}), frozenset({1, 2, 3, 4})
    assert masi_distance(small, large) == pytest.approx(2 / 3, abs=1e-15)
    assert masi_dkpro_distance(small, large) == pytest.approx(1 / 6, abs=1e-15)
    assert jaccard_distance(small, large) == 0.5


def test_distances_of_equal_disjoint_and_empty_sets():
    empty, one, other = frozenset(), frozenset({1}), frozenset({2})
    for name, distance in DISTANCE_FUNCTIONS.items():
        assert distance(empty, empty) == 0.0, name
        assert distance(one, one) == 0.0, name
        assert distance(one, other) == 1.0, name  # what the α computation relies on
    assert masi_dkpro_distance(empty, one) == pytest.approx(1 / 3)  # ∅ is a subset
    assert jaccard_distance(empty, one) == masi_distance(empty, one) == 1.0


def test_distances_equal_nltk():
    distance = pytest.importorskip("nltk.metrics.distance")
    sets = [frozenset(s) for s in ({1}, {1, 2}, {2, 3}, {1, 2, 3, 4}, {5}, {1, 2, 3})]
    for first in sets:
        for second in sets:
            assert jaccard_distance(first, second) == distance.jaccard_distance(first, second)
            assert masi_distance(first, second) == distance.masi_distance(first, second)


# -- the worked example (docs/agreement.md), by hand ---------------------------------------

def test_worked_example_shared_mentions(example):
    # Without "the girl", A: {Ann, her, she} (3 values), {sister} (1); B: {Ann, her} (2),
    # {sister, she} (2); n = 8. Items: Ann, her (a1, b1), sister (a2, b2), she (a1, b2).
    result = anascore.agreement(list(example), missing="shared")
    expected = {"jaccard": Fraction(37, 198), "masi": Fraction(11, 690),
                "masi-dkpro": Fraction(61, 117), "binary": Fraction(-5, 23)}
    for name, value in expected.items():
        assert result.alpha[name] == pytest.approx(float(value), abs=1e-12), name
    assert result.items == 4
    assert result.missing == "shared"


def test_worked_example_missing_mention_is_the_empty_set(example):
    # "the girl" is an item too; B's value of it is the empty set; n = 10.
    result = anascore.agreement(list(example))
    expected = {"jaccard": Fraction(53, 386), "masi": Fraction(5, 1274),
                "masi-dkpro": Fraction(161, 404), "binary": Fraction(-2, 13)}
    for name, value in expected.items():
        assert result.alpha[name] == pytest.approx(float(value), abs=1e-12), name
    assert result.items == 5
    assert result.missing == "empty"


def test_worked_example_of_the_docs(tmp_path):
    # docs/agreement.md gives the two files and the table of values: both are read here.
    page = (ROOT / "docs" / "agreement.md").read_text()
    files = dict(re.findall(r"```conll (\S+)\n(.*?)```", page, re.DOTALL))
    assert set(files) == {"A.conll", "B.conll"}
    paths = []
    for name, text in files.items():
        (tmp_path / name).write_text(text)
        paths.append(tmp_path / name)
    table = re.findall(r"^\| `([a-z-]+)` \| (−?\d+)/(\d+) ≈ [−\d.]+ \| (−?\d+)/(\d+) ≈",
                       page, re.MULTILINE)
    assert [row[0] for row in table] == ["jaccard", "masi", "masi-dkpro", "binary"]
    empty = anascore.agreement(paths).alpha
    shared = anascore.agreement(paths, missing="shared").alpha
    for name, top, bottom, shared_top, shared_bottom in table:
        value = Fraction(int(top.replace("−", "-")), int(bottom))
        assert empty[name] == pytest.approx(float(value), abs=1e-12), name
        value = Fraction(int(shared_top.replace("−", "-")), int(shared_bottom))
        assert shared[name] == pytest.approx(float(value), abs=1e-12), name
    assert "α = 1 − (37/60) / (193/270) = 1 − 333/386 = 53/386" in page


def test_worked_example_steps_jaccard():
    # The numbers docs/agreement.md shows: O = 37/6, n = 10, T = 193/3.
    a = [[(0,), (2,), (5,)], [(3,), (7, 8)]]
    b = [[(0,), (2,)], [(3,), (5,)]]
    counts = alpha_counts([document_values([a, b], "empty")], ["jaccard"])["jaccard"]
    assert counts.observed[0] == pytest.approx(37 / 6)
    assert counts.values[0] == 10
    assert counts.empty[0] == 1
    total = 10 * 10 - 1 - counts.within[0] - 0  # T = n² − n_∅² − within (jaccard: s_∅ = 0)
    assert total == pytest.approx(193 / 3)


# -- equal to NLTK --------------------------------------------------------------------------

def nltk_alpha(paths: list[Path], distance_name: str, missing: str) -> float:
    """α by NLTK's AnnotationTask on the same items: (annotator, (document, tokens), the
    frozenset of (document, tokens) of the mention's chain)."""
    agreement = pytest.importorskip("nltk.metrics.agreement")
    from nltk.metrics import distance as nltk_distance

    labels: dict[tuple[int, tuple[str, tuple[int, ...]]], frozenset] = {}
    for coder, path in enumerate(paths):
        for document in read_documents(path, "auto"):
            for entity in document.entities:
                label = frozenset((document.name, mention.tokens) for mention in entity.mentions)
                for mention in entity.mentions:
                    labels[coder, (document.name, mention.tokens)] = label
    items = {item for _, item in labels}
    coders = range(len(paths))
    if missing == "shared":
        items = {item for item in items if all((coder, item) in labels for coder in coders)}
        data = [(coder, item, labels[coder, item] & items) for coder in coders
                for item in items]
    else:
        data = [(coder, item, labels.get((coder, item), frozenset())) for coder in coders
                for item in items]
    functions = {"jaccard": nltk_distance.jaccard_distance,
                 "masi": nltk_distance.masi_distance,
                 "binary": nltk_distance.binary_distance,
                 "masi-dkpro": masi_dkpro_distance}
    measure = functions[distance_name]
    # NLTK's jaccard and masi divide by zero on two empty sets: a value and itself, 0.
    safe = (lambda a, b: 0.0 if a == b else measure(a, b)) if missing == "empty" else measure
    return agreement.AnnotationTask(data=data, distance=safe).alpha()


def rechained(document: Document, rate: float, rng: random.Random,
              drop: float = 0.0) -> Document:
    """``document`` with each mention moved, at ``rate``, to another chain or a chain of its
    own (and dropped at ``drop``): other chains over (a subset of) the same mentions."""
    groups = [list(entity.mentions) for entity in document.entities]
    for group in list(groups):
        for mention in list(group):
            if rng.random() < drop:
                group.remove(mention)
            elif rng.random() < rate:
                group.remove(mention)
                if rng.random() < 0.3:
                    groups.append([mention])
                else:
                    rng.choice(groups).append(mention)
    entities = tuple(Entity(f"r{number}", tuple(sorted(group, key=lambda m: m.tokens)))
                     for number, group in enumerate(groups) if group)
    return replace(document, entities=entities)


def annotations(documents: list[Document], folder: Path, count: int, seed: int,
                drop: float = 0.0) -> list[Path]:
    """The documents as annotation 1, then ``count - 1`` re-chained copies, as CoNLL-2012."""
    rng = random.Random(seed)
    paths = []
    for number in range(count):
        found = documents if number == 0 else [rechained(document, 0.15, rng, drop)
                                               for document in documents]
        path = folder / f"annotator{number + 1}.conll"
        writer("conll2012")(found, path)
        paths.append(path)
    return paths


def synthetic_documents(seed: int, documents: int = 3) -> list[Document]:
    rng = random.Random(seed)
    result = []
    for number in range(documents):
        tokens = 40
        starts = sorted(rng.sample(range(tokens - 2), 14))
        mentions = [Mention.span(start, start + rng.randrange(2)) for start in starts]
        groups: list[list[Mention]] = [[] for _ in range(5)]
        for mention in mentions:
            rng.choice(groups).append(mention)
        result.append(Document(f"doc{number}", tuple(f"w{i}" for i in range(tokens)),
                               tuple(Entity(str(i), tuple(group))
                                     for i, group in enumerate(groups) if group)))
    return result


@pytest.mark.parametrize("count", [2, 3])
@pytest.mark.parametrize("missing", ["empty", "shared"])
def test_alpha_equals_nltk_on_synthetic_annotations(tmp_path, count, missing):
    pytest.importorskip("nltk")
    paths = annotations(synthetic_documents(count), tmp_path, count, seed=7, drop=0.15)
    result = anascore.agreement(paths, missing=missing)
    for name in ("jaccard", "masi", "binary", "masi-dkpro"):
        assert result.alpha[name] == pytest.approx(nltk_alpha(paths, name, missing),
                                                   abs=1e-9), name


@pytest.fixture(scope="module")
def litbank(tmp_path_factory) -> list[Path]:
    files = corpus_files("litbank", "coref-conll", pattern="*.conll", limit=3)
    documents = [document for path in files for document in read_documents(path, "conll2012")]
    return annotations(documents, tmp_path_factory.mktemp("litbank"), 3, seed=27)


@pytest.mark.parametrize("count", [2, 3])
def test_alpha_equals_nltk_on_litbank(litbank, count):
    pytest.importorskip("nltk")
    paths = litbank[:count]
    result = anascore.agreement(paths)
    assert result.items > 500
    for name in ("jaccard", "masi", "binary"):
        assert result.alpha[name] == pytest.approx(nltk_alpha(paths, name, "empty"),
                                                   abs=1e-9), name
    assert 0 < result.alpha["jaccard"] < 1


def test_pairwise_f1_is_score_either_way(litbank):
    result = anascore.agreement(litbank)
    assert [(pair.a, pair.b) for pair in result.pairs] == [
        ("annotator1.conll", "annotator2.conll"), ("annotator1.conll", "annotator3.conll"),
        ("annotator2.conll", "annotator3.conll")]
    for pair, (first, second) in zip(result.pairs, [(0, 1), (0, 2), (1, 2)], strict=True):
        forward = anascore.score(litbank[first], litbank[second])
        backward = anascore.score(litbank[second], litbank[first])
        for metric in ("mentions", "muc", "bcub", "ceafe", "blanc", "lea", "conll"):
            assert pair.f1()[metric] == forward.metrics[metric].f1, metric
            assert pair.f1()[metric] == pytest.approx(backward.metrics[metric].f1,
                                                      abs=1e-12), metric
    conll_f1 = [pair.f1()["conll"] for pair in result.pairs]
    assert result.mean_f1()["conll"] == pytest.approx(sum(conll_f1) / 3)


# -- the bootstrap --------------------------------------------------------------------------

def test_resample_weights_give_the_alpha_of_the_resampled_corpus(tmp_path):
    # α of the documents weighted (2, 0, 1) is α of a corpus holding document 0 twice and
    # document 2 once: what a bootstrap resample is.
    documents = synthetic_documents(5)
    paths = annotations(documents, tmp_path, 2, seed=3, drop=0.2)
    read = [list(read_documents(path, "conll2012")) for path in paths]
    resampled = []
    for number, found in enumerate(read):
        corpus = [found[0], replace(found[0], name="copy"), found[2]]
        path = tmp_path / f"resampled{number}.conll"
        writer("conll2012")(corpus, path)
        resampled.append(path)
    result = anascore.agreement(paths)
    expected = anascore.agreement(resampled)
    for name, counts in result.counts.items():
        weighted = counts.alpha(np.array([[2.0, 0.0, 1.0]]))[0]
        assert weighted == pytest.approx(expected.alpha[name], abs=1e-12), name
    # A document's own α is the α of the corpus of that document alone.
    alone = [tmp_path / "alone1.conll", tmp_path / "alone2.conll"]
    for found, path in zip(read, alone, strict=True):
        writer("conll2012")([found[1]], path)
    single = anascore.agreement(alone).alpha
    assert result.document_alpha(read[0][1].name) == pytest.approx(single, abs=1e-12)


def test_confidence_intervals_of_alpha_and_pairs(tmp_path):
    documents = synthetic_documents(9, documents=20)
    paths = annotations(documents, tmp_path, 2, seed=4)
    result = anascore.agreement(paths, confidence=200, seed=5)
    again = anascore.agreement(paths, confidence=200, seed=5)
    assert result.alpha_intervals == again.alpha_intervals
    for name, interval in result.alpha_intervals.items():
        assert interval.low <= result.alpha[name] <= interval.high, name
    assert result.pairs[0].report.intervals is not None
    data = result.to_dict()
    assert data["alpha_intervals"]["jaccard"]["resamples"] == 200
    assert "f1" in data["pairs"][0]["intervals"]["muc"]


# -- what is refused ------------------------------------------------------------------------

def test_layers_and_bad_settings_are_refused(example):
    for setting in ("keep_bridging", "keep_split_antecedents"):
        with pytest.raises(anascore.OptionsError, match="no symmetric measure"):
            anascore.agreement(list(example), **{setting: True})
    with pytest.raises(anascore.OptionsError, match="discourse deixis"):  # not in CoNLL-2012
        anascore.agreement(list(example), discourse_deixis=True)
    with pytest.raises(anascore.OptionsError, match="two or more"):
        anascore.agreement([example[0]])
    with pytest.raises(anascore.OptionsError, match="unknown distance cosine"):
        anascore.agreement(list(example), distance="cosine")
    with pytest.raises(anascore.OptionsError, match="missing must be"):
        anascore.agreement(list(example), missing="zero")
    with pytest.raises(anascore.OptionsError, match="identity metrics"):
        anascore.agreement(list(example), metrics="lmuc")


def test_cli_refuses_layers_with_one_line(example, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["agree", *map(str, example), "--keep-bridging"])
    assert stop.value.code == 2
    assert "agreement on bridging is not measured" in capsys.readouterr().err


def test_cli_bad_input_is_one_line(tmp_path, example, capsys):
    broken = tmp_path / "broken.conll"
    broken.write_text("#begin document (story); part 000\nstory 0 0 Ann (1\n#end document\n")
    assert main(["agree", str(example[0]), str(broken)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("anascore: error: ") and err.count("\n") == 1
    assert "Traceback" not in err


def test_conllu_annotations_with_other_empty_nodes():
    # The zero is node 2.1 in one annotation, 3.1 in the other: two items for α (by node
    # ID), one mention for the pairwise metrics (zeros aligned by their dependencies).
    fixtures = FIXTURES / "corefud"
    paths = [fixtures / "upos_key.conllu", fixtures / "upos_response.conllu"]
    result = anascore.agreement(paths)
    assert result.items == 4
    assert result.pairs[0].f1()["conll"] == 1.0
    assert result.alpha["binary"] < 0


def test_discourse_deixis_and_non_referring_layers(tmp_path, capsys):
    from anascore.formats.ua import write_ua

    words = tuple(f"w{index}" for index in range(20))

    def document(entities, deixis, non_referring) -> Document:
        def chains(groups, prefix):
            return tuple(Entity(f"{prefix}{number}", tuple(Mention.span(*span) for span in group))
                         for number, group in enumerate(groups))
        return Document("d", words, chains(entities, "e"), discourse_deixis=chains(deixis, "dd"),
                        non_referring=tuple(Mention.span(*span) for span in non_referring),
                        sentence_starts=(0, 10))

    # Identity: A {w0, w3}, {w5-6}; B {w0}, {w3, w5-6}: n = 6, O = 10/3, T = 58/3, α 4/29.
    # Discourse deixis: A {x, y}, {z}; B {x, y, z}: n = 6, O = 8/3, T = 12, α = -1/9.
    # Non-referring: A w8, w9; B w8: F1 2/3.
    paths = [tmp_path / "a.conllua", tmp_path / "b.conllua"]
    write_ua([document([[(0, 0), (3, 3)], [(5, 6)]], [[(10, 12), (15, 15)], [(17, 17)]],
                       [(8, 8), (9, 9)])], paths[0])
    write_ua([document([[(0, 0)], [(3, 3), (5, 6)]], [[(10, 12), (15, 15), (17, 17)]],
                       [(8, 8)])], paths[1])
    result = anascore.agreement(paths, discourse_deixis=True, keep_non_referring=True,
                                distance="jaccard")
    assert result.alpha == {"jaccard": pytest.approx(4 / 29),
                            "discourse_deixis.jaccard": pytest.approx(-1 / 9)}
    [pair] = result.pairs
    assert pair.f1()["non_referring"] == pytest.approx(2 / 3)
    backward = anascore.score(paths[1], paths[0], discourse_deixis=True,
                              keep_non_referring=True).metrics
    # B's deixis chain is one: it has no non-coreference link, A has; BLANC is asymmetric.
    assert pair.asymmetric() == ("discourse_deixis.blanc",)
    for name, value in pair.f1().items():
        if name not in pair.asymmetric():
            assert value == pytest.approx(backward[name].f1, abs=1e-12), name
    assert main(["agree", *map(str, paths), "--discourse-deixis", "--keep-non-referring",
                 "--output", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["alpha"]["discourse_deixis"]["jaccard"] == pytest.approx(-1 / 9)
    assert data["pairs"][0]["metrics"]["discourse_deixis"]["muc"]["f1"] == \
        backward["discourse_deixis.muc"].f1


# -- the outputs ----------------------------------------------------------------------------

def test_cli_json(example, capsys):
    assert main(["agree", *map(str, example), "--output", "json", "--names", "ann,bob"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["alpha"]) == {"jaccard", "masi", "masi-dkpro", "binary"}
    assert data["alpha"]["jaccard"] == pytest.approx(53 / 386)
    assert data["missing"] == "empty"
    [pair] = data["pairs"]
    assert (pair["a"], pair["b"], pair["symmetric"]) == ("ann", "bob", True)
    score = anascore.score(*example).to_dict()["metrics"]
    assert pair["metrics"] == {name: {"f1": value["f1"]} for name, value in score.items()}
    [row] = data["per_document"]
    assert row["document"] == "(story); part 000"
    assert row["alpha"]["jaccard"] == pytest.approx(53 / 386)
    assert row["pairs"][0]["metrics"]["muc"]["f1"] == score["muc"]["f1"]


def test_cli_distance_and_missing_choose(example, capsys):
    assert main(["agree", *map(str, example), "--output", "json", "--distance", "masi",
                 "--missing", "shared"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["alpha"] == {"masi": pytest.approx(11 / 690)}
    assert data["missing"] == "shared"


def test_cli_text_names_the_rule_and_the_symmetry(example, capsys):
    assert main(["agree", *map(str, example)]) == 0
    out = capsys.readouterr().out
    assert "Krippendorff's alpha over mentions" in out
    assert re.search(r"^jaccard +0\.1373$", out, re.MULTILINE)
    assert "missing mentions (empty)" in out
    assert "A-B = B-A" in out


def test_cli_three_annotators_matrix_and_mean(tmp_path, capsys):
    third = {0: "(1)", 2: "(2)", 3: "(2)", 5: "(1)"}
    paths = [conll(tmp_path / "A.conll", CELLS_A), conll(tmp_path / "B.conll", CELLS_B),
             conll(tmp_path / "C.conll", third)]
    assert main(["agree", *map(str, paths), "--output", "markdown"]) == 0
    out = capsys.readouterr().out
    assert "**CoNLL F1 by pair**" in out
    assert "| mean |" in out
    assert main(["agree", *map(str, paths), "--output", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["pairs"]) == 3
    mean = sum(pair["metrics"]["conll"]["f1"] for pair in data["pairs"]) / 3
    assert data["pairwise_mean"]["conll"]["f1"] == pytest.approx(mean)
    assert data["alpha"]["jaccard"] == pytest.approx(nltk_or_none(paths) or
                                                     data["alpha"]["jaccard"])


def nltk_or_none(paths: list[Path]) -> float | None:
    try:
        import nltk  # noqa: F401
    except ImportError:
        return None
    return nltk_alpha(paths, "jaccard", "empty")


def test_cli_csv_escapes_names(example, capsys):
    assert main(["agree", *map(str, example), "--output", "csv", "--names", "=cmd,@b"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    pairs = [row for row in rows if row["kind"] == "pair"]
    assert {(row["a"], row["b"]) for row in pairs} == {("'=cmd", "'@b")}
    alpha = {row["measure"]: float(row["value"]) for row in rows
             if row["kind"] == "alpha" and row["document"] == ""}
    assert alpha["binary"] == pytest.approx(-2 / 13)  # a number, not escaped
    assert any(row["kind"] == "missing" and row["measure"] == "empty" for row in rows)


def test_cli_text_escapes_control_characters(example, capsys):
    assert main(["agree", *map(str, example), "--names", "a\x1b[31m,b"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "a\\x1b[31m" in out


# -- properties -----------------------------------------------------------------------------

chains = st.lists(st.integers(0, 3), min_size=6, max_size=6)


def partition(labels: list[int], present: list[bool]) -> list[list[tuple[int, ...]]]:
    groups: dict[int, list[tuple[int, ...]]] = {}
    for mention, (label, kept) in enumerate(zip(labels, present, strict=True)):
        if kept:
            groups.setdefault(label, []).append((mention,))
    return list(groups.values())


def brute_alpha(documents, distance: str) -> float:
    """Krippendorff's α summed over every pair of values, the values of each document
    qualified by the document (so that documents do not share a mention)."""
    measure = DISTANCE_FUNCTIONS[distance]
    items: list[list[frozenset]] = []
    for number, coders in enumerate(documents):
        values = [{mention: frozenset((number, m) for m in chain) for chain in found
                   for mention in chain} for found in coders]
        mentions = set().union(*values)
        items += [[found.get(mention, frozenset()) for found in values]
                  for mention in mentions]
    pooled = [value for item in items for value in item]
    n = len(pooled)
    observed = sum(measure(item[i], item[j]) / (len(item) - 1) for item in items
                   for i in range(len(item)) for j in range(len(item)) if i != j)
    expected = sum(measure(first, second) for first in pooled for second in pooled)
    return 1 - (n - 1) * observed / expected


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(chains, chains, st.lists(st.booleans(), min_size=6, max_size=6)),
                min_size=1, max_size=3),
       st.sampled_from(["jaccard", "masi", "masi-dkpro", "binary"]))
def test_alpha_equals_the_sum_over_every_pair_of_values(documents, distance):
    data = [[partition(first, [True] * 6), partition(second, present)]
            for first, second, present in documents]
    counts = alpha_counts([document_values(coders, "empty") for coders in data],
                          [distance])[distance]
    alpha = counts.corpus_alpha()
    pooled = set()
    for number, coders in enumerate(data):
        for found in coders:
            pooled |= {frozenset((number, m) for m in chain) for chain in found}
    if alpha != alpha:  # not applicable: one value only
        assert len(pooled) <= 1 and not any(not all(p) for _, _, p in documents)
        return
    assert alpha == pytest.approx(brute_alpha(data, distance), abs=1e-9)
    assert alpha <= 1 + 1e-12


@settings(max_examples=40, deadline=None)
@given(st.lists(chains, min_size=1, max_size=3),
       st.sampled_from(["jaccard", "masi", "masi-dkpro", "binary"]))
def test_identical_annotations_agree_perfectly(documents, distance):
    data = [[partition(labels, [True] * 6)] * 3 for labels in documents]
    alpha = alpha_counts([document_values(coders, "empty") for coders in data],
                         [distance])[distance].corpus_alpha()
    if sum(len(coders[0]) for coders in data) == 1:  # one value: no variation, no α
        assert alpha != alpha
    else:
        assert alpha == 1.0


@settings(max_examples=25, deadline=None)
@given(chains, chains, st.lists(st.booleans(), min_size=6, max_size=6))
def test_pairwise_f1_is_symmetric(first, second, present):
    def document(labels: list[int], kept: list[bool]) -> Document:
        groups = partition(labels, kept)
        return Document("d", tuple(f"w{i}" for i in range(6)),
                        tuple(Entity(str(i), tuple(Mention(tokens) for tokens in group))
                              for i, group in enumerate(groups)))

    a, b = document(first, [True] * 6), document(second, present)
    forward = anascore.score_documents([a], [b])
    backward = anascore.score_documents([b], [a]).metrics
    asymmetric = PairAgreement("a", "b", forward).asymmetric()
    for name, score in forward.metrics.items():
        if name in asymmetric:  # BLANC, when one side lacks a kind of link the other has
            assert name == "blanc"
        else:
            assert score.f1 == pytest.approx(backward[name].f1, abs=1e-12), name


def test_blanc_asymmetry_is_named(tmp_path, capsys):
    # B has no coreference link (four singletons): BLANC scores only the kinds the key has.
    # A as key: coreference F 0, non-coreference F 10/11 (5 of B's 6 links), mean 5/11;
    # B as key: the non-coreference F alone, 10/11.
    paths = [conll(tmp_path / "A.conll", {0: "(1)", 2: "(1)", 3: "(2)", 5: "(3)"}),
             conll(tmp_path / "B.conll", {0: "(1)", 2: "(2)", 3: "(3)", 5: "(4)"})]
    forward = anascore.score(*paths).metrics["blanc"].f1
    backward = anascore.score(*reversed(paths)).metrics["blanc"].f1
    assert forward == pytest.approx(5 / 11) and backward == pytest.approx(10 / 11)
    [pair] = anascore.agreement(paths).pairs
    assert pair.asymmetric() == ("blanc",) and not pair.symmetric
    assert pair.f1()["blanc"] == forward
    assert main(["agree", *map(str, paths), "--output", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["pairs"][0]["asymmetric"] == ["blanc"]
    assert main(["agree", *map(str, paths)]) == 0
    assert "except BLANC for A.conll-B.conll (BLANC)" in capsys.readouterr().out
    assert main(["agree", *map(str, paths), "--names", "a\x1b[2J,b"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "except BLANC for a\\x1b[2J-b" in out


# -- the adjudication page ------------------------------------------------------------------

def test_adjudication_page_marks_disagreements(example, tmp_path, capsys):
    page = tmp_path / "page.html"
    assert main(["agree", *map(str, example), "--html", str(page), "--quiet"]) == 0
    text = page.read_text()
    # Ann, her, she, sister: in both annotations, in other chains (4 × 2 brackets × 2
    # columns); "the girl": only in A (2 brackets); and each state once in the legend.
    assert text.count('class="m chain"') == 16 + 1
    assert text.count('class="m missing"') == 2 + 1
    assert text.count('class="m agree"') == 1
    assert "<th>A.conll</th><th>B.conll</th>" in text
    assert "4 in other chains, 1 not in every annotation" in text
    assert '[</span>the girl<span class="m missing">]<sub>2</sub>' in text


def test_adjudication_page_escapes_input(tmp_path):
    words = ["<script>alert(1)</script>", "saw", "&amp;"]
    paths = [conll(tmp_path / "a.conll", {0: "(1)", 2: "(1)"}, words),
             conll(tmp_path / "b.conll", {0: "(1)"}, words)]
    page = tmp_path / "page.html"
    assert main(["agree", *map(str, paths), "--names", "<b>x</b>,y\"z", "--html", str(page),
                 "--quiet"]) == 0
    text = page.read_text()
    assert "<script>" not in text and "<b>x" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "&amp;amp;" in text and "&lt;b&gt;x&lt;/b&gt;" in text and "y&quot;z" in text


def test_adjudication_page_unwritable_is_one_line(example, tmp_path, capsys):
    target = tmp_path / "no" / "page.html"
    assert main(["agree", *map(str, example), "--html", str(target)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no folder" in err
    assert not target.exists()


def test_strict_writes_no_page(tmp_path, capsys):
    # B lacks the document A has a second of: a warning, which --strict makes an error.
    first = conll(tmp_path / "a.conll", CELLS_A)
    text = first.read_text() + first.read_text().replace("(story)", "(other)").replace(
        "story 0", "other 0")
    first.write_text(text)
    second = conll(tmp_path / "b.conll", CELLS_B)
    page = tmp_path / "page.html"
    assert main(["agree", str(first), str(second), "--html", str(page), "--strict"]) == 1
    assert "--strict makes warnings errors" in capsys.readouterr().err
    assert not page.exists()
    assert main(["agree", str(first), str(second), "--html", str(page)]) == 0
    assert "missing from the response" in capsys.readouterr().err
    assert page.exists()
