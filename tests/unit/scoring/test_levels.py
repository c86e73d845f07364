"""Scoring levels (issue 25): the documents of a topic, a subtopic or the corpus scored as one
document, chains joined by ID across them (:mod:`anascore.scoring.levels`).

The case: topic ``a`` has two documents whose chains continue from one into the other (key
chain 1 runs through ``a1`` and ``a2``, and so does chain 2), topic ``b`` one document that
reuses chain ID 1 — at corpus level the ID joins it with topic ``a``'s chain 1, as a
meta-document file would. Mention-based CoNLL, one line per mention as ECB+ and WEC files
have it. Token positions below count within each unit.

* key      ``a1``: 1={0,2} 2={1}    ``a2``: 1={0} 2={1}    ``b1``: 1={0} 3={1}
* response ``a1``: 1={0,1,2}        ``a2``: 5={0} 2={1}    ``b1``: 1={0,1}

By hand (MUC: links; B³ summed over the 7 mentions):

* document level: MUC recall 1/1 (a1's key chain 1 needs one link, found), precision 1/3
  (a1's response link 1 of 2 right, b1's 0 of 1); B³ recall 7/7, precision
  (2/3+2/3+1/3 + 1+1 + 1/2+1/2)/7 = 2/3.
* topic level, unit ``a`` = a1+a2 (K1={0,2,3} K2={1,4}; R1={0,1,2} R5={3} R2={4}): MUC
  recall (3-2)/(2+1) = 1/3, precision (3-2)/2 = 1/2; unit ``b`` as b1. Micro: MUC 1/3 and
  1/3; B³ recall (2/3+2/3+1/3+1/2+1/2 + 1+1)/7 = 2/3, precision (2/3+2/3+1/3+1+1 + 1/2+1/2)/7
  = 2/3.
* corpus level (K1={0,2,3,5} K2={1,4} K3={6}; R1={0,1,2,5,6} R5={3} R2={4}): MUC recall
  (4-2)/(3+1) = 1/2, precision (5-3)/4 = 1/2; B³ recall (3/4·3 + 1/4 + 1/2·2 + 1)/7 = 9/14,
  precision (3/5·3 + 1/5 + 1/5 + 1 + 1)/7 = 3/5.
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import pytest

import anascore
from anascore.config.options import Options
from anascore.core.errors import DocumentMismatchError, FormatError, OptionsError
from anascore.core.model import Document, Entity, Mention
from tests.support.paths import ROOT

KEY = {"a1": ["(1)", "(2)", "(1)"], "a2": ["(1)", "(2)"], "b1": ["(1)", "(3)"]}
RESPONSE = {"a1": ["(1)", "(1)", "(1)"], "a2": ["(5)", "(2)"], "b1": ["(1)", "(1)"]}
TOPIC = r"^([a-z]+)"

#: (MUC recall, MUC precision, B³ recall, B³ precision) at each level, by hand (above).
EXPECTED = {
    "document": (Fraction(1), Fraction(1, 3), Fraction(1), Fraction(2, 3)),
    "topic": (Fraction(1, 3), Fraction(1, 3), Fraction(2, 3), Fraction(2, 3)),
    "corpus": (Fraction(1, 2), Fraction(1, 2), Fraction(9, 14), Fraction(3, 5)),
}


def mention_based(documents: dict[str, list[str]], header: str = "#begin document ({}); "
                  "part 000") -> str:
    """A mention-based CoNLL file: one line per mention, ``DOC<TAB>(ID)``."""
    lines = []
    for name, cells in documents.items():
        lines.append(header.format(name))
        lines.extend(f"{name}\t{cell}" for cell in cells)
        lines.append("#end document")
    return "\n".join(lines) + "\n"


@pytest.fixture
def files(pair_files) -> tuple[str, str]:
    return pair_files(mention_based(KEY), mention_based(RESPONSE))


def scores(report: anascore.Report) -> tuple[float, float, float, float]:
    muc, bcub = report.metrics["muc"], report.metrics["bcub"]
    return muc.recall, muc.precision, bcub.recall, bcub.precision


@pytest.mark.parametrize("level", ["document", "topic", "corpus"])
def test_each_level_gives_the_hand_computed_muc_and_b3(files, level) -> None:
    pattern = TOPIC if level == "topic" else None
    report = anascore.score(*files, level=level, topic_pattern=pattern)
    assert scores(report) == pytest.approx(tuple(map(float, EXPECTED[level])), abs=1e-12)


def test_units_are_listed_as_documents(files) -> None:
    assert anascore.score(*files, level="topic", topic_pattern=TOPIC).document_names == (
        "a", "b")
    assert anascore.score(*files, level="corpus").document_names == ("corpus",)
    # Unit a: MUC recall 1/3, precision 1/2, by hand.
    unit = anascore.score(*files, level="topic", topic_pattern=TOPIC).document("a")["muc"]
    assert (unit.recall, unit.precision) == pytest.approx((1 / 3, 1 / 2), abs=1e-12)


def test_the_corpus_level_equals_the_meta_document_written_by_hand(files, tmp_path) -> None:
    """Joining is what a meta-document file does: every metric the same."""
    key, response = tmp_path / "meta-key.conll", tmp_path / "meta-response.conll"
    key.write_text(mention_based({"meta": [cell for cells in KEY.values() for cell in cells]}))
    response.write_text(mention_based(
        {"meta": [cell for cells in RESPONSE.values() for cell in cells]}))
    joined = anascore.score(*files, level="corpus", metrics="all")
    written = anascore.score(key, response, metrics="all")
    for name, result in written.metrics.items():
        assert joined.metrics[name] == result, name


def test_multi_token_mentions_are_shifted_by_the_tokens_before_them(tmp_path) -> None:
    """Token CoNLL-2012 documents: a two-token mention of the second document lands on the
    positions after the first's tokens, so the corpus level equals the concatenated file."""
    first = ("#begin document (x1); part 000\nx1 0 0 Anna (1\nx1 0 1 Lee 1)\nx1 0 2 came -\n"
             "x1 0 3 home (2)\n#end document\n")
    second = ("#begin document (x2); part 000\nx2 0 0 Lee (1)\nx2 0 1 left (3\nx2 0 2 early 3)"
              "\n#end document\n")
    response_second = second.replace("(3\n", "(1\n").replace("3)", "1)")
    concatenated = ("#begin document (all); part 000\n"
                    + first.split("\n", 1)[1].rsplit("#end", 1)[0]
                    + second.split("\n", 1)[1].replace("x2", "x1"))
    concatenated_response = ("#begin document (all); part 000\n"
                             + first.split("\n", 1)[1].rsplit("#end", 1)[0]
                             + response_second.split("\n", 1)[1].replace("x2", "x1"))
    paths = {name: tmp_path / f"{name}.conll" for name in ("k", "r", "ck", "cr")}
    paths["k"].write_text(first + second)
    paths["r"].write_text(first + response_second)
    paths["ck"].write_text(concatenated)
    paths["cr"].write_text(concatenated_response)
    joined = anascore.score(paths["k"], paths["r"], level="corpus", metrics="all")
    written = anascore.score(paths["ck"], paths["cr"], metrics="all")
    assert joined.metrics["muc"].recall_den == 1  # Anna Lee – Lee: one link across documents
    for name, result in written.metrics.items():
        assert joined.metrics[name] == result, name


