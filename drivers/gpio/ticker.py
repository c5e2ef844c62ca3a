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

from drivers.gpio.debounce import earliest


IDLE_PERIOD_S = 1.0
"""The tick when nothing needs polling: a display write that failed is tried again at least this often."""
DUE_SLACK_S = 0.001
"""A deadline this close is due (the loop's timer may fire a little early)."""


class LoopTicker:
    """Calls ``devices.update(loop.time())`` every ``period`` seconds, at the devices' deadlines, and on ``wake``.

    When every input wakes the loop on its edges (``devices.needs_polling`` false), a run that only an output's
    deadline brought (the sign's next scroll step, the tower's next blink) draws the outputs only
    (``devices.update_outputs``): the inputs are read on a wake, at their own deadlines and at the safety net's
    tick (``IDLE_PERIOD_S``), not at every frame of the sign.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop, period: float = 0.05) -> None:
        self._loop = loop
        self._period = period
        self._devices: Any = None
        self._handle: asyncio.TimerHandle | None = None
        self._inputs_due = 0.0  # the safety net's next full update
        self._inputs_next: float | None = None  # the inputs' next deadline, as the last full update left it
        self._retick_queued = False

    def wake(self) -> None:
        """Safe from any thread: ask the loop to look at the devices now."""
        if self._devices is not None:
            self._loop.call_soon_threadsafe(self._run, True)

    def retick(self) -> None:
        """On the loop: an output was shown anew (the sign's content, the tower's pattern); the next run comes at
        the outputs' new deadline (drawn then, the outputs only, unless an input is due)."""
        if self._devices is not None and not self._retick_queued:
            self._retick_queued = True
            self._loop.call_soon(self._retick_now)

    def _retick_now(self) -> None:
        self._retick_queued = False
        self._run()

    def start(self, devices: Any) -> None:
        """Begin ticking (call on the loop's thread)."""
        self._devices = devices
        self._run(True)

    def stop(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
        self._devices = None

    def _run(self, woken: bool = False) -> None:
        devices = self._devices
        if devices is None:
            return
        now = self._loop.time()
        # every input wakes the loop on its edges and every output says when it next changes: the periodic tick
        # is then only a safety net, not a 50 Hz poll (an expander without an INT line still needs the poll)
        polling = getattr(devices, "needs_polling", True)
        period = self._period if polling else max(self._period, IDLE_PERIOD_S)
        split = all(hasattr(devices, name) for name in ("update_outputs", "inputs_deadline", "outputs_deadline"))
        inputs_next = self._inputs_next
        if woken or polling or not split or now >= self._inputs_due or \
                (inputs_next is not None and inputs_next <= now + DUE_SLACK_S):
            devices.update(now)
            self._inputs_due = now + period
            # the inputs' own deadlines change only when they are read: kept until the next full update
            self._inputs_next = devices.inputs_deadline() if split else None
        else:
            devices.update_outputs(now)
        deadline = earliest(self._inputs_next, devices.outputs_deadline()) if split else devices.deadline()
        due = self._inputs_due
        if deadline is not None:
            due = min(due, max(deadline, now))
        if self._handle is not None:
            self._handle.cancel()
        self._handle = self._loop.call_at(due, self._run)
