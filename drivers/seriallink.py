"""What every serial device link shares: opening a pyserial URL, a reader thread, reconnect with backoff.

A port is any pyserial URL (``/dev/ttyUSB0``, a udev name such as
``/dev/tablectl/shoe``, ``socket://host:port``, ``rfc2217://host:port`` or a
pty path), opened 8-N-1 at the configured baud rate with an exclusive lock
where the platform has one. ``PortRunner`` owns the port in its own thread:
it opens it, hands every byte read to ``on_data``, calls ``on_tick`` at least
every ``read_timeout`` seconds, and when the port vanishes (an unplugged USB
adapter raises on the next read) it reports one ``LinkFault``, closes the
port and retries with a doubling backoff capped at ``backoff_max`` so that a
port coming back is picked up within about a second.

Events leave the thread only through the ``emit`` callback given by the
caller (the daemon passes ``lambda ev: loop.call_soon_threadsafe(queue.put_nowait, ev)``).
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable

import serial

log = logging.getLogger(__name__)

Emit = Callable[[Any], None]


@dataclass(frozen=True, slots=True)
class LinkFault:
    """The link to a device is down or not to be trusted (port vanished, silent device, protocol mismatch).

    Reported once per outage; ``LinkRestored`` follows when the device is back.
    """

    reason: str


@dataclass(frozen=True, slots=True)
class LinkRestored:
    """The device answers again after a ``LinkFault``."""


def open_port(url: str, baudrate: int, timeout: float) -> serial.SerialBase:
    """Open ``url`` 8-N-1 at ``baudrate`` (exclusive where supported); raises ``serial.SerialException``."""
    port = serial.serial_for_url(url, baudrate=baudrate, bytesize=serial.EIGHTBITS, parity=serial.PARITY_NONE,
                                 stopbits=serial.STOPBITS_ONE, timeout=timeout, write_timeout=1.0,
                                 exclusive=True, do_not_open=True)
    port.open()
    return port


MAX_BLOCK_S = 0.5
"""The longest a reader blocks in one read when nothing is due (``stop`` cancels the read sooner where it can)."""


class PortRunner:
    """A reader thread around one serial port, with reconnect; subclasses speak the device's protocol."""

    device = "device"

    def __init__(self, url: str, emit: Emit, *, baudrate: int = 115200, read_timeout: float = 0.02,
                 backoff_min: float = 0.05, backoff_max: float = 1.0) -> None:
        self.url = url
        self.baudrate = baudrate
        self._emit_cb = emit
        self._read_timeout = read_timeout
        self._backoff_min = backoff_min
        self._backoff_max = backoff_max
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._port: serial.SerialBase | None = None
        self._faulted = False
        self._opened_before = False
        self.opens = 0
        self.reconnects = 0

    # -- lifecycle -------------------------------------------------------------------------------

    def start(self) -> None:
        """Start the reader thread (returns at once; the port is opened, and reopened, in the thread)."""
        if self._thread is not None:
            raise RuntimeError(f"{self.device} link already started")
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=f"{self.device}:{self.url}", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        """Stop the thread and close the port; safe to call twice."""
        self._stop.set()
        port = self._port
        if port is not None:
            try:
                port.cancel_read()
            except Exception:  # noqa: BLE001 - not every URL handler can cancel; the read times out anyway
                pass
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    # -- for subclasses -------------------------------------------------------------------------

    def emit(self, event: Any) -> None:
        """Hand one event to the caller; a failing callback is logged, never kills the link."""
        try:
            self._emit_cb(event)
        except Exception:  # noqa: BLE001 - the caller's bug must not stop the cards
            log.exception("%s link: event callback failed on %r", self.device, event)

    def fault(self, reason: str) -> None:
        """Report a ``LinkFault`` unless this outage was already reported."""
        if not self._faulted:
            self._faulted = True
            log.warning("%s link %s: %s", self.device, self.url, reason)
            self.emit(LinkFault(reason))

    def restored(self) -> None:
        """The device is back: report ``LinkRestored`` if a fault was reported."""
        if self._faulted:
            self._faulted = False
            log.info("%s link %s: restored", self.device, self.url)
            self.emit(LinkRestored())

    @property
    def faulted(self) -> bool:
        return self._faulted

    def write(self, data: bytes) -> None:
        """Write from the reader thread (the only thread that touches the port)."""
        if self._port is not None:
            self._port.write(data)

    def on_open(self, now: float) -> None:
        """The port has just been opened."""

    def on_data(self, data: bytes, now: float) -> None:
        """Bytes arrived."""

    def on_tick(self, now: float) -> None:
        """Called after every read, and by ``next_tick``'s time at the latest while the port is open."""

    def next_tick(self, now: float) -> float | None:
        """Seconds from ``now`` until ``on_tick`` has work without new bytes (None: poll every ``read_timeout``).

        The reader blocks in the port's read (a ``select`` on the tty) until bytes come or this time is up,
        so an idle link costs nothing between its heartbeats.
        """
        return None

    def on_lost(self, reason: str) -> None:
        """The port failed and was closed; the default reports a fault."""
        self.fault(reason)

    # -- the thread -----------------------------------------------------------------------------

    def _run(self) -> None:
        delay = self._backoff_min
        while not self._stop.is_set():
            try:
                port = open_port(self.url, self.baudrate, self._read_timeout)
            except (serial.SerialException, OSError, ValueError) as exc:
                self.fault(f"{self.device} port {self.url} cannot be opened: {_reason(exc)}")
                self._stop.wait(delay)
                delay = min(delay * 2, self._backoff_max)
                continue
            delay = self._backoff_min
            self._port = port
            self.opens += 1
            if self._opened_before:
                self.reconnects += 1
            self._opened_before = True
            reason = self._pump(port)
            self._port = None
            try:
                port.close()
            except Exception:  # noqa: BLE001 - closing a vanished port may fail; it is gone either way
                pass
            if self._stop.is_set():
                break
            self.on_lost(reason)
            self._stop.wait(self._backoff_min)

    def _pump(self, port: serial.SerialBase) -> str:
        clock = time.monotonic
        try:
            now = clock()
            self.on_open(now)
            while not self._stop.is_set():
                waiting = port.in_waiting
                if waiting <= 0:  # block until a byte comes or on_tick is due (at most MAX_BLOCK_S)
                    due = self.next_tick(now)
                    timeout = self._read_timeout if due is None else min(max(due, self._read_timeout), MAX_BLOCK_S)
                    if port.timeout != timeout:
                        port.timeout = timeout
                data = port.read(waiting if waiting > 0 else 1)
                now = clock()
                if data:
                    self.on_data(data, now)
                self.on_tick(now)
        except (serial.SerialException, OSError) as exc:
            return f"{self.device} port {self.url} lost (unplugged?): {_reason(exc)}"
        except Exception as exc:  # noqa: BLE001 - a bug must show as a fault, not a dead thread
            log.exception("%s link %s: unexpected error", self.device, self.url)
            return f"{self.device} link {self.url} failed: {exc!r}"
        return "stopped"


def _reason(exc: BaseException) -> str:
    text = str(exc).strip() or exc.__class__.__name__
    if "returned no data" in text:
        return "the port hung up"  # pyserial's words for a tty that vanished under an open read
    return text.splitlines()[0][:200]