def test_documents_in_memory_take_their_topic_from_the_format(files) -> None:
    """``Document.topic`` (a format's topic field) wins over the pattern; score_documents
    makes units as the files' entry points do."""
    def documents(cells_by_name: dict[str, list[str]]) -> list[Document]:
        built = []
        for name, cells in cells_by_name.items():
            chains: dict[str, list[Mention]] = {}
            for position, cell in enumerate(cells):
                chains.setdefault(cell.strip("()"), []).append(Mention.span(position, position))
            built.append(Document(name, tuple(name for _ in cells),
                                  tuple(Entity(chain, tuple(mentions))
                                        for chain, mentions in chains.items()),
                                  topic="T" + name[0]))
        return built

    report = anascore.score_documents(documents(KEY), documents(RESPONSE), level="topic",
                                      topic_pattern=r"^(.)")
    assert report.document_names == ("Ta", "Tb")
    assert scores(report) == pytest.approx(tuple(map(float, EXPECTED["topic"])), abs=1e-12)
    corpus = anascore.score_documents(documents(KEY), documents(RESPONSE), level="corpus")
    assert scores(corpus) == pytest.approx(tuple(map(float, EXPECTED["corpus"])), abs=1e-12)


def test_subtopic_level_reads_the_second_group(tmp_path) -> None:
    """ECB+ names: topic 36, subtopics ecb and ecbplus. Key 36_1ecb 1={0,1}, 36_2ecb 1={0};
    36_1ecbplus 1={0}: at subtopic level 36/ecb holds one chain of three mentions and
    36/ecbplus a singleton; the response splits 36_2ecb's mention off: MUC recall 1/2."""
    key, response = tmp_path / "key.conll", tmp_path / "response.conll"
    key.write_text(mention_based({"36_1ecb": ["(1)", "(1)"], "36_2ecb": ["(1)"],
                                  "36_1ecbplus": ["(1)"]}))
    response.write_text(mention_based({"36_1ecb": ["(1)", "(1)"], "36_2ecb": ["(2)"],
                                       "36_1ecbplus": ["(1)"]}))
    report = anascore.score(key, response, level="subtopic",
                            topic_pattern=r"^(\d+)_\d+(ecb(?:plus)?)$")
    assert report.document_names == ("36/ecb", "36/ecbplus")
    assert (report.metrics["muc"].recall_num, report.metrics["muc"].recall_den) == (1, 2)
    # At topic level the ecbplus mention joins chain 1 too: 2 of 3 links.
    topic = anascore.score(key, response, level="topic", topic_pattern=r"^(\d+)_")
    assert (topic.metrics["muc"].recall_num, topic.metrics["muc"].recall_den) == (2, 3)


