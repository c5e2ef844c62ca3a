"""The wheel reader's status line, as auto wheels and wheel readers send it (docs/devices/wheel-reader.md).

One ASCII line per status, as publicly described for the Cammegh wheels::

    *X:2:552:24:0:439:1<CR><LF>
    *X ; state ; spin ; number ; warnings ; rotor speed ; direction

Fields are separated by ``:`` or ``;`` (either, per field). ``state`` is 1
game start, 2 rotor turning, 3 ball in track, 4 no more bets, 5 winning
number, 6 table closed. ``number`` is the winning number (only meaningful in
state 5; other states repeat the previous one). ``warnings`` is a bit set: 1
ball not sensed, 2 ball spun the same way as the rotor, 4 sensor or motor
fault, 8 void game or failed launch. Rotor speed and direction are passed
through as numbers. State, spin, number and warnings are required; speed and
direction may be missing; fields after direction are ignored (newer firmware).

Bytes before the last ``*X`` of a line (noise) are dropped. The line has no
checksum: a flipped bit inside a digit reads as another digit, which is why
the reader can ask for a number to be confirmed by a repeated line.

``parse_line`` is a pure function of one line; ``LineSplitter`` cuts a byte
stream into lines (CR, LF or CR LF) and drops over-long runs without a line end.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

STATES = {1: "game start", 2: "rotor turning", 3: "ball in track", 4: "no more bets", 5: "winning number",
          6: "table closed"}
WARNINGS = {1: "ball not sensed", 2: "ball spun the same way as the rotor", 4: "sensor or motor fault",
            8: "void game or failed launch"}
VOID_FLAGS = 1 | 2 | 8
FAULT_FLAGS = 4
MAX_NUMBER = 36
MAX_LINE = 120
_FIELD = re.compile(r"[0-9]{1,6}")


class LineError(ValueError):
    """Not a status line this driver understands; the message says why."""


@dataclass(frozen=True, slots=True)
class WheelStatus:
    """One decoded status line."""

    state: int
    spin: int
    number: int
    warnings: int
    rotor_speed: int | None = None
    direction: int | None = None

    @property
    def state_name(self) -> str:
        return STATES[self.state]


def parse_line(line: bytes | str) -> WheelStatus:
    """Decode one line (without or with its line end); raises ``LineError`` for anything else."""
    raw = line.encode("latin-1", "replace") if isinstance(line, str) else bytes(line)
    start = raw.rfind(b"*X")
    if start > 0:
        raw = raw[start:]  # noise before the status (a burst on the line) is dropped, the status kept
    try:
        text = raw.decode("ascii")
    except UnicodeDecodeError:
        raise LineError("not ASCII") from None
    text = text.strip(" \t\r\n\x00")
    if len(text) > MAX_LINE:
        raise LineError("line too long")
    if not text.startswith("*X") or len(text) < 3 or text[2] not in ":;":
        raise LineError("not a *X status line")
    fields = re.split(r"[:;]", text[3:])
    if len(fields) < 4:
        raise LineError(f"{len(fields)} field(s), expected at least state, spin, number and warnings")
    for i, field in enumerate(fields[:6]):
        if not _FIELD.fullmatch(field):
            raise LineError(f"field {i + 1} {field!r} is not a number")
    state, spin, number, warnings = (int(f) for f in fields[:4])
    if state not in STATES:
        raise LineError(f"unknown state {state}")
    if number > MAX_NUMBER:
        raise LineError(f"number {number} is not on a 0..{MAX_NUMBER} wheel")
    speed = int(fields[4]) if len(fields) > 4 else None
    direction = int(fields[5]) if len(fields) > 5 else None
    return WheelStatus(state, spin, number, warnings, speed, direction)


def format_line(status: WheelStatus, separator: str = ":") -> bytes:
    """The line a wheel sends for ``status`` (CR LF included); the emulator and the docs use it."""
    fields = [status.state, status.spin, status.number, status.warnings]
    if status.rotor_speed is not None:
        fields.append(status.rotor_speed)
        if status.direction is not None:
            fields.append(status.direction)
    return ("*X" + "".join(f"{separator}{f}" for f in fields) + "\r\n").encode("ascii")


class LineSplitter:
    """Cuts bytes into lines; an over-long run without a line end is dropped and counted in ``overlong``."""

    def __init__(self, max_line: int = MAX_LINE) -> None:
        self._buf = bytearray()
        self._max = max_line
        self._skipping = False
        self.overlong = 0

    def feed(self, data: bytes) -> list[bytes]:
        out: list[bytes] = []
        buf = self._buf
        start = 0
        for i, byte in enumerate(data):
            if byte == 0x0D or byte == 0x0A:
                piece = data[start:i]
                if self._skipping:
                    self._skipping = False
                elif buf or piece:
                    buf += piece
                    out.append(bytes(buf))
                buf.clear()
                start = i + 1
        rest = data[start:]
        if not self._skipping:
            buf += rest
            if len(buf) > self._max:
                self.overlong += 1
                buf.clear()
                self._skipping = True
        return out
