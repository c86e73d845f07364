"""Shared-task presets: their settings, the signature, and settings given besides a preset
(they change it, and the preset is then no longer named)."""

from __future__ import annotations

import pytest

from anascore.cli.main import main
from anascore.config.options import Options
from anascore.config.presets import describe_mode, preset_name
from anascore.core.errors import OptionsError
from tests.support.paths import FIXTURES


@pytest.mark.parametrize(("preset", "match", "zero_match"), [
    ("crac22", "partial", "linear"), ("crac23", "head", "linear"),
    ("crac24", "head", "dependent"), ("crac25", "head", "dependent"),
])
def test_crac_presets(preset: str, match: str, zero_match: str) -> None:
    options = Options.create(preset=preset)
    assert (options.match, options.zero_match, options.keep_singletons, options.keep_zeros) \
        == (match, zero_match, False, True)
    assert options.metrics == ("mentions", "muc", "bcub", "ceafe", "conll", "mor", "zero")
    # crac24 and crac25 have the same settings, so they are named together
    name = "crac24/crac25" if preset in ("crac24", "crac25") else preset
    assert options.signature().startswith(f"preset:{name}|match:{match}|singletons:remove")
    assert describe_mode(options).endswith(f"; preset {name}")


def test_a_setting_given_besides_the_preset_changes_it_and_unnames_it() -> None:
    changed = Options.create(preset="crac24", match="exact")
    assert (changed.match, changed.keep_singletons, changed.zero_match) == (
        "exact", False, "dependent")
    assert changed.signature().startswith("match:exact|singletons:remove|")
    assert preset_name(changed) is None
    # a setting that agrees with the preset leaves it named
    agreeing = Options.create(preset="crac23", match="head")
    assert agreeing.signature().startswith("preset:crac23|match:head|")
    linear = Options.create(preset="crac24", zero_match="linear")
    assert preset_name(linear) == "crac23"
    assert Options.create(preset="crac24", metrics="muc").metrics == ("muc",)
    with pytest.raises(OptionsError, match="unknown preset"):
        Options.create(preset="crac99")


def test_preset_on_the_command_line(tmp_path, capsys) -> None:
    # A CRAC preset matches heads: on jsonlines, which has none, it is refused ...
    jsonlines = tmp_path / "key.jsonlines"
    jsonlines.write_text('{"doc_key": "d", "sentences": [["a", "b"]], '
                         '"clusters": [[[0, 0], [1, 1]]]}\n')
    assert main(["score", str(jsonlines), str(jsonlines), "--preset", "crac23"]) == 1
    assert ("--match head (set by --preset crac23) needs mention heads, and jsonlines files "
            "give none") in (
        capsys.readouterr().err)
    # ... and on CorefUD it is the shared task's, signed as such.
    key = FIXTURES / "corefud" / "match_key.conllu"
    assert main(["score", str(key), str(key), "--preset", "crac23", "--output", "json"]) == 0
    assert '"signature": "preset:crac23|match:head' in capsys.readouterr().out
    assert main(["score", str(key), str(key), "--preset", "crac23", "--match", "exact",
                 "--output", "json"]) == 0
    out = capsys.readouterr().out
    assert '"signature": "match:exact|singletons:remove|zero_match:linear|' in out


def test_the_settings_presets_leave_free_are_marked_once_in_the_table() -> None:
    """Which settings a preset leaves free is said by the settings table, and a run that
    changes one of them is still the preset's, one that changes another is not."""
    from anascore.config.options import Options
    from anascore.config.settings import FREE_SETTINGS, SETTINGS

    assert set(FREE_SETTINGS) == {
        "format", "exclusive_ends", "compat", "confidence", "confidence_level", "seed",
        "paired_bs", "paired_ar", "jobs", "key_documents_only", "pair_documents", "sign_key",
        "topic_pattern", "link_weights", "mention_type_function", "dominant_coefficients",
        "coreference_classes", "attempted_classes", "scheme_classes"}
    assert tuple(setting.name for setting in SETTINGS if setting.preset_free) == FREE_SETTINGS
    crac24 = Options.create(preset="crac24")
    free = crac24.with_settings(jobs=1, confidence=100, seed=7, format="conll2012")
    assert preset_name(free) == "crac24/crac25"
    assert preset_name(crac24.with_settings(keep_singletons=True)) is None
