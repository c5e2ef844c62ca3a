"""The wheel-reader link: status lines in, ``drivers.wheel.events`` out, in its own thread.

The wheel only talks (no acknowledgements, no heartbeat in its protocol), so
the link checks what it can: a vanished port is reported at once and
reopened with backoff; with ``silence_timeout`` set, a wheel that sends no
good line for that long is reported as a ``LinkFault`` (wheels that repeat
their status every second or so make this a heartbeat). Lines that are not
status lines are counted and logged (throttled), never fatal. The line has no
checksum: for a wheel that repeats its lines, ``confirmations=2`` makes a
number count only once two state-5 lines agree (docs/devices/wheel-reader.md).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from drivers.seriallink import MAX_BLOCK_S, Emit, PortRunner
from drivers.wheel.events import WheelNumber
from drivers.wheel.protocol import LineError, LineSplitter, parse_line
from drivers.wheel.tracker import WheelTracker

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class WheelCounters:
    """A snapshot of the wheel link's counters.

    ``resyncs`` counts over-long runs without a line end that were dropped;
    ``last_heartbeat_age`` is the seconds since the last good status line.
    """

    connected: bool
    lines_good: int
    unknown_lines: int
    resyncs: int
    reconnects: int
    last_heartbeat_age: float | None
    numbers: int
    suppressed_numbers: int


class WheelReader(PortRunner):
    """Reads one wheel's status stream and emits wheel events."""

    device = "wheel"

    def __init__(self, url: str, emit: Emit, *, baudrate: int = 9600, silence_timeout: float | None = None,
                 confirmations: int = 1, read_timeout: float = 0.05, backoff_max: float = 1.0) -> None:
        super().__init__(url, emit, baudrate=baudrate, read_timeout=read_timeout, backoff_max=backoff_max)
        self.silence_timeout = silence_timeout
        self._splitter = LineSplitter()
        self._tracker = WheelTracker(confirmations)
        self._connected = False
        self._last_line: float | None = None
        self._opened_at = 0.0
        self._good = self._unknown = self._numbers = 0
        self._silent = False

    def counters(self) -> WheelCounters:
        last = self._last_line
        return WheelCounters(self._connected, self._good, self._unknown, self._splitter.overlong, self.reconnects,
                             None if last is None else max(0.0, time.monotonic() - last), self._numbers,
                             self._tracker.suppressed)

    def on_open(self, now: float) -> None:
        self._splitter = LineSplitter()
        self._connected = True
        self._opened_at = now
        self._silent = False
        if self.silence_timeout is None:
            self.restored()

    def on_data(self, data: bytes, now: float) -> None:
        for line in self._splitter.feed(data):
            self.handle_line(line, now)

    def handle_line(self, line: bytes, now: float) -> None:
        """One line from the wheel (public so that tests and replays can drive the reader without a port)."""
        try:
            status = parse_line(line)
        except LineError as exc:
            self._unknown += 1
            if self._unknown <= 20 or self._unknown % 1000 == 0:
                log.warning("wheel %s: line %r ignored (%s); %d so far", self.url, line[:60], exc, self._unknown)
            return
        self._good += 1
        self._last_line = now
        if self._silent or (self.silence_timeout is not None and self.faulted):
            self._silent = False
            self.restored()
        for event in self._tracker.update(status):
            if isinstance(event, WheelNumber):
                self._numbers += 1
            self.emit(event)

    def on_tick(self, now: float) -> None:
        if self.silence_timeout is None or self._silent:
            return
        last = max(self._last_line or 0.0, self._opened_at)
        if now - last > self.silence_timeout:
            self._silent = True
            self.fault(f"no status line from the wheel for {self.silence_timeout:.1f} s")

    def next_tick(self, now: float) -> float | None:
        """Until the silence timeout would call a fault (nothing to do without one)."""
        if self.silence_timeout is None or self._silent:
            return MAX_BLOCK_S
        last = max(self._last_line or 0.0, self._opened_at)
        return max(0.0, last + self.silence_timeout - now) + 0.001

    def on_lost(self, reason: str) -> None:
        self._connected = False
        self.fault(reason)