def test_a_response_missing_a_document_of_a_unit_scores_it_empty(files, tmp_path) -> None:
    response = tmp_path / "partial.conll"
    response.write_text(mention_based({"a1": RESPONSE["a1"], "b1": RESPONSE["b1"]}))
    report = anascore.score(files[0], response, level="topic", topic_pattern=TOPIC)
    assert any("'(a2); part 000' of the key is missing" in warning and "unit 'a'" in warning
               for warning in report.warnings)
    # Unit a: response R1={0,1,2} only; key mentions 3 and 4 unfound: 3 of 5 mentions.
    mentions = report.document("a")["mentions"]
    assert (mentions.recall_num, mentions.recall_den) == (3, 5)


def test_a_document_without_a_topic_is_an_error_naming_it(files) -> None:
    with pytest.raises(FormatError, match=r"document .\(b1\); part 000. has no topic"):
        anascore.score(*files, level="topic", topic_pattern=r"^(a)")
    with pytest.raises(FormatError, match="no topic_pattern"):
        anascore.score(*files, level="topic")


def test_a_token_mismatch_names_its_document(files, tmp_path) -> None:
    response = tmp_path / "short.conll"
    response.write_text(mention_based({**RESPONSE, "a2": ["(5)"]}))
    with pytest.raises(DocumentMismatchError, match=r"document '\(a2\); part 000' has 2"):
        anascore.score(files[0], response, level="corpus")


def test_settings_are_checked() -> None:
    with pytest.raises(OptionsError, match="unknown level 'topics'"):
        Options(level="topics")
    with pytest.raises(OptionsError, match="has 0 groups"):
        Options(level="topic", topic_pattern="^x")
    with pytest.raises(OptionsError, match="needs 2"):
        Options(level="subtopic", topic_pattern="^(x)")
    with pytest.raises(OptionsError, match="not a regular expression"):
        Options(level="topic", topic_pattern="(")
    with pytest.raises(OptionsError, match="level document does not read"):
        Options(topic_pattern="(x)")
    with pytest.raises(OptionsError, match="align_tokens"):
        Options(level="corpus", align_tokens=True)


def test_signature_and_mode_name_the_level() -> None:
    from anascore.config.presets import describe_mode

    options = Options(level="topic", topic_pattern=r"^(\d+)_|x")
    assert "|level:topic|topic_pattern:^(\\d+)_%7Cx|" in options.signature()
    assert "topic level" in describe_mode(options)
    assert "level" not in Options().signature()
    assert options.to_dict()["level"] == "topic"


def test_several_processes_give_the_same_units(files) -> None:
    one = anascore.score(*files, level="corpus", jobs=1)
    two = anascore.score(*files, level="corpus", jobs=2)
    assert scores(one) == scores(two)


def run(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "anascore", *arguments],
                          capture_output=True, text=True, check=False)


def test_the_command_prints_within_and_cross_document_side_by_side(files) -> None:
    done = run("score", *files, "--level", "document,topic", "--topic-pattern", TOPIC,
               "--output", "json")
    assert done.returncode == 0, done.stderr
    levels = json.loads(done.stdout)["levels"]
    assert list(levels) == ["document", "topic"]
    for level, data in levels.items():
        muc = data["metrics"]["muc"]
        assert (muc["recall"], muc["precision"]) == pytest.approx(
            tuple(map(float, EXPECTED[level][:2])), abs=1e-12)
    assert "level:topic" in levels["topic"]["signature"]
    text = run("score", *files, "--level", "document,corpus")
    assert text.returncode == 0, text.stderr
    assert "Level: document" in text.stdout and "Level: corpus" in text.stdout
    assert "corpus level (every document scored as one)" in text.stdout


