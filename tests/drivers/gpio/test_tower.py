"""Every tower pattern, lamp by lamp on mock pins, and the legend."""

from __future__ import annotations

import pytest

from drivers.gpio.lines import GpioOutput
from drivers.gpio.tower import PATTERNS, TowerLight, legend

PINS = {"green": 23, "amber": 24, "red": 25, "buzzer": 18}

# (pattern, time since shown) -> lamps lit (G A R B); written from the documented legend, not from the code
EXPECTED = {
    "off": {0.0: "....", 0.6: "...."},
    "idle": {0.0: "G...", 0.6: "G...", 7.3: "G..."},
    "betting_open": {0.0: "G...", 0.49: "G...", 0.5: "....", 0.99: "....", 1.0: "G..."},
    "dealing": {0.0: "GA..", 0.6: "GA.."},
    "waiting_decision": {0.0: ".A..", 0.5: "....", 1.25: ".A.."},
    "result_pending": {0.0: ".A..", 0.125: "....", 0.25: ".A..", 0.4: "...."},
    "jackpot_pending": {0.0: ".A.B", 0.13: "..RB", 0.2: "..R.", 0.32: ".A.B", 0.4: "..RB", 0.5: ".A..",
                        10.0: ".A.B"},
    "device_fault": {0.0: "..R.", 0.6: "..R."},
    "maintenance": {0.0: ".AR.", 0.6: ".AR."},
    "latched_fault": {0.0: "..RB", 0.13: "...B", 0.99: "...B", 1.0: "..R.", 1.13: "....", 10.0: "..RB"},
}


def lit(factory) -> str:
    return "".join(letter if factory.pin(PINS[lamp]).state else "."
                   for letter, lamp in zip("GARB", ("green", "amber", "red", "buzzer")))


@pytest.fixture
def tower(factory):
    return TowerLight({lamp: GpioOutput(pin, factory) for lamp, pin in PINS.items()})


def test_every_pattern_is_specified_here():
    assert set(EXPECTED) == set(PATTERNS)


@pytest.mark.parametrize("pattern", sorted(EXPECTED))
def test_pattern_on_the_pins(factory, tower, pattern):
    start = 100.0
    tower.show("device_fault" if pattern != "device_fault" else "idle", start - 5)
    tower.show(pattern, start)
    for t, expected in EXPECTED[pattern].items():
        tower.update(start + t)
        assert lit(factory) == expected, (pattern, t)


def test_patterns_are_distinct_at_a_glance():
    """No two patterns light the same lamps the same way over two seconds."""
    signatures = {}
    for name, pattern in PATTERNS.items():
        sig = tuple(tuple(sorted(pattern.state_at(i / 16).items())) for i in range(160))
        assert sig not in signatures, f"{name} looks like {signatures.get(sig)}"
        signatures[sig] = name


def test_showing_the_same_pattern_does_not_restart_it(factory, tower):
    tower.show("betting_open", 0.0)
    tower.show("betting_open", 0.6)
    tower.update(0.6)
    assert lit(factory) == "...."


def test_tower_without_buzzer(factory):
    tower = TowerLight({lamp: GpioOutput(PINS[lamp], factory) for lamp in ("green", "amber", "red")})
    tower.show("latched_fault", 0.0)
    tower.update(0.0)
    assert tower.state == {"green": False, "amber": False, "red": True, "buzzer": False}
    assert tower.lamps == ("green", "amber", "red")


def test_lamp_test_lights_one_lamp_until_next_show(factory, tower):
    tower.show("idle", 0.0)
    tower.update(0.0)
    tower.test_lamp("red")
    tower.update(1.0)
    assert lit(factory) == "..R."
    tower.test_lamp(None)
    assert lit(factory) == "...."
    tower.show("idle", 2.0)
    tower.update(2.0)
    assert lit(factory) == "G..."


def test_unknown_pattern_and_lamp(tower):
    with pytest.raises(ValueError, match="unknown tower pattern 'party'"):
        tower.show("party", 0.0)
    with pytest.raises(ValueError, match="no blue lamp"):
        tower.test_lamp("blue")


def test_legend_has_every_pattern():
    lines = legend()
    assert len(lines) == len(PATTERNS)
    assert any(line.startswith("jackpot_pending") and "two short beeps" in line for line in lines)


def test_each_wave_says_when_it_next_switches():
    from drivers.gpio.tower import FAST, SLOW, STEADY, TWO_BEEPS_10S

    assert STEADY.until_change(0.3) is None
    for wave in (SLOW, FAST, TWO_BEEPS_10S):
        for step in range(200):
            t = step * 0.037
            wait = wave.until_change(t)
            assert wait is not None and wait > 0
            assert wave.on(t + wait * 0.5) == wave.on(t)
            assert wave.on(t + wait + 1e-9) != wave.on(t + wait - 1e-9)
