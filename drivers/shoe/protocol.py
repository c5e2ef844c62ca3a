"""The shoe/shuffler frame format and its parser (docs/devices/shoe-protocol.md).

A frame is printable ASCII so that a technician can read it in a terminal::

    @ SS TTT [ PAYLOAD] * CCCC CR [LF]
    @07CRD Ah*3392<CR><LF>

``@`` starts a frame, ``SS`` is the sequence number (two upper-case hex
digits), ``TTT`` the type (three upper-case letters), the optional payload is
one space and 1..240 printable characters other than ``@`` and ``*``, ``*``
ends the payload, ``CCCC`` is the CRC-16/CCITT-FALSE (polynomial 0x1021,
initial 0xFFFF, upper-case hex) of every byte between ``@`` and ``*``, and a
CR or LF ends the frame.

``scan`` is a pure function of bytes: it says what the front of a buffer is
(``NeedMore``, ``Garbage`` or ``Good``) and how many bytes that took.
``FrameParser`` keeps the buffer between reads and applies ``scan`` in a loop.
"""

from __future__ import annotations

import binascii
import re
from dataclasses import dataclass

START = 0x40  # "@"
END_PAYLOAD = 0x2A  # "*"
LINE_ENDS = b"\r\n"
MAX_PAYLOAD = 240
MAX_FRAME = 1 + 2 + 3 + 1 + MAX_PAYLOAD + 1 + 4 + 2
_HEX = b"0123456789ABCDEF"
_UPPER = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_FRAME_RE = re.compile(rb"@([0-9A-F]{2})([A-Z]{3})((?: [\x20-\x29\x2B-\x3F\x41-\x7E]{1,%d})?)\*([0-9A-F]{4})[\r\n]"
                       % MAX_PAYLOAD)


