"""Shared-task presets: their settings, the signature, and conflicts."""

from __future__ import annotations

import pytest

from anascore.cli import main
from anascore.errors import OptionsError
from anascore.options import Options


@pytest.mark.parametrize(("preset", "match", "zero_match"), [
    ("crac22", "partial", "linear"), ("crac23", "head", "linear"),
    ("crac24", "head", "dependent"), ("crac25", "head", "dependent"),
])
def test_crac_presets(preset: str, match: str, zero_match: str) -> None:
    options = Options.create(preset=preset)
    assert (options.match, options.zero_match, options.keep_singletons, options.keep_zeros) \
        == (match, zero_match, False, True)
    assert options.metrics == ("mentions", "muc", "bcub", "ceafe", "conll", "mor", "zero")
    assert options.signature().startswith(f"preset:{preset}|match:{match}|singletons:remove")


def test_a_setting_against_the_preset_is_an_error_an_agreeing_one_is_fine() -> None:
    with pytest.raises(OptionsError, match="preset crac24 sets match='head'"):
        Options.create(preset="crac24", match="exact")
    assert Options.create(preset="crac24", match="head").match == "head"
    assert Options.create(preset="crac24", metrics="muc").metrics == ("muc",)
    with pytest.raises(OptionsError, match="unknown preset"):
        Options.create(preset="crac99")


def test_preset_on_the_command_line(tmp_path, capsys) -> None:
    key = tmp_path / "key.jsonlines"
    key.write_text('{"doc_key": "d", "sentences": [["a", "b"]], "clusters": [[[0, 0], [1, 1]]]}\n')
    assert main(["score", str(key), str(key), "--preset", "crac23", "--output", "json"]) == 0
    assert '"signature": "preset:crac23|match:head' in capsys.readouterr().out
    assert main(["score", str(key), str(key), "--preset", "crac23", "--match", "exact"]) == 1
    assert "preset crac23 sets match='head'" in capsys.readouterr().err
