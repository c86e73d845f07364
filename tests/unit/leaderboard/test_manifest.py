"""A task manifest is untrusted input: its names are names, not paths (``evaluate --reports``
writes nothing outside its folder), its path templates are substituted literally (no
``str.format``), and every malformed value is one line naming the manifest, not a traceback,
a 10 GB string or a run that never ends."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from anascore.cli.main import main
from anascore.core.errors import OptionsError
from anascore.leaderboard import read_task
from tests.support.paths import EXAMPLES

KEY, RESPONSE = EXAMPLES / "key.conll", EXAMPLES / "response.conll"


def write_task(folder: Path, *, dataset: str = '"conll"', system: str = '"s"',
               responses: str = '"response.{dataset}"', top: str = "resamples = 0\n") -> Path:
    for path in (KEY, RESPONSE):
        (folder / path.name).write_bytes(path.read_bytes())
    path = folder / "task.toml"
    path.write_text(f'{top}[[datasets]]\nname = {dataset}\nkey = "key.conll"\n'
                    f"[[systems]]\nname = {system}\nresponses = {responses}\n")
    return path


def refused(path: Path) -> str:
    with pytest.raises(OptionsError) as caught:
        read_task(path)
    assert caught.value.path == str(path)
    return caught.value.message


@pytest.mark.parametrize("kind", ["dataset", "system"])
@pytest.mark.parametrize("name, why", [
    ('"../escaped"', "a path separator ('/')"),
    ('"a/b"', "a path separator"),
    ('"/tmp/absolute"', "a path separator"),
    ('"a\\\\b"', "a path separator"),
    ('".hidden"', "starts with '.'"),
    ('".."', "starts with '.'"),
    ('"x\\u0000y"', "a control character"),
    ('"x\\u001b[31my"', "a control character"),
])
def test_a_name_that_is_a_path_is_refused(tmp_path, kind, name, why):
    path = write_task(tmp_path, **{kind: name})
    if kind == "dataset":  # the system's template names the dataset's file
        path.write_text(path.read_text().replace('"response.{dataset}"', '"response.conll"'))
    message = refused(path)
    assert message.startswith(f"[[{kind}s]] 1: name ") and why in message, message
    assert "names a file in evaluate --reports DIR" in message
    assert "\x1b" not in message and "\x00" not in message


def test_evaluate_reports_writes_nothing_outside_its_folder(tmp_path, capsys):
    # Before: the reports of system '../../escaped' went to tmp_path/escaped/conll.json.
    work = tmp_path / "a" / "b"
    work.mkdir(parents=True)
    task = write_task(work, system='"../../escaped"')
    reports = work / "reports"
    assert main(["evaluate", str(task), "--reports", str(reports)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"anascore: error: {task}: [[systems]] 1: name '../../escaped'")
    assert not (tmp_path / "escaped").exists() and not reports.exists()


def test_a_name_with_dots_inside_is_a_name(tmp_path, capsys):
    task = write_task(tmp_path, dataset='"gum.v1..2"', system='"ours-1.0"',
                      responses='"response.conll"')
    reports = tmp_path / "reports"
    assert main(["evaluate", str(task), "--reports", str(reports)]) == 0
    assert os.listdir(reports / "ours-1.0") == ["gum.v1..2.json"]
    capsys.readouterr()


@pytest.mark.parametrize("template", [
    "response.{dataset:>10000000000}",  # str.format built a 10 GB string
    "response.{dataset.x}",  # AttributeError
    "response.{dataset[x]}",  # TypeError
    "response.{0}", "response.{}", "{{dataset}}", "response.{dataset}}",
    "response.{data}",
])
def test_only_dataset_is_substituted_and_any_other_brace_is_refused(tmp_path, template):
    message = refused(write_task(tmp_path, responses=f"'{template}'"))
    assert message == (f"system 's': the path template {template!r} has a brace that is "
                       "not {dataset}; only {dataset} is replaced (name a file with braces "
                       "in a table: { dataset = \"path\" })")


def test_dataset_is_substituted_literally_every_time(tmp_path):
    path = write_task(tmp_path, dataset='"con"', responses="'response.{dataset}ll.{dataset}'")
    [system] = read_task(path).systems
    assert system.runs[0]["con"] == tmp_path / "response.conll.con"


@pytest.mark.parametrize("entry, where", [
    ('responses = "response\\u0000.conll"', "system 's': the path"),
    ('responses = { conll = "response\\u0000.conll" }', "system 's': conll: the path"),
])
def test_a_nul_in_a_path_is_one_line(tmp_path, entry, where):
    path = write_task(tmp_path, responses=entry.split(" = ", 1)[1])
    message = refused(path)
    assert message.startswith(where) and "NUL character" in message, message


def test_a_nul_in_the_key_path_is_one_line(tmp_path):
    path = write_task(tmp_path)
    path.write_text(path.read_text().replace('"key.conll"', '"key\\u0000.conll"'))
    assert refused(path) == ("dataset 'conll': key: the path 'key\\x00.conll' contains a NUL "
                             "character; expected a file's path")


def test_deeply_nested_toml_is_one_line(tmp_path):
    path = tmp_path / "task.toml"
    path.write_text("x = " + "[" * 100_000 + "]" * 100_000 + "\n")
    assert refused(path) == "not TOML: nested too deeply"


def test_resamples_are_capped_as_on_the_command_line(tmp_path):
    # Before: resamples = 1000000000 ran for hours (or until memory ran out).
    path = write_task(tmp_path, top="resamples = 1000000000\n")
    message = refused(path)
    assert message.startswith("resamples = 1000000000: too many resamples (keeping 3 scores "
                              "of each resample would take 22.4 GiB); at most 4369066 here")
    ok = write_task(tmp_path, top="resamples = 4369066\n")
    assert read_task(ok).resamples == 4369066


def test_the_10_gb_template_is_refused_quickly_in_little_memory(tmp_path):
    path = write_task(tmp_path, responses="'response.{dataset:>10000000000}'")
    code = ("import resource, sys\n"
            "resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))\n"
            "from anascore.cli.main import main\n"
            f"sys.exit(main(['evaluate', {str(path)!r}]))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 1, done.stderr
    assert "has a brace that is not {dataset}" in done.stderr
    assert done.stderr.count("\n") == 1
