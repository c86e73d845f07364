"""Inputs that are not plain files: standard input (``-``), pipes, and gzip-compressed files.

anascore reads an input more than once (the format is sniffed, the parallel reader scans for
documents, the key is read per response), so an input that can be read only once, or only
through a decompressor, is first copied whole to a temporary file; the copy is read instead,
and removed when the run ends (also when it is ended by Ctrl-C, SIGTERM or SIGHUP:
:mod:`anascore.cli.entry` turns those into exceptions that unwind to the cleanup). A gzip file is
recognised by its first two bytes (``1f 8b``), whatever its name. Errors and warnings name the
input as the user named it (``<stdin>``, ``corpus.conll.gz``), never the temporary copy.

Every command that reads annotated files (``score``, ``errors``, ``report``, ``convert``,
``evaluate``) reads them through :func:`local_inputs`, so ``-``, pipes and gzip work alike.

A copy is bounded, since a 0.5 MB gzip file can expand to 500 MB and standard input can be
``/dev/zero``; it is made as a stream, in 1 MiB pieces, and stops with an error naming the
bound (:func:`copy_limit`) once it passes it:

* a response (every input after the first): at most ``max(64 MiB, 20 × the key's size)``
  (:data:`COPY_FLOOR`, :data:`RESPONSE_RATIO`): a response holds the key's tokens, and no
  format spends twenty times another's bytes on a token;
* the key, gzip-compressed: at most ``max(64 MiB, 100 × its compressed size)``
  (:data:`GZIP_RATIO`; annotated text compresses 5- to 20-fold, a bomb a thousandfold);
* the key from standard input or a pipe: at most :data:`KEY_STREAM_LIMIT` (1 GiB).

A device that is not a pipe (``/dev/zero``, ``/dev/urandom``, a terminal named as a file) is
refused: it has no end to copy. Standard input itself (``-``) is read whatever it is, within
the bound above.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from anascore.core.errors import AnascoreError, FormatError

#: The name standard input goes by in messages.
STANDARD_INPUT = "<stdin>"
_GZIP_MAGIC = b"\x1f\x8b"


#: The least a copied or decompressed input may take, whatever it is measured against.
COPY_FLOOR = 64 * 2**20
#: A response copied or decompressed may take this many times the key's bytes.
RESPONSE_RATIO = 20
#: A gzip-compressed key may expand this many times its compressed size.
GZIP_RATIO = 100
#: The most a key read from standard input or a pipe may take (it has no size to compare).
KEY_STREAM_LIMIT = 2**30
_PIECE = 1 << 20


class LocalInputs:
    """The paths to read for some inputs, and the names to report for the copies."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self.names: dict[str, str] = {}  # copy -> the input as the user named it
        self._copies: dict[str, str] = {}  # the input -> its copy

    def local(self, path: str, key_size: int | None = None) -> str:
        """``path`` itself, or its copy when it cannot be read as it is (``key_size``: the
        bytes of the key ``path`` is a response to, or ``None`` when ``path`` is the key)."""
        if path in self._copies:
            return self._copies[path]
        if path == "-":
            limit, why = copy_limit(key_size, None)
            copy = self._copy(STANDARD_INPUT, lambda target: _bounded_copy(
                sys.stdin.buffer, target, limit, why, STANDARD_INPUT))
        elif _is_stream(path):
            _refuse_device(path)
            limit, why = copy_limit(key_size, None)
            copy = self._copy(path, lambda target: _copy_file(path, target, limit, why))
        elif _is_gzip(path):
            limit, why = copy_limit(key_size, os.path.getsize(path))
            copy = self._copy(path, lambda target: _decompress(path, target, limit, why))
        else:
            return path
        self._copies[path] = copy
        return copy

    def _copy(self, name: str, fill: Any) -> str:
        import tempfile

        descriptor, copy = tempfile.mkstemp(dir=self.folder, suffix=".input")
        self.names[copy] = name
        with os.fdopen(descriptor, "wb") as target:
            fill(target)
        return copy

    def rename(self, text: str) -> str:
        """``text`` with every copy's path replaced by the input's name."""
        for copy, name in self.names.items():
            text = text.replace(copy, name)
        return text


def copy_limit(key_size: int | None, compressed: int | None) -> tuple[int, str]:
    """The most bytes a copy may take, and the rule that sets it in words: a response's
    (``key_size`` given) is relative to the key, a gzip key's to its ``compressed`` size,
    a key from a stream's is :data:`KEY_STREAM_LIMIT`."""
    floor = _size(COPY_FLOOR)
    if key_size is not None:
        limit = max(COPY_FLOOR, RESPONSE_RATIO * key_size)
        return limit, (f"a response may take at most max({floor}, {RESPONSE_RATIO} × the "
                       f"key's {_size(key_size)})")
    if compressed is not None:
        limit = max(COPY_FLOOR, GZIP_RATIO * compressed)
        return limit, (f"a gzip key may expand to at most max({floor}, {GZIP_RATIO} × its "
                       f"{_size(compressed)})")
    return KEY_STREAM_LIMIT, (f"a key from standard input or a pipe may take at most "
                              f"{_size(KEY_STREAM_LIMIT)}")


