"""Clocks: the loop's monotonic clock, and a fake one that tests and the simulated technician drive.

Drivers never read a clock themselves: they are given ``now``. Only code that
waits (the self-test walk) holds a clock, so that tests can replace it.
"""

from __future__ import annotations

import heapq
import itertools
import time
from typing import Callable, Protocol


class Clock(Protocol):
    """Seconds on a monotonic clock, and a way to wait."""

    def now(self) -> float: ...

    def sleep(self, seconds: float) -> None: ...


class MonotonicClock:
    """The real clock (the same one asyncio's loop uses)."""

    def now(self) -> float:
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        time.sleep(max(0.0, seconds))


class FakeClock:
    """A clock that only moves when told to; ``call_at`` runs an action when time passes it."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = start
        self._queue: list[tuple[float, int, Callable[[], None]]] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self._now

    def call_at(self, when: float, action: Callable[[], None]) -> None:
        heapq.heappush(self._queue, (when, next(self._order), action))

    def sleep(self, seconds: float) -> None:
        self.advance_to(self._now + max(0.0, seconds))

    def advance_to(self, when: float) -> None:
        """Move to ``when``, running every scheduled action due on the way, in time order."""
        while self._queue and self._queue[0][0] <= when:
            due, _, action = heapq.heappop(self._queue)
            self._now = max(self._now, due)
            action()
        self._now = max(self._now, when)
