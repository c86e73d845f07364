"""Writing output files whole or not at all.

Every file anascore writes (``convert``, ``plot -o``, ``lab --plot``, reports) goes through
:func:`atomic_output`: the content is written to a temporary file in the target's folder and
renamed over the target only once it is complete, so a failure or Ctrl-C midway leaves the
target as it was (absent, or its old content), never half-written. A path of ``-`` means
standard output. Errors of the file system (a missing folder, a read-only place, a full disk)
become one :class:`~anascore.core.errors.AnascoreError` naming the path.

No command writes over one of its own inputs (:func:`refuse_overwriting_inputs`: ``convert IN
OUT``, ``report -o``, ``plot -o``, ``evaluate --reports``): the file system decides what is the
same file (a symbolic or hard link to the key is the key), and a file in an input folder is an
input, as the next run would read it.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import IO, Any

from anascore.core.errors import AnascoreError, OptionsError

#: The path that names standard output (and, for inputs, standard input).
STANDARD_STREAM = "-"


def require_path(value: object, name: str, hint: str = "") -> None:
    """An :class:`OptionsError` unless ``value`` is a path (``name``: how the message names
    the argument; ``hint``: what to do instead, appended)."""
    if not isinstance(value, str | os.PathLike):
        raise OptionsError(f"{name} must be a path (str or os.PathLike), not "
                           f"{type(value).__name__}{hint}")


def check_writable(path: str | os.PathLike[str]) -> str:
    """``path`` as a string, after checking that it is a path (the Python API takes any
    value) and that its folder exists and can be written to (so that a long run fails before
    it starts, not after)."""
    require_path(path, "the output")
    path = os.fspath(path)
    if path == STANDARD_STREAM:
        return path
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise AnascoreError(f"cannot write: no folder {folder}", path=path)
    if os.path.isdir(path):
        raise AnascoreError("is a directory; expected a file to write", path=path)
    if not os.access(folder, os.W_OK | os.X_OK):
        raise AnascoreError(f"cannot write: the folder {folder} is not writable", path=path)
    return path


def same_file(first: str | os.PathLike[str], second: str | os.PathLike[str]) -> bool:
    """Whether two paths name the same file (through symbolic or hard links too), as the
    file system says, not as the strings say."""
    first, second = os.fspath(first), os.fspath(second)
    if STANDARD_STREAM in (first, second):
        return False
    try:
        return os.path.samefile(first, second)
    except OSError:
        return os.path.abspath(first) == os.path.abspath(second)


def refuse_overwriting_input(input: str | os.PathLike[str],
                             output: str | os.PathLike[str]) -> None:
    """An :class:`OptionsError` when ``output`` is the file ``input`` (by any path): ``convert
    IN OUT``'s check (:func:`refuse_overwriting_inputs`)."""
    refuse_overwriting_inputs([input], output, what="OUT is IN")


def refuse_overwriting_inputs(inputs: Iterable[str | os.PathLike[str]],
                              output: str | os.PathLike[str], *,
                              what: str = "-o FILE is an input",
                              then: str = "write the output elsewhere") -> None:
    """An :class:`OptionsError` (``what``, the two paths, ``then``) when writing ``output``
    would write over one of ``inputs``: the same file by any path (:func:`same_file`), a
    file in an input folder (or a file there by a hard link), or a file an input pattern
    matches. Standard streams (``-``) are never the same file."""
    output = os.fspath(output)
    if output == STANDARD_STREAM:
        return
    for given in inputs:
        input = os.fspath(given)
        if input == STANDARD_STREAM:
            continue
        clash = _clash(input, output)
        if clash is not None:
            raise OptionsError(f"{what} ({output} is {clash}); {then}")


def _clash(input: str, output: str) -> str | None:
    """How writing ``output`` would write over ``input`` (a file, folder or glob pattern), in
    words; ``None`` when it would not."""
    if os.path.isdir(input):
        folder = os.path.realpath(input)
        if os.path.realpath(output).startswith(folder.rstrip(os.sep) + os.sep):
            return f"in the folder {input}, whose files are read"
        inside = _files_in(input)
    elif not os.path.exists(input) and set("*?[") & set(input):
        import glob  # only for a glob pattern of inputs

        inside = (path for path in glob.glob(input, recursive=True) if os.path.isfile(path))
    else:
        return f"the file {input}" if same_file(input, output) else None
    try:
        target = os.stat(output)
    except OSError:
        return None
    for path in inside:
        with contextlib.suppress(OSError):
            if os.path.samestat(os.stat(path), target):
                return f"the file {path}, read from {input}"
    return None


def _files_in(folder: str) -> Iterator[str]:
    for place, _, files in os.walk(folder):
        for name in files:
            yield os.path.join(place, name)


@contextmanager
def atomic_output(path: str | os.PathLike[str], *, binary: bool = False,
                  encoding: str = "utf-8") -> Iterator[IO[Any]]:
    """A stream whose content replaces ``path`` when the ``with`` block ends without an
    exception (``-``: standard output, written as it comes).

    The temporary file lives in the target's folder (a rename across file systems is not
    atomic) and is removed on any failure, KeyboardInterrupt included. A file that existed
    keeps its permissions.
    """
    path = check_writable(path)
    if path == STANDARD_STREAM:
        stream: IO[Any] = sys.stdout.buffer if binary else sys.stdout
        try:
            yield stream
            stream.flush()
        except BrokenPipeError:
            raise  # the reader went away (| head): the command ends quietly (anascore.cli.entry)
        except OSError as error:
            raise AnascoreError(f"cannot write: {error.strerror or error}",
                                path="<stdout>") from None
        return
    folder = os.path.dirname(os.path.abspath(path))
    import tempfile  # only when a file is written

    try:
        descriptor, temporary = tempfile.mkstemp(
            dir=folder, prefix=f".{os.path.basename(path)}.", suffix=".part")
    except OSError as error:
        raise AnascoreError(f"cannot write: {error.strerror or error}", path=path) from None
    try:
        file: IO[Any] = (os.fdopen(descriptor, "wb") if binary else
                         os.fdopen(descriptor, "w", encoding=encoding, newline=""))
        with file as stream:
            yield stream
        _keep_permissions(path, temporary)
        os.replace(temporary, path)
    except OSError as error:
        _remove(temporary)
        raise AnascoreError(f"cannot write: {error.strerror or error}", path=path) from None
    except BaseException:
        _remove(temporary)
        raise


def _keep_permissions(path: str, temporary: str) -> None:
    """Give the new file the old file's mode, or the mode a new file gets (mkstemp's 0600
    would otherwise hide a converted corpus from the user's group)."""
    try:
        mode = os.stat(path).st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    with contextlib.suppress(OSError):
        os.chmod(temporary, mode)


def _remove(path: str) -> None:
    with contextlib.suppress(OSError):
        os.remove(path)
