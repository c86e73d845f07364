"""Every entry point resolves settings in one place (``Options.create``): a setting given
explicitly wins over the preset's, the preset's over the default. The API used to let its own
keyword defaults (keep_singletons=True, match="exact") override a preset."""

from __future__ import annotations

import json

import pytest

import anascore
from anascore.cli.main import main
from anascore.config.options import METRIC_NAMES, Options, canonical_metric
from anascore.config.presets import PRESET_NAMES
from anascore.core.errors import OptionsError
from anascore.formats import read_documents
from anascore.leaderboard import evaluate
from tests.support.paths import EXAMPLES, FIXTURES

#: An input that holds what each preset scores (heads and zeros, layers, or nothing special).
INPUTS = {
    "crac22": FIXTURES / "corefud" / "match_key.conllu",
    "crac23": FIXTURES / "corefud" / "match_key.conllu",
    "crac24": FIXTURES / "corefud" / "match_key.conllu",
    "crac25": FIXTURES / "corefud" / "match_key.conllu",
    "crac26": FIXTURES / "corefud" / "match_key.conllu",
}
UA = FIXTURES / "ua" / "features.conllua"
#: Documents a1, a2, b1 of topics a, b (docs/cross-document.md's worked example).
CROSSDOC = FIXTURES / "crossdoc" / "key.conll"
INPUTS.update({name: CROSSDOC for name in ("barhom2019", "wec-eng", "cattan2021", "scico",
                                           "ucdcr")})
RESPONSES = {FIXTURES / "corefud" / "match_key.conllu":
             FIXTURES / "corefud" / "match_response_tie.conllu", UA: UA,
             CROSSDOC: FIXTURES / "crossdoc" / "response.conll"}
#: What the data gives besides a preset: the topics of the documents (a free setting).
TOPICS = {"scico": "^([a-z])", "ucdcr": "^([a-z])([0-9])"}


