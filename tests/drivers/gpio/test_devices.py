"""Devices built from a pin map: expanders read each tick, a silent expander is one DeviceFault, lock wiring."""

from __future__ import annotations

from pathlib import Path

from drivers.gpio.config import load_device_config
from drivers.gpio.events import ButtonPressed, ButtonReleased, DeviceFault, PuckSensed, SlotLocked
from drivers.gpio.sim import simulate

HW = Path(__file__).resolve().parents[3] / "hw"


def tick(devices, start, end, step=0.01):
    t = start
    while t <= end + 1e-9:
        devices.update(t)
        t = round(t + step, 6)


def test_puck_on_the_expander_through_the_built_devices():
    events = []
    sim = simulate(load_device_config(HW / "bj-burn-11.toml"), events.append)
    sim.hands.puck(9, True)
    tick(sim.devices, 0.0, 0.5)
    assert events == [PuckSensed(9)]
    sim.close()


def test_silent_expander_is_reported_once_and_recovers():
    events = []
    sim = simulate(load_device_config(HW / "bj-burn-11.toml"), events.append)
    sim.bus.fail = True
    tick(sim.devices, 0.0, 0.2)
    assert events == [DeviceFault("expander a", "expander a at 0x20 did not answer: [Errno 121] Remote I/O error")]
    sim.bus.fail = False
    sim.hands.puck(2, True)
    tick(sim.devices, 0.21, 0.5)
    assert events[1:] == [PuckSensed(2)]
    sim.close()


def test_lock_button_locks_the_progressive_slots():
    events = []
    sim = simulate(load_device_config(HW / "progressive-7.toml"), events.append)
    sim.hands.chip(2, True)
    sim.hands.chip(6, True)
    tick(sim.devices, 0.0, 0.5)
    sim.hands.button("lock", True)
    tick(sim.devices, 0.51, 0.6)
    sim.hands.button("lock", False)
    tick(sim.devices, 0.61, 0.7)
    assert [e for e in events if not hasattr(e, "present")] == [
        ButtonPressed("lock"), SlotLocked((2, 6)), ButtonReleased("lock")]
    assert sim.hands.slot_lamp(2) and not sim.hands.slot_lamp(3)
    sim.close()


def test_tower_and_displays_are_driven_by_update():
    sim = simulate(load_device_config(HW / "bj-burn-7.toml"), [].append)
    sim.devices.tower.show("betting_open", 0.0)
    assert sim.hands.tower_lit() == ("green",)
    sim.devices.update(0.6)
    assert sim.hands.tower_lit() == ()
    # no puck anywhere since the first update: the puck fault is due 5 s later
    assert sim.devices.deadline() == 5.6
    sim.close()
