"""The LED sign on luma's dummy device, against reference PNGs, plus its timing and formatting rules."""

from __future__ import annotations

import pytest
from luma.core.device import dummy

from drivers.displays import examples
from drivers.displays.font import text_width
from drivers.displays.sign import (ResultMark, Sign, SignContent, Timing, cycle_length,
                                   format_amount, frame_at, items, selftest_patterns)
from tests.drivers.displays.reference_images import check_reference

WIDTH = 64


def lit(image) -> int:
    return image.convert("L").histogram()[255]


def sign() -> tuple[Sign, dummy]:
    device = dummy(width=WIDTH, height=8, mode="1")
    return Sign(device), device


@pytest.mark.parametrize("name,content,t", [
    ("sign-roulette-title", examples.ROULETTE, 0.0),
    ("sign-roulette-inside-start", examples.ROULETTE, 3.5),
    ("sign-roulette-inside-end", examples.ROULETTE, 3.0 + Timing().duration(
        text_width("Inside 10-500 kr"), WIDTH) - 0.2),
    ("sign-roulette-results", examples.ROULETTE, cycle_length(examples.ROULETTE, WIDTH) - 0.2),
    ("sign-tarning-title", examples.TARNING, 0.0),
    ("sign-sic-bo-limit", examples.SIC_BO, 3.2),
    ("sign-punto-banco-results", examples.PUNTO_BANCO, cycle_length(examples.PUNTO_BANCO, WIDTH) - 0.5),
])
def test_sign_frames_match_reference(name, content, t):
    device_sign, device = sign()
    device_sign.show(content, 100.0)
    device_sign.update(100.0 + t)
    check_reference(device.image, name)


def test_paging_order_and_timing():
    content = examples.BLACKJACK
    strips = items(content)
    assert len(strips) == 2  # title, one limit, no results
    assert text_width("Black Jack") <= WIDTH  # fits: centred, 3 s
    first = frame_at(content, WIDTH, 0.0)
    assert frame_at(content, WIDTH, 2.99).tobytes() == first.tobytes()
    assert frame_at(content, WIDTH, 3.0).tobytes() != first.tobytes()
    assert frame_at(content, WIDTH, cycle_length(content, WIDTH)).tobytes() == first.tobytes()


def test_scrolling_moves_one_led_at_a_time_and_stops_at_the_end():
    content = SignContent("A very long game name that cannot fit")
    width = text_width(content.title)
    timing = Timing(hold=1.0, speed=10.0)
    duration = timing.duration(width, WIDTH)
    assert duration == pytest.approx(2.0 + (width - WIDTH) / 10.0)
    start = frame_at(content, WIDTH, 0.5, timing)
    assert frame_at(content, WIDTH, 1.0, timing).tobytes() == start.tobytes()
    one = frame_at(content, WIDTH, 1.1, timing)
    # one LED to the left: column x of the new frame is column x+1 of the start frame
    for x in range(WIDTH - 1):
        for y in range(8):
            assert one.getpixel((x, y)) == start.getpixel((x + 1, y))
    end = frame_at(content, WIDTH, duration - 0.01, timing)
    assert frame_at(content, WIDTH, duration - 0.5, timing).tobytes() == end.tobytes()


def test_the_device_is_written_only_when_the_picture_changes():
    writes = []

    class Counting(dummy):
        def display(self, image):
            writes.append(1)
            super().display(image)

    device = Counting(width=WIDTH, height=8, mode="1")
    s = Sign(device)
    s.show(examples.BLACKJACK, 0.0)
    for i in range(25):
        s.update(i * 0.1)
    assert len(writes) == 1
    s.show(examples.BLACKJACK, 2.6)  # same content: no restart
    s.update(3.0)
    assert len(writes) == 2


def test_amounts_are_exact_without_floats():
    assert format_amount(5000) == "50"
    assert format_amount(12550) == "125.50"
    assert format_amount(100050) == "1000.50"
    assert format_amount(7, 100) == "0.07"
    assert format_amount(1500, 1) == "1500"
    with pytest.raises(ValueError):
        format_amount(-1)


def test_result_colours_are_drawn_differently():
    red, black, green = (items(SignContent("x", results=(ResultMark("8", c),)))[-1] for c in ("red", "black", "green"))
    assert red.tobytes() != black.tobytes() != green.tobytes()
    assert lit(red) > lit(black)  # inverse: mostly lit
    assert all(green.getpixel((x, 7)) for x in range(green.width))  # underlined
    with pytest.raises(ValueError, match="unknown result colour 'blue'"):
        items(SignContent("x", results=(ResultMark("8", "blue"),)))


def test_sign_must_be_one_line():
    with pytest.raises(ValueError, match="8 LEDs"):
        Sign(dummy(width=64, height=16, mode="1"))


def test_selftest_patterns_on_the_device():
    s, device = sign()
    patterns = selftest_patterns(WIDTH)
    s.show_image(patterns[0][1])
    assert lit(device.image) == WIDTH * 8
    s.show_image(patterns[1][1])
    check_reference(device.image, "sign-selftest-checker")
    s.show_image(patterns[2][1])
    check_reference(device.image, "sign-selftest-text")


def test_nordic_letters_have_their_own_glyphs():
    from drivers.displays.font import glyph_columns

    assert glyph_columns("Ö") != glyph_columns("O") and glyph_columns("ä") != glyph_columns("a")
    assert glyph_columns("ä")[1] & 1 and not glyph_columns("a")[1] & 1  # the dots sit in the top row
    assert all(len(glyph_columns(ch)) == 6 for ch in "ÄÖÜÅÆØæø")
    assert glyph_columns("\u4e2d") == glyph_columns("?")  # not in CP437: a question mark


@pytest.mark.parametrize("content", [examples.ROULETTE, examples.PUNTO_BANCO, examples.BLACKJACK,
                                     SignContent("A very long game name that cannot fit on the sign")])
def test_the_frame_stays_until_the_layout_says_it_changes(content):
    from drivers.displays.sign import Layout

    layout = Layout(content, WIDTH)
    t = 0.0
    changes = 0
    while t < layout.cycle * 1.5:
        wait = layout.until_change(t)
        assert wait is not None and wait > 0
        frame = layout.frame(t).tobytes()
        for fraction in (0.25, 0.5, 0.9):
            assert layout.frame(t + wait * fraction).tobytes() == frame
        t += wait + 1e-6  # just past the change (the deadline itself may fall a rounding short of it)
        changes += layout.frame(t).tobytes() != frame
    assert changes > 0


def test_a_sign_at_rest_is_not_redrawn_and_a_single_page_never_changes():
    writes = []

    class Counting(dummy):
        def display(self, image):
            writes.append(1)
            super().display(image)

    s = Sign(Counting(width=WIDTH, height=8, mode="1"))
    s.show(SignContent("Roulette"), 0.0)
    s.update(0.0)
    assert s.deadline() is None
    s.show(examples.ROULETTE, 1.0)
    s.update(1.0)
    due = s.deadline()
    assert due == pytest.approx(4.0)  # the title, centred, for 3 s
    for i in range(1, 20):
        s.update(1.0 + i * 0.1)
    assert len(writes) == 1  # the same title, centred: the picture did not change, so the chips were not written
    s.update(due)
    assert len(writes) == 2
