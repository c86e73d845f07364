"""Reading and counting the documents of a key and its responses in several processes.

Scoring is a map over documents followed by a sum (``docs/design.md``): each document's
counts depend on that document alone. So large CoNLL-2012 files are split between processes
by document. A quick byte scan finds where each document begins in every file; each process
reads its own documents' stretches of the files (seeking, not reading past the others),
parses and counts them, and sends back only the counts, a few numbers per document. Sending
parsed documents would not pay: pickling them costs as much as parsing them.

The parallel run must never change a number, a warning or an error. It is attempted only when
the scan sees a plain layout (every document named once in each file, every response document
in the key, no lone carriage returns); each stretch is parsed by the very reader the serial run
uses (:func:`anascore.formats.conll2012.read_lines`) and must hold exactly the document the
scan saw. Anything else — a malformed line, a token mismatch, a worker that fails for any
reason — makes :func:`map_documents` return ``None``, and the caller scores serially, which
reports the problem exactly as it always does. Results come back in key order, so warnings
keep their serial order.

Processes are forked (POSIX ``os.fork``, Linux only: macOS system libraries are not safe to
use after a fork), and only from a single-threaded process.
"""

from __future__ import annotations

import codecs
import contextlib
import os
import pickle
import re
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from io import StringIO
from typing import BinaryIO, TypeVar

from anascore.formats.conll2012 import begun_document, read_lines
from anascore.model import Document

#: With ``jobs=0``: a process for every this many bytes of key and response together (below
#: it, starting a process costs about as much as it saves), up to one per usable CPU and at
#: most :data:`AUTO_MAX_PROCESSES`.
AUTO_BYTES_PER_PROCESS = 2 << 20
AUTO_MAX_PROCESSES = 8
_SCAN_BLOCK = 4 << 20
_BEGIN_WORDS = b"begin document"
_BEGIN_PREFIX = re.compile(rb"[ \t\f\v]*#[ \t\f\v]*")

Result = TypeVar("Result")


@dataclass(frozen=True)
class Stretch:
    """The bytes ``[start, end)`` of a file, from a document's ``#begin document`` line (at
    line number ``line``) up to the next document's: what a process reads for it."""

    name: str
    start: int
    end: int
    line: int


class _Unsuited(Exception):
    """The files are not the plain layout the parallel run handles; score serially."""


