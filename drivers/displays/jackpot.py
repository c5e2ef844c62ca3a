"""The jackpot display: one MAX7219 driving eight seven-segment digits (no-decode mode).

``JackpotDisplay.show(amount, state, now)`` takes the progressive meter in
minor units and its state:

- ``ok``: the meter, with ``decimals`` digits after the point. A rise rolls up
  smoothly over ``roll`` seconds (the digits count up; integer arithmetic, no
  floats near money); a fall (a hit was paid, the meter reset) is shown at once.
- ``untrusted``: the meter cannot be trusted (journal or floor link fault): the
  last value alternates with the fault text every ``alternate`` seconds.
- ``pending``: a hit waits for the supervisor: ``PEnding``.

A value too wide for eight digits drops its decimals; wider still it shows
``--------`` rather than a wrong number.
"""

from __future__ import annotations

from typing import Any

from luma.led_matrix.segment_mapper import dot_muncher
from PIL import Image

DIGITS = 8
STATES = ("ok", "untrusted", "pending")
PENDING_TEXT = "PEnding"


def meter_text(amount: int, decimals: int = 2) -> str:
    """The meter as the eight digits show it (dots do not take a digit of their own)."""
    if amount < 0:
        raise ValueError("a jackpot meter is never negative")
    major, minor = divmod(amount, 10 ** decimals)
    if decimals and len(str(major)) + decimals <= DIGITS:
        return f"{major}.{minor:0{decimals}d}"
    if len(str(major)) <= DIGITS:
        return str(major)
    return "-" * DIGITS


def segments(text: str) -> bytes:
    """Eight segment bytes, right-aligned (bit 7 = DP, 6 = A, 5 = B ... 0 = G, as the MAX7219 takes them)."""
    data = bytes(dot_muncher(text, notfound=" "))
    if len(data) > DIGITS:
        raise ValueError(f"{text!r} needs {len(data)} digits; the display has {DIGITS}")
    return bytes(DIGITS - len(data)) + data


def segment_image(data: bytes) -> Image.Image:
    """The 8x8 1-bit image that makes the MAX7219 light ``data``: column x is digit register x, row y is bit y.

    The leftmost digit is register 7, as on the usual 8-digit modules (the same
    layout luma's ``sevensegment`` writes).
    """
    image = Image.new("1", (8, 8))
    for x, byte in enumerate(reversed(data)):
        for y in range(8):
            if byte >> y & 1:
                image.putpixel((x, y), 1)
    return image


def image_segments(image: Image.Image) -> bytes:
    """The inverse of ``segment_image``: the segment bytes, leftmost digit first."""
    out = []
    for x in range(8):
        out.append(sum(1 << y for y in range(8) if image.getpixel((x, y))))
    return bytes(reversed(out))


ROLL_STEP_S = 0.02
"""While the meter rolls up, the display is redrawn this often."""


class JackpotDisplay:
    """The jackpot display on a luma device 8x8 (a ``max7219`` or a ``dummy``)."""

    def __init__(self, device: Any, decimals: int = 2, roll: float = 2.0, alternate: float = 1.0,
                 fault_text: str = "FAULt") -> None:
        if (device.width, device.height) != (8, 8):
            raise ValueError("the jackpot display is one MAX7219 (8x8)")
        segments(fault_text)  # refuse a fault text that does not fit, now rather than on a fault
        self.device = device
        self.decimals = decimals
        self.roll = roll
        self.alternate = alternate
        self.fault_text = fault_text
        self.amount = 0
        self.state = "ok"
        self._from = 0
        self._since = 0.0
        self._last: bytes | None = None
        self._fixed: str | None = None
        self._shown = False
        self._updated = 0.0

    def show(self, amount: int, state: str, now: float) -> None:
        """Set what to show from the next ``update`` (which talks to the chip); refuses a bad state or amount."""
        if state not in STATES:
            raise ValueError(f"unknown jackpot display state {state!r} (known: {', '.join(STATES)})")
        if amount < 0:
            raise ValueError("a jackpot meter is never negative")
        self._fixed = None
        if not self._shown:  # the first value after start is shown at once, not rolled up from zero
            self._shown = True
            self.amount = self._from = amount
        if amount != self.amount:
            shown = self.value_at(now)
            self._from = shown if amount > shown else amount
            self.amount = amount
            self._since = now
        if state != self.state:
            self.state = state
            if state != "ok":
                self._since = now

    def show_text(self, text: str) -> None:
        """Self-test: show ``text`` (``8.8.8.8.8.8.8.8.`` lights every segment) until the next ``show``."""
        segments(text)
        self._fixed = text
        self._draw(text)

    def value_at(self, now: float) -> int:
        """The meter value shown at ``now`` while rolling up (integer steps, ends exactly on the amount)."""
        if self.roll <= 0 or self.amount <= self._from:
            return self.amount
        elapsed_ms = int((now - self._since) * 1000)
        roll_ms = int(self.roll * 1000)
        if elapsed_ms >= roll_ms:
            return self.amount
        return self._from + (self.amount - self._from) * max(0, elapsed_ms) // roll_ms

    def text_at(self, now: float) -> str:
        if self._fixed is not None:
            return self._fixed
        if self.state == "pending":
            return PENDING_TEXT
        text = meter_text(self.value_at(now), self.decimals)
        if self.state == "untrusted" and int((now - self._since) / self.alternate) % 2 == 1:
            return self.fault_text
        return text

    def update(self, now: float) -> None:
        self._updated = now
        self._draw(self.text_at(now))

    def deadline(self) -> float | None:
        """When the display next changes after the last ``update`` (None: not until the next ``show``)."""
        now = self._updated
        if self._fixed is not None or self.state == "pending":
            return None
        if self.value_at(now) < self.amount:
            return now + ROLL_STEP_S
        if self.state == "untrusted":
            return self._since + (int((now - self._since) / self.alternate) + 1) * self.alternate
        return None

    def _draw(self, text: str) -> None:
        data = segments(text)
        if data != self._last:
            self.device.display(segment_image(data).convert(self.device.mode))
            self._last = data  # only once sent: a failed write is tried again on the next update
