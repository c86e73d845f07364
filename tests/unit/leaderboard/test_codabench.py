"""``anascore codabench TASK OUT`` (issue 26, must-have 1): the generated scoring program, run
as Codabench's compute worker runs it (``input/ref``, ``input/res``, ``output``; the
``command`` of ``metadata.yaml`` with ``$program``, ``$input`` and ``$output`` replaced, in
the program's folder, with none of this checkout on ``PYTHONPATH``), writes the numbers
``anascore evaluate`` gives the same system, and refuses a bad submission in one line."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from anascore.cli.main import main
from anascore.leaderboard import evaluate
from tests.support.paths import ROOT

EXAMPLES = ROOT / "examples"
COREFUD = ROOT / "tests" / "fixtures" / "corefud"


@pytest.fixture
def task(tmp_path: Path) -> Path:
    """A CoNLL-2012 dataset (exact matching, singletons) and a CorefUD one (CRAC 2023:
    head matching, no singletons, zeros aligned by position), one system."""
    for folder in ("keys", "system"):
        (tmp_path / folder).mkdir()
    shutil.copy(EXAMPLES / "key.conll", tmp_path / "keys" / "litbank.conll")
    shutil.copy(EXAMPLES / "response.conll", tmp_path / "system" / "litbank.conll")
    shutil.copy(COREFUD / "zero_key.conllu", tmp_path / "keys" / "gum.conllu")
    shutil.copy(COREFUD / "zero_response.conllu", tmp_path / "system" / "gum.conllu")
    manifest = tmp_path / "task.toml"
    manifest.write_text(
        'name = "Two corpora"\nmetric = "conll"\nresamples = 0\n'
        '[[datasets]]\nname = "litbank"\nkey = "keys/litbank.conll"\n'
        '[[datasets]]\nname = "gum"\nkey = "keys/gum.conllu"\n'
        'settings = { preset = "crac23" }\n'
        '[[systems]]\nname = "system"\n'
        'responses = { litbank = "system/litbank.conll", gum = "system/gum.conllu" }\n')
    return manifest


def codabench_layout(bundle: Path, place: Path, submission: dict[str, Path]) -> Path:
    """``place/input/ref`` (the reference data), ``place/input/res`` (the submission's files
    under the names given) and an empty ``place/output``, as the compute worker lays them
    out."""
    shutil.copytree(bundle / "reference_data", place / "input" / "ref")
    (place / "input" / "res").mkdir()
    for name, source in submission.items():
        target = place / "input" / "res" / name
        if source.is_dir():
            shutil.copytree(source, target)
        else:
            shutil.copy(source, target)
    (place / "output").mkdir()
    return place


def run_command(bundle: Path, place: Path) -> subprocess.CompletedProcess[str]:
    """The ``command`` of ``metadata.yaml``, as the compute worker runs it (this Python
    stands for the image's ``python3``); PYTHONPATH names nothing of this checkout."""
    program = bundle / "scoring_program"
    [line] = [line for line in (program / "metadata.yaml").read_text().splitlines()
              if line.startswith("command:")]
    command = line.removeprefix("command:").strip()
    for variable, folder in (("$program", program), ("$input", place / "input"),
                             ("$output", place / "output")):
        command = command.replace(variable, str(folder))
    words = command.split()
    assert words[0] == "python3"
    environment = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}
    return subprocess.run([sys.executable, *words[1:]], cwd=program, env=environment,
                          capture_output=True, text=True, timeout=300)


def generate(task: Path, out: Path) -> Path:
    assert main(["codabench", str(task), str(out), "--quiet"]) == 0
    return out


