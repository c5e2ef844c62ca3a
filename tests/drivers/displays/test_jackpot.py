"""The jackpot display on luma's dummy device: segment bits, rolling, alternating, pending; reference PNGs."""

from __future__ import annotations

import pytest
from luma.core.device import dummy

from drivers.displays.jackpot import JackpotDisplay, image_segments, meter_text, segment_image, segments
from tests.drivers.displays.reference_images import check_reference


def display(**kwargs) -> tuple[JackpotDisplay, dummy]:
    device = dummy(width=8, height=8, mode="1")
    return JackpotDisplay(device, **kwargs), device


def shown(device) -> bytes:
    return image_segments(device.image)


def test_segment_bits_as_the_max7219_takes_them():
    assert segments("8") == bytes(7) + b"\x7f"  # A..G lit, no DP, rightmost digit
    assert segments("1.") == bytes(7) + b"\xb0"  # B, C and the point
    assert segments("8.8.8.8.8.8.8.8.") == b"\xff" * 8
    image = segment_image(segments("12345678"))
    assert image.getpixel((7, 4)) and not image.getpixel((7, 6))  # leftmost "1": register 7, B and C only
    with pytest.raises(ValueError, match="needs 9 digits"):
        segments("123456789")


def test_meter_text():
    assert meter_text(1234567) == "12345.67"
    assert meter_text(5) == "0.05"
    assert meter_text(99999999) == "999999.99"
    assert meter_text(100000000) == "1000000"  # too wide with decimals: whole units
    assert meter_text(10 ** 9) == "10000000"
    assert meter_text(10 ** 10 * 100) == "--------"
    assert meter_text(1500, decimals=0) == "1500"


def test_first_value_is_shown_at_once():
    jackpot, device = display()
    jackpot.show(1234567, "ok", 10.0)
    assert device.image is None  # show() only sets the state; update() talks to the chip
    jackpot.update(10.0)
    assert shown(device) == segments("12345.67")
    check_reference(device.image, "jackpot-ok")


def test_rise_rolls_up_smoothly_and_lands_exactly():
    jackpot, device = display(roll=2.0)
    jackpot.show(100000, "ok", 0.0)
    jackpot.show(120000, "ok", 1.0)
    values = []
    for step in range(0, 21):
        now = 1.0 + step * 0.1
        jackpot.update(now)
        values.append(jackpot.value_at(now))
    assert values[0] == 100000 and values[-1] == 120000
    assert values == sorted(values) and len(set(values)) == 21  # rises every step, never backwards
    assert jackpot.value_at(2.0) == 110000
    jackpot.update(2.0)
    check_reference(device.image, "jackpot-rolling")


def test_rise_during_a_roll_continues_from_what_is_shown():
    jackpot, _ = display(roll=2.0)
    jackpot.show(0, "ok", 0.0)
    jackpot.show(1000, "ok", 0.0)
    jackpot.show(3000, "ok", 1.0)  # 500 shown at that moment
    assert jackpot.value_at(1.0) == 500
    assert jackpot.value_at(2.0) == 1750
    assert jackpot.value_at(3.0) == 3000


def test_fall_after_a_hit_is_shown_at_once():
    jackpot, device = display()
    jackpot.show(5000000, "ok", 0.0)
    jackpot.show(1000000, "ok", 5.0)
    jackpot.update(5.0)
    assert shown(device) == segments("10000.00")


def test_untrusted_alternates_with_the_fault_text():
    jackpot, device = display(alternate=1.0)
    jackpot.show(1234567, "ok", 0.0)
    jackpot.show(1234567, "untrusted", 10.0)
    jackpot.update(10.0)
    assert shown(device) == segments("12345.67")
    jackpot.update(11.0)
    assert shown(device) == segments("FAULt")
    check_reference(device.image, "jackpot-fault")
    jackpot.update(12.0)
    assert shown(device) == segments("12345.67")


def test_pending_hit():
    jackpot, device = display()
    jackpot.show(1234567, "pending", 0.0)
    jackpot.update(0.0)
    assert shown(device) == segments("PEnding")
    check_reference(device.image, "jackpot-pending")


def test_all_segments_selftest():
    jackpot, device = display()
    jackpot.show_text("8.8.8.8.8.8.8.8.")
    check_reference(device.image, "jackpot-all-segments")


def test_bad_input_is_refused():
    jackpot, _ = display()
    with pytest.raises(ValueError, match="unknown jackpot display state 'maybe'"):
        jackpot.show(1, "maybe", 0.0)
    with pytest.raises(ValueError, match="never negative"):
        jackpot.show(-1, "ok", 0.0)
    with pytest.raises(ValueError, match="digits"):
        JackpotDisplay(dummy(width=8, height=8, mode="1"), fault_text="much too long")
