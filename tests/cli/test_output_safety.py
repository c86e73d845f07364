"""No half-written file, no traceback: every output goes through anascore.formats.io.output, Ctrl-C
exits
130 quietly, an output that cannot be written is one line."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from anascore.cli.main import main
from tests.support.paths import EXAMPLES, FIXTURES

KEY, RESPONSE = EXAMPLES / "key.conll", EXAMPLES / "response.conll"


def one_error_line(capsys, arguments: list[str]) -> str:
    assert main(arguments) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("\n") == 1, err
    return err


@pytest.mark.parametrize("command", [
    ["convert", str(KEY), "{out}/missing/out.conllu", "--to", "corefud"],
    ["plot", "{report}", "-o", "{out}/missing/plot.png"],
    ["lab", "--plot", "{out}/missing/lab.png"],
])
def test_an_output_in_a_missing_folder_is_one_line(tmp_path, capsys, command):
    pytest.importorskip("matplotlib")
    report = tmp_path / "report.json"
    assert main(["score", str(KEY), str(RESPONSE), "--output", "json"]) == 0
    report.write_text(capsys.readouterr().out)
    arguments = [part.format(out=tmp_path, report=report) for part in command]
    err = one_error_line(capsys, arguments)
    assert f"{tmp_path}/missing" in err and "no folder" in err


def test_a_failed_conversion_leaves_the_old_output_as_it_was(tmp_path, capsys):
    # A CoNLL-2012 document whose mention CoNLL-2012 cannot hold fails while written.
    output = tmp_path / "out.conll"
    output.write_text("old\n")
    source = FIXTURES / "corefud" / "two_documents.conllu"
    assert main(["convert", str(source), str(output), "--to", "conll2012"]) == 1
    assert output.read_text() == "old\n"
    assert sorted(os.listdir(tmp_path)) == ["out.conll"]
    capsys.readouterr()


@pytest.mark.parametrize("link", ["symlink", "hardlink"])
def test_out_is_in_through_a_link_is_refused(tmp_path, capsys, link):
    source = tmp_path / "in.conll"
    source.write_bytes(KEY.read_bytes())
    alias = tmp_path / "alias.conll"
    (os.symlink if link == "symlink" else os.link)(source, alias)
    # OUT is IN is a usage error (exit status 2), named by the subcommand.
    with pytest.raises(SystemExit) as exit_:
        main(["convert", str(source), str(alias), "--to", "conll2012"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.splitlines()[-1] == (f"anascore convert: error: OUT is IN ({alias} is the file "
                                    f"{source}); write the output elsewhere")
    assert source.read_bytes() == KEY.read_bytes()


def test_convert_to_standard_output(capsys):
    assert main(["convert", str(KEY), "-", "--to", "jsonlines"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 5 and out.startswith('{"doc_key"')


def run(*arguments: str, **kwargs) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "anascore", *arguments], text=True,
                          capture_output=True, **kwargs)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_a_full_disk_on_stdout_is_one_line():
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "anascore", "score", str(KEY),
                               str(RESPONSE)], stdout=full, stderr=subprocess.PIPE, text=True)
    assert done.returncode == 1
    assert done.stderr == ("anascore: error: <stdout>: cannot write the output: No space left "
                           "on device\n")


@pytest.mark.parametrize("delay", [0.05, 0.15, 0.3])
def test_ctrl_c_at_any_moment_exits_130_without_a_traceback(delay):
    process = subprocess.Popen([sys.executable, "-m", "anascore", "lab"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(delay)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    if "Traceback" in err and not any("entry.py" in line and line.rstrip().endswith(" in run")
                                      for line in err.splitlines()
                                      if line.lstrip().startswith("File ")):
        # On a busy machine the signal can come while Python itself is still starting
        # (runpy importing the standard library, the small anascore package and entry.py's
        # own 'import signal', before anascore.cli.entry.run has set its handler): Python's
        # own KeyboardInterrupt, which no program can catch (entry.py says so). Not what this
        # test is about.
        return
    assert "Traceback" not in err and "Error" not in err, err
    # 130 once anascore runs; killed by the signal (-2, which shells report as 130 too) if it
    # came while Python was starting; a finished run (0) if it came after the work was done.
    assert process.returncode in (130, -signal.SIGINT, 0), (process.returncode, err)


def test_a_writer_failing_midway_leaves_the_old_file(tmp_path):
    # The second document's entity ID cannot be written in UA (an '@' separates brackets):
    # the first was already written when the writer stopped.
    from anascore.core.errors import AnascoreError
    from anascore.core.model import Document, Entity, Mention
    from anascore.formats.ua import write_ua

    good = Document("a", ("x", "y"), (Entity("1", (Mention.span(0, 0),)),))
    bad = Document("b", ("x", "y"), (Entity("Stardust@home", (Mention.span(0, 1),)),))
    output = tmp_path / "out.conllua"
    output.write_text("old\n")
    with pytest.raises(AnascoreError):
        write_ua([good, bad], output)
    assert output.read_text() == "old\n"
    assert sorted(os.listdir(tmp_path)) == ["out.conllua"]


@pytest.mark.parametrize("arguments", [
    ["convert", str(KEY), "-", "--to", "jsonlines"],
    ["score", str(KEY), str(RESPONSE), "--per-document"],
])
def test_a_reader_that_goes_away_ends_the_command_quietly(arguments):
    # 'anascore convert KEY - | head -1': score ended quietly, convert said 'cannot write:
    # Broken pipe' and exit status 1. The reader reads one line and closes the pipe.
    process = subprocess.Popen([sys.executable, "-m", "anascore", *arguments],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert process.stdout is not None and process.stderr is not None
    process.stdout.readline()
    process.stdout.close()
    err = process.stderr.read().decode()
    assert process.wait(timeout=60) == 0, err
    assert err == ""


# No command writes over one of its inputs (issue 21, item 8): 'report -o KEY' replaced the gold
# key with the HTML page; 'plot -o' its own report; 'evaluate --reports' a key or response.

def copied_inputs(folder: Path) -> tuple[Path, Path]:
    key, response = folder / "key.conll", folder / "response.conll"
    key.write_bytes(KEY.read_bytes())
    response.write_bytes(RESPONSE.read_bytes())
    return key, response


@pytest.mark.parametrize("link", ["same", "symlink", "hardlink"])
@pytest.mark.parametrize("victim", ["key", "response"])
def test_report_does_not_write_over_an_input(tmp_path, capsys, link, victim):
    key, response = copied_inputs(tmp_path)
    target = key if victim == "key" else response
    output = target
    if link != "same":
        output = tmp_path / "alias.html"
        (os.symlink if link == "symlink" else os.link)(target, output)
    with pytest.raises(SystemExit) as exit_:
        main(["report", str(key), str(response), "-o", str(output)])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.splitlines()[-1] == (f"anascore: error: -o FILE is an input ({output} is the "
                                    f"file {target}); write the output elsewhere")
    assert key.read_bytes() == KEY.read_bytes() and response.read_bytes() == RESPONSE.read_bytes()


def test_report_does_not_write_into_an_input_folder(tmp_path, capsys):
    keys, responses = tmp_path / "keys", tmp_path / "responses"
    keys.mkdir()
    responses.mkdir()
    copied_inputs(keys)
    (responses / "key.conll").write_bytes(RESPONSE.read_bytes())
    os.link(keys / "key.conll", tmp_path / "outside.html")
    for output in (keys / "key.conll", keys / "new.html", tmp_path / "outside.html"):
        with pytest.raises(SystemExit) as exit_:
            main(["report", str(keys), str(responses), "-o", str(output)])
        assert exit_.value.code == 2
        err = capsys.readouterr().err.splitlines()[-1]
        assert err.startswith(f"anascore: error: -o FILE is an input ({output} is ")
        assert str(keys) in err
    assert (keys / "key.conll").read_bytes() == KEY.read_bytes()
    assert not (keys / "new.html").exists()


def test_plot_does_not_write_over_its_report(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    assert main(["score", str(KEY), str(RESPONSE), "--output", "json"]) == 0
    report = tmp_path / "report.svg"  # a JSON report, whatever its name
    report.write_text(capsys.readouterr().out)
    before = report.read_bytes()
    with pytest.raises(SystemExit) as exit_:
        main(["plot", str(report), "-o", str(report)])
    assert exit_.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"anascore plot: error: -o FILE is an input ({report} is the file {report}); write "
        "the output elsewhere")
    assert report.read_bytes() == before


@pytest.mark.parametrize("victim", ["key", "response", "manifest"])
def test_evaluate_reports_do_not_write_over_an_input(tmp_path, capsys, victim):
    folder = tmp_path / "reports" / "s"
    folder.mkdir(parents=True)
    key, response = copied_inputs(folder)
    task = tmp_path / "task.toml"
    task.write_text('resamples = 0\n[[datasets]]\nname = "key"\nkey = "reports/s/key.conll"\n'
                    '[[systems]]\nname = "s"\nresponses = "reports/s/response.conll"\n')
    inputs = {"key": key, "response": response, "manifest": task}
    target = folder / "key.json"
    os.link(inputs[victim], target)  # DIR/s/key.json is that input
    before = inputs[victim].read_bytes()
    assert main(["evaluate", str(task), "--reports", str(tmp_path / "reports")]) == 1
    err = capsys.readouterr().err
    assert err == (f"anascore: error: {task}: --reports DIR would write over an input "
                   f"({target} is the file {inputs[victim]}); write the reports "
                   "elsewhere\n")
    assert inputs[victim].read_bytes() == before
