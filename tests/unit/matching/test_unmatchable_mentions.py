"""Issue 23 (2): one response mention that cannot be matched does not stop a run, and one
bad submission does not stop a leaderboard.

Under ``--match head`` (every CRAC preset from 2023) a response mention whose head is unknown
(its file gives none and its words have no dependency tree to work it out of, as a mention
covering only empty nodes) is an unmatched response mention, counted in the response's
mentions and named in one warning; a key mention without a head stays an error (the key is
the standard). The CorefUD scorer (Udapi, /tmp/ref/corefud-scorer at 4fd7b0e,
``scorer/corefud/reader.py``) heads such a mention by its first word and matches it with that
head: in the files below its first word "The" is not the key mention's head "man", so it
matches nothing there either (its mention recall 75.00, measured), and ``--compat ua`` (which
heads it by its first word, as the CorefUD scorer does) gives the same numbers.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import anascore
from anascore.cli.main import main
from anascore.core.errors import OptionsError

KEY = ("# newdoc id = d\n# global.Entity = eid-etype-head-other\n# sent_id = d-1\n"
       "# text = The man slept . He woke\n"
       "1\tThe\tthe\tDET\t_\t_\t2\tdet\t_\tEntity=(e7-person-2-\n"
       "2\tman\tman\tNOUN\t_\t_\t3\tnsubj\t_\tEntity=e7)\n"
       "3\tslept\tsleep\tVERB\t_\t_\t0\troot\t_\tEntity=(e8-event-1-)\n"
       "4\t.\t.\tPUNCT\t_\t_\t3\tpunct\t_\t_\n"
       "5\tHe\the\tPRON\t_\t_\t6\tnsubj\t_\tEntity=(e7-person-1-)\n"
       "6\twoke\twake\tVERB\t_\t_\t3\tparataxis\t_\tEntity=(e8-event-1-)\n\n")
# "The man" without a head index, and its two words without a governor: no head to find.
HEADLESS = (KEY.replace("(e7-person-2-\n", "(e7-person\n")
            .replace("1\tThe\tthe\tDET\t_\t_\t2", "1\tThe\tthe\tDET\t_\t_\t0")
            .replace("2\tman\tman\tNOUN\t_\t_\t3", "2\tman\tman\tNOUN\t_\t_\t0"))


def _files(tmp_path: Path) -> tuple[Path, Path]:
    key, response = tmp_path / "key.conllu", tmp_path / "response.conllu"
    key.write_text(KEY, encoding="utf-8")
    response.write_text(HEADLESS, encoding="utf-8")
    return key, response


def test_a_response_mention_without_a_head_is_unmatched_and_named(tmp_path: Path) -> None:
    key, response = _files(tmp_path)
    report = anascore.score(key, response, match="head")
    # 4 key mentions, 4 response mentions, 3 matched ("The man" unmatched); the CorefUD
    # scorer gives MUC 50.00, B3 62.50, CEAFe 75.00, mentions 75.00 on these files
    assert report.metrics["mentions"].recall == report.metrics["mentions"].precision == 0.75
    assert round(report.metrics["muc"].f1, 4) == 0.5
    assert round(report.metrics["bcub"].f1, 4) == 0.625
    assert round(report.metrics["ceafe"].f1, 4) == 0.75
    warnings = [warning for warning in report.warnings if "no head" in warning]
    assert warnings == [
        f"{response}: document 'd': 1 response mention has no head (first: line 5), so "
        "under --match head it matches no key mention and counts as an unmatched response "
        "mention; --compat ua heads a mention by its first word, as the CorefUD scorer does"]
    # --compat ua heads it by "The", which is not the key's head: the same numbers
    ua = anascore.score(key, response, match="head", compat="ua")
    assert ua.metrics["mentions"].recall == 0.75
    assert not [warning for warning in ua.warnings if "no head" in warning]


def test_a_key_mention_without_a_head_stays_an_error_naming_compat_ua(tmp_path: Path) -> None:
    key, response = _files(tmp_path)
    with pytest.raises(OptionsError) as error:
        anascore.score(response, key, match="head")
    assert (error.value.path, error.value.line) == (str(response), 1)
    assert error.value.message.endswith(
        "or --compat ua (the CorefUD scorer's heads: a mention's first word)")
    assert "--match exact" not in error.value.message


def test_the_cli_scores_the_crac_preset_and_warns_once(tmp_path: Path, capsys) -> None:
    key, response = _files(tmp_path)
    assert main(["score", str(key), str(response), "--preset", "crac24"]) == 0
    captured = capsys.readouterr()
    assert captured.err.count("no head") == 1 and "line 5" in captured.err
    assert "MUC" in captured.out


def _task(tmp_path: Path) -> Path:
    """Two datasets; systems 'good' (the key), 'half' (one mention off) and 'broken', whose
    file on dataset 'b' has a bracket never closed."""
    key = ("#begin document (d); part 000\nd\t0\t0\tAnna\t(1)\nd\t0\t1\tsaw\t-\n"
           "d\t0\t2\ther\t(1)\nd\t0\t3\tdog\t(2)\nd\t0\t4\tit\t(2)\n\n#end document\n")
    half = key.replace("it\t(2)", "it\t-")
    for dataset in ("a", "b"):
        (tmp_path / f"{dataset}.key").write_text(key, encoding="utf-8")
        (tmp_path / f"good.{dataset}").write_text(key, encoding="utf-8")
        (tmp_path / f"half.{dataset}").write_text(half, encoding="utf-8")
        (tmp_path / f"broken.{dataset}").write_text(
            key.replace("her\t(1)", "her\t(1") if dataset == "b" else key, encoding="utf-8")
    lines = ["resamples = 0"]
    lines += [f'[[datasets]]\nname = "{name}"\nkey = "{name}.key"' for name in ("a", "b")]
    lines += [f'[[systems]]\nname = "{name}"\nresponses = "{name}.{{dataset}}"'
              for name in ("broken", "good", "half")]
    path = tmp_path / "task.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_failing_submission_is_n_a_and_the_others_are_ranked(tmp_path: Path) -> None:
    from anascore.leaderboard import evaluate
    from anascore.leaderboard.render import render_leaderboard

    board = evaluate(_task(tmp_path))
    assert [(standing.system, standing.rank) for standing in board.standings] == [
        ("good", 1), ("half", 2)]
    (failure,) = board.failures
    assert (failure.system, failure.run, failure.dataset) == ("broken", 0, "b")
    assert failure.reason.startswith(f"{tmp_path / 'broken.b'}:4: ")
    assert board.unranked == {"broken": {"a": 1.0, "b": None}}
    text = render_leaderboard(board, "text")
    assert "broken" in text and "n/a" in text
    data = board.to_dict()
    assert data["failures"] == [{"system": "broken", "run": 0, "dataset": "b",
                                 "reason": failure.reason}]
    assert [row["system"] for row in data["standings"]] == ["good", "half"]


def test_evaluate_prints_the_leaderboard_and_exits_1_when_a_cell_failed(tmp_path: Path,
                                                                        capsys) -> None:
    assert main(["evaluate", str(_task(tmp_path)), "--no-progress"]) == 1
    captured = capsys.readouterr()
    assert "good" in captured.out and "half" in captured.out
    (line,) = [line for line in captured.err.splitlines() if "broken" in line]
    assert line.startswith("anascore: system 'broken' on dataset 'b': n/a: ")
    assert "broken.b:4:" in line


def test_a_bad_key_still_stops_the_leaderboard(tmp_path: Path, capsys) -> None:
    task = _task(tmp_path)
    (tmp_path / "b.key").write_text("#begin document (d); part 000\nd\t0\t0\tA\t(1\n",
                                    encoding="utf-8")
    assert main(["evaluate", str(task), "--no-progress"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and "b.key" in captured.err
