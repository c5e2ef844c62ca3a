"""The LED bet-limit sign: a chain of MAX7219 8x8 modules, one line of text 8 LEDs high.

``Sign.show(content, now)`` takes what the players should read: the game's
name, the minimum and maximum per spot, and the last results where the game
has them. The sign pages through these items; an item that fits is shown
centred for ``dwell`` seconds, one that does not fit is shown from its start,
scrolled at ``speed`` LEDs per second to its end, and held there briefly.

The matrices light in one colour only, so a result's colour is drawn as a
shape: ``red`` inverse (dark digits on a lit block), ``black`` plain,
``green`` (the zero) plain and underlined. Which result has which colour is
the caller's business (it knows the game); this driver only draws.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from PIL import Image

from controller import money

from drivers.displays.font import draw_text, text_width

COLOURS = ("red", "black", "green")
MAX_FRAMES_KEPT = 4096
"""Frames of one content kept drawn (``Layout.drawn``): a few hundred bytes each, bounded for any content."""
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
    decimal: str = "."
    """The decimal mark of the table's language (``12,05`` in Swedish), for a limit that is not whole."""


def format_amount(minor: int, minor_per_major: int = 100) -> str:
    """``5000`` -> ``50``, ``12550`` -> ``125.50``: whole units without decimals, exact otherwise (no floats);
    the table's one money formatter (controller/money.py)."""
    if minor < 0:
        raise ValueError("a limit cannot be negative")
    return money.format_amount(minor, minor_per_major, whole=True)


def limit_text(limit: SpotLimit, content: SignContent) -> str:
    low = format_amount(limit.minimum, content.minor_per_major).replace(".", content.decimal)
    high = format_amount(limit.maximum, content.minor_per_major).replace(".", content.decimal)
    unit = f" {content.currency}" if content.currency else ""
    return f"{limit.label} {low}-{high}{unit}"


def _result_widths(content: SignContent) -> tuple[int, list[int]]:
    """(label width with its gap, each result's width): a red result is a lit block one LED wider each side."""
    widths = [text_width(m.text) + 2 if m.colour == "red" else text_width(m.text)
              for m in content.results]
    label_width = text_width(content.results_label) + MARK_GAP if content.results_label else 0
    return label_width, widths


def results_width(content: SignContent) -> int:
    """Width in LEDs of the results strip, without drawing it."""
    label_width, widths = _result_widths(content)
    return max(1, label_width + sum(widths) + MARK_GAP * max(0, len(widths) - 1))


def results_strip(content: SignContent) -> Image.Image:
    """The last results side by side, as one 8-row strip."""
    label_width, widths = _result_widths(content)
    strip = Image.new("1", (results_width(content), 8))
    pixels = strip.load()
    assert pixels is not None  # a loaded image always has its pixel access
    x = 0
    if content.results_label:
        draw_text(strip, 0, content.results_label)
        x = label_width
    for mark, width in zip(content.results, widths):
        if mark.colour is not None and mark.colour not in COLOURS:
            raise ValueError(f"unknown result colour {mark.colour!r} (known: {', '.join(COLOURS)})")
        if mark.colour == "red":
            strip.paste(255, (x, 0, x + width, 8))
            draw_text(strip, x + 1, mark.text, inverse=True)
        else:
            draw_text(strip, x, mark.text)
            if mark.colour == "green":
                for px in range(x, min(x + width, strip.width)):
                    pixels[px, 7] = 255
        x += width + MARK_GAP
    return strip


def text_strip(text: str) -> Image.Image:
    strip = Image.new("1", (max(1, text_width(text)), 8))
    draw_text(strip, 0, text)
    return strip


def _pages(content: SignContent) -> list[tuple[int, Callable[[], Image.Image]]]:
    """The pages in order (title, one per spot limit, then the results), each as (width, draw)."""
    for mark in content.results:
        if mark.colour is not None and mark.colour not in COLOURS:
            raise ValueError(f"unknown result colour {mark.colour!r} (known: {', '.join(COLOURS)})")
    texts = [content.title] + [limit_text(limit, content) for limit in content.limits]
    out: list[tuple[int, Callable[[], Image.Image]]] = [
        (max(1, text_width(t)), lambda t=t: text_strip(t)) for t in texts]  # type: ignore[misc]
    if content.results:
        out.append((results_width(content), lambda: results_strip(content)))
    for label, marks in content.boards:  # the board's pages: drawn as results with their own label
        page = SignContent(content.title, results=marks, results_label=label)
        out.append((results_width(page), lambda page=page: results_strip(page)))  # type: ignore[misc]
    return out


