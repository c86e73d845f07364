"""Inputs that are not plain files (issue 21, item 12): a gzip file is decompressed as a
stream within a bound, standard input too; a device that is not a pipe is refused; the
temporary copies are removed whatever ends the run (SIGTERM, SIGHUP, Ctrl-C); and ``errors``,
``report`` and ``score --group-by`` read gzip files and ``-`` exactly as ``score`` does."""

from __future__ import annotations

import gzip
import io
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from anascore.cli.main import main
from anascore.formats.io.sources import COPY_FLOOR, copy_limit
from tests.support.paths import EXAMPLES

KEY, RESPONSE = EXAMPLES / "key.conll", EXAMPLES / "response.conll"
KEY_SIZE = KEY.stat().st_size  # 20.3 KiB: every response bound is the 64 MiB floor
FLOOR_WORDS = f"a response may take at most max(64 MiB, 20 × the key's {KEY_SIZE / 1024:.3g} KiB)"


def run(*arguments: str, **kwargs) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "anascore", *arguments], text=True,
                          capture_output=True, timeout=300, **kwargs)


def one_line(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 1, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    return done.stderr


# --- the bounds -------------------------------------------------------------------------------

def test_the_bound_of_a_copy_follows_the_key():
    assert COPY_FLOOR == 64 * 2**20
    assert copy_limit(1000, None) == (COPY_FLOOR, "a response may take at most max(64 MiB, "
                                                  "20 × the key's 1000 bytes)")
    assert copy_limit(4 * 2**20, 12345)[0] == 80 * 2**20  # a response: 20 × the key
    assert copy_limit(None, 2**20) == (100 * 2**20, "a gzip key may expand to at most "
                                                    "max(64 MiB, 100 × its 1 MiB)")
    assert copy_limit(None, None) == (2**30, "a key from standard input or a pipe may take "
                                             "at most 1 GiB")


@pytest.fixture(scope="module")
def bomb(tmp_path_factory) -> Path:
    """1 MB of gzip that expands to a 500 MB CoNLL-2012 document (500 gzip members of the
    same 1 MiB of lines: a gzip file may hold several, read one after another)."""
    path = tmp_path_factory.mktemp("bomb") / "response.conll.gz"
    head = gzip.compress(b"#begin document (news/x); part 000\n")
    block = gzip.compress(b"news/x 0 0 w -\n" * ((1 << 20) // 15), 9)
    path.write_bytes(head + block * 500)
    assert path.stat().st_size < 1_100_000
    return path


#: Runs anascore and prints its exit status and peak memory. Linux hands a process forked
#: from a large one that one's peak as its own (the copied address space's high-water mark
#: at exec), so the run is started from this small interpreter, not from the test process
#: (which may hold torch, several hundred MB, once the optional extra's tests have run).
_MEASURE = """
import os, subprocess, sys
process = subprocess.Popen([sys.executable, "-m", "anascore", *sys.argv[1:]],
                           stdout=subprocess.DEVNULL)
_, status, usage = os.wait4(process.pid, 0)
print(os.waitstatus_to_exitcode(status), usage.ru_maxrss)
"""


def measured(arguments: list[str], environment: dict[str, str]) -> tuple[int, str, float]:
    """Exit status, stderr and peak memory (MB, resident) of an anascore run."""
    done = subprocess.run([sys.executable, "-c", _MEASURE, *arguments], capture_output=True,
                          env=environment, check=False)
    status, peak = done.stdout.decode().split()
    return int(status), done.stderr.decode(), int(peak) / 1024


@pytest.mark.parametrize("side", ["response", "key"])
def test_a_gzip_bomb_is_refused_in_little_memory_and_leaves_no_copy(tmp_path, bomb, side):
    # Before: the 500 MB copy was made whole, then read (1 GB of memory).
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    environment = {**os.environ, "TMPDIR": str(temporary)}
    files = [str(KEY), str(bomb)] if side == "response" else [str(bomb), str(RESPONSE)]
    status, err, peak = measured(["score", *files], environment)
    assert status == 1, err
    size = bomb.stat().st_size  # 1,042,555 bytes
    limit, why = (("64 MiB", FLOOR_WORDS) if side == "response" else
                  (f"{100 * size / 2**20:.3g} MiB", "a gzip key may expand to at most "
                   f"max(64 MiB, 100 × its {size / 2**10:.0f} KiB)"))
    assert err == f"anascore: error: {bomb}: expands to more than {limit}; {why}\n"
    assert peak < 250, peak  # MB: the interpreter, numpy and 1 MiB pieces
    assert os.listdir(temporary) == []


def test_standard_input_is_bounded_too(tmp_path):
    # Before: 'anascore score KEY - < /dev/zero' copied until the disk was full.
    with open("/dev/zero", "rb") as zeros:
        done = run("score", str(KEY), "-", stdin=zeros,
                   env={**os.environ, "TMPDIR": str(tmp_path)})
    assert one_line(done) == f"anascore: error: <stdin>: holds more than 64 MiB; {FLOOR_WORDS}\n"
    assert os.listdir(tmp_path) == []


# --- devices ----------------------------------------------------------------------------------

@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
@pytest.mark.parametrize("command", [
    ["score", str(KEY), "{device}"],
    ["score", "{device}", str(RESPONSE)],
    ["errors", str(KEY), "{device}"],
    ["report", str(KEY), "{device}", "-o", "{out}"],
    ["convert", "{device}", "{out}", "--to", "jsonlines"],
])
def test_a_device_is_refused_in_one_line(tmp_path, device, command):
    if not Path(device).exists():
        pytest.skip(f"no {device} here")
    arguments = [part.format(device=device, out=tmp_path / "out") for part in command]
    done = run(*arguments, env={**os.environ, "TMPDIR": str(tmp_path)})
    assert one_line(done) == (f"anascore: error: {device}: is a device, not a file; expected a "
                              "file, a pipe or '-' (standard input)\n")
    assert os.listdir(tmp_path) == []


# --- signals ----------------------------------------------------------------------------------

@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_a_signal_during_a_copy_removes_it(tmp_path, signum):
    # Before: SIGTERM while standard input (or a gzip file) was copied left the copy behind.
    environment = {**os.environ, "TMPDIR": str(tmp_path)}
    process = subprocess.Popen([sys.executable, "-m", "anascore", "score", str(KEY), "-"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=environment)
    assert process.stdin is not None
    process.stdin.write(b"#begin document (x); part 000\n" + b"x 0 0 w -\n" * 200_000)
    process.stdin.flush()
    deadline = time.monotonic() + 60
    copies: list[Path] = []
    while time.monotonic() < deadline and not any(path.stat().st_size for path in copies):
        time.sleep(0.05)
        copies = list(tmp_path.glob("anascore-*/*.input"))
    assert copies, "no copy of standard input appeared"
    process.send_signal(signum)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 128 + signum, err
    assert "Traceback" not in err.decode()
    assert os.listdir(tmp_path) == []


# --- errors, report and score --group-by read as score reads --------------------------------

def errors_json(capsys, *arguments: str) -> dict:
    assert main(["errors", *arguments, "--output", "json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.fixture
def packed(tmp_path) -> dict[str, Path]:
    paths = {}
    for path in (KEY, RESPONSE):
        paths[path.stem] = tmp_path / f"{path.name}.gz"
        paths[path.stem].write_bytes(gzip.compress(path.read_bytes()))
    return paths


def test_errors_reads_gzip_and_standard_input_as_score(capsys, monkeypatch, packed):
    # Before: 'binary file (a NUL byte)' for gzip, '-: no such file' for standard input.
    plain = errors_json(capsys, str(KEY), str(RESPONSE))
    assert plain["errors"]["conflated_entities"] == 2 and plain["errors"]["span_error"] == 1
    assert errors_json(capsys, str(packed["key"]), str(packed["response"])) == plain
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(RESPONSE.read_bytes())))
    assert errors_json(capsys, str(KEY), "-") == plain


def test_a_broken_gzip_response_to_errors_is_named_as_given(tmp_path, capsys):
    broken = tmp_path / "response.conll.gz"
    broken.write_bytes(gzip.compress(RESPONSE.read_bytes())[:300])
    assert main(["errors", str(KEY), str(broken)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"anascore: error: {broken}: not a whole gzip file")


def test_errors_reads_gzip_files_of_a_folder(tmp_path, capsys):
    keys, responses = tmp_path / "keys", tmp_path / "responses"
    keys.mkdir()
    responses.mkdir()
    (keys / "a.conll").write_bytes(KEY.read_bytes())
    (responses / "a.conll").write_bytes(gzip.compress(RESPONSE.read_bytes()))
    assert errors_json(capsys, str(keys), str(responses)) == errors_json(
        capsys, str(KEY), str(RESPONSE))


def test_report_reads_gzip_and_standard_input_as_score(tmp_path, capsys, monkeypatch, packed):
    pages = {}
    for name, key, response in (("plain", KEY, RESPONSE),
                                ("gzip", packed["key"], packed["response"]),
                                ("stdin", KEY, "-")):
        if response == "-":
            monkeypatch.setattr(sys, "stdin",
                                io.TextIOWrapper(io.BytesIO(RESPONSE.read_bytes())))
        output = tmp_path / f"{name}.html"
        assert main(["report", str(key), str(response), "-o", str(output), "--names", "sys",
                     "--quiet"]) == 0
        # The page's data: every document, score and error (the plot's SVG has random IDs).
        [data] = re.findall(r'<script id="data"[^>]*>(.*?)</script>', output.read_text(),
                            re.DOTALL)
        pages[name] = data.replace("key.conll.gz", "key.conll")
    capsys.readouterr()
    assert '"conflated_entities"' in pages["plain"] or "conflated" in pages["plain"]
    assert pages["gzip"] == pages["plain"] and pages["stdin"] == pages["plain"]


def test_group_by_mentions_reads_standard_input(capsys, monkeypatch):
    # Before: the plain score read standard input, and the groups found it empty: '-: no
    # such file'.
    assert main(["score", str(KEY), str(RESPONSE), "--group-by", "mention-type",
                 "--output", "json"]) == 0
    plain = json.loads(capsys.readouterr().out)["groups"]
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(RESPONSE.read_bytes())))
    assert main(["score", str(KEY), "-", "--group-by", "mention-type", "--output", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["groups"] == plain


# --- inputs read whole: a task manifest, a JSON report for plot ------------------------------

@pytest.mark.parametrize("command", [["evaluate", "/dev/zero"],
                                     ["plot", "/dev/zero", "-o", "{out}/plot.png"]])
def test_a_device_as_a_manifest_or_report_is_refused(tmp_path, command):
    # Before: both read /dev/zero until a MemoryError traceback.
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero here")
    done = run(*(part.format(out=tmp_path) for part in command))
    assert one_line(done) == ("anascore: error: /dev/zero: is a device, not a file; expected a "
                              "file, a pipe or '-' (standard input)\n")


def test_a_manifest_is_read_within_a_bound(tmp_path):
    from anascore.core.errors import FormatError
    from anascore.leaderboard import read_task

    path = tmp_path / "task.toml"
    with open(path, "w") as stream:  # 17 MiB of comments
        for _ in range(17):
            stream.write(("#" + "x" * 1023 + "\n") * 1024)
    with pytest.raises(FormatError) as caught:
        read_task(path)
    assert caught.value.location_message() == (f"{path}: holds more than 16 MiB; expected a "
                                               "TOML task manifest")
