"""Progress of long work on stderr: one per-cent line rewritten in place, only where someone watches.

``Progress(label, total, unit)`` is called with the work done so far; it prints at most five
times a second (``label: 42 % (840,000 of 2,000,000 rounds)``) and ends the line when the work is
done or ``close()`` is called. It stays silent with ``quiet`` and when the stream is not a terminal
(a pipe, a log file, a test), so machine-readable output and logs never see it.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    def __init__(self, label: str, total: int, unit: str = "", *, quiet: bool = False,
                 stream: TextIO | None = None, every_s: float = 0.2) -> None:
        self.label, self.total, self.unit = label, max(0, total), unit
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = not quiet and self.total > 0 and _is_terminal(self.stream)
        self.every_s = every_s
        self._last = 0.0
        self._shown = False
        self._done = 0

    def __call__(self, done: int) -> None:
        self._done = done
        if not self.enabled:
            return
        now = time.monotonic()
        if done < self.total and now - self._last < self.every_s:
            return
        self._last = now
        self.stream.write("\r" + self.line(done))
        self.stream.flush()
        self._shown = True
        if done >= self.total:
            self.close()

    def line(self, done: int) -> str:
        share = min(100, done * 100 // self.total) if self.total else 100
        unit = f" {self.unit}" if self.unit else ""
        return f"{self.label}: {share:3d} % ({done:,} of {self.total:,}{unit})"

    def close(self) -> None:
        """End the line (once); nothing when nothing was shown."""
        if self._shown:
            self.stream.write("\n")
            self.stream.flush()
            self._shown = False


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def nothing(done: int) -> None:
    """The progress callback of work nobody watches."""
