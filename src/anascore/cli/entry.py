"""The ``anascore`` command's entry point: the command line, with nothing heavy imported yet.

Ctrl-C at any moment — while numpy is still being imported, while a file is read, while
``convert`` writes — ends the command with exit status 130 and no traceback (files are
written whole or not at all, :mod:`anascore.formats.io.output`); an output that cannot be written (a
closed pipe, a full disk) ends it quietly or with one line. This module imports nothing of
anascore at module level, so that an interrupt during those imports is caught too. Only the
first few hundredths of a second, while Python itself starts and imports the ``anascore``
package, are Python's: an interrupt there ends it as Python does (measured: 2 of 60
interrupts sent between 0 and 0.3 s, both at 0.01 s).

SIGTERM and SIGHUP (``kill``, a closed terminal, a batch system's time limit) end the command
the same way, with exit status 128 + the signal's number: they are raised as :class:`Ended`,
which unwinds like Ctrl-C, so temporary copies of inputs (:mod:`anascore.formats.io.sources`)
and half-written outputs (:mod:`anascore.formats.io.output`) are removed on the way out. A second
such
signal during that cleanup is ignored.
"""

from __future__ import annotations

import gc
import os
import signal
import sys

#: The exit status of a command ended by Ctrl-C (128 + SIGINT), as shells report it.
INTERRUPTED = 130
#: The signals that end a command as Ctrl-C does (with exit status 128 + their number).
ENDING_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP")
                       if hasattr(signal, name))


class Ended(BaseException):
    """The command was ended by a signal (SIGTERM, SIGHUP): a :class:`BaseException`, as
    :class:`KeyboardInterrupt` is, so that only cleanup code sees it on its way out."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum

#: The cyclic garbage collector's thresholds for a command: a young-generation collection
#: after 100,000 new container objects rather than Python's 700. Reading a corpus makes
#: millions of small objects (cells, mentions, token tuples) that form no cycles and live
#: until their document is counted; with Python's thresholds the collector walks them again
#: and again, 12-15% of a whole ``anascore score`` run on GUM (measured side by side, in
#: CoNLL-2012 and UA), for nothing: peak memory is the same. The library leaves the
#: collector alone; only the command, which owns its process, sets this.
COLLECTOR_THRESHOLDS = (100_000, 50, 100)


def run() -> None:
    """Run the command line (``anascore …``, ``python -m anascore …``) and exit."""
    interrupted = False

    def on_interrupt(signum: int, frame: object) -> None:
        nonlocal interrupted
        interrupted = True
        raise KeyboardInterrupt

    def on_end(signum: int, frame: object) -> None:
        for ending in ENDING_SIGNALS:
            signal.signal(ending, signal.SIG_IGN)  # let the cleanup finish
        raise Ended(signum)

    signal.signal(signal.SIGINT, on_interrupt)
    for ending in ENDING_SIGNALS:
        signal.signal(ending, on_end)
    gc.set_threshold(*COLLECTOR_THRESHOLDS)
    try:
        from anascore.cli.main import main

        status = main()
    except KeyboardInterrupt:
        status = INTERRUPTED
    except Ended as ended:
        status = 128 + ended.signum
    except BrokenPipeError:
        status = 0  # the reader went away (anascore score … | head): nothing left to say
    except Exception:
        # An interrupt inside an extension's import comes back as its ImportError (numpy's,
        # with a page of advice): it was still Ctrl-C.
        if not interrupted:
            raise
        status = INTERRUPTED
    _silence_stdout()
    sys.exit(status)


def _silence_stdout() -> None:
    """Point stdout at /dev/null once the command is done, so that the interpreter's last
    flush cannot fail again on a closed pipe or a full disk."""
    try:
        sys.stdout.flush()
    except OSError:
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass


if __name__ == "__main__":
    run()
