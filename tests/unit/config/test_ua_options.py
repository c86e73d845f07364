"""Settings of the UA layers: validation, presets, the mode in words and in the signature, the
command line, and the JSON layout of the new metrics."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

import anascore
from anascore.cli.main import main
from anascore.config.options import IDENTITY_METRICS, Options
from anascore.config.presets import PRESET_NAMES, describe_mode, preset_name, preset_options
from anascore.core.errors import OptionsError
from anascore.formats.ua import read_ua, write_ua
from tests.support.paths import FIXTURES

FIXTURES = FIXTURES / "ua"
KEY = FIXTURES / "features.conllua"


@pytest.mark.parametrize(("settings", "message"), [
    ({"metrics": ("bridging",)}, "metric bridging needs keep_bridging=True"),
    ({"metrics": ("non_referring",)}, "metric non_referring needs keep_non_referring=True"),
    ({"metrics": ("discourse_deixis.muc",)}, "needs discourse_deixis=True"),
    ({"compat": "perl"}, "unknown compat mode 'perl'"),
    ({"match": "heads"}, "unknown match method 'heads'"),
    ({"only_split_antecedents": True}, "only_split_antecedents needs keep_split_antecedents"),
    ({"lea_split_importance": -1.0}, "expected a number ≥ 0"),
])
def test_impossible_settings_are_errors(settings, message: str) -> None:
    with pytest.raises(OptionsError, match=message):
        Options(**settings)


def test_layer_settings_add_their_metrics() -> None:
    options = Options(keep_non_referring=True, keep_bridging=True, discourse_deixis=True,
                      metrics=("muc", "conll"))
    assert options.reported_metrics == (
        "muc", "conll", "non_referring", "bridging", "discourse_deixis.muc",
        "discourse_deixis.conll")
    assert set(options.computed_metrics) == {
        "mentions", "muc", "bcub", "ceafe", "non_referring", "bridging",
        "discourse_deixis.mentions", "discourse_deixis.muc", "discourse_deixis.bcub",
        "discourse_deixis.ceafe"}
    # all: the identity metrics and the CorefUD supplements; the layers' metrics follow
    # their settings
    assert Options.create(metrics="all").metrics == (*IDENTITY_METRICS, "mor", "zero")
    assert Options.create(metrics=None).metrics == IDENTITY_METRICS
    assert Options.create(metrics="all", keep_bridging=True).reported_metrics == (
        *IDENTITY_METRICS, "mor", "zero", "bridging")


def test_presets_hold_the_shared_task_settings() -> None:
    crac18 = preset_options("crac18")
    assert (crac18.keep_singletons, crac18.keep_non_referring) == (True, True)
    assert crac18.reported_metrics == ("muc", "bcub", "ceafe", "conll", "non_referring")
    assert preset_options("conll12").keep_singletons is False
    ar = preset_options("codicrac22-ar")
    assert (ar.keep_singletons, ar.keep_split_antecedents) == (True, True)
    assert preset_options("codicrac22-br").reported_metrics == ("bridging",)
    dd = preset_options("codicrac22-dd")
    assert dd.reported_metrics == tuple(f"discourse_deixis.{name}"
                                        for name in ("muc", "bcub", "ceafe", "conll"))
    assert (dd.keep_singletons, dd.keep_split_antecedents) == (True, True)
    assert preset_options("codicrac21") == ar
    craft = preset_options("craft19")
    assert (craft.match, craft.keep_singletons, craft.metrics) == (
        "craft", True, ("muc", "bcub", "ceafe", "conll"))
    with pytest.raises(OptionsError, match="unknown preset 'crac99'"):
        preset_options("crac99")
    assert set(PRESET_NAMES) == {"conll12", "crac18", "codicrac21", "codicrac22-ar",
                                 "codicrac22-br", "codicrac22-dd", "craft19", "crac22",
                                 "crac23", "crac24", "crac25", "crac26", "barhom2019",
                                 "wec-eng", "cattan2021", "scico", "ucdcr"}


def test_a_preset_is_named_in_the_signature_and_the_mode() -> None:
    options = preset_options("crac18")
    assert options.signature().startswith(
        "preset:crac18|match:exact|singletons:keep|non_referring:keep|version:")
    assert describe_mode(options) == (
        "identity coreference (singletons, no split antecedents), non-referring markables; "
        "exact mention matching; anascore conventions; preset crac18")
    # compat and the input format aside, changing a setting leaves the preset
    assert preset_name(options.with_settings(compat="ua", format="ua")) == "crac18"
    # and so do intervals and tests, which add to the numbers without changing them
    resampled = options.with_settings(confidence=100, confidence_level=0.9, seed=7,
                                      paired_bs=10, paired_ar=10)
    assert preset_name(resampled) == "crac18"
    assert resampled.signature().startswith("preset:crac18|")
    # the settings of metrics a preset does not report are refused without their metric;
    # naming the metric leaves the preset
    with pytest.raises(OptionsError, match="it weighs the links of lmuc"):
        options.with_settings(link_weights=(1, 1, 1, 1))
    assert preset_name(options.with_settings(metrics=(*options.metrics, "lmuc"))) is None
    assert preset_name(options.with_settings(keep_singletons=False)) is None
    assert preset_name(preset_options("codicrac21")) == "codicrac21/codicrac22-ar"


def test_create_from_a_preset_with_changes() -> None:
    options = Options.create(preset="codicrac22-ar", match="min", compat="ua")
    assert (options.match, options.compat, options.keep_split_antecedents) == ("min", "ua", True)
    assert options.metrics == ("muc", "bcub", "ceafe", "conll")
    assert "split_antecedents:keep" in options.signature()
    assert "compat:ua" in options.signature()
    assert describe_mode(options) == (
        "identity coreference (singletons, split-antecedent plurals); MIN-span matching; "
        "UA scorer 2.0 conventions")


@pytest.fixture
def response(tmp_path: Path) -> str:
    """The fixture's first document with the hinge's bridging anchor wrong and "It" called
    referring (a singleton entity)."""
    (garden,) = list(read_ua(KEY))[:1]
    hinge = garden.bridging[0]
    wrong = replace(hinge, antecedent=garden.entities[4].mentions[0], antecedent_entity="6")
    entities = (*garden.entities, anascore.core.model.Entity("99", (garden.non_referring[0],)))
    changed = replace(garden, entities=entities, non_referring=garden.non_referring[1:],
                      bridging=(wrong, *garden.bridging[1:]))
    path = tmp_path / "response.conllua"
    write_ua([changed], path)
    return str(path)


@pytest.fixture
def key(tmp_path: Path) -> str:
    path = tmp_path / "key.conllua"
    write_ua(list(read_ua(KEY))[:1], path)
    return str(path)


def test_cli_preset_and_json_layout(key: str, response: str, capsys) -> None:
    assert main(["score", key, response, "--preset", "crac18", "--keep-bridging",
                 "--output", "json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["signature"].startswith("match:exact|singletons:keep|non_referring:keep|"
                                          "bridging:keep|")
    assert result["mode"].startswith("identity coreference (singletons, no split antecedents), "
                                     "non-referring markables, bridging references")
    metrics = result["metrics"]
    assert list(metrics) == ["muc", "bcub", "ceafe", "conll", "non_referring", "bridging"]
    # "It" and "There" are non-referring in the key; the response keeps only "There"
    assert metrics["non_referring"]["recall"] == 1 / 2
    assert metrics["non_referring"]["precision"] == 1 / 1
    bridging = metrics["bridging"]
    assert set(bridging) == {"anaphor_recognition", "mention", "entity"}
    # three links: the hinge's, now anchored to "garden" (another entity); the bench's to the
    # garden entity (no anchor mention: not counted at the mention level) and to "There"
    assert bridging["anaphor_recognition"]["recall"] == 2 / 2
    assert bridging["mention"]["recall"] == 1 / 2
    assert bridging["entity"]["recall"] == 2 / 3


def test_cli_discourse_deixis_and_min(key: str, capsys) -> None:
    assert main(["score", key, key, "--discourse-deixis", "--match", "min", "--compat", "ua",
                 "--metrics", "muc,blanc", "--output", "json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["metrics"]["discourse_deixis"]["muc"]["f1"] == 1.0
    assert result["metrics"]["discourse_deixis"]["blanc"]["f1"] == 1.0
    assert "match:min" in result["signature"] and "discourse_deixis:keep" in result["signature"]


def test_cli_text_names_the_mode(key: str, capsys) -> None:
    assert main(["score", key, key, "--preset", "codicrac22-dd"]) == 0
    out = capsys.readouterr().out
    assert "DD MUC" in out and "DD CoNLL" in out and "\nMUC " not in out
    assert "mode: discourse deixis (singletons, split-antecedent plurals); exact mention " \
           "matching; anascore conventions; preset codicrac22-dd" in out
    assert "signature: preset:codicrac22-dd|" in out


def test_cli_bad_ua_file_is_one_line(tmp_path: Path, key: str, capsys) -> None:
    bad = tmp_path / "bad.conllua"
    bad.write_text(Path(key).read_text().replace("(EntityID=12|MarkableID=m14|",
                                                 "(EntityID=12|MarkableID=m14|ElementOf=77|"))
    assert main(["score", key, str(bad)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert err[0].startswith(f"anascore: error: {bad}:")
    assert "ElementOf=77 names no entity" in err[0]


def test_cli_craft19_preset_scores_with_craft_matching(key: str, capsys) -> None:
    assert main(["score", key, key, "--preset", "craft19", "--output", "json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["signature"].startswith("preset:craft19|match:craft|singletons:keep|")
    assert "CRAFT 2019 partial matching" in result["mode"]
    assert result["metrics"]["conll"]["f1"] == 1.0


def test_score_with_a_preset_keeps_its_settings(key: str) -> None:
    report = anascore.score(key, key, preset="conll12")
    assert report.options.keep_singletons is False
    assert list(report.metrics) == ["muc", "bcub", "ceafe", "conll"]
    assert anascore.score(key, key, preset="conll12", keep_singletons=True
                          ).options.keep_singletons is True
