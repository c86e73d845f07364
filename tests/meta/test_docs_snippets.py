"""Every command and Python snippet of README.md and docs/*.md runs, and prints what the page
shows: a page that is false when tried fails here.

The rules, kept simple so that a writer knows what will run:

* A ```` ```console ```` block holds commands after ``$ `` and, below each, its output. The
  command must exit with status 0 and print (on standard output) exactly the lines shown,
  trailing spaces aside; a line ``...`` stands for any number of lines (the rest of a long
  table). A command without lines below it is only run.
* In a ```` ```sh ```` or ```` ```bash ```` block, every line starting with ``anascore `` (with
  its ``\\`` continuations) is run and must exit with status 0; other lines (``pip install``,
  ``python -m pytest`` …) are not run here.
* A ```` ```python ```` block is run after the page's earlier python blocks (in one namespace),
  so a block may use what an earlier one defined. A ``print(...)`` line ending in ``# TEXT`` must
  print the line ``TEXT``: in a block with such comments, every ``print`` has one, and prints
  one line.
* Other blocks (output shown alone, ``text``, ``json``, ``toml``, ``conll`` …) are not run.
* A block that cannot run here is marked on the line just before its fence:
  ``<!-- skip: REASON -->`` (a corpus from ../shared, a placeholder such as KEY, the network)
  is never run; ``<!-- skip-without: MODULE -->`` runs only when MODULE can be imported (torch).

Everything runs in a temporary folder holding a copy of ``examples/`` and, at its top, the
example's ``key.conll`` and ``response.conll``; ``anascore`` is this checkout's
``python -m anascore``. docs/design.md is the lead's and is checked like every page.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PAGES = [page for page in PAGES if page.is_file()]
RUN_LANGUAGES = {"console", "sh", "bash", "python"}


@dataclass
class Block:
    page: Path
    line: int  # the fence's line number, 1-based
    language: str
    text: str
    skip: str | None  # a reason never to run it
    needs: str | None  # a module it needs

    @property
    def name(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    """The fenced blocks of ``page`` in a language that runs, with their markers."""
    lines = page.read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    index = 0
    while index < len(lines):
        match = re.match(r"^(`{3,})\s*([\w-]*)\s*$", lines[index])
        if not match:
            index += 1
            continue
        fence, language = match.groups()
        end = index + 1
        while end < len(lines) and lines[end].strip() != fence:
            end += 1
        marker = lines[index - 1].strip() if index else ""
        skip = re.fullmatch(r"<!--\s*skip:\s*(.*?)\s*-->", marker)
        needs = re.fullmatch(r"<!--\s*skip-without:\s*([\w.]+)\s*-->", marker)
        if language in RUN_LANGUAGES:
            found.append(Block(page, index + 1, language, "\n".join(lines[index + 1:end]),
                               skip.group(1) if skip else None,
                               needs.group(1) if needs else None))
        index = end + 1
    return found


ALL_BLOCKS = [block for page in PAGES for block in blocks(page)]


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    for name in ("key.conll", "response.conll"):
        shutil.copy(ROOT / "examples" / name, tmp_path / name)
    return tmp_path


def run_command(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``command`` (starting with ``anascore``) through this checkout's ``python -m anascore``."""
    assert command.startswith("anascore "), command
    environment = dict(os.environ, PYTHONPATH=str(ROOT / "src"), COLUMNS="200")
    return subprocess.run(f'"{sys.executable}" -m anascore {command[len("anascore "):]}',
                          shell=True, cwd=cwd, capture_output=True, text=True,
                          env=environment, timeout=600)


def matches(expected: list[str], printed: list[str]) -> bool:
    """Whether ``printed`` is ``expected`` line by line, ``...`` standing for any lines."""
    if not expected:
        return not printed
    if expected[0] == "...":
        return any(matches(expected[1:], printed[start:]) for start in range(len(printed) + 1))
    return bool(printed) and printed[0] == expected[0] and matches(expected[1:], printed[1:])


def console_commands(text: str) -> list[tuple[str, list[str]]]:
    """The ``$`` commands of a console block, each with the output lines shown below it."""
    commands: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        if line.startswith("$ "):
            commands.append((line[2:].strip(), []))
        elif commands and commands[-1][0].endswith("\\"):
            command, output = commands[-1]
            commands[-1] = (command[:-1] + " " + line.strip(), output)
        elif commands:
            commands[-1][1].append(line.rstrip())
    for _command, output in commands:
        while output and not output[-1]:
            output.pop()
    return commands


