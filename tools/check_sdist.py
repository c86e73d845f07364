"""Check the source distribution: built from this checkout, unpacked in a temporary folder and
installed in a fresh virtual environment, it passes its own test suite.

Steps (each one stops the check with a message when it fails):

1. ``python -m build --sdist`` into a temporary folder (needs the ``build`` package);
2. the archive holds every file of ``tests/`` (helper modules and fixtures), ``docs/``,
   ``examples/`` and ``benchmarks/`` that this checkout holds (caches aside);
3. unpacked away from ``shared/`` (so the tests that read ``/work/shared`` must skip), a new
   virtual environment (no system site packages) runs ``pip install '.[test]'`` and then
   ``python -m pytest`` inside the unpacked folder: no failure, no error.

Usage (from the repository root; takes a few minutes, most of it installing numpy, scipy and
the test tools into the new environment)::

    python tools/check_sdist.py [--keep]

``--keep`` leaves the temporary folder in place and prints its path. The test suite runs this
script when ``ANASCORE_SDIST_CHECK=1`` is set (``tests/meta/test_packaging.py``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: Folders the sdist must hold in full.
SHIPPED_FOLDERS = ("tests", "docs", "examples", "benchmarks")
#: Names never shipped (caches, build output).
IGNORED = {"__pycache__", ".hypothesis", ".pytest_cache", ".ruff_cache"}


class CheckFailed(Exception):
    """A step of the check failed; the message says which and why."""


def run(command: list[str], cwd: Path, what: str) -> str:
    print(f"$ {' '.join(command)}", flush=True)
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise CheckFailed(f"{what} failed (exit status {result.returncode}):\n"
                          f"{result.stdout[-4000:]}\n{result.stderr[-4000:]}")
    return result.stdout


def expected_files() -> set[str]:
    """The files of the shipped folders in this checkout, relative to the root."""
    files = set()
    for folder in SHIPPED_FOLDERS:
        for path in (ROOT / folder).rglob("*"):
            parts = path.relative_to(ROOT).parts
            if path.is_file() and not IGNORED.intersection(parts) and path.suffix != ".pyc":
                files.add("/".join(parts))
    return files


def build_sdist(work: Path) -> Path:
    run([sys.executable, "-m", "build", "--sdist", "--outdir", str(work / "dist"), str(ROOT)],
        ROOT, "building the sdist")
    (archive,) = (work / "dist").glob("*.tar.gz")
    return archive


def check_members(archive: Path) -> None:
    with tarfile.open(archive) as tar:
        members = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
    missing = sorted(expected_files() - members)
    if missing:
        raise CheckFailed(f"{archive.name} lacks {len(missing)} file(s) of the checkout: "
                          + ", ".join(missing[:20]))
    print(f"{archive.name}: every file of {', '.join(SHIPPED_FOLDERS)} is in it "
          f"({len(members)} members)")


def test_unpacked(archive: Path, work: Path) -> str:
    with tarfile.open(archive) as tar:
        if hasattr(tarfile, "data_filter"):  # Python 3.10.12+, 3.11.4+
            tar.extractall(work / "unpacked", filter="data")
        else:  # our own archive, just built
            tar.extractall(work / "unpacked")
    (source,) = (work / "unpacked").iterdir()
    if (source.parents[1] / "shared").exists():
        raise CheckFailed(f"{source.parents[1] / 'shared'} exists: the unpacked sdist must "
                          "not sit beside shared/")
    environment = work / "venv"
    venv.create(environment, with_pip=True, clear=True)
    python = str(environment / "bin" / "python")
    run([python, "-m", "pip", "install", "-q", ".[test]"], source, "pip install '.[test]'")
    output = run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs"], source,
                 "the sdist's test suite")
    summary = output.strip().splitlines()[-1]
    if "error" in summary or "failed" in summary:
        raise CheckFailed(f"the sdist's test suite: {summary}")
    return output


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", action="store_true",
                        help="keep the temporary folder (built sdist, venv, unpacked sources)")
    arguments = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="anascore-sdist-"))
    try:
        archive = build_sdist(work)
        check_members(archive)
        output = test_unpacked(archive, work)
    except CheckFailed as error:
        print(f"check_sdist: {error}", file=sys.stderr)
        return 1
    finally:
        if arguments.keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    skipped = [line for line in output.splitlines() if line.startswith("SKIPPED")]
    print("\n".join(skipped))
    print(f"the unpacked sdist's own tests: {output.strip().splitlines()[-1]}")
    return 0


if __name__ == "__main__":
    os.environ.pop("ANASCORE_SDIST_CHECK", None)  # the inner suite must not recurse
    sys.exit(main())
