"""Debounce in our own code, on the caller's clock.

gpiozero's ``bounce_time`` means different things on different pin backends
(a lock-out after the first edge on some, a software filter on others), so
buttons and sensors are sampled raw and filtered here: a new level is accepted
once the raw level has stayed the same for ``settle`` seconds. Every change of
the raw level restarts that wait, so a bouncing contact is reported once,
``settle`` seconds after it stopped bouncing, and a glitch shorter than
``settle`` is never reported.
"""

from __future__ import annotations

from typing import Protocol


class Debouncer:
    """One input's debounced level. Feed it ``(now, raw)`` samples; it says when the stable level changes."""

    def __init__(self, settle: float, initial: bool = False) -> None:
        if settle < 0:
            raise ValueError("settle time must not be negative")
        self.settle = settle
        self.stable = initial
        self._raw = initial
        self._since = 0.0

    def feed(self, now: float, raw: bool) -> bool | None:
        """Take a sample; return the new stable level when it changed, else ``None``."""
        if raw != self._raw:
            self._raw = raw
            self._since = now
        if self._raw != self.stable and now - self._since >= self.settle:
            self.stable = self._raw
            return self.stable
        return None

    @property
    def changed_at(self) -> float:
        """When the raw level last changed (for a held button: when the press began)."""
        return self._since

    def deadline(self) -> float | None:
        """When the pending raw level will be accepted if it holds (``None`` when nothing is pending)."""
        if self._raw != self.stable:
            return self._since + self.settle
        return None


class DebouncedInput:
    """An input line with its debouncer: ``poll(now)`` samples the line and returns a new stable level or ``None``."""

    def __init__(self, line: "InputLineLike", settle: float) -> None:
        self.line = line
        self.debouncer = Debouncer(settle)

    @property
    def stable(self) -> bool:
        return self.debouncer.stable

    def poll(self, now: float) -> bool | None:
        return self.debouncer.feed(now, self.line.active())

    def deadline(self) -> float | None:
        return self.debouncer.deadline()


class InputLineLike(Protocol):
    def active(self) -> bool: ...


def earliest(*times: float | None) -> float | None:
    """The earliest of the given deadlines, ignoring ``None``."""
    present = [t for t in times if t is not None]
    return min(present) if present else None