def processes_for(jobs: int, paths: Sequence[str]) -> int:
    """How many processes score ``paths`` with the ``jobs`` setting (``0``: as many as the
    files' size gains from, :data:`AUTO_BYTES_PER_PROCESS`; ``1``: this process alone)."""
    if jobs == 1 or not _can_fork():
        return 1
    if jobs == 0:
        size = sum(os.path.getsize(path) for path in paths)
        return max(1, min(size // AUTO_BYTES_PER_PROCESS, idle_cpus(), AUTO_MAX_PROCESSES))
    return jobs


#: Where Linux tells the number of runnable tasks (:func:`idle_cpus`).
LOAD_STATUS = "/proc/loadavg"


def idle_cpus() -> int:
    """The usable CPUs that no other process is running on now (at least 1).

    A second process only pays when it gets a CPU of its own: with a CPU-bound neighbour on a
    two-CPU machine, two processes took longer than one (LitBank: 0.51 s against 0.45 s). Linux
    says how many tasks are runnable at this instant (the fourth field of ``/proc/loadavg``,
    this process included, over every CPU of the machine, which may be more than this process
    may use); elsewhere the one-minute load average stands in for it."""
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
        os.cpu_count() or 1)
    try:
        with open(LOAD_STATUS, encoding="ascii") as status:
            running = int(status.read().split()[3].split("/")[0]) - 1  # others than this one
    except (OSError, ValueError, IndexError):
        try:
            running = round(os.getloadavg()[0])
        except OSError:
            running = 0
    machine = max(os.cpu_count() or usable, usable)
    return max(1, min(usable, machine - max(0, running)))


def map_documents(key: str, responses: Sequence[str],
                  count: Callable[[Document, tuple[Document | None, ...]], Result],
                  processes: int, *, token_columns: bool = False,
                  advance: Callable[[int], None] | None = None,
                  ) -> list[tuple[str, Result]] | None:
    """``count(key_document, response_documents)`` for every key document of CoNLL-2012
    files, with the document of the same name in each response (``None`` where a response
    lacks it), in key order, computed in up to ``processes`` processes; ``None`` when the files
    are not suited to it or anything fails (the caller then scores serially, and reports any
    problem).

    ``advance(n)`` is told of documents done (for a progress bar); ``token_columns`` asks the
    reader for the part-of-speech and named-entity columns, as the serial reader is asked.
    """
    if not all(os.path.isfile(path) for path in (key, *responses)):
        return None  # a pipe cannot be scanned first and read again
    try:
        documents = _document_stretches(key, responses)
    except (_Unsuited, OSError):
        return None
    groups = _split(documents, min(processes, len(documents)))
    if len(groups) < 2:
        return None

    def run(group: list[DocumentStretches],
            done: Callable[[int], None] | None) -> list[tuple[str, Result]]:
        return list(_count_group(key, responses, group, token_columns, count, done))

    workers: list[tuple[int, int]] = []
    try:
        for group in groups[1:]:
            workers.append(_fork(partial(run, group, None)))
        results = run(groups[0], advance)
        while workers:
            theirs: list[tuple[str, Result]] | None = _collect(*workers[0])
            del workers[0]
            if theirs is None:
                return None
            results.extend(theirs)
            if advance is not None:
                advance(len(theirs))
        return results
    except Exception:  # the serial run reports it, with its usual message
        return None
    finally:
        for process, pipe in workers:
            _stop(process, pipe)


def _can_fork() -> bool:
    return (sys.platform.startswith("linux") and hasattr(os, "fork")
            and threading.active_count() == 1)


#: A key document's stretch, and its document's in each response (``None``: missing).
DocumentStretches = tuple[Stretch, tuple[Stretch | None, ...]]


def _document_stretches(key: str, responses: Sequence[str]) -> list[DocumentStretches]:
    """Each key document's stretch and its documents' in the responses."""
    key_stretches = _stretches(key)
    if len(key_stretches) < 2:
        raise _Unsuited("one document")
    key_names = {stretch.name for stretch in key_stretches}
    if len(key_names) < len(key_stretches):
        raise _Unsuited("a key document named twice")
    by_name: list[dict[str, Stretch]] = []
    for response in responses:
        found = _stretches(response)
        named = {stretch.name: stretch for stretch in found}
        if len(named) < len(found) or not named.keys() <= key_names:
            raise _Unsuited("a response document named twice, or not in the key")
        by_name.append(named)
    return [(stretch, tuple(named.get(stretch.name) for named in by_name))
            for stretch in key_stretches]


def _stretches(path: str) -> list[Stretch]:
    """The documents of a CoNLL-2012 file as byte stretches, found by scanning for
    ``#begin document`` lines a block at a time; what precedes the first must be blank."""
    begins: list[tuple[str, int, int]] = []
    with open(path, "rb") as stream:
        start = len(codecs.BOM_UTF8) if stream.read(3) == codecs.BOM_UTF8 else 0
        stream.seek(start)
        line = 1
        offset = size = start
        pending = b""
        for block in iter(lambda: stream.read(_SCAN_BLOCK), b""):
            size += len(block)
            data = pending + block if pending else block
            complete = data.rfind(b"\n") + 1
            line = _scan(data, complete, offset, line, begins)
            offset += complete
            pending = data[complete:]
        _scan(pending, len(pending), offset, line, begins)
        if not begins:
            raise _Unsuited("no document")
        stream.seek(start)
        if stream.read(begins[0][1] - start).strip():
            raise _Unsuited("text before the first document")
    ends = [begin for _, begin, _ in begins[1:]] + [size]
    return [Stretch(name, begin, end, line)
            for (name, begin, line), end in zip(begins, ends, strict=True)]


def _scan(data: bytes, end: int, offset: int, line: int,
          begins: list[tuple[str, int, int]]) -> int:
    """Record the ``#begin document`` lines of ``data[:end]`` (whole lines of the file from
    byte ``offset``, line ``line``) as (name, offset, line); the line number after them."""
    if data.find(b"\r", 0, end) >= 0 and data.count(b"\r", 0, end) != data.count(b"\r\n", 0,
                                                                               end):
        raise _Unsuited("lone carriage returns")
    counted_to = 0
    position = data.find(_BEGIN_WORDS, 0, end)
    while position >= 0:
        line_start = data.rfind(b"\n", 0, position) + 1
        line_end = data.find(b"\n", position, end)
        line_end = end if line_end < 0 else line_end
        if _BEGIN_PREFIX.fullmatch(data, line_start, position):
            name = begun_document(
                data[line_start:line_end].decode("utf-8", errors="replace").strip())
            if name is None:
                raise _Unsuited("an unusual '#begin document' line")
            line += data.count(b"\n", counted_to, line_start)
            counted_to = line_start
            begins.append((name, offset + line_start, line))
        position = data.find(_BEGIN_WORDS, line_end, end)
    return line + data.count(b"\n", counted_to, end)


def _split(documents: list[DocumentStretches],
           parts: int) -> list[list[DocumentStretches]]:
    """``documents`` cut into ``parts`` runs of consecutive documents of about equal bytes."""
    sizes = [sum(stretch.end - stretch.start for stretch in (key, *responses) if stretch)
             for key, responses in documents]
    total = sum(sizes)
    groups: list[list[DocumentStretches]] = [[]]
    done = 0
    for document, size in zip(documents, sizes, strict=True):
        if done >= total * len(groups) / parts and len(groups) < parts:
            groups.append([])
        groups[-1].append(document)
        done += size
    return [group for group in groups if group]


def _count_group(key: str, responses: Sequence[str], group: list[DocumentStretches],
                 token_columns: bool,
                 count: Callable[[Document, tuple[Document | None, ...]], Result],
                 advance: Callable[[int], None] | None) -> Iterator[tuple[str, Result]]:
    with contextlib.ExitStack() as stack:
        key_file = stack.enter_context(open(key, "rb"))
        response_files = [stack.enter_context(open(path, "rb")) for path in responses]
        for key_stretch, response_stretches in group:
            key_document = _read_stretch(key_file, key, key_stretch, token_columns)
            response_documents = tuple(
                None if stretch is None else
                _read_stretch(stream, path, stretch, token_columns)
                for stream, path, stretch in zip(response_files, responses,
                                                 response_stretches, strict=True))
            yield key_document.name, count(key_document, response_documents)
            if advance is not None:
                advance(1)


def _read_stretch(stream: BinaryIO, path: str, stretch: Stretch,
                  token_columns: bool) -> Document:
    """The one document of ``stretch``, read by the serial reader's own code."""
    stream.seek(stretch.start)
    text = stream.read(stretch.end - stretch.start).decode("utf-8")
    lines = enumerate(StringIO(text, newline=None), start=stretch.line)
    documents = list(read_lines(lines, path, token_columns=token_columns))
    if len(documents) != 1 or documents[0].name != stretch.name:
        raise _Unsuited(f"the stretch of {stretch.name!r} holds other documents")
    return documents[0]


def _fork(work: Callable[[], object]) -> tuple[int, int]:
    """Run ``work`` in a forked process that pickles its result into a pipe; (pid, read end).
    A process that fails writes nothing and exits with status 1."""
    read_end, write_end = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    process = os.fork()
    if process == 0:  # the child never returns into the caller's code
        status = 1
        try:
            os.close(read_end)
            payload = pickle.dumps(work(), protocol=pickle.HIGHEST_PROTOCOL)
            with os.fdopen(write_end, "wb") as pipe:
                pipe.write(payload)
            status = 0
        finally:
            os._exit(status)
    os.close(write_end)
    return process, read_end


def _collect(process: int, pipe: int) -> list[tuple[str, Result]] | None:
    """A forked process's result, once it has exited; ``None`` if it failed."""
    with os.fdopen(pipe, "rb") as stream:
        payload = stream.read()
    _, status = os.waitpid(process, 0)
    if status != 0 or not payload:
        return None
    result: list[tuple[str, Result]] = pickle.loads(payload)
    return result


def _stop(process: int, pipe: int) -> None:
    """End a forked process whose result is no longer wanted."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(process, signal.SIGKILL)
    with contextlib.suppress(ChildProcessError):
        os.waitpid(process, 0)
    with contextlib.suppress(OSError):
        os.close(pipe)