def crc16(data: bytes | bytearray) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor); ``b"123456789"`` gives 0x29B1.

    ``binascii.crc_hqx`` is exactly this CRC with the initial value passed in (and runs in C).
    """
    return binascii.crc_hqx(data, 0xFFFF)


@dataclass(frozen=True, slots=True)
class Frame:
    """One good frame: sequence number 0..255, three-letter type, payload text (may be empty)."""

    seq: int
    type: str
    payload: str = ""


class FrameError(ValueError):
    """A frame that cannot be encoded (bad type, payload too long or with forbidden characters)."""


def encode(seq: int, type_: str, payload: str = "") -> bytes:
    """The bytes of one frame, CR LF included."""
    if not 0 <= seq <= 255:
        raise FrameError(f"sequence number {seq} is not 0..255")
    if len(type_) != 3 or not all("A" <= ch <= "Z" for ch in type_):
        raise FrameError(f"frame type {type_!r} is not three upper-case letters")
    if len(payload) > MAX_PAYLOAD:
        raise FrameError(f"payload of {len(payload)} characters is longer than {MAX_PAYLOAD}")
    for ch in payload:
        if not (" " <= ch <= "~") or ch in "@*":
            raise FrameError(f"payload character {ch!r} is not allowed (printable ASCII except @ and *)")
    body = f"{seq:02X}{type_}" + (f" {payload}" if payload else "")
    raw = body.encode("ascii")
    return b"@" + raw + b"*" + f"{crc16(raw):04X}".encode("ascii") + b"\r\n"


@dataclass(frozen=True, slots=True)
class NeedMore:
    """The buffer holds no complete frame yet; drop ``consumed`` bytes (line ends between frames) and read on."""

    consumed: int = 0


@dataclass(frozen=True, slots=True)
class Garbage:
    """``consumed`` bytes are not a frame; ``damaged`` when they began with ``@`` (a frame spoiled on the line)."""

    consumed: int
    reason: str
    damaged: bool
    bad_crc: bool = False


@dataclass(frozen=True, slots=True)
class Good:
    """One good frame taking ``consumed`` bytes."""

    consumed: int
    frame: Frame


ScanResult = NeedMore | Garbage | Good


def _skip_to_next_start(buf: bytes | bytearray, start: int) -> int:
    at = buf.find(b"@", start)
    return len(buf) if at < 0 else at


def scan(buf: bytes | bytearray) -> ScanResult:
    """What the front of ``buf`` is: need more bytes, garbage to drop (and resync at the next ``@``), or one frame."""
    n = len(buf)
    skip = 0
    while skip < n and buf[skip] in LINE_ENDS:
        skip += 1
    if skip == n:
        return NeedMore(skip)
    if buf[skip] != START:
        end = _skip_to_next_start(buf, skip)
        # Line ends after the noise are part of it; stop before the next "@".
        return Garbage(end, f"{end - skip} byte(s) outside any frame", damaged=False)
    if skip:
        return NeedMore(skip)  # drop the line ends first, so that a frame's offsets start at 0
    match = _FRAME_RE.match(buf)
    if match is not None:
        return _good(buf, match, 0)
    return _diagnose(buf)


def _good(buf: bytes | bytearray, match: re.Match[bytes], pos: int) -> Good | Garbage:
    """A frame the expression matched at ``pos``: good if its CRC is."""
    consumed = match.end() - pos
    if int(match.group(4), 16) != crc16(buf[pos + 1:match.start(4) - 1]):
        return Garbage(consumed, "bad CRC", damaged=True, bad_crc=True)
    payload = match.group(3)[1:].decode("ascii")
    return Good(consumed, Frame(int(match.group(1), 16), match.group(2).decode("ascii"), payload))


def _diagnose(buf: bytes | bytearray) -> NeedMore | Garbage:
    """The regular expression did not match at 0: is this the start of a frame, or garbage (and why)?"""
    n = len(buf)

    def bad(i: int, reason: str) -> Garbage:
        return Garbage(_skip_to_next_start(buf, max(i, 1)), reason, damaged=True)

    for i in range(1, min(n, 6)):
        allowed = _HEX if i < 3 else _UPPER
        if buf[i] not in allowed:
            return bad(i, "bad frame header")
    if n <= 6:
        return NeedMore(0)
    i = 6
    if buf[i] == 0x20:  # payload
        i += 1
        limit = 7 + MAX_PAYLOAD
        while i < n and buf[i] != END_PAYLOAD:
            byte = buf[i]
            if byte < 0x20 or byte > 0x7E or byte == START:
                return bad(i, f"byte 0x{byte:02X} not allowed in a payload")
            i += 1
            if i > limit:
                return bad(i, "payload too long")
        if i == n:
            return NeedMore(0)
        if i == 7:
            return bad(i, "empty payload after a space")
    if buf[i] != END_PAYLOAD:
        return bad(i, "bad frame header")
    for j in range(i + 1, min(n, i + 5)):
        if buf[j] not in _HEX:
            return bad(j, "bad CRC digits")
    if n <= i + 5:
        return NeedMore(0)
    return bad(i + 5, "no line end after the CRC")


class FrameParser:
    """Keeps the bytes between reads; ``feed`` returns the frames and garbage found, in order."""

    def __init__(self) -> None:
        self._buf = bytearray()

    def feed(self, data: bytes) -> list[Good | Garbage]:
        self._buf += data
        out: list[Good | Garbage] = []
        buf = self._buf
        pos = 0
        match = _FRAME_RE.match
        while pos < len(buf):
            m = match(buf, pos)
            if m is not None:  # the common case, without copying: one whole frame right here
                good = _good(buf, m, pos)
                out.append(good)
                pos += good.consumed
                continue
            view = buf if pos == 0 else buf[pos:pos + MAX_FRAME + 2]
            result = scan(view)
            if isinstance(result, NeedMore):
                pos += result.consumed
                if result.consumed == 0:
                    break
                continue
            out.append(result)
            pos += result.consumed
        del buf[:pos]
        return out

    @property
    def pending(self) -> int:
        """Bytes held back waiting for the rest of a frame."""
        return len(self._buf)