def test_the_program_gives_what_evaluate_gives(task, tmp_path):
    bundle = generate(task, tmp_path / "bundle")
    assert sorted(path.name for path in (bundle / "reference_data").iterdir()) == [
        "gum.conllu", "litbank.conll"]
    # The submission's files: any extension (or none), named after the datasets.
    place = codabench_layout(bundle, tmp_path / "app", {
        "litbank.txt": tmp_path / "system" / "litbank.conll",
        "gum.conllu": tmp_path / "system" / "gum.conllu"})
    done = run_command(bundle, place)
    assert done.returncode == 0, done.stderr
    scores = json.loads((place / "output" / "scores.json").read_text())
    [standing] = evaluate(task).standings
    assert scores == {"conll": standing.score, "litbank": standing.datasets["litbank"],
                      "gum": standing.datasets["gum"]}
    # The numbers themselves: anascore score of each dataset, and their mean.
    litbank = standing.datasets["litbank"]
    assert round(100 * litbank, 2) == 85.93  # the README's CoNLL of examples/
    assert scores["conll"] == pytest.approx((scores["litbank"] + scores["gum"]) / 2, abs=1e-12)
    # The keys' hashes, recorded per dataset, are those of the organisers' files.
    recorded = json.loads((place / "output" / "anascore.json").read_text())
    digests = {entry["name"]: entry["key_sha256"] for entry in recorded["datasets"]}
    assert digests == {name: hashlib.sha256((tmp_path / "keys" / file).read_bytes()).hexdigest()
                       for name, file in (("litbank", "litbank.conll"), ("gum", "gum.conllu"))}
    page = (place / "output" / "detailed_results.html").read_text(encoding="utf-8")
    assert page.count("<iframe") == 2
    # Each page's title names the system and the dataset's key (issue 23 #8).
    for key in ("litbank.conll", "gum.conllu"):
        assert re.search(rf"anascore report: submission against [^&<]*/{re.escape(key)}", page)
    assert f"<code>{digests['gum'][:8]}</code>" in page
    assert "preset:crac23|match:head" in page
    # The program imports the anascore bundled beside score.py, not an installed one.
    program = bundle / "scoring_program"
    found = subprocess.run(
        [sys.executable, "-c", "import sys; sys.path.insert(0, sys.argv[1]); import anascore; "
         "print(anascore.__file__)", str(program)], capture_output=True, text=True,
        check=True, env={name: value for name, value in os.environ.items()
                         if name != "PYTHONPATH"})
    assert Path(found.stdout.strip()).parent == program / "anascore"


def test_a_submission_zipped_as_one_folder(task, tmp_path):
    """A zip of a folder unpacks as that folder: its files are looked for inside it, and
    macOS's litter beside it is no dataset."""
    answers = tmp_path / "my-run"
    answers.mkdir()
    shutil.copy(tmp_path / "system" / "litbank.conll", answers / "litbank.conll")
    shutil.copy(tmp_path / "system" / "gum.conllu", answers / "gum")
    bundle = generate(task, tmp_path / "bundle")
    place = codabench_layout(bundle, tmp_path / "app", {"my-run": answers})
    (place / "input" / "res" / "__MACOSX").mkdir()
    (place / "input" / "res" / "my-run" / ".DS_Store").write_bytes(b"\0")
    done = run_command(bundle, place)
    assert done.returncode == 0, done.stderr
    [standing] = evaluate(task).standings
    assert json.loads((place / "output" / "scores.json").read_text())["conll"] == (
        standing.score)


@pytest.mark.parametrize(("files", "message"), [
    ({"litbank.conll": "litbank.conll"},
     "the submission has no file for dataset 'gum'; expected a file NAME.EXT or a folder "
     "NAME/ for each of litbank, gum (found 'litbank.conll')"),
    ({"litbank.conll": "litbank.conll", "gum.conllu": "gum.conllu",
      "ontonotes.conll": "litbank.conll"},
     "the submission's file 'ontonotes.conll' names no dataset; expected a file NAME.EXT or "
     "a folder NAME/ for each of litbank, gum"),
    ({"litbank.conll": "litbank.conll", "litbank.txt": "litbank.conll",
      "gum.conllu": "gum.conllu"},
     "the submission has two entries for dataset 'litbank': 'litbank.conll' and "
     "'litbank.txt'; expected one"),
    ({"litbank.conll": "litbank.conll", "gum.conllu": None},
     "res/gum.conllu: empty file; expected annotated documents"),
    ({"litbank": "litbank-folder", "gum.conllu": "gum.conllu"},
     "is a file, but a response is a folder or pattern"),
])
def test_a_bad_submission_fails_in_one_line(task, tmp_path, files, message):
    bundle = generate(task, tmp_path / "bundle")
    empty = tmp_path / "empty"
    empty.write_bytes(b"")
    (tmp_path / "system" / "litbank-folder").mkdir()
    shutil.copy(EXAMPLES / "response.conll", tmp_path / "system" / "litbank-folder")
    place = codabench_layout(bundle, tmp_path / "app", {
        name: empty if source is None else tmp_path / "system" / source
        for name, source in files.items()})
    done = run_command(bundle, place)
    assert done.returncode == 1
    [line] = done.stderr.splitlines()
    assert line.startswith("anascore: error: ") and message in line
    assert "Traceback" not in done.stderr
    assert list((place / "output").iterdir()) == []


