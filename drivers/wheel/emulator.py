"""A wheel-reader emulator: Cammegh-style ``*X`` status lines on a real pseudo-terminal.

``spin()`` queues one game (states 1, 2, 3, 4, 5, each line sent ``repeat``
times, ``state_delay`` seconds apart) with a seeded or given winning number
and optional warning flags; ``close_table()`` sends state 6. ``LineFaults``
spoil transmissions on request (noise, flipped bits, dropped and duplicated
lines) and the wheel can be unplugged and replugged. Used by ``tablectl
emulate wheel``, the tests and the daemon's ``--simulate``.
"""

from __future__ import annotations

import random
import threading
import time
from collections import deque
from typing import Callable

from drivers.ptydevice import LineFaults, PtyPort, SpoilingWriter
from drivers.wheel.protocol import MAX_NUMBER, WheelStatus, format_line


class WheelEmulator:
    """One emulated wheel behind a pty; ``start()`` returns the path the reader opens."""

    def __init__(self, *, link_path: str | None = None, seed: int = 0, first_spin: int = 1, separator: str = ":",
                 repeat: int = 1, state_delay: float = 0.0, faults: LineFaults = LineFaults(),
                 log: Callable[[str], None] | None = None, keepalive: float | None = None) -> None:
        if separator not in (":", ";"):
            raise ValueError("separator must be ':' or ';'")
        self._numbers = random.Random(seed)
        self._rng = random.Random(faults.seed)
        self.faults = faults
        self.separator = separator
        self.repeat = max(1, repeat)
        self.state_delay = state_delay
        self.spin_number = first_spin
        self.last_number = 0
        self.keepalive = keepalive  # resend the last status line every so many seconds while idle, as wheels do
        self._last_line: bytes | None = None
        self._last_sent = 0.0
        self._log = log
        self._pty = PtyPort(link_path)
        self._line = SpoilingWriter(self._pty, faults, self._rng)
        self._lock = threading.Lock()
        self._queue: deque[bytes | Callable[[], None]] = deque()
        self._idle = threading.Condition(self._lock)
        self._busy = False
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> str:
        path = self._pty.plug()
        self._thread = threading.Thread(target=self._run, name="emulated wheel", daemon=True)
        self._thread.start()
        return path

    @property
    def path(self) -> str:
        return self._pty.path

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(2.0)
            self._thread = None
        self._pty.drain(0.5)  # let the driver read what was sent before the line goes away
        self._pty.unplug()

    # -- what the wheel does ------------------------------------------------------------------

    def spin(self, number: int | None = None, warnings: int = 0, rotor_speed: int = 439,
             direction: int = 1) -> int:
        """Queue one game; returns the winning number (drawn from the seeded generator if not given)."""
        if number is None:
            number = self._numbers.randrange(MAX_NUMBER + 1)
        if not 0 <= number <= MAX_NUMBER:
            raise ValueError(f"number {number} is not on a 0..{MAX_NUMBER} wheel")
        spin = self.spin_number
        for state in (1, 2, 3, 4, 5):
            shown = number if state == 5 else self.last_number
            self.send_status(WheelStatus(state, spin, shown, warnings if state >= 3 else 0, rotor_speed, direction))
        self.last_number = number
        self.spin_number += 1
        return number

    def close_table(self) -> None:
        self.send_status(WheelStatus(6, self.spin_number, self.last_number, 0, 0, 1))

    def send_status(self, status: WheelStatus) -> None:
        for _ in range(self.repeat):
            self.send_line(format_line(status, self.separator))

    def send_line(self, line: bytes) -> None:
        """Queue raw bytes as one line (tests use it for malformed and unknown lines)."""
        with self._lock:
            self._queue.append(line)
        self._wake.set()

    def wait_done(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        with self._idle:
            while self._queue or self._busy:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._idle.wait(left)
        return True

    def unplug(self) -> None:
        self._control(self._pty.unplug)

    def replug(self) -> str:
        self._control(self._pty.plug)
        return self._pty.path

    def _control(self, action: Callable[[], object]) -> None:
        """Run ``action`` in line order (after what is already queued)."""
        done = threading.Event()

        def run() -> None:
            try:
                action()
            finally:
                done.set()
        with self._lock:
            self._queue.append(run)
        self._wake.set()
        if not done.wait(10.0):
            raise TimeoutError("the emulated wheel did not carry out the command")

    # -- the thread ----------------------------------------------------------------------------

    @property
    def sent(self) -> int:
        return self._line.sent

    @property
    def dropped(self) -> int:
        return self._line.dropped

    @property
    def duplicated(self) -> int:
        return self._line.duplicated

    @property
    def flipped(self) -> int:
        return self._line.flipped

    @property
    def noise_bursts(self) -> int:
        return self._line.noise_bursts

    def _run(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                item = self._queue.popleft() if self._queue else None
                self._busy = item is not None
            if item is None:
                self._pty.read()  # the wheel ignores what the host sends
                if self.keepalive and self._last_line is not None and \
                        time.monotonic() - self._last_sent >= self.keepalive:
                    self._line.transmit(self._last_line)
                    self._last_sent = time.monotonic()
                self._pty.flush()
                self._wake.wait(0.5)  # woken by send and stop; the wheel ignores what the host sends
                self._wake.clear()
                with self._idle:
                    if not self._queue:
                        self._idle.notify_all()
                continue
            if callable(item):
                item()
            else:
                if self._log is not None:
                    self._log(f"sending {item.decode('ascii', 'replace').strip()}")
                self._line.transmit(item)
                self._last_line, self._last_sent = item, time.monotonic()
                give_up = time.monotonic() + 1.0  # nobody reading: a real line loses the bytes too
                while self._pty.pending_out and not self._stop.is_set() and time.monotonic() < give_up:
                    self._pty.wait(0.05)
                    self._pty.flush()
                if self.state_delay:
                    self._stop.wait(self.state_delay)
            with self._idle:
                self._busy = False
                if not self._queue:
                    self._idle.notify_all()


CONSOLE_HELP = "spin [NUMBER] [warnings=FLAGS] | close | line TEXT | noise [BYTES] | unplug [SECONDS] | help | quit"


def console_command(emu: WheelEmulator, line: str) -> str:
    """Carry out one typed command (``tablectl emulate wheel --interactive``); returns what to print."""
    word, _, rest = line.strip().partition(" ")
    word = word.lower()
    try:
        if not word:
            return ""
        if word == "spin":
            number: int | None = None
            warnings = 0
            for item in rest.split():
                if item.startswith("warnings="):
                    warnings = int(item.partition("=")[2])
                else:
                    number = int(item)
            return f"spin {emu.spin_number}: {emu.spin(number, warnings=warnings)}"
        if word == "close":
            emu.close_table()
            return "table closed"
        if word == "line":
            emu.send_line(rest.encode("ascii", "replace") + b"\r\n")
            return "sent"
        if word == "noise":
            rng = random.Random()
            emu.send_line(bytes(rng.randrange(256) for _ in range(int(rest) if rest else 16)))
            return "noise sent"
        if word == "unplug":
            seconds = float(rest) if rest else 3.0
            emu.unplug()
            time.sleep(max(0.0, seconds))
            return f"plugged back in at {emu.replug()}"
        if word == "help":
            return CONSOLE_HELP
        return f"unknown command {word!r}; {CONSOLE_HELP}"
    except ValueError as exc:
        return f"{word}: {exc}"
