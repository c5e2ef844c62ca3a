"""The host side of the shoe/shuffler protocol: one link per device, in its own thread.

What it guarantees (docs/devices/shoe-protocol.md): every data frame is
delivered at most once and in the device's order; a frame is acknowledged only
after it was handed to the caller; a damaged frame is never delivered and a
resend is asked for; a duplicate (the sequence number just delivered) is
acknowledged again and dropped; the sequence state survives unplugs, so cards
stay exact across a reconnect. Data frames are taken only after the device has
said hello with the expected kind and protocol version.

Usage::

    link = ShoeLink("/dev/tablectl/shoe", emit=callback, kind="shoe")
    link.start()
    ...
    link.counters()   # a LinkCounters snapshot for the console and the status light
    link.stop()
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from drivers.seriallink import Emit, PortRunner
from drivers.shoe import events
from drivers.shoe.protocol import Frame, FrameParser, Garbage, encode

log = logging.getLogger(__name__)

PROTOCOL_VERSION = 1
KINDS = ("shoe", "shuffler")


@dataclass(frozen=True, slots=True)
class LinkCounters:
    """A snapshot of one link's counters (monotonic since the link object was made).

    ``retransmits`` counts the resends this end asked for (NAKs sent);
    ``duplicates`` the frames that arrived again after delivery (acknowledged,
    dropped). ``last_heartbeat_age`` is the seconds since the last good frame
    of any kind (None before the first); every good frame proves the device alive.
    """

    connected: bool
    frames_good: int
    bad_crc: int
    resyncs: int
    retransmits: int
    duplicates: int
    reconnects: int
    last_heartbeat_age: float | None
    delivered: int
    unknown_types: int
    ignored_before_hello: int
    sequence_gaps: int
    bytes_in: int


class ShoeLink(PortRunner):
    """Speaks the framed protocol to one shoe or shuffler and emits ``drivers.shoe.events`` records."""

    def __init__(self, url: str, emit: Emit, *, kind: str = "shoe", baudrate: int = 115200,
                 heartbeat_interval: float = 1.0, heartbeat_timeout: float = 3.0, hello_interval: float = 0.5,
                 host_id: str = "tablectl", read_timeout: float = 0.02, backoff_max: float = 1.0) -> None:
        if kind not in KINDS:
            raise ValueError(f"link kind {kind!r}: expected one of {', '.join(KINDS)}")
        super().__init__(url, emit, baudrate=baudrate, read_timeout=read_timeout, backoff_max=backoff_max)
        self.device = kind
        self.kind = kind
        self.heartbeat_interval = heartbeat_interval
        self.heartbeat_timeout = heartbeat_timeout
        self.hello_interval = hello_interval
        self.host_id = host_id
        self._parser = FrameParser()
        self._linked = False
        self._last_seq: int | None = None  # the last data sequence number delivered; survives reconnects
        self._boot: str | None = None
        self._last_rx: float | None = None
        self._last_tx = 0.0
        self._last_hello = 0.0
        self._silent_since = 0.0
        self._frames_good = self._bad_crc = self._resyncs = self._naks = self._duplicates = 0
        self._delivered = self._unknown = self._early = self._gaps = self._bytes_in = 0

    def counters(self) -> LinkCounters:
        """A consistent-enough snapshot (plain int reads; safe from any thread)."""
        last = self._last_rx
        return LinkCounters(
            connected=self._linked, frames_good=self._frames_good, bad_crc=self._bad_crc, resyncs=self._resyncs,
            retransmits=self._naks, duplicates=self._duplicates, reconnects=self.reconnects,
            last_heartbeat_age=None if last is None else max(0.0, time.monotonic() - last),
            delivered=self._delivered, unknown_types=self._unknown, ignored_before_hello=self._early,
            sequence_gaps=self._gaps, bytes_in=self._bytes_in)

    # -- PortRunner hooks -----------------------------------------------------------------------

    def on_open(self, now: float) -> None:
        self._parser = FrameParser()
        self._linked = False
        self._silent_since = now
        self._send_hello(now)

    def on_data(self, data: bytes, now: float) -> None:
        self._bytes_in += len(data)
        for result in self._parser.feed(data):
            if isinstance(result, Garbage):
                self._resyncs += 1
                if result.bad_crc:
                    self._bad_crc += 1
                if result.damaged:
                    self._send(0 if self._last_seq is None else (self._last_seq + 1) % 256, "NAK", now)
                    self._naks += 1
                log.debug("%s link: dropped %d byte(s): %s", self.kind, result.consumed, result.reason)
            else:
                self._frames_good += 1
                self._last_rx = now
                self._on_frame(result.frame, now)

    def on_tick(self, now: float) -> None:
        if now - self._last_tx >= self.heartbeat_interval:
            self._send(0, "HBT", now)
        if not self._linked:
            if now - self._last_hello >= self.hello_interval:
                self._send_hello(now)
            return
        last = max(self._last_rx or 0.0, self._silent_since)
        if now - last > self.heartbeat_timeout:
            self._linked = False
            self.fault(f"no frame from the {self.kind} for {self.heartbeat_timeout:.1f} s (device silent or cable cut)")
            self._send_hello(now)

    def next_tick(self, now: float) -> float | None:
        """Until the next heartbeat to send, hello to repeat or silence to call a fault."""
        due = self._last_tx + self.heartbeat_interval
        if not self._linked:
            due = min(due, self._last_hello + self.hello_interval)
        else:
            due = min(due, max(self._last_rx or 0.0, self._silent_since) + self.heartbeat_timeout)
        return max(0.0, due - now) + 0.001  # just past the deadline: on_tick compares with >= and >

    def on_lost(self, reason: str) -> None:
        self._linked = False
        self.fault(reason)

    # -- protocol -------------------------------------------------------------------------------

    def _send(self, seq: int, type_: str, now: float, payload: str = "") -> None:
        self.write(encode(seq, type_, payload))
        self._last_tx = now

    def _send_hello(self, now: float) -> None:
        self._send(0, "HEL", now, f"ver={PROTOCOL_VERSION} kind=host id={self.host_id}")
        self._last_hello = now

    def _on_frame(self, frame: Frame, now: float) -> None:
        t = frame.type
        if t == "HBT" or t == "ACK" or t == "NAK":
            return  # the host sends no data frames, so there is nothing to acknowledge or resend
        if t == "HEL":
            self._on_hello(frame, now)
            return
        if not self._linked:
            self._early += 1  # not acknowledged: the device sends it again after the hello
            return
        if frame.seq == self._last_seq:
            self._duplicates += 1
            self._send(frame.seq, "ACK", now)
            return
        event = events.frame_to_event(frame)
        if event is None:
            self._unknown += 1
            log.warning("%s link: unknown frame type %r (payload %r) acknowledged and ignored",
                        self.kind, t, frame.payload)
        if self._last_seq is not None and frame.seq != (self._last_seq + 1) % 256:
            self._gaps += 1
            self.emit(events.LinkFault(f"{self.kind} sequence gap: expected {(self._last_seq + 1) % 256:02X}, "
                                       f"got {frame.seq:02X}; a frame may be missing"))
        self._last_seq = frame.seq
        if event is not None:
            self._delivered += 1
            self.emit(event)
        self._send(frame.seq, "ACK", now)

    def _on_hello(self, frame: Frame, now: float) -> None:
        kv = events.key_values(frame.payload)
        version, kind = kv.get("ver", ""), kv.get("kind", "")
        if kind == "host":
            return  # our own hello echoed back (a loop-back cable or an echoing terminal)
        if version != str(PROTOCOL_VERSION):
            self._linked = False
            self.fault(f"the {self.kind} speaks protocol version {version or '(none)'}; "
                       f"this driver speaks {PROTOCOL_VERSION}")
            return
        if kind != self.kind:
            self._linked = False
            self.fault(f"expected a {self.kind} on {self.url}, found {kind or 'an unknown device'} "
                       f"{kv.get('id', '')}".rstrip())
            return
        boot = kv.get("boot", "")
        restarted = self._boot is not None and boot != self._boot
        if restarted or self._boot is None:
            self._last_seq = None  # a new device session: its sequence numbers start afresh
        self._boot = boot
        was_linked = self._linked
        self._linked = True
        if not was_linked or restarted:
            self.emit(events.DeviceIdentity(kind, kv.get("id", ""), kv.get("fw", ""), PROTOCOL_VERSION, restarted))
            self.restored()
