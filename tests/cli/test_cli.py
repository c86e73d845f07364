"""The command line: text, JSON and the reference layout, from the installed console script."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import anascore
from anascore.cli.main import main
from anascore.config.options import Options
from anascore.core.errors import OptionsError
from tests.support.paths import EXAMPLES, FIXTURES

KEY = """#begin document (talk); part 000
talk 0 0 Maria (1)
talk 0 1 called -
talk 0 2 her (1)|(2
talk 0 3 landlord 2)
talk 0 4 . -

talk 0 5 He (2)
talk 0 6 answered -
#end document
"""
# The response misses "He" and makes "her" a singleton.
RESPONSE = """#begin document (talk); part 000
talk 0 0 Maria (1)
talk 0 1 called -
talk 0 2 her (3)|(2
talk 0 3 landlord 2)
talk 0 4 . -

talk 0 5 He -
talk 0 6 answered -
#end document
"""


@pytest.fixture
def files(pair_files) -> tuple[str, str]:
    return pair_files(KEY, RESPONSE)


def test_json_output_has_fractions_and_counts(files, capsys) -> None:
    assert main(["score", *files, "--output", "json", "--per-document"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["documents"] == 1
    assert set(result["metrics"]) == {"mentions", "muc", "bcub", "ceafm", "ceafe", "blanc",
                                      "lea", "conll"}
    # Key links: Maria–her, landlord–He; the response keeps neither.
    assert result["metrics"]["muc"] == {
        "recall": 0.0, "precision": 0.0, "f1": 0.0, "recall_num": 0.0, "recall_den": 2.0,
        "precision_num": 0.0, "precision_den": 0.0}
    # 3 of 4 key mentions found, all 3 response mentions right.
    assert result["metrics"]["mentions"]["recall"] == 3 / 4
    assert result["metrics"]["mentions"]["precision"] == 3 / 3
    assert set(result["metrics"]["blanc"]) >= {"coref_links", "non_coref_links"}
    assert set(result["metrics"]["conll"]) == {"f1"}
    assert result["signature"] == "match:exact|singletons:keep|version:" + result["version"]
    assert list(result["per_document"]) == ["(talk); part 000"]


def test_text_output_is_a_table_in_percent(files, capsys) -> None:
    assert main(["score", *files, "--metrics", "mentions,muc"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["metric", "recall", "precision", "F1"]
    assert out[1].split() == ["Mentions", "75.00", "100.00", "85.71"]
    assert out[2].split() == ["MUC", "0.00", "0.00", "0.00"]
    assert out[-1].startswith("signature: match:exact|singletons:keep|version:")


def test_remove_singletons(files, capsys) -> None:
    assert main(["score", *files, "--remove-singletons", "--output", "json"]) == 0
    result = json.loads(capsys.readouterr().out)
    # Left: key {Maria, her} {her landlord, He}; response {her landlord} goes too.
    assert result["metrics"]["mentions"]["recall_den"] == 4
    assert result["metrics"]["mentions"]["precision_den"] == 0
    assert "singletons:remove" in result["signature"]


def test_reference_layout(files, capsys) -> None:
    assert main(["score", *files, "--metrics", "muc", "--reference-layout"]) == 0
    out = capsys.readouterr().out
    assert "METRIC muc:" in out
    assert ("Identification of Mentions: Recall: (3 / 4) 75%\tPrecision: (3 / 3) 100%\t"
            "F1: 85.71%") in out
    assert "Coreference: Recall: (0 / 2) 0%\tPrecision: (0 / 0) 0%\tF1: 0%" in out


def test_missing_response_document_is_a_warning(tmp_path: Path, capsys) -> None:
    other = tmp_path / "other.conll"
    other.write_text(KEY.replace("(talk)", "(other)"))
    both = tmp_path / "both.conll"
    both.write_text(KEY.replace("(talk)", "(other)") + KEY)
    assert main(["score", str(both), str(other), "--output", "json"]) == 0
    captured = capsys.readouterr()
    assert "document '(talk); part 000' of the key is missing from the response" in captured.err
    result = json.loads(captured.out)
    assert result["metrics"]["mentions"]["recall"] == 4 / 8


def test_console_script_exit_statuses(files, tmp_path: Path) -> None:
    command = [sys.executable, "-m", "anascore", "score"]
    ok = subprocess.run([*command, *files], capture_output=True, text=True)
    assert ok.returncode == 0 and "CoNLL" in ok.stdout
    bad = subprocess.run([*command, files[0], str(tmp_path / "missing")], capture_output=True,
                         text=True)
    assert bad.returncode == 1 and bad.stderr.startswith("anascore: error: ")
    assert "Traceback" not in bad.stderr
    usage = subprocess.run([*command, files[0]], capture_output=True, text=True)
    assert usage.returncode == 2


def test_split_antecedent_flags(files, capsys) -> None:
    # CoNLL-2012 cannot hold split antecedents: scoring them there is refused, not 0.00.
    assert main(["score", *files, "--only-split-antecedents"]) == 1
    assert ("--keep-split-antecedents scores split-antecedent "
            "plurals, which conll2012 files cannot hold") in capsys.readouterr().err
    plurals = str(FIXTURES / "ua" / "split_singletons.conllua")
    assert main(["score", plurals, plurals, "--keep-split-antecedents",
                 "--lea-split-importance", "10", "--compat", "ua", "--output", "json",
                 "--details"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert "split_antecedents:keep|lea_split_importance:10" in result["signature"]
    assert "compat:ua" in result["signature"]
    assert result["metrics"]["muc"]["f1"] == 1.0
    assert main(["score", plurals, plurals, "--only-split-antecedents"]) == 0
    out = capsys.readouterr().out
    assert "split_antecedents:only" in out
    assert ("mode: identity coreference (singletons, only split-antecedent plurals); exact "
            "mention matching; anascore conventions") in out


def test_a_negative_lea_split_importance_is_an_error(files, capsys) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["score", *files, "--keep-split-antecedents", "--lea-split-importance", "-1"])
    assert caught.value.code == 2  # a usage error, named by its flag
    assert "--lea-split-importance -1.0; expected a number ≥ 0" in capsys.readouterr().err


def test_reference_layout_truncates_as_perl(tmp_path: Path, capsys) -> None:
    # Mentions: 3 of 3 key mentions found, 3 of 5 response mentions right; F1 = 2·1·0.6/1.6
    # is 0.7499999999999999 in floating point, which the Perl scorer prints as 74.99%.
    words = ["Anna", "saw", "herself", "in", "her", "mirror"]

    def write(name: str, cells: list[str]) -> str:
        lines = [f"d\t0\t{i}\t{w}\t{c}" for i, (w, c) in enumerate(zip(words, cells,
                                                                          strict=True))]
        path = tmp_path / name
        path.write_text("#begin document (d); part 000\n" + "\n".join(lines)
                        + "\n#end document\n")
        return str(path)

    key = write("key.conll", ["(1)", "-", "(1)", "-", "(1)", "-"])
    response = write("response.conll", ["(1)", "(2)", "(1)", "-", "(1)", "(3)"])
    assert main(["score", key, response, "--metrics", "muc", "--reference-layout"]) == 0
    assert ("Identification of Mentions: Recall: (3 / 3) 100%\tPrecision: (3 / 5) 60%\t"
            "F1: 74.99%") in capsys.readouterr().out


def test_a_conll_run_loads_only_what_it_uses() -> None:
    """Start-up time is part of every run: scoring CoNLL-2012 files with the identity metrics
    never imports the other readers, the other metrics, or the statistics."""
    examples = EXAMPLES
    program = ("import sys, contextlib, io\n"
               "from anascore.cli.main import main\n"
               "with contextlib.redirect_stdout(io.StringIO()):\n"
               f"    assert main(['score', {str(examples / 'key.conll')!r}, "
               f"{str(examples / 'response.conll')!r}]) == 0\n"
               "print(' '.join(sorted(sys.modules)))")
    loaded = set(subprocess.run([sys.executable, "-c", program], check=True,
                                capture_output=True, text=True).stdout.split())
    assert "anascore.metrics.muc" in loaded
    unused = {"anascore.formats.ua", "anascore.formats.corefud", "anascore.formats.jsonlines",
              "anascore.formats.io.conversion", "anascore.metrics.dominant",
              "anascore.metrics.linguistic",
              "anascore.metrics.bridging", "anascore.stats.bootstrap",
              "anascore.report.systems", "scipy.optimize"}
    assert loaded & unused == set()


def test_reference_layout_per_document_prints_the_perl_blocks(capsys) -> None:
    # Measured side by side with scorer.pl v8.01 (muc, the bundled example, no document name).
    examples = EXAMPLES
    assert main(["score", str(examples / "key.conll"), str(examples / "response.conll"),
                 "--reference-layout", "--per-document", "--metrics", "muc"]) == 0
    out = capsys.readouterr().out
    assert ("(email/ex/00/ex_0005); part 000:\nTotal key mentions: 11\n"
            "Total response mentions: 9\nStrictly correct identified mentions: 9\n"
            "Partially correct identified mentions: 0\nNo identified: 2\nInvented: 0\n"
            "Recall: (5 / 6) 83.33%\tPrecision: (5 / 5) 100%\tF1: 90.9%\n") in out
    assert "Recall: (6 / 8) 75%\tPrecision: (6 / 7) 85.71%\tF1: 79.99%" in out
    assert out.index("ex_0005") < out.index("====== TOTALS =======")


def test_a_lea_split_importance_without_split_antecedents_is_an_error(files, capsys) -> None:
    # It used to be ignored: plurals scored as ordinary entities, no β in the signature.
    with pytest.raises(SystemExit) as caught:
        main(["score", *files, "--lea-split-importance", "10"])
    assert caught.value.code == 2
    assert capsys.readouterr().err.endswith(
        "anascore: error: --lea-split-importance 10.0 weighs entities with split antecedents, "
        "which are scored only with --keep-split-antecedents; add it, or leave out "
        "--lea-split-importance\n")
    with pytest.raises(OptionsError, match=r"lea_split_importance 10\.0 weighs"):
        anascore.score(*files, lea_split_importance=10.0)
    assert "lea_split_importance:2" in Options.create(
        preset="codicrac22-ar", lea_split_importance=2.0).signature()


@pytest.mark.parametrize("output", ["text", "csv", "markdown", "latex"])
def test_details_outside_the_json_output_is_a_usage_error(files, capsys, output) -> None:
    # --details is JSON's; in the other outputs it was ignored without a word.
    with pytest.raises(SystemExit) as caught:
        main(["score", *files, "--details", "--output", output])
    assert caught.value.code == 2
    assert capsys.readouterr().err.endswith(
        "anascore: error: --details lists each aligned pair of split-antecedent sets in the "
        "JSON output; add --output json\n")


@pytest.mark.parametrize(("command", "text"), [
    ("convert", "--quiet print no warnings (what was dropped)"),
    ("report", "--quiet print no warnings and no 'wrote FILE' line (the warnings stay on the "
               "page)")])
def test_quiet_says_what_it_silences(command, text, capsys) -> None:
    # convert and report write no JSON, yet their --quiet said the warnings 'stay in the JSON
    # output'; report prints no warning at all, only the 'wrote FILE' line.
    with pytest.raises(SystemExit):
        main([command, "--help"])
    assert text in " ".join(capsys.readouterr().out.split())