def test_the_command_refuses_bad_levels_in_one_line(files) -> None:
    for arguments, status, message in (
            (["--level", "topics"], 2, "unknown level topics"),
            (["--level", "topic", "--topic-pattern", "x"], 2, "--topic-pattern 'x' has 0"),
            (["--level", "document,corpus", "--topic-pattern", "(x)"], 2, "none of the levels"),
            (["--level", "topic"], 1, "has no topic for level topic")):
        done = run("score", *files, *arguments)
        assert done.returncode == status, (arguments, done.stderr)
        assert message in done.stderr and "Traceback" not in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1 or status == 2, done.stderr


@pytest.mark.parametrize(("preset", "level", "singletons", "metrics"), [
    ("barhom2019", "corpus", True, ("muc", "bcub", "ceafe", "conll")),
    ("wec-eng", "corpus", True, ("muc", "bcub", "ceafe", "conll")),
    ("cattan2021", "corpus", False, ("muc", "bcub", "ceafe", "lea", "conll")),
    ("scico", "topic", False, ("mentions", "muc", "bcub", "ceafe", "lea", "conll")),
    ("ucdcr", "subtopic", False, ("muc", "bcub", "ceafe", "conll")),
])
def test_cross_document_presets(preset, level, singletons, metrics) -> None:
    """The settings docs/presets.md reads from each project's code."""
    options = Options.create(preset=preset)
    assert (options.level, options.keep_singletons, options.metrics) == (level, singletons,
                                                                          metrics)
    assert f"level:{level}" in options.signature() and preset in options.signature()


def test_a_preset_leaves_the_topic_pattern_free(files) -> None:
    """scico is topic level; the pattern names the topics and keeps the preset named. With
    singletons removed, unit a keeps key K1={0,2,3} K2={1,4} and response R1={0,1,2}
    (R5, R2 are single mentions): MUC recall 1/3 as before, precision 1/2; unit b keeps
    nothing of the key (both chains single) and R1={0,1}: precision 0 of 1."""
    report = anascore.score(*files, preset="scico", topic_pattern=TOPIC)
    assert "preset:scico" in report.signature
    muc = report.metrics["muc"]
    assert (muc.recall_num, muc.recall_den, muc.precision_num, muc.precision_den) == (
        1, 3, 1, 3)


def test_the_worked_example_of_the_docs_is_what_the_command_prints(tmp_path) -> None:
    """docs/cross-document.md's key, response and printed tables, read back from the page."""
    page = ROOT / "docs" / "cross-document.md"
    if not page.exists():
        pytest.skip("docs/ not beside tests/")
    example = page.read_text(encoding="utf-8").split("## Worked example", 1)[1]
    blocks = [block.split("\n", 1)[1] for block in example.split("```")[1::2]]
    key_text, response_text, printed = blocks[:3]
    assert key_text == mention_based(KEY) and response_text == mention_based(RESPONSE)
    key, response = tmp_path / "key.conll", tmp_path / "response.conll"
    key.write_text(key_text)
    response.write_text(response_text)
    done = run("score", str(key), str(response), "--level", "document,topic,corpus",
               "--topic-pattern", "^([a-z]+)", "--metrics", "muc,bcub,conll")
    assert done.returncode == 0, done.stderr
    shown = [line for line in done.stdout.splitlines() if not line.startswith("signature:")]
    assert "\n".join(shown).strip() == printed.strip()


def test_clusters_counted_in_memory_refuse_a_level() -> None:
    """CorefEvaluator, compute and the torchmetrics metric count each document alone: a
    level would be named in the signature and do nothing."""
    with pytest.raises(OptionsError, match="level='corpus'"):
        anascore.CorefEvaluator(level="corpus")
    with pytest.raises(OptionsError, match="level='topic'"):
        anascore.compute(predictions=[[[(0, 0)]]], references=[[[(0, 0)]]], level="topic",
                         topic_pattern="(x)")


def test_windows_are_refused_above_the_document_level() -> None:
    # A unit joins documents: a window would run across their ends.
    from anascore.config.options import Options
    from anascore.core.errors import OptionsError

    with pytest.raises(OptionsError, match="level topic joins documents into one unit, and "
                                           "window=1500 would cut windows across"):
        Options(level="topic", window=1500)
    assert Options(level="document", window=1500).window == 1500
