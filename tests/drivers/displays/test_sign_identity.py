"""The sign's fast drawing gives the same pixels as drawing LED by LED with ``putpixel`` (the oracle below)."""

from __future__ import annotations

import random

import pytest
from PIL import Image

from drivers.displays import examples
from drivers.displays.font import draw_text, glyph_columns, text_width
from drivers.displays.sign import (COLOURS, MARK_GAP, Layout, ResultMark, SignContent, SpotLimit, Timing,
                                   cycle_length, items, limit_text, selftest_patterns)

WIDTH = 64


def slow_draw_text(image: Image.Image, x: int, text: str, inverse: bool = False) -> int:
    for column in glyph_columns(text):
        for y in range(8):
            lit = bool(column >> y & 1) != inverse
            if 0 <= x < image.width and y < image.height:
                image.putpixel((x, y), int(lit))
        x += 1
    return x


def slow_results_strip(content: SignContent) -> Image.Image:
    widths = [text_width(m.text) + 2 if m.colour == "red" else text_width(m.text) for m in content.results]
    label_width = text_width(content.results_label) + MARK_GAP if content.results_label else 0
    total = label_width + sum(widths) + MARK_GAP * max(0, len(widths) - 1)
    strip = Image.new("1", (max(1, total), 8))
    x = 0
    if content.results_label:
        slow_draw_text(strip, 0, content.results_label)
        x = label_width
    for mark, width in zip(content.results, widths):
        if mark.colour == "red":
            for px in range(x, x + width):
                for y in range(8):
                    strip.putpixel((px, y), 1)
            slow_draw_text(strip, x + 1, mark.text, inverse=True)
        else:
            slow_draw_text(strip, x, mark.text)
            if mark.colour == "green":
                for px in range(x, x + width):
                    strip.putpixel((px, 7), 1)
        x += width + MARK_GAP
    return strip


def slow_items(content: SignContent) -> list[Image.Image]:
    out = []
    for text in [content.title] + [limit_text(limit, content) for limit in content.limits]:
        strip = Image.new("1", (max(1, text_width(text)), 8))
        slow_draw_text(strip, 0, text)
        out.append(strip)
    if content.results:
        out.append(slow_results_strip(content))
    return out


def random_content(rng: random.Random) -> SignContent:
    alphabet = "ABCXYZabcxyz0123456789 -/.,ÄÖÜÅÆØäöüåæøé€?!"
    text = lambda n: "".join(rng.choice(alphabet) for _ in range(n))  # noqa: E731
    limits = tuple(SpotLimit(text(rng.randint(1, 12)), rng.randint(0, 10**5), rng.randint(10**5, 10**7))
                   for _ in range(rng.randint(0, 3)))
    results = tuple(ResultMark(text(rng.randint(1, 5)), rng.choice((None,) + COLOURS)) for _ in range(rng.randint(0, 10)))
    return SignContent(text(rng.randint(0, 30)), limits, results, text(rng.randint(0, 8)) if rng.random() < 0.5 else "",
                       rng.choice(("", "kr", "EUR")))


CONTENTS = [examples.ROULETTE, examples.BLACKJACK, examples.TARNING, examples.SIC_BO, examples.PUNTO_BANCO,
            *(random_content(random.Random(seed)) for seed in range(60))]


@pytest.mark.parametrize("index", range(len(CONTENTS)))
def test_pages_are_the_pixels_of_drawing_led_by_led(index):
    content = CONTENTS[index]
    assert [s.tobytes() for s in items(content)] == [s.tobytes() for s in slow_items(content)]
    assert [s.size for s in items(content)] == [s.size for s in slow_items(content)]


@pytest.mark.parametrize("index", range(0, len(CONTENTS), 7))
def test_frames_drawn_page_by_page_are_the_frames_of_all_pages_drawn_at_once(index):
    content, timing = CONTENTS[index], Timing()
    layout = Layout(content, WIDTH, timing)
    strips = slow_items(content)
    durations = [timing.duration(s.width, WIDTH) for s in strips]
    assert layout.durations == durations
    for step in range(int(cycle_length(content, WIDTH) * 10) + 5):
        t = step / 10
        local, page = t % sum(durations), len(strips) - 1
        for i, d in enumerate(durations):
            if local < d:
                page = i
                break
            local -= d
        strip = strips[page]
        expected = Image.new("1", (WIDTH, 8))
        if strip.width <= WIDTH:
            expected.paste(strip, ((WIDTH - strip.width) // 2, 0))
        else:
            offset = min(strip.width - WIDTH, max(0, int((local - timing.hold) * timing.speed)))
            expected.paste(strip.crop((offset, 0, offset + WIDTH, 8)), (0, 0))
        assert layout.frame(t).tobytes() == expected.tobytes(), t


def test_text_off_the_edges_and_the_selftest_checker_are_the_same_pixels():
    for x in (-20, -3, 0, 5, 60, 64, 70):
        for inverse in (False, True):
            fast, slow = Image.new("1", (WIDTH, 8), 1), Image.new("1", (WIDTH, 8), 1)
            assert draw_text(fast, x, "Åtta 88 kr", inverse) == slow_draw_text(slow, x, "Åtta 88 kr", inverse)
            assert fast.tobytes() == slow.tobytes()
    checker = selftest_patterns(WIDTH)[1][1]
    slow = Image.new("1", (WIDTH, 8))
    for x in range(WIDTH):
        for y in range(8):
            if (x + y) % 2 == 0:
                slow.putpixel((x, y), 1)
    assert checker.tobytes() == slow.tobytes()
