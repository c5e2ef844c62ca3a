"""The LED bet-limit sign: a chain of MAX7219 8x8 modules, one line of text 8 LEDs high.

``Sign.show(content, now)`` takes what the players should read: the game's
name, the minimum and maximum per spot, and the last results where the game
has them. The sign pages through these items; an item that fits is shown
centred for ``dwell`` seconds, one that does not fit is shown from its start,
scrolled at ``speed`` LEDs per second to its end, and held there briefly.

The matrices light in one colour only, so a result's colour is drawn as a
shape: ``red`` inverse (dark digits on a lit block), ``black`` plain,
``green`` (the zero) plain and underlined. Which result has which colour is
the caller's business (it knows the game); this driver only draws. After the
results come the pages of the game's last-results board (``boards``: hot and
cold numbers, the Punto Banco counts, the share of big and small throws).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PIL import Image

from drivers.displays.font import draw_text, text_width

COLOURS = ("red", "black", "green")
MARK_GAP = 3
"""Blank LEDs between two results."""


@dataclass(frozen=True, slots=True)
class SpotLimit:
    """Minimum and maximum stake on one spot, in minor units (öre, cent)."""

    label: str
    minimum: int
    maximum: int


@dataclass(frozen=True, slots=True)
class ResultMark:
    """One past result as the sign shows it: text (``17``, ``3 5 6``, ``B``) and an optional colour."""

    text: str
    colour: str | None = None


@dataclass(frozen=True, slots=True)
class SignContent:
    """Everything the sign shows, in the table's words. Amounts in minor units; ``minor_per_major`` is 100 for öre."""

    title: str
    limits: tuple[SpotLimit, ...] = ()
    results: tuple[ResultMark, ...] = ()
    results_label: str = ""
    currency: str = ""
    minor_per_major: int = 100
    boards: tuple[tuple[str, tuple[ResultMark, ...]], ...] = ()
    """More pages of the last-results board after the results: a label and its marks (``HOT`` 28 6 0;
    ``P 28 B 26 T 6`` with no marks)."""


def format_amount(minor: int, minor_per_major: int = 100) -> str:
    """``5000`` -> ``50``, ``12550`` -> ``125.50``: whole units without decimals, exact otherwise (no floats)."""
    if minor < 0:
        raise ValueError("a limit cannot be negative")
    major, rest = divmod(minor, minor_per_major)
    if rest == 0:
        return str(major)
    width = len(str(minor_per_major - 1))
    return f"{major}.{rest:0{width}d}"


def limit_text(limit: SpotLimit, content: SignContent) -> str:
    low = format_amount(limit.minimum, content.minor_per_major)
    high = format_amount(limit.maximum, content.minor_per_major)
    unit = f" {content.currency}" if content.currency else ""
    return f"{limit.label} {low}-{high}{unit}"


def results_strip(content: SignContent) -> Image.Image:
    """The last results side by side, as one 8-row strip."""
    return marks_strip(content.results_label, content.results)


def marks_strip(label: str, marks: tuple[ResultMark, ...]) -> Image.Image:
    """A label, then marks side by side (each in its colour's shape), as one 8-row strip."""
    widths = [text_width(m.text) + 2 if m.colour == "red" else text_width(m.text) for m in marks]
    label_width = text_width(label) + (MARK_GAP if marks else 0) if label else 0
    total = label_width + sum(widths) + MARK_GAP * max(0, len(widths) - 1)
    strip = Image.new("1", (max(1, total), 8))
    x = 0
    if label:
        draw_text(strip, 0, label)
        x = label_width
    for mark, width in zip(marks, widths):
        if mark.colour is not None and mark.colour not in COLOURS:
            raise ValueError(f"unknown result colour {mark.colour!r} (known: {', '.join(COLOURS)})")
        if mark.colour == "red":
            for px in range(x, x + width):
                for y in range(8):
                    strip.putpixel((px, y), 1)
            draw_text(strip, x + 1, mark.text, inverse=True)
        else:
            draw_text(strip, x, mark.text)
            if mark.colour == "green":
                for px in range(x, x + width):
                    strip.putpixel((px, 7), 1)
        x += width + MARK_GAP
    return strip


def text_strip(text: str) -> Image.Image:
    strip = Image.new("1", (max(1, text_width(text)), 8))
    draw_text(strip, 0, text)
    return strip


