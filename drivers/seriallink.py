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

Exactly once (docs/runtime.md, "Exactly once"): a frame that carries a fact
(a card, a shuffler event, a wheel number) leaves the link as a ``Delivery``:
the event, the device's ``position`` (what the caller journals with it, in the
same transaction) and ``acknowledge``, which the caller calls only once that
transaction has committed. ``SequenceGate`` is the one rule every sequenced
device (shoe, shuffler, any later one) applies to its frame numbers: a frame
already committed is acknowledged again and dropped, a frame handed on but not
yet committed is dropped without an acknowledgement (the commit sends it), and
after a restart the caller hands the last journaled position back
(``PortRunner.resume``) so that a frame the journal already holds is
acknowledged and dropped, never applied twice.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

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
class SequenceGap:
    """A device skipped a frame number: a frame (a card) may be missing. Not a link outage (the link is up and
    the frame after the gap is delivered): the runtime latches it (``device_fault``) for the staff to look at
    the coup."""

    reason: str


@dataclass(frozen=True, slots=True)
class LinkRestored:
    """The device answers again after a ``LinkFault``."""


@dataclass(frozen=True, slots=True)
class Delivery:
    """A fact from a device, handed on unacknowledged.

    ``position`` is a small JSON mapping that says where in the device's
    stream this fact is (``{"session": BOOT, "seq": 7}`` for the shoe,
    ``{"spin": 552, "facts": [...]}`` for a wheel); the caller journals it in
    the transaction that holds the fact, calls ``acknowledge()`` (any thread)
    once that transaction has committed, and hands the last journaled position
    back with ``resume`` after a restart.
    """

    event: Any
    device: str
    position: Mapping[str, Any]
    acknowledge: Callable[[], None] = field(compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class UnknownFrame:
    """A data frame of a type this driver does not know: acknowledged (after its position is journaled), not used."""

    type: str
    payload: str = ""


def acknowledging(emit: Emit) -> Emit:
    """For a caller that journals nothing (a bench, a tool, a driver test): unwrap each ``Delivery``, pass on
    its event and acknowledge it at once. The daemon never uses this: it acknowledges after its commit."""
    def take(event: Any) -> None:
        if isinstance(event, Delivery):
            emit(event.event)
            event.acknowledge()
        else:
            emit(event)
    return take


class SequenceGate:
    """What to do with a sequenced data frame (session = the device's boot token, seq = its frame number).

    ``offer`` answers ``new`` (hand it on), ``again`` (already committed:
    acknowledge again and drop), ``waiting`` (handed on, not yet committed:
    drop, the commit acknowledges it) or ``gap`` (new, but the number is not
    the next one: hand it on and report that a frame may be missing). Only the
    link's own thread calls it; ``commit`` runs there too (queued by the
    delivery's ``acknowledge``).
    """

    def __init__(self, modulus: int = 256) -> None:
        self.modulus = modulus
        self.committed: tuple[str, int] | None = None
        self.inflight: tuple[str, int] | None = None

    def resume(self, session: str, seq: int) -> None:
        self.committed, self.inflight = (session, seq), None

    def expected(self) -> int:
        """The number the next new frame should carry (0 before any)."""
        return 0 if self.committed is None else (self.committed[1] + 1) % self.modulus

    def offer(self, session: str, seq: int) -> str:
        here = (session, seq)
        if here == self.committed:
            return "again"
        if here == self.inflight:
            return "waiting"
        latest = self.inflight or self.committed
        gap = latest is not None and latest[0] == session and seq != (latest[1] + 1) % self.modulus
        self.inflight = here
        return "gap" if gap else "new"

    def commit(self, session: str, seq: int) -> None:
        self.committed = (session, seq)
        if self.inflight == (session, seq):
            self.inflight = None


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
        self._outbox: deque[Callable[[], None]] = deque()
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

    def emit(self, event: Any) -> bool:
        """Hand one event to the caller (False if the callback failed: logged, never kills the link)."""
        try:
            self._emit_cb(event)
        except Exception:  # noqa: BLE001 - the caller's bug must not stop the cards
            log.exception("%s link: event callback failed on %r", self.device, event)
            return False
        return True

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

    def call_in_thread(self, job: Callable[[], None]) -> None:
        """Run ``job`` on the link's own thread (any thread may call this; acknowledgements come this way)."""
        self._outbox.append(job)
        port = self._port
        if port is not None:
            try:
                port.cancel_read()  # wake the read at once: an acknowledgement should not wait for the timeout
            except Exception:  # noqa: BLE001 - not every URL handler can cancel; the read times out anyway
                pass

    def deliver(self, event: Any, position: Mapping[str, Any], acknowledge: Callable[[], None]) -> bool:
        """Hand on a fact to be acknowledged after it is journaled (``acknowledge`` runs on this thread);
        False when the caller's callback failed (the fact was not taken: the device's resend is a new offer)."""
        return self.emit(Delivery(event, self.device, dict(position), lambda: self.call_in_thread(acknowledge)))

    def resume(self, position: Mapping[str, Any] | None) -> None:
        """The last position the caller journaled for this device (before ``start``); subclasses use it."""

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
                while self._outbox:
                    self._outbox.popleft()()
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