def items(content: SignContent) -> list[Image.Image]:
    """The pages of the sign in order: title, one per spot limit, then the results."""
    return [draw() for _, draw in _pages(content)]


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
        pages = _pages(content)
        self.widths = [w for w, _ in pages]
        self._draw = [d for _, d in pages]
        self._strips: list[Image.Image | None] = [None] * len(pages)
        self._frames: dict[tuple[int, int], tuple[Image.Image, bytes]] = {}  # the frames drawn, by key
        self.durations = [timing.duration(w, width) for w in self.widths]
        self.cycle = sum(self.durations)

    def strip(self, index: int) -> Image.Image:
        """Page ``index``, drawn the first time it is shown (a new content costs one page, not all)."""
        strip = self._strips[index]
        if strip is None:
            strip = self._strips[index] = self._draw[index]()
        return strip

    def _place(self, t: float) -> tuple[int, float, int]:
        """(page, seconds into it, scroll offset) ``t`` seconds after the content was shown."""
        local = t % self.cycle
        index = len(self.durations) - 1
        for i, duration in enumerate(self.durations):
            if local < duration:
                index = i
                break
            local -= duration
        width = self.widths[index]
        offset = 0
        if width > self.width:
            offset = min(width - self.width, max(0, int((local - self.timing.hold) * self.timing.speed)))
        return index, local, offset

    def key(self, t: float) -> tuple[int, int]:
        """What the frame at ``t`` shows (page, offset): equal keys, equal frames."""
        index, _, offset = self._place(t)
        return index, offset

    def until_change(self, t: float) -> float | None:
        """Seconds from ``t`` until the frame may change (None: a single page that fits never changes)."""
        if len(self.widths) == 1 and self.widths[0] <= self.width:
            return None
        index, local, offset = self._place(t)
        rest = self.durations[index] - local
        if self.widths[index] <= self.width or offset >= self.widths[index] - self.width:
            return max(rest, 1e-3)
        step = self.timing.hold + (offset + 1) / self.timing.speed - local
        return max(min(step, rest), 1e-3)

    def frame(self, t: float) -> Image.Image:
        """The 1-bit image shown ``t`` seconds after the content was shown."""
        index, _, offset = self._place(t)
        strip = self.strip(index)
        if strip.width > self.width:  # a scroll step: the window of the strip, a new image of the sign's size
            return strip.crop((offset, 0, offset + self.width, 8))
        frame = Image.new("1", (self.width, 8))
        frame.paste(strip, ((self.width - strip.width) // 2, 0))
        return frame


    def drawn(self, t: float, key: tuple[int, int] | None = None) -> tuple[tuple[int, int], Image.Image, bytes]:
        """The key, the frame and its bytes at ``t``, each frame drawn once per content: the sign cycles through
        the same frames while its content stays, so a scroll step after the first cycle only looks one up. The
        frames are the sign's own (never changed once drawn); ``frame`` draws a fresh one. ``key``: ``key(t)``,
        when the caller has it already."""
        key = self.key(t) if key is None else key
        known = self._frames.get(key)
        if known is None:
            image = self.frame(t)
            known = (image, image.tobytes())
            if len(self._frames) < MAX_FRAMES_KEPT:
                self._frames[key] = known
        return key, known[0], known[1]


def frame_at(content: SignContent, width: int, t: float, timing: Timing = Timing()) -> Image.Image:
    """The 1-bit image the sign shows ``t`` seconds after ``content`` was shown."""
    return Layout(content, width, timing).frame(t)


def cycle_length(content: SignContent, width: int, timing: Timing = Timing()) -> float:
    """Seconds until the sign shows its first page again."""
    return sum(timing.duration(w, width) for w, _ in _pages(content))


class Sign:
    """The sign on a luma device (8 rows high): ``show`` sets the content, ``update`` draws the frame for ``now``."""

    def __init__(self, device: Any, timing: Timing = Timing()) -> None:
        if device.height != 8:
            raise ValueError(f"the sign is one line of 8 LEDs; this device is {device.height} high")
        self.device = device
        self.timing = timing
        self.content: SignContent | None = None
        self._layout: Layout | None = None
        self._started = self._updated = 0.0
        self._last: bytes | None = None
        self._key: tuple[int, int] | None = None  # the page and offset last drawn

    def show(self, content: SignContent, now: float) -> None:
        """Show ``content`` from the next ``update`` (which talks to the chips); the same content does not restart."""
        if content != self.content:
            self._layout = Layout(content, self.device.width, self.timing)
            self.content = content
            self._started = self._updated = now
            self._key = None

    def show_image(self, image: Image.Image) -> None:
        """Self-test: show a fixed image until the next ``show``."""
        self.content = self._layout = None
        self._key = None
        self._draw(image.convert("1"))

    def update(self, now: float) -> None:
        """Draw the frame for ``now``; nothing is drawn while the frame stays what was drawn last."""
        if self._layout is None:
            return
        t = now - self._started
        self._updated = now
        key = self._layout.key(t)
        if key == self._key:
            return
        key, frame, data = self._layout.drawn(t, key)
        self._draw(frame, data)  # a failed write raises: the key stays, it is tried again next time
        self._key = key

    def deadline(self) -> float | None:
        """When the frame next changes after the last ``update`` (None: not until the next ``show``)."""
        if self._layout is None:
            return None
        wait = self._layout.until_change(self._updated - self._started)
        return None if wait is None else self._updated + wait

    def _draw(self, image: Image.Image, data: bytes | None = None) -> None:
        data = image.tobytes() if data is None else data
        if data != self._last:  # only talk to the chips when the picture changes
            self.device.display(image if image.mode == self.device.mode else image.convert(self.device.mode))
            self._last = data  # only once sent: a failed write is tried again on the next update


def selftest_patterns(width: int) -> list[tuple[str, Image.Image]]:
    """Self-test pictures: every LED lit, a checkerboard, and a text, with the question to ask about each."""
    lit = Image.new("1", (width, 8), 1)
    checker = Image.new("1", (width, 8))
    pixels = checker.load()
    assert pixels is not None  # a loaded image always has its pixel access
    for x in range(width):
        for y in range(8):
            if (x + y) % 2 == 0:
                pixels[x, y] = 255
    text = Image.new("1", (width, 8))
    label = "TEST 0123456789"[: max(4, width // 6)]
    draw_text(text, max(0, (width - text_width(label)) // 2), label)
    return [("Is every LED of the sign lit?", lit),
            ("Does the sign show a fine checkerboard with no dark or lit stripes?", checker),
            (f"Does the sign read \"{label}\" (as much as fits), left to right?", text)]
