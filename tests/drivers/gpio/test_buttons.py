"""Debounce against bouncy edge trains on mock pins, press/release/long press."""

from __future__ import annotations

from gpiozero.pins.mock import MockFactory

from drivers.gpio.buttons import ButtonBank
from drivers.gpio.debounce import Debouncer
from drivers.gpio.events import ButtonLongPress, ButtonPressed, ButtonReleased
from drivers.gpio.lines import GpioInput

SETTLE = 0.02


def bank(factory: MockFactory, events: list, long_press: float = 1.5) -> tuple[ButtonBank, object]:
    line = GpioInput(17, factory)
    return ButtonBank([("stand", line, long_press)], events.append, settle=SETTLE), factory.pin(17)


def play(bank_: ButtonBank, pin, train: list[tuple[float, int]], until: float, step: float = 0.001) -> None:
    """Drive ``pin`` through ``train`` (time, level) and call update at every edge and every ``step`` in between."""
    edges = list(train)
    t = 0.0
    while t <= until + 1e-9:
        while edges and edges[0][0] <= t + 1e-9:
            _, level = edges.pop(0)
            pin.drive_high() if level else pin.drive_low()
            bank_.update(t)
        bank_.update(t)
        t = round(t + step, 6)


def bouncy_press(start: float, bounces: int = 6, gap: float = 0.0015) -> list[tuple[float, int]]:
    """A contact closing (low) with ``bounces`` chatter edges spaced ``gap`` apart."""
    train = []
    for i in range(bounces):
        train.append((start + i * gap, 0 if i % 2 == 0 else 1))
    train.append((start + bounces * gap, 0))
    return train


def bouncy_release(start: float, bounces: int = 6, gap: float = 0.0015) -> list[tuple[float, int]]:
    return [(t, 1 - level) for t, level in bouncy_press(start, bounces, gap)]


def test_bouncy_press_and_release_are_one_press_and_one_release(factory, events):
    buttons, pin = bank(factory, events)
    play(buttons, pin, bouncy_press(0.1) + bouncy_release(0.4), until=0.6)
    assert events == [ButtonPressed("stand"), ButtonReleased("stand")]


def test_press_is_reported_only_after_settle_time(factory, events):
    buttons, pin = bank(factory, events)
    last_edge = bouncy_press(0.1)[-1][0]
    play(buttons, pin, bouncy_press(0.1), until=last_edge + SETTLE - 0.002)
    assert events == []
    buttons.update(last_edge + SETTLE)
    assert events == [ButtonPressed("stand")]


def test_glitch_shorter_than_settle_is_ignored(factory, events):
    buttons, pin = bank(factory, events)
    play(buttons, pin, [(0.1, 0), (0.105, 1), (0.2, 0), (0.212, 1)], until=0.5)
    assert events == []


def test_long_train_of_chatter_keeps_restarting_the_wait(factory, events):
    buttons, pin = bank(factory, events)
    train = [(0.1 + i * 0.015, i % 2 ^ 1) for i in range(20)]  # edges every 15 ms < 20 ms settle
    train = [(t, 0 if i % 2 == 0 else 1) for i, (t, _) in enumerate(train)]
    play(buttons, pin, train, until=train[-1][0] + SETTLE - 0.001)
    assert events == []  # ends high (released) after an even count: never stable low for 20 ms


def test_long_press_once_then_release_says_long(factory, events):
    buttons, pin = bank(factory, events, long_press=1.0)
    play(buttons, pin, bouncy_press(0.1) + bouncy_release(2.0), until=2.2, step=0.01)
    assert events == [ButtonPressed("stand"), ButtonLongPress("stand"), ButtonReleased("stand", long=True)]


def test_long_press_is_timed_from_the_contact_not_from_the_update(factory, events):
    buttons, pin = bank(factory, events, long_press=1.0)
    pin.drive_low()
    buttons.update(0.0)
    buttons.update(0.5)  # accepted late: the loop was busy
    assert events == [ButtonPressed("stand")]
    assert buttons.deadline() == 1.0
    buttons.update(0.999)
    assert events == [ButtonPressed("stand")]
    buttons.update(1.0)
    assert events[-1] == ButtonLongPress("stand")
    assert buttons.deadline() is None


def test_short_press_has_no_long_press(factory, events):
    buttons, pin = bank(factory, events, long_press=1.0)
    play(buttons, pin, bouncy_press(0.1) + bouncy_release(0.9), until=1.5, step=0.01)
    assert events == [ButtonPressed("stand"), ButtonReleased("stand", long=False)]


def test_deadline_tells_the_loop_when_to_look_again(factory, events):
    buttons, pin = bank(factory, events)
    assert buttons.deadline() is None
    pin.drive_low()
    buttons.update(3.0)
    assert buttons.deadline() == 3.0 + SETTLE
    buttons.update(buttons.deadline())
    assert events == [ButtonPressed("stand")]


def test_edge_callback_wakes_the_caller(factory):
    woken = []
    line = GpioInput(22, factory, on_edge=lambda: woken.append(1))
    factory.pin(22).drive_low()
    assert line.active()
    factory.pin(22).drive_high()
    assert not line.active()
    assert len(woken) == 2


def test_debouncer_alone():
    d = Debouncer(0.01)
    assert d.feed(0.0, True) is None
    assert d.feed(0.005, False) is None
    assert d.feed(0.006, True) is None
    assert d.feed(0.015, True) is None
    assert d.feed(0.016, True) is True
    assert d.stable is True
