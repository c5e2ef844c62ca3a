"""A shoe or shuffler emulator: the device side of the protocol, on a real pseudo-terminal.

It behaves as docs/devices/shoe-protocol.md says a device must: says hello
when the host does, numbers its data frames, sends one at a time and resends
it until acknowledged (at once on a NAK or a hello, else after
``retransmit_timeout``), and sends heartbeats. On request it spoils its own
transmissions (``Faults``: noise bursts, flipped bits, dropped and duplicated
frames, lost acknowledgements), and it can be unplugged and replugged.

Used by ``tablectl emulate shoe|shuffler``, by the tests and by the daemon's
``--simulate``; the caller's thread only queues work, the emulator's own
thread does all the I/O.
"""

from __future__ import annotations

import os
import random
import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import Callable, Iterable

from drivers.ptydevice import LineFaults, PtyPort, SpoilingWriter
from drivers.shoe import events
from drivers.shoe.link import PROTOCOL_VERSION
from drivers.shoe.protocol import FrameParser, Good, encode

RANKS = "23456789TJQKA"
SUITS = "cdhs"


def seeded_shoe(decks: int, seed: int) -> list[str]:
    """``decks`` 52-card decks shuffled with ``random.Random(seed)``, as card text."""
    if decks < 1:
        raise ValueError("a shoe needs at least one deck")
    cards = [r + s for _ in range(decks) for r in RANKS for s in SUITS]
    random.Random(seed).shuffle(cards)
    return cards


@dataclass(frozen=True, slots=True)
class Faults(LineFaults):
    """The line faults, and acknowledgements from the host ignored (as if lost on the line)."""

    ack_loss: float = 0.0


@dataclass(frozen=True, slots=True)
class EmulatorStats:
    sent: int
    acked: int
    retransmits: int
    dropped: int
    duplicated: int
    flipped: int
    noise_bursts: int
    queued: int

    def words(self) -> str:
        """The counters as a technician reads them (the interactive ``stats`` and the end-of-run line)."""
        return (f"{self.sent} frames sent, {self.acked} acknowledged, {self.retransmits} resent, "
                f"{self.queued} waiting; line faults: {self.dropped} dropped, {self.duplicated} duplicated, "
                f"{self.flipped} bits flipped, {self.noise_bursts} noise bursts")

    __str__ = words