def shell_commands(text: str) -> list[str]:
    """The ``anascore`` lines of a sh/bash block, continuations joined."""
    commands: list[str] = []
    joined = ""
    for line in text.splitlines():
        joined += line.rstrip()[:-1] + " " if line.rstrip().endswith("\\") else line
        if line.rstrip().endswith("\\"):
            continue
        if joined.strip().startswith("anascore "):
            commands.append(joined.strip())
        joined = ""
    return commands


def expected_prints(text: str) -> list[str] | None:
    """The lines a python block's ``print(...)  # TEXT`` comments say it prints, or None."""
    prints = [line for line in text.splitlines() if line.lstrip().startswith("print(")]
    shown = [re.search(r"\)\s*#\s?(.*)$", line) for line in prints]
    if not any(shown):
        return None
    assert all(shown), "a block with printed output shown has a print without it"
    return [match.group(1).rstrip() for match in shown if match]


def runnable(block: Block) -> bool:
    return not block.skip and (block.needs is None
                               or importlib.util.find_spec(block.needs) is not None)


@pytest.mark.parametrize("block", ALL_BLOCKS, ids=lambda block: block.name)
def test_snippet_runs_and_prints_what_the_page_shows(block: Block, workdir: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    if block.skip:
        pytest.skip(f"marked: {block.skip}")
    if not runnable(block):
        pytest.skip(f"needs {block.needs}")
    if block.language == "console":
        for command, output in console_commands(block.text):
            result = run_command(command, workdir)
            assert result.returncode == 0, (command, result.stderr)
            if output:
                printed = [line.rstrip() for line in result.stdout.rstrip("\n").splitlines()]
                assert matches(output, printed), (command, result.stdout)
    elif block.language in ("sh", "bash"):
        for command in shell_commands(block.text):
            result = run_command(command, workdir)
            assert result.returncode == 0, (command, result.stderr)
    else:
        monkeypatch.chdir(workdir)
        # A block may use what the page's earlier python blocks defined: they run first.
        namespace: dict[str, object] = {"__name__": "__doc_snippet__"}
        for earlier in ALL_BLOCKS:
            if earlier is block:
                break
            if earlier.page == block.page and earlier.language == "python" and runnable(earlier):
                with contextlib.redirect_stdout(io.StringIO()):
                    exec(compile(earlier.text, earlier.name, "exec"), namespace)
        captured = io.StringIO()
        with contextlib.redirect_stdout(captured):
            exec(compile(block.text, block.name, "exec"), namespace)
        expected = expected_prints(block.text)
        if expected is not None:
            assert captured.getvalue().rstrip("\n").splitlines() == expected


def test_the_rules_find_the_readme_quick_start_and_a_marked_block() -> None:
    readme = [block for block in ALL_BLOCKS if block.page.name == "README.md"]
    assert any("anascore score examples/key.conll" in block.text for block in readme)
    assert any(block.needs == "torchmetrics" for block in readme)


def test_shown_output_is_compared_line_by_line_with_an_ellipsis_for_any_lines() -> None:
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert matches(["a", "..."], ["a"])
    assert not matches(["a", "d"], ["a", "b", "d"])
    assert not matches(["a", "...", "x"], ["a", "b", "c"])
    assert console_commands("$ anascore a \\\n    --b\nout 1\n\n$ anascore c\n") == [
        ("anascore a  --b", ["out 1"]), ("anascore c", [])]
    assert shell_commands("pip install .\nanascore x \\\n  y  # why\n") == [
        "anascore x    y  # why"]
    assert expected_prints("x = 1\nprint(x)  # 1\n") == ["1"]


def test_no_page_or_message_says_to_install_from_a_package_index() -> None:
    # anascore is not on a package index: pages and messages say how to install from a
    # checkout (or the one package an extra brings).
    sources = sorted((ROOT / "src").rglob("*.py"))
    for page in [*PAGES, ROOT / "examples" / "README.md", *sources]:
        text = page.read_text(encoding="utf-8")
        assert not re.search(r"pip install\s+['\"]?anascore", text), page