def test_a_folder_key_takes_a_folder_per_dataset(task, tmp_path):
    """A dataset whose key is a folder of files: the reference data holds the folder, and
    the submission gives a folder of the same files."""
    keys = tmp_path / "litbank-keys"
    keys.mkdir()
    shutil.copy(EXAMPLES / "key.conll", keys / "part1.conll")
    answers = tmp_path / "answers" / "litbank"
    answers.mkdir(parents=True)
    shutil.copy(EXAMPLES / "response.conll", answers / "part1.conll")
    text = task.read_text().replace('key = "keys/litbank.conll"', 'key = "litbank-keys"')
    text = text.replace('litbank = "system/litbank.conll"', 'litbank = "answers/litbank"')
    task.write_text(text)
    bundle = generate(task, tmp_path / "bundle")
    assert (bundle / "reference_data" / "litbank" / "part1.conll").is_file()
    place = codabench_layout(bundle, tmp_path / "app", {
        "litbank": answers, "gum.conllu": tmp_path / "system" / "gum.conllu"})
    done = run_command(bundle, place)
    assert done.returncode == 0, done.stderr
    [standing] = evaluate(task).standings
    scores = json.loads((place / "output" / "scores.json").read_text())
    assert scores["litbank"] == standing.datasets["litbank"]
    assert scores["conll"] == standing.score


@pytest.mark.parametrize(("name", "message"), [
    # refused by the manifest itself, as for evaluate --reports
    ("../evil", "[[datasets]] 2: name '../evil' has a path separator ('/')"),
    ("a/b", "[[datasets]] 2: name 'a/b' has a path separator ('/')"),
    (".hidden", "[[datasets]] 2: name '.hidden' starts with '.'"),
    # refused for Codabench alone: a leaderboard column key
    ("two words", "dataset 'two words': a Codabench dataset's name is a file name"),
    ("conll", "dataset 'conll' is named as the primary metric"),
])
def test_dataset_names_must_be_file_names(task, tmp_path, capsys, name, message):
    task.write_text(task.read_text().replace('name = "gum"', f'name = "{name}"')
                    .replace("gum = ", f'"{name}" = '))
    assert main(["codabench", str(task), str(tmp_path / "bundle")]) == 1
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith(f"anascore: error: {task}: {message}")
    assert not (tmp_path / "bundle").exists()


def test_the_bundle_is_not_written_over(task, tmp_path, capsys):
    (tmp_path / "bundle").mkdir()
    (tmp_path / "bundle" / "mine.txt").write_text("keep")
    assert main(["codabench", str(task), str(tmp_path / "bundle")]) == 1
    assert capsys.readouterr().err.splitlines() == [
        f"anascore: error: {tmp_path / 'bundle'}: exists; expected a new (or empty) folder "
        "to write the bundle in"]
    assert [path.name for path in (tmp_path / "bundle").iterdir()] == ["mine.txt"]
    # A manifest without systems is a task for the program.
    text = task.read_text()
    task.write_text(text[:text.index("[[systems]]")])
    assert main(["codabench", str(task), str(tmp_path / "new"), "--quiet"]) == 0
    leaderboard = (tmp_path / "new" / "leaderboard.yaml").read_text()
    assert [line.strip() for line in leaderboard.splitlines() if "key:" in line] == [
        "key: main", 'key: "conll"', 'key: "litbank"', 'key: "gum"']


def test_relative_folders_and_names_that_are_not_one_line(task, tmp_path, monkeypatch, capsys):
    """The program's folders may be given relative to where it runs; a file name from the
    participant's zip holding a line break stays in the one line of the error."""
    from anascore.leaderboard.codabench import run_program

    bundle = generate(task, tmp_path / "bundle")
    place = codabench_layout(bundle, tmp_path / "app", {
        "litbank.conll": tmp_path / "system" / "litbank.conll",
        "gum.conllu": tmp_path / "system" / "gum.conllu"})
    monkeypatch.chdir(tmp_path)
    program = str(bundle / "scoring_program" / "task.json")
    assert run_program(program, ["app/input", "app/output"]) == 0
    [standing] = evaluate(task).standings
    assert json.loads((place / "output" / "scores.json").read_text())["conll"] == (
        standing.score)
    (place / "input" / "res" / "x\nanascore: error: forged").write_text("")
    assert run_program(program, ["app/input", "app/output"]) == 1
    [line] = capsys.readouterr().err.splitlines()
    assert line.endswith("res/x\\nanascore: error: forged: the submission's file "
                         "'x\\nanascore: error: forged' names no dataset; expected a file "
                         "NAME.EXT or a folder NAME/ for each of litbank, gum")
