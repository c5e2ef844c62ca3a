"""Burn puck, bet presence and progressive slots on mock pins and the fake expander."""

from __future__ import annotations

from drivers.gpio.events import (PresenceChanged, PuckFault, PuckSensed, SlotChanged, SlotLocked,
                                 SlotsUnlocked)
from drivers.gpio.lines import ExpanderInput, ExpanderOutput, GpioInput
from drivers.gpio.mcp23017 import FakeMcp23017Bus, Mcp23017
from drivers.gpio.puck import PuckSensors
from drivers.gpio.slots import PresenceSensors, ProgressiveSlots

PINS = {1: 4, 2: 12, 3: 16}


def puck_on_gpio(factory, events, fault_after=5.0):
    return PuckSensors({seat: GpioInput(pin, factory) for seat, pin in PINS.items()}, events.append,
                       settle=0.05, fault_after=fault_after)


def run(device, start: float, end: float, step: float = 0.01) -> None:
    t = start
    while t <= end + 1e-9:
        device.update(t)
        t = round(t + step, 6)


def test_puck_in_one_circle_is_reported_once(factory, events):
    puck = puck_on_gpio(factory, events)
    factory.pin(12).drive_low()
    run(puck, 0.0, 1.0)
    assert events == [PuckSensed(2)]


def test_puck_moved_reports_new_box_and_short_gap_is_no_fault(factory, events):
    puck = puck_on_gpio(factory, events)
    factory.pin(4).drive_low()
    run(puck, 0.0, 1.0)
    factory.pin(4).drive_high()
    run(puck, 1.01, 3.0)  # 2 s in the air
    factory.pin(16).drive_low()
    run(puck, 3.01, 4.0)
    assert events == [PuckSensed(1), PuckSensed(3)]


def test_same_box_again_is_not_repeated(factory, events):
    puck = puck_on_gpio(factory, events)
    factory.pin(4).drive_low()
    run(puck, 0.0, 1.0)
    factory.pin(4).drive_high()
    run(puck, 1.01, 2.0)
    factory.pin(4).drive_low()
    run(puck, 2.01, 3.0)
    assert events == [PuckSensed(1)]


def test_no_puck_for_longer_than_fault_time_is_one_fault_then_recovery(factory, events):
    puck = puck_on_gpio(factory, events, fault_after=2.0)
    factory.pin(4).drive_low()
    run(puck, 0.0, 1.0)
    factory.pin(4).drive_high()
    run(puck, 1.01, 3.0)
    assert events == [PuckSensed(1)]
    run(puck, 3.01, 10.0)
    assert events == [PuckSensed(1), PuckFault("no box has sensed the puck for 2 s", ())]
    factory.pin(4).drive_low()
    run(puck, 10.01, 11.0)
    assert events[-1] == PuckSensed(1)  # same box, but after a fault it is said again


def test_two_circles_at_once_is_a_fault_naming_them(factory, events):
    puck = puck_on_gpio(factory, events, fault_after=1.0)
    factory.pin(4).drive_low()
    factory.pin(16).drive_low()
    run(puck, 0.0, 0.9)
    assert events == []
    assert puck.deadline() is not None
    run(puck, 0.91, 1.2)
    assert events == [PuckFault("the puck is sensed at several boxes (1, 3) for 1 s", (1, 3))]
    assert puck.deadline() is None


def test_puck_on_the_expander(events):
    bus = FakeMcp23017Bus()
    chip = Mcp23017(bus, 0x20, "a")
    puck = PuckSensors({seat: ExpanderInput(chip, seat - 1) for seat in range(1, 12)}, events.append, settle=0.05)
    chip.configure()
    bus.drive(0x20, 10, False)  # box 11
    for i in range(20):
        chip.refresh()
        puck.update(i * 0.01)
    assert events == [PuckSensed(11)]


def test_presence_changes(factory, events):
    sensors = PresenceSensors({(1, "ante"): GpioInput(5, factory), (2, "ante"): GpioInput(6, factory)},
                              events.append, settle=0.1)
    factory.pin(6).drive_low()
    run(sensors, 0.0, 0.5)
    factory.pin(6).drive_high()
    run(sensors, 0.51, 1.0)
    assert events == [PresenceChanged(2, "ante", True), PresenceChanged(2, "ante", False)]
    assert sensors.present() == ()


def test_progressive_slots_lamps_and_lock(events):
    bus = FakeMcp23017Bus()
    chip = Mcp23017(bus, 0x20, "b")
    slots = ProgressiveSlots({s: ExpanderInput(chip, s - 1) for s in (1, 2, 3)},
                             {s: ExpanderOutput(chip, 7 + s) for s in (1, 2, 3)}, events.append, settle=0.1)
    chip.configure()

    def tick(start, end):
        t = start
        while t <= end + 1e-9:
            chip.refresh()
            slots.update(t)
            t = round(t + 0.01, 6)

    def lamps():
        return [bus.output(0x20, 7 + s) for s in (1, 2, 3)]

    bus.drive(0x20, 0, False)  # chip in slot 1
    bus.drive(0x20, 2, False)  # chip in slot 3
    tick(0.0, 0.5)
    assert lamps() == [True, False, True]
    slots.lock(0.5)
    assert events[-1] == SlotLocked((1, 3))
    assert lamps() == [True, False, True]  # lamps change only on update
    bus.drive(0x20, 1, False)  # late chip in slot 2: reported, not lit
    bus.drive(0x20, 2, True)  # chip taken out of locked slot 3: its lamp blinks
    tick(0.51, 1.0)
    assert SlotChanged(2, True, True) in events and SlotChanged(3, False, True) in events
    assert lamps()[:2] == [True, False]
    assert slots.lamp_on(3, 1.0) is True and slots.lamp_on(3, 1.3) is False
    slots.lock(1.1)
    assert events.count(SlotLocked((1, 3))) == 1  # a second lock changes nothing
    slots.unlock(1.2)
    assert events[-1] == SlotsUnlocked()
    slots.update(1.2)
    assert lamps() == [True, True, False]


def test_a_flickering_wrong_set_does_not_postpone_the_fault_and_reports_once(factory, events):
    puck = puck_on_gpio(factory, events, fault_after=2.0)
    factory.pin(4).drive_low()
    run(puck, 0.0, 0.5)
    factory.pin(4).drive_high()  # lifted at 0.5: none
    run(puck, 0.51, 1.5)
    factory.pin(12).drive_low()
    factory.pin(16).drive_low()  # two circles at 1.5
    run(puck, 1.51, 2.4)
    assert events == [PuckSensed(1)]
    run(puck, 2.41, 2.6)  # 2 s after the lift, not after the change to two circles
    assert events == [PuckSensed(1), PuckFault("the puck is sensed at several boxes (2, 3) for 2 s", (2, 3))]
    factory.pin(12).drive_high()
    factory.pin(16).drive_high()  # back to none: same episode, no second fault
    run(puck, 2.61, 8.0)
    assert len(events) == 2
    factory.pin(16).drive_low()
    run(puck, 8.01, 8.5)
    assert events[-1] == PuckSensed(3)