def numbers(report) -> dict:
    return json.loads(json.dumps({name: score.to_dict() for name, score in
                                  report.metrics.items()}))


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_preset_gives_the_same_numbers_through_every_entry_point(preset, tmp_path,
                                                                        capsys):
    key = INPUTS.get(preset, UA)
    response = RESPONSES[key]
    topics = {"topic_pattern": TOPICS[preset]} if preset in TOPICS else {}
    reference = anascore.score(key, response, preset=preset, **topics)
    assert reference.options == Options.create(preset=preset, **topics)
    expected = numbers(reference)
    # The command line.
    flags = ["--topic-pattern", TOPICS[preset]] if topics else []
    assert main(["score", str(key), str(response), "--preset", preset, "--output",
                 "json", *flags]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["signature"] == reference.signature
    assert printed["signature"].startswith("preset:")
    # compare: one response and a second one.
    systems = anascore.compare(key, [response, key], preset=preset, **topics)
    assert systems.reports[0].signature == reference.signature
    assert numbers(systems.reports[0]) == expected
    # score_documents on the same documents in memory.
    in_memory = anascore.score_documents(read_documents(key), read_documents(response),
                                         preset=preset, **topics)
    assert numbers(in_memory) == expected
    # The evaluator, fed the same documents' counts (it takes clusters: same options); it
    # counts each document alone, so it refuses a preset that joins documents.
    if reference.options.level == "document":
        assert anascore.CorefEvaluator(preset=preset).options == reference.options
    else:
        with pytest.raises(OptionsError, match="level="):
            anascore.CorefEvaluator(preset=preset)
    # A task manifest.
    manifest = tmp_path / "task.toml"
    pattern = f'topic_pattern = "{TOPICS[preset]}"\n' if topics else ""
    manifest.write_text(f'resamples = 0\nmetric = "{reference.options.reported_metrics[-1]}"\n'
                        f'[settings]\npreset = "{preset}"\n{pattern}[[datasets]]\nname = "d"\n'
                        f'key = "{key}"\n[[systems]]\nname = "s"\nresponses = "{response}"\n')
    board = evaluate(manifest)
    assert board.reports["s"][0]["d"].signature == reference.signature


def test_an_explicit_setting_wins_over_the_preset_everywhere():
    key = INPUTS["crac24"]
    assert anascore.CorefEvaluator(preset="conll12").options.keep_singletons is False
    assert anascore.CorefEvaluator(preset="conll12",
                                   keep_singletons=True).options.keep_singletons is True
    systems = anascore.compare(key, [key], preset="crac24")
    assert systems.options.match == "head" and not systems.options.keep_singletons
    assert anascore.compare(key, [key], preset="crac24", match="exact").options.match == "exact"


def test_the_evaluator_with_a_preset_scores_as_the_command_line(tmp_path, capsys):
    # conll12 removes singletons: a perfect response without its singleton is perfect.
    evaluator = anascore.CorefEvaluator(preset="conll12")
    evaluator.update(predicted_clusters=[[(0, 1), (3, 3)]],
                     gold_clusters=[[(0, 1), (3, 3)], [(5, 5)]])
    assert evaluator.get_conll_f1() == 1.0


def test_metric_names_are_case_insensitive_and_the_printed_titles_are_names(tmp_path, capsys):
    from anascore.metrics import REGISTRY
    from anascore.report.tables import DERIVED_TITLES

    for name in METRIC_NAMES:
        title = DERIVED_TITLES.get(name) or REGISTRY[name].title
        assert canonical_metric(title) == name, title
        assert canonical_metric(name.upper()) == name
    key = str(INPUTS["crac24"])
    assert main(["score", key, key, "--metrics", "MUC,B3,CoNLL", "--sort-by", "CoNLL"]) == 0
    assert "CoNLL" in capsys.readouterr().out
    assert Options.create(metrics="MUC, b3 ,CEAFe").metrics == ("muc", "bcub", "ceafe")


@pytest.mark.parametrize(("arguments", "message"), [
    (["--confidence-level", "2"], "--confidence-level must lie strictly between 0 and 1"),
    (["--metrics", "bridging"], "metric bridging needs --keep-bridging"),
    (["--link-weights", "1,2"], "--link-weights must be 4 finite numbers"),
])
def test_bad_option_values_are_usage_errors_naming_the_flag(arguments, message, capsys):
    key = str(INPUTS["crac24"])
    with pytest.raises(SystemExit) as caught:
        main(["score", key, key, *arguments])
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert message in err
    assert "confidence_level" not in err and "keep_bridging" not in err


@pytest.mark.parametrize(("clusters", "message"), [
    ([[(0.5, 2)]], "positions must be whole numbers (int), not float, int"),
    ([[0, 1, 2]], "cluster 0 holds 0, not a (start, end) span; a cluster is a list of spans"),
    ([[(3,)]], "span (3,) of cluster 0 has 1 number; expected (start, end)"),
    ([[(2, 1)]], "is not (start, end) with 0 <= start <= end"),
    ([[(-1, 1)]], "is not (start, end) with 0 <= start <= end"),
    ([[(0, 10**12)]], "mentions of more than 100000 tokens are refused"),
    ([[(True, 1)]], "positions must be whole numbers"),
    (["ab"], "cluster 0 is 'ab'; expected a list of (start, end) spans"),
])
def test_the_evaluator_refuses_shapes_models_get_wrong(clusters, message):
    evaluator = anascore.CorefEvaluator()
    with pytest.raises(anascore.OptionsError) as caught:
        evaluator.update(predicted_clusters=clusters, gold_clusters=[[(0, 1)]])
    assert message in caught.value.message


def test_numpy_integers_are_positions():
    import numpy as np

    evaluator = anascore.CorefEvaluator(metrics="muc")
    evaluator.update(np.array([[[0, 1], [3, 3]]]), [[(0, 1), (3, 3)]])
    assert evaluator.get_prf("muc").f1 == 1.0


# Settings an entry point cannot honour are refused, never carried in the signature unused.

EXAMPLE_KEY = EXAMPLES / "key.conll"
EXAMPLE_RESPONSE = EXAMPLE_KEY.with_name("response.conll")


@pytest.mark.parametrize(("setting", "value"), [
    ("confidence", 1000), ("paired_bs", 100), ("paired_ar", 100), ("seed", 3),
    ("confidence_level", 0.9), ("jobs", 2), ("format", "conll2012"), ("align_tokens", True),
    ("key_documents_only", True),
])
def test_clusters_in_memory_refuse_what_they_cannot_do(setting, value):
    """CorefEvaluator(confidence=1000) (and compute, the torchmetrics metric) accepted
    resampling, file and process settings and did nothing with them."""
    expected = (f"{setting}={value!r}: clusters scored in memory are only counted and summed "
                "(no intervals, tests, files or processes); leave it out, or score files "
                "with anascore.score or anascore.compare")
    if setting in ("seed", "confidence_level"):  # without resampling, refused by any entry
        expected = (f"{setting}={value!r}: it sets how intervals and paired tests resample "
                    "(confidence, paired_bs, paired_ar), and none is asked for")
    for call in (lambda: anascore.CorefEvaluator(**{setting: value}),
                 lambda: anascore.compute(predictions=[[]], references=[[]],
                                          **{setting: value})):
        with pytest.raises(anascore.OptionsError) as caught:
            call()
        assert caught.value.message == expected
    # Their defaults, given explicitly, are no setting at all.
    anascore.CorefEvaluator(**{setting: Options.__dataclass_fields__[setting].default})


# Wrong argument types are one OptionsError, never a traceback or a silent reading.

@pytest.mark.parametrize(("settings", "message"), [
    # A string is truthy: keep_singletons="false" kept the singletons, signed singletons:keep.
    ({"keep_singletons": "false"}, "keep_singletons must be True or False, not 'false'"),
    ({"keep_zeros": "no"}, "keep_zeros must be True or False, not 'no'"),
    ({"discourse_deixis": 1}, "discourse_deixis must be True or False, not 1"),
    # These ended in a TypeError or an AttributeError traceback.
    ({"confidence": 100, "confidence_level": "0.9"},
     "confidence_level must lie strictly between 0 and 1, not '0.9'"),
    ({"metrics": ["muc", 5]}, "metrics must be metric names, not ['muc', 5]"),
])
def test_settings_of_the_wrong_type_are_refused(settings, message):
    with pytest.raises(anascore.OptionsError) as caught:
        anascore.score(EXAMPLE_KEY, EXAMPLE_RESPONSE, **settings)
    assert caught.value.message == message
    with pytest.raises(anascore.OptionsError) as caught:
        anascore.CorefEvaluator(**settings)
    assert caught.value.message == message


def test_numpy_numbers_are_settings():
    import numpy as np

    report = anascore.score(EXAMPLE_KEY, EXAMPLE_RESPONSE, confidence=np.int64(100),
                            seed=np.int64(7), keep_singletons=np.bool_(False),
                            confidence_level=np.float64(0.9))
    assert report.signature == anascore.score(
        EXAMPLE_KEY, EXAMPLE_RESPONSE, confidence=100, seed=7, keep_singletons=False,
        confidence_level=0.9).signature
    assert type(report.options.confidence) is int and type(report.options.seed) is int


@pytest.mark.parametrize(("call", "message"), [
    (lambda: anascore.compute(predictions="ab", references="ab"),
     "predictions and references are lists of documents' clusters, not str"),
    (lambda: anascore.compute(predictions=None, references=[[]]),
     "predictions and references are lists of documents' clusters, not NoneType"),
    (lambda: anascore.compute(predictions=5, references=5),
     "predictions and references are lists of documents' clusters, not int"),
    (lambda: anascore.compute(predictions=iter([[]]), references=[[]]),
     "predictions and references are lists of documents' clusters, not list_iterator"),
    (lambda: anascore.compute(predictions=[[]], references=[]),
     "1 predictions for 0 references; expected one prediction per reference document"),
    # A string of responses was read as a folder or pattern ("is a file, but a response
    # is a folder or pattern").
    (lambda: anascore.compare(EXAMPLE_KEY, str(EXAMPLE_RESPONSE)),
     "responses must be a list of paths, not str; one response: anascore.score"),
    (lambda: anascore.compare(EXAMPLE_KEY, [EXAMPLE_RESPONSE, None]),
     "response 2 must be a path (str or os.PathLike), not NoneType"),
    (lambda: anascore.compare(EXAMPLE_KEY, [EXAMPLE_RESPONSE] * 2, names="ab"),
     "names must be a list of names, one per response, not str"),
])
def test_arguments_of_the_wrong_type_are_refused(call, message):
    with pytest.raises(anascore.OptionsError) as caught:
        call()
    assert caught.value.message == message


@pytest.mark.parametrize("settings", [{"paired_bs": 100}, {"paired_ar": 50}])
def test_one_response_refuses_paired_tests_in_python_as_on_the_command_line(settings):
    # anascore.score(KEY, RESP, paired_bs=100) ran no test, under the signature
    # paired-bs:100|seed:12345; the command line and compare refuse it.
    documents = list(read_documents(EXAMPLE_KEY)), list(read_documents(EXAMPLE_RESPONSE))
    (name, value), = settings.items()
    for call in (lambda: anascore.score(EXAMPLE_KEY, EXAMPLE_RESPONSE, **settings),
                 lambda: anascore.score_documents(*documents, **settings)):
        with pytest.raises(anascore.OptionsError) as caught:
            call()
        assert caught.value.message == (
            f"{name}={value}: paired tests compare responses with the first one; give at least "
            "two responses (anascore.compare(key, [baseline, other, ...]))")


def test_score_documents_gives_the_intervals_it_is_asked_for():
    # score_documents(..., confidence=1000) gave no intervals, under the signature
    # bootstrap:1000@0.95: the same documents give score's intervals.
    from_files = anascore.score(EXAMPLE_KEY, EXAMPLE_RESPONSE, confidence=1000, seed=7)
    in_memory = anascore.score_documents(list(read_documents(EXAMPLE_KEY)),
                                         list(read_documents(EXAMPLE_RESPONSE)),
                                         confidence=1000, seed=7)
    assert in_memory.signature == from_files.signature
    assert from_files.intervals is not None
    assert in_memory.intervals == from_files.intervals
    assert in_memory.warnings == from_files.warnings


@pytest.mark.parametrize(("call", "message"), [
    (lambda: anascore.score(None, EXAMPLE_RESPONSE),
     "the key must be a path (str or os.PathLike), not NoneType"),
    (lambda: anascore.score(EXAMPLE_KEY, [EXAMPLE_RESPONSE]),
     "the response must be a path (str or os.PathLike), not list; several responses: "
     "anascore.compare"),
    (lambda: anascore.score_documents("abc", []),
     "the key must be documents (anascore.core.model.Document), not str"),
    (lambda: anascore.score_documents([1], []),
     "the key must be documents (anascore.core.model.Document), not a list holding int"),
    (lambda: anascore.score_documents([], [None]),
     "the response must be documents (anascore.core.model.Document), not a list holding "
     "NoneType"),
])
def test_score_and_score_documents_refuse_arguments_of_the_wrong_type(call, message):
    # They ended in a TypeError from os.fspath, or an AttributeError deep in the pairing.
    with pytest.raises(anascore.OptionsError) as caught:
        call()
    assert caught.value.message == message