class ShoeEmulator:
    """One emulated shoe or shuffler behind a pty; ``start()`` returns the path the driver opens."""

    def __init__(self, kind: str = "shoe", *, link_path: str | None = None, faults: Faults = Faults(),
                 device_id: str = "EMU-0001", firmware: str = "emu-1", boot: str | None = None,
                 retransmit_timeout: float = 0.25, heartbeat_interval: float = 1.0,
                 log: Callable[[str], None] | None = None,
                 on_host_frame: Callable[[str, int], None] | None = None) -> None:
        if kind not in ("shoe", "shuffler"):
            raise ValueError(f"emulator kind {kind!r}: expected shoe or shuffler")
        self.kind = kind
        self.faults = faults
        self.device_id = device_id
        self.firmware = firmware
        self.boot = boot or f"{random.Random(faults.seed ^ 0x5EED).randrange(0x10000):04X}"
        self.retransmit_timeout = retransmit_timeout
        self.heartbeat_interval = heartbeat_interval
        self._log = log
        self._on_host_frame_cb = on_host_frame  # sees every host frame as it arrives (the kill tests use it)
        self._rng = random.Random(faults.seed)
        self._pty = PtyPort(link_path)
        self._line = SpoilingWriter(self._pty, faults, self._rng)
        self._lock = threading.Lock()
        self._queue: deque[tuple[str, str]] = deque()
        self._commands: deque[Callable[[], None]] = deque()
        self._idle = threading.Condition(self._lock)
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._seq = 0
        self._outstanding: tuple[int, str, str] | None = None
        self._sent_at = 0.0
        self._last_tx = 0.0
        self._sent = self._acked = self._retx = 0

    # -- control (any thread) -------------------------------------------------------------------

    def start(self) -> str:
        """Open the pty and start the device thread; returns the path the driver should open."""
        path = self._pty.plug()
        self._thread = threading.Thread(target=self._run, name=f"emulated {self.kind}", daemon=True)
        self._thread.start()
        return path

    @property
    def path(self) -> str:
        return self._pty.path

    def stop(self) -> None:
        self._stop.set()
        self._wake()
        if self._thread is not None:
            self._thread.join(2.0)
            self._thread = None
        self._pty.drain(0.5)  # let the driver read what was sent before the line goes away
        self._pty.unplug()
        for fd in (self._wake_r, self._wake_w):
            try:
                os.close(fd)
            except OSError:
                pass

    def send(self, event: events.ShoeEvent) -> None:
        """Queue one device event (a card, a jam, a deck check ...) to be sent reliably."""
        self.send_raw(*events.event_to_frame(event))

    def send_raw(self, type_: str, payload: str = "") -> None:
        encode(0, type_, payload)  # refuse what could never be a frame, here rather than in the thread
        with self._lock:
            self._queue.append((type_, payload))
        self._wake()

    def deal(self, cards: Iterable[str]) -> None:
        for card in cards:
            self.send(events.CardDealt(card))

    def wait_done(self, timeout: float) -> bool:
        """True once every queued frame has been acknowledged by the host."""
        deadline = time.monotonic() + timeout
        with self._idle:
            while self._queue or self._outstanding is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._idle.wait(left)
        return True

    def unplug(self) -> None:
        """Pull the cable: the pty closes and its path disappears."""
        self._command(self._pty.unplug)

    def replug(self) -> str:
        """Plug back in (a new pty behind the same symlink); returns the path."""
        self._command(self._pty.plug)
        return self._pty.path

    def noise(self, nbytes: int = 16) -> None:
        """Send ``nbytes`` random bytes now."""
        self._command(lambda: self._pty.write(bytes(self._rng.randrange(256) for _ in range(nbytes))))

    def stats(self) -> EmulatorStats:
        with self._lock:
            queued = len(self._queue) + (self._outstanding is not None)
        line = self._line
        return EmulatorStats(self._sent, self._acked, self._retx, line.dropped, line.duplicated, line.flipped,
                             line.noise_bursts, queued)

    def _command(self, action: Callable[[], object]) -> None:
        if self._thread is None:
            action()
            return
        done = threading.Event()

        def run() -> None:
            try:
                action()
            finally:
                done.set()
        with self._lock:
            self._commands.append(run)
        self._wake()
        if not done.wait(5.0):
            raise TimeoutError(f"the emulated {self.kind} did not carry out the command")

    def _wake(self) -> None:
        try:
            os.write(self._wake_w, b"!")
        except OSError:
            pass

    # -- the device thread ----------------------------------------------------------------------

    def _say(self, text: str) -> None:
        if self._log is not None:
            self._log(text)

    def _send_link(self, type_: str, seq: int = 0, payload: str = "") -> None:
        self._line.transmit(encode(seq, type_, payload))
        self._last_tx = time.monotonic()

    def _send_outstanding(self, again: bool) -> None:
        assert self._outstanding is not None
        seq, type_, payload = self._outstanding
        if again:
            self._retx += 1
        self._line.transmit(encode(seq, type_, payload))
        self._sent_at = self._last_tx = time.monotonic()

    def _on_host_frame(self, type_: str, seq: int) -> None:
        if self._on_host_frame_cb is not None:
            self._on_host_frame_cb(type_, seq)
        if type_ == "HEL":
            self._send_link("HEL", 0, f"ver={PROTOCOL_VERSION} kind={self.kind} id={self.device_id} "
                                      f"fw={self.firmware} boot={self.boot}")
            if self._outstanding is not None:
                self._send_outstanding(again=True)
        elif type_ == "ACK" and self._outstanding is not None and seq == self._outstanding[0]:
            if self.faults.ack_loss and self._rng.random() < self.faults.ack_loss:
                return
            self._acked += 1
            self._say(f"acknowledged {seq:02X} {self._outstanding[1]} {self._outstanding[2]}".rstrip())
            with self._lock:
                self._outstanding = None
                if not self._queue:
                    self._idle.notify_all()
        elif type_ == "NAK" and self._outstanding is not None:
            self._send_outstanding(again=True)

    def _run(self) -> None:
        parser = FrameParser()
        self._send_link("HEL", 0, f"ver={PROTOCOL_VERSION} kind={self.kind} id={self.device_id} "
                                  f"fw={self.firmware} boot={self.boot}")
        while not self._stop.is_set():
            with self._lock:
                commands = list(self._commands)
                self._commands.clear()
            for command in commands:
                command()
                parser = FrameParser()
            try:
                while os.read(self._wake_r, 512):
                    pass
            except (BlockingIOError, OSError):
                pass
            data = self._pty.read()
            if data:
                for result in parser.feed(data):
                    if isinstance(result, Good):
                        self._on_host_frame(result.frame.type, result.frame.seq)
            now = time.monotonic()
            if self._outstanding is None:
                with self._lock:
                    item = self._queue.popleft() if self._queue else None
                if item is not None:
                    self._outstanding = (self._seq, item[0], item[1])
                    self._seq = (self._seq + 1) % 256
                    self._sent += 1
                    self._say(f"sending {self._outstanding[0]:02X} {item[0]} {item[1]}".rstrip())
                    self._send_outstanding(again=False)
            elif now - self._sent_at >= self.retransmit_timeout:
                self._send_outstanding(again=True)
            if now - self._last_tx >= self.heartbeat_interval:
                self._send_link("HBT")
            self._pty.flush()
            deadline = self.heartbeat_interval - (now - self._last_tx)
            if self._outstanding is not None:
                deadline = min(deadline, self.retransmit_timeout - (now - self._sent_at))
            self._pty.wait(min(max(deadline, 0.0), 0.5), self._wake_r)  # woken by the host, send and stop


