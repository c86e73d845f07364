"""A progress bar on stderr for long runs (many documents, thousands of resamples).

It draws only when its stream is a terminal, redraws at most ten times a second, and erases
itself when done, so results on stdout are never mixed with it and a redirected or piped
stderr never receives it (a log file stays clean).
"""

from __future__ import annotations

import sys
import time
from types import TracebackType
from typing import TextIO

#: Seconds between two redraws.
REDRAW_INTERVAL = 0.1
BAR_WIDTH = 30


class Progress:
    """Counts work done out of ``total`` (``None``: unknown) and draws it on ``stream``.

    ``enabled`` defaults to whether ``stream`` is a terminal. Use it as a context manager, or
    call :meth:`close`, so that the bar is erased.
    """

    def __init__(self, label: str, total: int | None = None, *, stream: TextIO | None = None,
                 enabled: bool | None = None) -> None:
        self.label = label
        self.total = total
        self.done = 0
        self.stream = stream if stream is not None else sys.stderr
        if enabled is None:
            isatty = getattr(self.stream, "isatty", None)
            enabled = bool(isatty and isatty())
        self.enabled = enabled
        self._last_draw = 0.0
        self._drawn = False

    def advance(self, amount: int = 1) -> None:
        """Record ``amount`` more units of work, redrawing if it is time to."""
        self.done += amount
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self._last_draw >= REDRAW_INTERVAL or self.done == self.total:
            self._last_draw = now
            self._draw()

    def reset(self) -> None:
        """Start counting again (work that is redone from the beginning)."""
        self.done = 0

    def line(self) -> str:
        """The text of the bar, e.g. ``bootstrap ██████░░░░ 600/1000``."""
        if self.total:
            filled = min(BAR_WIDTH, BAR_WIDTH * self.done // self.total)
            bar = "█" * filled + "░" * (BAR_WIDTH - filled)
            return f"{self.label} {bar} {self.done}/{self.total}"
        return f"{self.label} {self.done}"

    def _draw(self) -> None:
        self.stream.write("\r\x1b[2K" + self.line())
        self.stream.flush()
        self._drawn = True

    def close(self) -> None:
        """Erase the bar (the terminal line is left empty)."""
        if self.enabled and self._drawn:
            self.stream.write("\r\x1b[2K")
            self.stream.flush()
            self._drawn = False

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()


def advance(progress: Progress | None, amount: int = 1) -> None:
    """``progress.advance(amount)`` when there is a progress bar."""
    if progress is not None:
        progress.advance(amount)
