"""Inputs that are not plain files: standard input (``-``), pipes, and gzip-compressed files.

anascore reads an input more than once (the format is sniffed, the parallel reader scans for
documents, the key is read per response), so an input that can be read only once, or only
through a decompressor, is first copied whole to a temporary file; the copy is read instead,
and removed when the run ends. A gzip file is recognised by its first two bytes (``1f 8b``),
whatever its name. Errors and warnings name the input as the user named it (``<stdin>``,
``corpus.conll.gz``), never the temporary copy.
"""

from __future__ import annotations

import gzip
import os
import shutil
import stat
import sys
import tempfile
import zlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from anascore.errors import AnascoreError, FormatError

#: The name standard input goes by in messages.
STANDARD_INPUT = "<stdin>"
_GZIP_MAGIC = b"\x1f\x8b"


class LocalInputs:
    """The paths to read for some inputs, and the names to report for the copies."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self.names: dict[str, str] = {}  # copy -> the input as the user named it
        self._copies: dict[str, str] = {}  # the input -> its copy

    def local(self, path: str) -> str:
        """``path`` itself, or its copy when it cannot be read as it is."""
        if path in self._copies:
            return self._copies[path]
        if path == "-":
            copy = self._copy(STANDARD_INPUT, lambda target: shutil.copyfileobj(
                sys.stdin.buffer, target, 1 << 20))
        elif _is_stream(path):
            copy = self._copy(path, lambda target: _copy_file(path, target))
        elif _is_gzip(path):
            copy = self._copy(path, lambda target: _decompress(path, target))
        else:
            return path
        self._copies[path] = copy
        return copy

    def _copy(self, name: str, fill: Any) -> str:
        descriptor, copy = tempfile.mkstemp(dir=self.folder, suffix=".input")
        with os.fdopen(descriptor, "wb") as target:
            fill(target)
        self.names[copy] = name
        return copy

    def rename(self, text: str) -> str:
        """``text`` with every copy's path replaced by the input's name."""
        for copy, name in self.names.items():
            text = text.replace(copy, name)
        return text


@contextmanager
def local_inputs(paths: Sequence[str]) -> Iterator[tuple[list[str], LocalInputs]]:
    """The paths to read for ``paths`` (copies of standard input, pipes and gzip files), and
    the :class:`LocalInputs` that names the copies; an :class:`AnascoreError` raised inside
    names the inputs as given."""
    if not any(path == "-" or _is_stream(path) or _is_gzip(path) for path in paths):
        inputs = LocalInputs("")
        yield list(paths), inputs
        return
    with tempfile.TemporaryDirectory(prefix="anascore-") as folder:
        inputs = LocalInputs(folder)
        try:
            yield [inputs.local(path) for path in paths], inputs
        except AnascoreError as error:
            error.message = inputs.rename(error.message)
            if error.path is not None:
                error.path = inputs.names.get(error.path, error.path)
            raise


def renamed_warnings(report: Any, inputs: LocalInputs) -> Any:
    """A report whose warnings name the inputs as given."""
    if not inputs.names:
        return report
    return replace(report, warnings=tuple(inputs.rename(warning)
                                          for warning in report.warnings))


def _is_stream(path: str) -> bool:
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)


def _is_gzip(path: str) -> bool:
    try:
        with open(path, "rb") as stream:
            return stream.read(2) == _GZIP_MAGIC
    except OSError:
        return False


def _copy_file(path: str, target: Any) -> None:
    with open(path, "rb") as source:
        shutil.copyfileobj(source, target, 1 << 20)


def _decompress(path: str, target: Any) -> None:
    try:
        with gzip.open(path, "rb") as source:
            shutil.copyfileobj(source, target, 1 << 20)
    except (OSError, EOFError, zlib.error) as error:
        raise FormatError(f"not a whole gzip file ({error}); expected gzip-compressed text",
                          path=path) from None