@contextmanager
def local_inputs(paths: Sequence[str]) -> Iterator[tuple[list[str], LocalInputs]]:
    """The paths to read for ``paths`` (the key first, then responses; copies of standard
    input, pipes and gzip files, each within :func:`copy_limit`), and the
    :class:`LocalInputs` that names the copies; an :class:`AnascoreError` raised inside
    names the inputs as given. A device that is not a pipe is refused."""
    if not any(path == "-" or _is_stream(path) or _is_gzip(path) for path in paths):
        inputs = LocalInputs("")
        yield list(paths), inputs
        return
    import tempfile  # only for copies of pipes and gzip files

    with tempfile.TemporaryDirectory(prefix="anascore-") as folder:
        inputs = LocalInputs(folder)
        try:
            local = [inputs.local(paths[0])] if paths else []
            key_size = _file_size(local[0]) if local else None
            local.extend(inputs.local(path, key_size) for path in paths[1:])
            yield local, inputs
        except AnascoreError as error:
            error.message = inputs.rename(error.message)
            if error.path is not None:
                error.path = inputs.names.get(error.path, error.path)
            raise


def read_bounded(path: str, limit: int, what: str) -> bytes:
    """The bytes of a small input read whole (a task manifest, a JSON report): ``-`` is
    standard input; a device that is not a pipe is refused, and more than ``limit`` bytes
    is an error naming the bound (``what``: what was expected). The file system's own errors
    (no such file, a folder) are left to the caller, as ``open`` raises them."""
    if path == "-":
        data: bytes = sys.stdin.buffer.read(limit + 1)
        name = STANDARD_INPUT
    else:
        if _is_stream(path):
            _refuse_device(path)
        with open(path, "rb") as stream:
            data = stream.read(limit + 1)
        name = path
    if len(data) > limit:
        raise FormatError(f"holds more than {_size(limit)}; expected {what}", path=name)
    return data


def renamed_warnings(report: Any, inputs: LocalInputs) -> Any:
    """A report whose warnings name the inputs as given."""
    if not inputs.names:
        return report
    return replace(report, warnings=tuple(inputs.rename(warning)
                                          for warning in report.warnings))


def _is_stream(path: str) -> bool:
    """Whether ``path`` can be read only once: a pipe, or a device (refused unless a pipe)."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISCHR(mode) or stat.S_ISBLK(mode)


def _refuse_device(path: str) -> None:
    """A device other than a pipe has no end (``/dev/zero``) or is not a file of text."""
    if not stat.S_ISFIFO(os.stat(path).st_mode):
        raise FormatError("is a device, not a file; expected a file, a pipe or '-' (standard "
                          "input)", path=path)


def _is_gzip(path: str) -> bool:
    try:
        with open(path, "rb") as stream:
            return stream.read(2) == _GZIP_MAGIC
    except (OSError, ValueError):
        return False


def _file_size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0  # a folder or pattern of files (paired file by file) or a missing file


def _size(count: int) -> str:
    """A number of bytes for a message: ``64 MiB``, ``1.5 MiB``, ``3.2 KiB``, ``12 bytes``."""
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if count >= scale:
            value = count / scale
            return f"{value:.0f} {unit}" if value >= 100 else f"{value:.3g} {unit}"
    return f"{count} bytes"


def _bounded_copy(source: Any, target: Any, limit: int, why: str, name: str,
                  verb: str = "holds") -> None:
    """Copy ``source`` to ``target`` in pieces, stopping with an error once more than
    ``limit`` bytes came (``why``: the rule that set it)."""
    copied = 0
    while True:
        piece = source.read(min(_PIECE, limit + 1 - copied))
        if not piece:
            return
        copied += len(piece)
        if copied > limit:
            raise FormatError(f"{verb} more than {_size(limit)}; {why}", path=name)
        target.write(piece)


def _copy_file(path: str, target: Any, limit: int, why: str) -> None:
    with open(path, "rb") as source:
        _bounded_copy(source, target, limit, why, path)


def _decompress(path: str, target: Any, limit: int, why: str) -> None:
    import gzip
    import zlib

    try:
        with gzip.open(path, "rb") as source:
            _bounded_copy(source, target, limit, why, path, "expands to")
    except (OSError, EOFError, zlib.error) as error:
        raise FormatError(f"not a whole gzip file ({error}); expected gzip-compressed text",
                          path=path) from None