def items(content: SignContent) -> list[Image.Image]:
    """The pages of the sign in order: title, one per spot limit, then the results."""
    out = [text_strip(content.title)]
    out.extend(text_strip(limit_text(limit, content)) for limit in content.limits)
    if content.results:
        out.append(results_strip(content))
    out.extend(marks_strip(label, marks) for label, marks in content.boards)
    return out


@dataclass(frozen=True, slots=True)
class Timing:
    """How the sign pages and scrolls."""

    dwell: float = 3.0
    """Seconds an item that fits is shown."""
    speed: float = 24.0
    """LEDs per second while scrolling."""
    hold: float = 1.0
    """Seconds a scrolling item rests at its start and at its end."""

    def duration(self, strip_width: int, width: int) -> float:
        if strip_width <= width:
            return self.dwell
        return self.hold + (strip_width - width) / self.speed + self.hold


class Layout:
    """The rendered pages of one content at one width, with their durations (computed once per ``show``)."""

    def __init__(self, content: SignContent, width: int, timing: Timing = Timing()) -> None:
        self.width = width
        self.timing = timing
        self.strips = items(content)
        self.durations = [timing.duration(s.width, width) for s in self.strips]
        self.cycle = sum(self.durations)

    def frame(self, t: float) -> Image.Image:
        """The 1-bit image shown ``t`` seconds after the content was shown."""
        local = t % self.cycle
        strip = self.strips[-1]
        for strip, duration in zip(self.strips, self.durations):
            if local < duration:
                break
            local -= duration
        frame = Image.new("1", (self.width, 8))
        if strip.width <= self.width:
            frame.paste(strip, ((self.width - strip.width) // 2, 0))
        else:
            offset = min(strip.width - self.width, max(0, int((local - self.timing.hold) * self.timing.speed)))
            frame.paste(strip.crop((offset, 0, offset + self.width, 8)), (0, 0))
        return frame


def frame_at(content: SignContent, width: int, t: float, timing: Timing = Timing()) -> Image.Image:
    """The 1-bit image the sign shows ``t`` seconds after ``content`` was shown."""
    return Layout(content, width, timing).frame(t)


def cycle_length(content: SignContent, width: int, timing: Timing = Timing()) -> float:
    """Seconds until the sign shows its first page again."""
    return sum(timing.duration(s.width, width) for s in items(content))


class Sign:
    """The sign on a luma device (8 rows high): ``show`` sets the content, ``update`` draws the frame for ``now``."""

    def __init__(self, device: Any, timing: Timing = Timing()) -> None:
        if device.height != 8:
            raise ValueError(f"the sign is one line of 8 LEDs; this device is {device.height} high")
        self.device = device
        self.timing = timing
        self.content: SignContent | None = None
        self._layout: Layout | None = None
        self._started = 0.0
        self._last: bytes | None = None

    def show(self, content: SignContent, now: float) -> None:
        """Show ``content`` from the next ``update`` (which talks to the chips); the same content does not restart."""
        if content != self.content:
            self._layout = Layout(content, self.device.width, self.timing)
            self.content = content
            self._started = now

    def show_image(self, image: Image.Image) -> None:
        """Self-test: show a fixed image until the next ``show``."""
        self.content = self._layout = None
        self._draw(image.convert("1"))

    def update(self, now: float) -> None:
        if self._layout is None:
            return
        self._draw(self._layout.frame(now - self._started))

    def _draw(self, image: Image.Image) -> None:
        data = image.tobytes()
        if data != self._last:  # only talk to the chips when the picture changes
            self.device.display(image.convert(self.device.mode))
            self._last = data  # only once sent: a failed write is tried again on the next update


def selftest_patterns(width: int) -> list[tuple[str, Image.Image]]:
    """Self-test pictures: every LED lit, a checkerboard, and a text, with the question to ask about each."""
    lit = Image.new("1", (width, 8), 1)
    checker = Image.new("1", (width, 8))
    for x in range(width):
        for y in range(8):
            if (x + y) % 2 == 0:
                checker.putpixel((x, y), 1)
    text = Image.new("1", (width, 8))
    label = "TEST 0123456789"[: max(4, width // 6)]
    draw_text(text, max(0, (width - text_width(label)) // 2), label)
    return [("Is every LED of the sign lit?", lit),
            ("Does the sign show a fine checkerboard with no dark or lit stripes?", checker),
            (f"Does the sign read \"{label}\" (as much as fits), left to right?", text)]