CONSOLE_HELP = ("card CARD... | cut | empty | open | close | jam [WORDS] | unreadable [WORDS] | tamper [WORDS] | "
                "door-open | door-closed | shuffle [WORDS] | done [N] | deck [n=N] [missing=C,C] [extra=C] "
                "[foreign=X] | noise [BYTES] | unplug [SECONDS] | stats | help | quit")


def console_command(emu: ShoeEmulator, line: str) -> str:
    """Carry out one typed command (``tablectl emulate --interactive``); returns what to print."""
    word, _, rest = line.strip().partition(" ")
    rest = rest.strip()
    word = word.lower()
    simple: dict[str, events.ShoeEvent] = {"cut": events.CutCard(), "empty": events.ShoeEmpty(),
                                           "open": events.ShoeState(closed=False),
                                           "close": events.ShoeState(closed=True), "door-open": events.DoorOpen(),
                                           "door-closed": events.DoorClosed()}
    detailed: dict[str, Callable[[str], events.ShoeEvent]] = {"jam": events.Jam, "unreadable": events.Unreadable, "tamper": events.Tamper,
                "shuffle": events.ShuffleStarted}
    try:
        if not word:
            return ""
        if word == "card":
            cards = rest.replace(",", " ").split()
            if not cards:
                return "card: which card? e.g. card Ah"
            emu.deal(cards)
            return f"queued {len(cards)} card(s)"
        if word in simple:
            emu.send(simple[word])
        elif word in detailed:
            emu.send(detailed[word](rest))
        elif word == "done":
            emu.send(events.ShuffleDone(int(rest) if rest else None))
        elif word == "deck":
            emu.send_raw("DCK", rest)
        elif word == "noise":
            emu.noise(int(rest) if rest else 16)
            return "noise sent"
        elif word == "unplug":
            seconds = float(rest) if rest else 3.0
            emu.unplug()
            time.sleep(max(0.0, seconds))
            return f"plugged back in at {emu.replug()}"
        elif word == "stats":
            return emu.stats().words()
        elif word == "help":
            return CONSOLE_HELP
        else:
            return f"unknown command {word!r}; {CONSOLE_HELP}"
    except ValueError as exc:
        return f"{word}: {exc}"
    return "queued"
