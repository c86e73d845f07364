"""The settings described once (config/settings.py) and the command line built from them:
``score``, ``errors`` and ``report`` take the same settings flags; usage errors are one line
with the nearest command, flag or choice; messages name the preset typed and carry no Python
syntax (issue 22 must-have 5, issue 23 must-haves 6 and 7)."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from anascore.cli.main import build_parser, main
from anascore.config.options import Options
from anascore.core.errors import shorten

ROOT = Path(__file__).resolve().parents[2]
KEY = str(ROOT / "examples" / "key.conll")
RESPONSE = str(ROOT / "examples" / "response.conll")
ZERO_KEY = str(ROOT / "tests" / "fixtures" / "corefud" / "zero_key.conllu")
ZERO_RESPONSE = str(ROOT / "tests" / "fixtures" / "corefud" / "zero_response.conllu")


def _setting_flags(command: str) -> dict[str, tuple[str, ...]]:
    """Every flag of ``command`` that sets an :class:`Options` field (or the preset), by the
    setting it sets."""
    parser = build_parser()
    subparser = parser._subparsers._group_actions[0].choices[command]  # type: ignore[union-attr]
    wanted = {*Options.__dataclass_fields__, "preset"}
    flags: dict[str, tuple[str, ...]] = {}
    for action in subparser._actions:
        if action.dest in wanted and action.option_strings:
            flags[action.dest] = (*flags.get(action.dest, ()), *action.option_strings,
                                  repr(action.choices), repr(action.nargs))
    return flags


def test_score_errors_and_report_take_the_same_settings_flags() -> None:
    score = _setting_flags("score")
    assert _setting_flags("errors") == score
    assert _setting_flags("report") == score
    # Every setting but the Python-only mention type function has its flag.
    assert set(score) == {*Options.__dataclass_fields__, "preset"} - {"mention_type_function"}


def test_every_field_of_options_has_one_row_in_the_settings_table() -> None:
    from anascore.config.settings import FIELDS

    assert sorted(FIELDS) == sorted(Options.__dataclass_fields__)
    assert len(FIELDS) == len(set(FIELDS))


def test_the_report_takes_a_preset_and_its_page_names_it(tmp_path: Path, capsys) -> None:
    out = tmp_path / "page.html"
    assert main(["report", ZERO_KEY, ZERO_RESPONSE, "-o", str(out), "--preset", "crac24",
                 "--quiet"]) == 0
    page = out.read_text(encoding="utf-8")
    assert "preset:crac24/crac25|match:head|singletons:remove" in page
    # in the header, as score prints it, whether or not matplotlib draws the plot
    assert "signature: <code>preset:crac24/crac25|match:head|singletons:remove|" in page


@pytest.mark.parametrize(("arguments", "line"), [
    # the path quoted as every message quotes a value (cut short past 40 characters), and
    # whole in the command to type
    ([KEY, RESPONSE], f"anascore: error: {shorten(KEY)!r} is not a command; to score files: "
                      f"anascore score {shlex.quote(KEY)} RESPONSE"),
    (["scor", KEY, RESPONSE], "anascore: error: unknown command 'scor'; did you mean score?"),
    (["score", KEY, RESPONSE, "--format", "conll"],
     "anascore score: error: argument --format: invalid choice 'conll'; did you mean "
     "conll2012?"),
    (["score", KEY, RESPONSE, "--metrics", "mcu"],
     "anascore score: error: argument --metrics: unknown metric mcu (did you mean muc?)"),
    (["score", KEY, RESPONSE, "--preset", "crac2024"],
     "anascore score: error: argument --preset: invalid choice 'crac2024'; did you mean "
     "crac24?"),
    (["score", KEY, RESPONSE, "--metrcs", "muc"],
     "anascore score: error: unrecognized arguments: --metrcs muc; --metrcs: did you mean "
     "--metrics?"),
    (["errors", KEY, RESPONSE, "--format", "conll"],
     "anascore errors: error: argument --format: invalid choice 'conll'; did you mean "
     "conll2012?"),
    # the start of a flag is not taken for it (argparse's default): refused, naming the flags
    # it starts
    (["score", KEY, RESPONSE, "--metric", "muc"],
     "anascore score: error: unrecognized arguments: --metric muc; --metric: did you mean "
     "--metrics? (a flag is spelt whole)"),
    (["score", KEY, RESPONSE, "--conf", "100"],
     "anascore score: error: unrecognized arguments: --conf 100; --conf: did you mean "
     "--confidence or --confidence-level? (a flag is spelt whole)"),
    (["errors", KEY, RESPONSE, "--out=json"],
     "anascore errors: error: unrecognized arguments: --out=json; --out: did you mean "
     "--output? (a flag is spelt whole)"),
    # the start of a required flag: named as such, not as the flag missing
    (["convert", KEY, "out.jsonl", "--t", "ua"],
     "anascore convert: error: unrecognized arguments: --t; --t: did you mean --to? (a "
     "flag is spelt whole)"),
    (["convert", KEY, "out.jsonl", "--t=ua", "--", "-x"],
     "anascore convert: error: unrecognized arguments: --t=ua; --t: did you mean --to? (a "
     "flag is spelt whole)"),
    (["report", KEY, RESPONSE, "--out", "x.html"],
     "anascore report: error: unrecognized arguments: --out; --out: did you mean --output? "
     "(a flag is spelt whole)"),
    (["convert", KEY, "out.jsonl"],
     "anascore convert: error: the following arguments are required: --to"),
])
def test_a_usage_error_is_one_line_with_the_nearest_choice(arguments, line, capsys) -> None:
    with pytest.raises(SystemExit) as caught:
        main(arguments)
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1, err
    assert err.startswith(line), err


def test_unknown_arguments_are_named_short(capsys) -> None:
    # A 5,000-digit flag and 3,000 stray words were echoed whole: a 5 kB usage line.
    long_flag = "--" + "9" * 5000
    with pytest.raises(SystemExit) as caught:
        main(["score", KEY, RESPONSE, long_flag])
    assert caught.value.code == 2
    assert capsys.readouterr().err == (
        f"anascore score: error: unrecognized arguments: {long_flag[:40]}…\n")
    with pytest.raises(SystemExit):
        main(["convert", KEY, "out.jsonl", "--t", *["x"] * 3000])
    assert capsys.readouterr().err == (
        "anascore convert: error: unrecognized arguments: --t; --t: did you mean --to? (a flag "
        "is spelt whole)\n")
    with pytest.raises(SystemExit):
        main(["score", KEY, RESPONSE, "--metric", "muc", *["x"] * 3000])
    assert capsys.readouterr().err == (
        "anascore score: error: unrecognized arguments: --metric muc x x x (and 2997 more); "
        "--metric: did you mean --metrics? (a flag is spelt whole)\n")


def test_a_setting_a_command_does_not_read_is_refused_naming_its_flag(tmp_path, capsys):
    with pytest.raises(SystemExit) as caught:
        main(["errors", KEY, RESPONSE, "--confidence", "10"])
    assert caught.value.code == 2
    assert capsys.readouterr().err == (
        "anascore: error: --confidence: anascore errors does not read it (the error analysis "
        "counts each document once); score with anascore score\n")
    with pytest.raises(SystemExit):
        main(["report", KEY, RESPONSE, "-o", str(tmp_path / "x.html"), "--level", "topic"])
    assert "--level: anascore report does not read it" in capsys.readouterr().err
    assert not (tmp_path / "x.html").exists()


def test_messages_name_the_preset_typed(capsys) -> None:
    # A setting the preset implies is named with the preset, not as if the user had typed it.
    with pytest.raises(SystemExit) as caught:
        main(["errors", KEY, RESPONSE, "--preset", "codicrac21"])
    assert caught.value.code == 2
    assert capsys.readouterr().err == (
        "anascore: error: anascore errors: --preset codicrac21 sets --keep-split-antecedents, "
        "and split-antecedent plurals are not classified yet; score this preset with anascore "
        "score, or give the preset's other settings by hand\n")
    with pytest.raises(SystemExit):
        main(["score", KEY, RESPONSE, "--preset", "codicrac21", "--window", "10"])
    assert ("leave out --keep-split-antecedents (set by --preset codicrac21), or score whole "
            "documents") in capsys.readouterr().err
    assert main(["score", KEY, RESPONSE, "--preset", "crac24"]) == 1
    assert ("--match head (set by --preset crac24) needs mention heads"
            in capsys.readouterr().err)


def test_messages_carry_no_python_syntax(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["errors", KEY, RESPONSE, "--compat", "ua"])
    err = capsys.readouterr().err
    assert err == ("anascore: error: anascore errors: the UA scorer's conventions are not "
                   "followed by the error analysis; drop --compat, and score that part with "
                   "anascore score\n")
    from anascore.cli.common import for_command_line

    assert for_command_line(
        "give each markable a head through the dependency HEAD column (or a one-token Min; "
        "from Python, read the file with token_columns=True)") == (
        "give each markable a head through the dependency HEAD column (or a one-token Min)")
    assert for_command_line("use --drop-unsupported (drop_unsupported=True) to drop them") == (
        "use --drop-unsupported to drop them")


def test_a_repeated_metrics_flag_joins_its_lists(capsys) -> None:
    assert main(["score", KEY, RESPONSE, "--metrics", "muc", "--metrics", "bcub,muc",
                 "--output", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["options"]["metrics"] == ["muc", "bcub"]
    assert "given again, the lists are joined" in " ".join(
        subprocess.run([sys.executable, "-m", "anascore", "score", "--help"],
                       capture_output=True, text=True, check=True).stdout.split())


def test_score_help_is_grouped_by_section() -> None:
    text = subprocess.run([sys.executable, "-m", "anascore", "score", "--help"],
                          capture_output=True, text=True, check=True).stdout
    titles = [line for line in text.splitlines() if line and not line.startswith(" ")
              and line.endswith(":")]
    assert titles == ["positional arguments:", "options:", "input:", "what is scored:",
                      "mention matching:", "scoring unit:", "linguistically aware metrics:",
                      "confidence and significance:", "output:"]
    section = text[text.index("\nmention matching:"):text.index("\nscoring unit:")]
    assert "--match" in section and "--zero-match" in section and "--compat" in section


def test_a_file_given_as_the_command_is_named_whole_in_the_command_to_type(tmp_path,
                                                                           capsys) -> None:
    """A long path is cut short where it is quoted, never in the command the message tells
    the user to type (it must work when copied); a path with a space is quoted for the
    shell."""
    folder = tmp_path / ("a folder with a long name, " * 3).strip(", ")
    folder.mkdir()
    key = folder / "key.conll"
    key.write_text("#begin document d\nd 0 0 w -\n#end document\n", encoding="utf-8")
    with pytest.raises(SystemExit) as caught:
        main([str(key), str(key)])
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert err == (f"anascore: error: {shorten(str(key))!r} is not a command; to score files: "
                   f"anascore score '{key}' RESPONSE\n")
    assert "…" in err.split(";")[0] and len(str(key)) > 40
