"""Run the devices on the asyncio loop: a periodic tick, deadline wake-ups, and a thread-safe wake for GPIO edges.

The loop owns all state (DESIGN.md section 3). gpiozero calls edge callbacks
on its own thread; those only call ``wake()``, which hands a call to the loop
with ``call_soon_threadsafe``. Every ``update`` then runs on the loop with the
loop's clock, and the events reach the sink on the loop's thread.

    ticker = LoopTicker(loop)
    devices = build_devices(config, sink, factory, bus, sign, jackpot, wake=ticker.wake)
    ticker.start(devices)
"""

from __future__ import annotations

import asyncio
from typing import Any


IDLE_PERIOD_S = 1.0
"""The tick when nothing needs polling: a display write that failed is tried again at least this often."""


class LoopTicker:
    """Calls ``devices.update(loop.time())`` every ``period`` seconds, at the devices' deadlines, and on ``wake``."""

    def __init__(self, loop: asyncio.AbstractEventLoop, period: float = 0.05) -> None:
        self._loop = loop
        self._period = period
        self._devices: Any = None
        self._handle: asyncio.TimerHandle | None = None

    def wake(self) -> None:
        """Safe from any thread: ask the loop to look at the devices now."""
        if self._devices is not None:
            self._loop.call_soon_threadsafe(self._run)

    def start(self, devices: Any) -> None:
        """Begin ticking (call on the loop's thread)."""
        self._devices = devices
        self._run()

    def stop(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
        self._devices = None

    def _run(self) -> None:
        if self._devices is None:
            return
        now = self._loop.time()
        self._devices.update(now)
        # every input wakes the loop on its edges and every output says when it next changes: the periodic tick
        # is then only a safety net, not a 50 Hz poll (an expander without an INT line still needs the poll)
        period = self._period if getattr(self._devices, "needs_polling", True) else max(self._period, IDLE_PERIOD_S)
        due = now + period
        deadline = self._devices.deadline()
        if deadline is not None:
            due = min(due, max(deadline, now))
        if self._handle is not None:
            self._handle.cancel()
        self._handle = self._loop.call_at(due, self._run)
