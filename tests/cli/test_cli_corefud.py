"""The command line with CorefUD and jsonlines files: matching, zeros, errors."""

from __future__ import annotations

import json
from pathlib import Path

from anascore.cli.main import main
from tests.support.paths import FIXTURES

FIXTURES = FIXTURES / "corefud"


def test_head_matching_with_every_metric(capsys) -> None:
    assert main(["score", str(FIXTURES / "match_key.conllu"),
                 str(FIXTURES / "match_response_tie.conllu"), "--match", "head",
                 "--metrics", "all", "--output", "json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert set(result["metrics"]) >= {"mor", "zero", "conll"}
    assert result["metrics"]["muc"]["recall"] == 1.0
    assert result["signature"].startswith("match:head|singletons:keep|")


def test_zero_match_and_removal_flags(capsys) -> None:
    key, response = str(FIXTURES / "zero_key.conllu"), str(FIXTURES / "zero_response.conllu")
    assert main(["score", key, response, "--zero-match", "linear", "--metrics", "muc",
                 "--output", "json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["metrics"]["muc"]["recall"] == 0.0
    assert "zero_match:linear" in result["signature"]
    assert main(["score", key, response, "--metrics", "muc", "--output", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["metrics"]["muc"]["recall"] == 1.0


def test_misaligned_files_are_one_error_line_naming_both(capsys, tmp_path: Path) -> None:
    response = tmp_path / "response.conllu"
    response.write_text((FIXTURES / "zero_response.conllu").read_text().replace("sang", "sung"))
    key = FIXTURES / "zero_key.conllu"
    assert main(["score", str(key), str(response)]) == 1
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and captured.out == ""
    assert lines[0].startswith(f"anascore: error: {response}:8: document 'z': sentence 1, "
                               "word 4 is 'sang' in the key")
    assert f"({key}:9)" in lines[0] and f"({response}:8)" in lines[0]


def test_several_responses_each_aligned_with_the_key(capsys) -> None:
    # One response puts its zero elsewhere (aligned by dependencies), the other is the key.
    key = str(FIXTURES / "zero_key.conllu")
    assert main(["score", key, str(FIXTURES / "zero_response.conllu"), key,
                 "--metrics", "muc", "--output", "json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert [system["metrics"]["muc"]["f1"] for system in result["systems"].values()] == [1.0, 1.0]


def test_package_functions_stay_functions_after_their_modules_are_imported() -> None:
    """``anascore.compare`` and ``anascore.convert`` are functions; importing the modules that
    define them (as the command line does) must not replace them with the modules."""
    import anascore
    import anascore.formats.io.conversion
    import anascore.scoring.systems

    assert callable(anascore.compare) and callable(anascore.convert)
