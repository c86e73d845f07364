"""An option that a format cannot support is refused, naming the file, never silently replaced
(head matching by each mention's first token, MIN matching by exact spans, layers scored as
0.00 where the format has none); the table is in :mod:`anascore.config.capabilities` and the
README."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

import anascore
from anascore.cli.main import main
from anascore.core.errors import OptionsError
from anascore.formats import read_documents
from tests.support.paths import FIXTURES

COREFUD = FIXTURES / "corefud" / "match_key.conllu"
UA = FIXTURES / "ua" / "typed_key.conllua"


def conll(tmp_path: Path, name: str, cells: list[str]) -> Path:
    words = ["Anna", "saw", "the", "old", "man"]
    lines = ["#begin document (d); part 000",
             *(f"d 0 {index} {word} {cell}" for index, (word, cell)
               in enumerate(zip(words, cells, strict=True))), "#end document", ""]
    path = tmp_path / name
    path.write_text("\n".join(lines))
    return path


@pytest.fixture
def old_man(tmp_path: Path) -> tuple[Path, Path]:
    # Key: "Anna" and "the old man" (head "man"); response: "Anna" and "old man".
    key = conll(tmp_path, "key.conll", ["(1)", "-", "(2", "-", "2)"])
    response = conll(tmp_path, "response.conll", ["(1)", "-", "-", "(2", "2)"])
    return key, response


@pytest.mark.parametrize("match", ["head", "partial"])
def test_head_matching_without_heads_is_refused(old_man, capsys, match):
    # It used to take each mention's first token as its head: Mentions 50, MUC 0, no word.
    key, response = old_man
    assert main(["score", str(key), str(response), "--match", match]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"anascore: error: {key}:1: --match {match} needs mention heads, "
                          "and conll2012 files give none")
    assert err.count("\n") == 1


def test_min_matching_without_min_spans_is_refused(old_man):
    key, response = old_man
    with pytest.raises(OptionsError, match="--match min aligns mentions by their MIN spans, "
                                           "which conll2012 files cannot hold"):
        anascore.score(key, response, match="min")


@pytest.mark.parametrize(("setting", "layer"), [
    ("keep_bridging", "bridging"), ("discourse_deixis", "discourse deixis"),
    ("keep_non_referring", "non-referring markables"),
    ("keep_split_antecedents", "split-antecedent plurals")])
def test_a_layer_the_format_cannot_hold_is_refused(old_man, setting, layer):
    key, response = old_man
    with pytest.raises(OptionsError, match=f"scores {layer}, which conll2012 files cannot "
                                           "hold") as caught:
        anascore.score(key, response, **{setting: True})
    assert caught.value.path == str(key)


def test_corefud_holds_bridging_but_not_discourse_deixis():
    assert anascore.score(COREFUD, COREFUD, keep_bridging=True).metrics["muc"].f1 == 1.0
    with pytest.raises(OptionsError, match="discourse deixis, which corefud files cannot"):
        anascore.score(COREFUD, COREFUD, discourse_deixis=True)


def test_a_crac_preset_on_conll2012_is_refused_not_signed_as_the_shared_task(old_man, capsys):
    key, _ = old_man
    assert main(["score", str(key), str(key), "--preset", "crac24"]) == 1
    assert "--match head (set by --preset crac24) needs mention heads" in (
        capsys.readouterr().err)


def test_head_matching_uses_the_heads_the_input_has():
    # CorefUD gives every mention's head; UA gives heads through its dependency HEAD column.
    assert anascore.score(COREFUD, COREFUD, match="head").metrics["mentions"].f1 == 1.0
    assert anascore.score(UA, UA, match="head").metrics["mentions"].f1 == 1.0


def test_ua_markables_without_heads_are_counted_in_the_refusal(tmp_path):
    text = UA.read_text().replace("\t2\t_\t_\t_\t(EntityID=1", "\t_\t_\t_\t_\t(EntityID=1")
    text = "\n".join(line if not line.startswith(("1\t", "2\t")) else
                     "\t".join(cell if index != 6 else "_" for index, cell in
                               enumerate(line.split("\t"))) for line in text.split("\n"))
    text = text.replace("Min=2", "Min=1,2")
    path = tmp_path / "no_heads.conllua"
    path.write_text(text)
    with pytest.raises(OptionsError, match=r"--match head needs the head of every key "
                                           r"mention; 1 of the \d+ mentions of document "
                                           r"'visit' have none"):
        anascore.score(path, path, match="head")


def test_every_entry_point_refuses_alike():
    with pytest.raises(OptionsError, match="--match head needs mention heads, and clusters of "
                                           r"\(start, end\) spans give none"):
        evaluator = anascore.CorefEvaluator(match="head")
        evaluator.update([[(0, 1), (3, 3)]], [[(0, 1), (3, 3)]])
    with pytest.raises(OptionsError, match="--match head needs mention heads"):
        anascore.compute(predictions=[[[(0, 1)]]], references=[[[(0, 1)]]], match="head")


@pytest.mark.parametrize(("settings", "message"), [
    ({"match": "min"}, "--match min aligns mentions by their MIN spans, which clusters of "
                       "(start, end) spans cannot hold"),
    ({"discourse_deixis": True}, "--discourse-deixis (discourse_deixis=True) scores discourse "
                                 "deixis, which clusters of (start, end) spans cannot hold"),
    ({"keep_non_referring": True}, "scores non-referring markables, which clusters of "
                                   "(start, end) spans cannot hold"),
    ({"keep_bridging": True}, "scores bridging, which clusters of (start, end) spans cannot "
                              "hold"),
    ({"keep_split_antecedents": True}, "scores split-antecedent plurals, which clusters of "
                                       "(start, end) spans cannot hold")])
def test_clusters_in_memory_refuse_what_they_cannot_hold_as_jsonlines_does(settings, message):
    # Clusters of spans hold what a jsonlines file holds; CorefEvaluator(match="min") used to
    # score exact matches under the signature match:min, and discourse_deixis=True printed
    # rows of 0.00 for a layer clusters cannot give.
    evaluator = anascore.CorefEvaluator(**settings)
    with pytest.raises(OptionsError) as caught:
        evaluator.update([[(0, 1), (3, 3)]], [[(0, 1), (3, 3)], [(5, 5)]])
    assert message in caught.value.message
    with pytest.raises(OptionsError) as caught:
        anascore.compute(predictions=[[[(0, 1)]]], references=[[[(0, 1)]]], **settings)
    assert message in caught.value.message


def test_a_min_span_outside_its_markable_is_said_under_min_matching(tmp_path):
    # CODI-CRAC's LIGHT files hold such Min values ("you" with Min=21): kept, but said.
    text = UA.read_text().replace("Min=2", "Min=6")
    path = tmp_path / "outside.conllua"
    path.write_text(text)
    report = anascore.score(path, path, match="min")
    assert any("1 key mention has a MIN span outside itself (first: line 5); kept as "
               "written" in warning for warning in report.warnings)
    assert not [warning for warning in anascore.score(path, path).warnings
                if "MIN span outside" in warning]


def test_min_matching_on_a_document_without_min_spans_is_said(tmp_path, capsys):
    # GUM's files (CorefUD and UA) give no MIN span: --match min matched every mention by its
    # exact span, as the UA scorer does for a key mention without one, and said nothing.
    text = re.sub(r"\|Min=[0-9]+", "", UA.read_text())
    assert "Min=" not in text
    path = tmp_path / "no_min.conllua"
    path.write_text(text)
    expected = (f"{path}: document 'visit': no key mention has a MIN span, so under --match "
                "min every mention is matched by its exact span")
    assert expected in anascore.score(path, path, match="min").warnings
    assert not anascore.score(path, path).warnings
    assert main(["score", str(path), str(path), "--match", "min", "--strict"]) == 1
    assert expected in capsys.readouterr().err
    # Documents built in Python are said alike.
    (document,) = read_documents(path)
    built = replace(document, path=None, source_format="")
    assert ("document 'visit': no key mention has a MIN span, so under --match min every "
            "mention is matched by its exact span"
            in anascore.score_documents([built], [built], match="min").warnings)


@pytest.mark.parametrize(("flags", "message"), [
    (["--match", "head"], "--match head needs mention heads, and conll2012 files give none"),
    (["--match", "min"], "--match min aligns mentions by their MIN spans, which conll2012 "
                         "files cannot hold"),
    (["--keep-bridging"], "scores bridging, which conll2012 files cannot hold"),
    (["--discourse-deixis"], "scores discourse deixis, which conll2012 files cannot hold")])
@pytest.mark.parametrize("command", ["errors", "report"])
def test_errors_and_report_refuse_what_score_refuses(old_man, tmp_path, capsys, flags,
                                                     message, command):
    # They used to analyse CoNLL-2012 under --match head (and write the HTML report) with
    # heads the file does not give, and a discourse-deixis layer it cannot hold.
    key, response = old_man
    output = tmp_path / "report.html"
    arguments = [command, str(key), str(response), *flags]
    if command == "report":
        arguments += ["-o", str(output)]
    assert main(arguments) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"anascore: error: {key}:1: ") and message in err
    assert "=True" not in err  # the flags, not their Python spelling
    assert err.count("\n") == 1
    assert not output.exists()
    settings = {"match": flags[1]} if len(flags) == 2 else {flags[0][2:].replace("-", "_"): True}
    with pytest.raises(OptionsError, match=message.replace("(", r"\(").replace(")", r"\)")):
        anascore.analyse_errors(key, response, **settings)


def test_exclusive_ends_without_jsonlines_input_is_refused(old_man, capsys):
    # It changed nothing on CoNLL-2012 files, yet the signature said ends:exclusive.
    key, response = old_man
    assert main(["score", str(key), str(response), "--exclusive-ends"]) == 1
    assert capsys.readouterr().err == (
        f"anascore: error: {key}:1: --exclusive-ends reads the span ends "
        "of jsonlines files, and conll2012 files have none; leave out --exclusive-ends\n")
    with pytest.raises(OptionsError, match="clusters of \\(start, end\\) spans have none"):
        anascore.CorefEvaluator(exclusive_ends=True).update([[(0, 1)]], [[(0, 1)]])


def test_exclusive_ends_with_a_jsonlines_side_is_read(old_man, tmp_path):
    key, _ = old_man
    response = tmp_path / "response.jsonlines"
    response.write_text('{"doc_key": "(d); part 000", "sentences": [["Anna", "saw", "the", '
                        '"old", "man"]], "clusters": [[[0, 1]], [[2, 5]]]}\n')
    report = anascore.score(key, response, exclusive_ends=True)
    assert report.metrics["mentions"].f1 == 1.0
    assert "ends:exclusive" in report.signature


@pytest.mark.parametrize(("flags", "setting"), [
    (["--remove-zeros"], "--remove-zeros"),
    (["--zero-match", "linear"], "--zero-match linear")])
def test_zero_settings_where_no_file_can_hold_zeros_are_refused(old_man, capsys, flags,
                                                                setting):
    # They changed nothing on CoNLL-2012, yet the signature said zeros:remove or
    # zero_match:linear and the mode "zero mentions removed" / "aligned by position".
    key, response = old_man
    assert main(["score", str(key), str(response), *flags]) == 1
    assert capsys.readouterr().err == (
        f"anascore: error: {key}:1: {setting} is about zero mentions, which conll2012 files "
        f"cannot hold; score CorefUD or UA input with empty nodes, or leave out {flags[0]}\n")


def test_zero_settings_with_a_side_that_holds_zeros_are_kept(tmp_path):
    # A CorefUD key with a response in CoNLL-2012: the key's zeros are there to remove.
    response = tmp_path / "response.conll"
    anascore.convert(COREFUD, response, to="conll2012", drop_unsupported=True)
    assert "zeros:remove" in anascore.score(COREFUD, response, keep_zeros=False).signature


@pytest.mark.parametrize(("settings", "message"), [
    ({"seed": 7}, "seed=7: it sets how intervals and paired tests resample (confidence, "
                  "paired_bs, paired_ar), and none is asked for"),
    ({"confidence_level": 0.9}, "confidence_level=0.9: it sets how intervals and paired tests "
                                "resample"),
    ({"link_weights": (1, 1, 1, 1)}, "link_weights=(1.0, 1.0, 1.0, 1.0): it weighs the links "
                                     "of lmuc, lbcub, lceafm and lceafe, and none is asked "
                                     "for"),
    ({"dominant_coefficients": (1, 1, 1, 1)}, "dominant_coefficients=(1.0, 1.0, 1.0, 1.0): it "
                                              "sets the dominant metric, which is not asked "
                                              "for"),
])
def test_a_setting_no_requested_metric_or_resampling_reads_is_refused(old_man, settings,
                                                                      message):
    # They were accepted and did nothing (--seed 7 without --confidence, --link-weights
    # without an LMetric), while the user believed they had.
    key, response = old_man
    with pytest.raises(OptionsError) as caught:
        anascore.score(key, response, **settings)
    assert caught.value.message.startswith(message)
    # With what reads them, they are taken.
    reads = {"seed": {"confidence": 20}, "confidence_level": {"confidence": 20},
             "link_weights": {"metrics": "lmuc"},
             "dominant_coefficients": {"metrics": "dominant"}}[next(iter(settings))]
    anascore.Options.create(**settings, **reads)


def test_the_command_line_names_the_flag_no_resampling_reads(old_man, capsys):
    key, response = old_man
    with pytest.raises(SystemExit) as caught:
        main(["score", str(key), str(response), "--seed", "7"])
    assert caught.value.code == 2
    assert ("--seed=7: it sets how intervals and paired tests resample (--confidence, "
            "--paired-bs, --paired-ar), and none is asked for"
            in capsys.readouterr().err)
    assert main(["score", str(key), str(response), "--seed", "7", "--confidence", "20"]) == 0
