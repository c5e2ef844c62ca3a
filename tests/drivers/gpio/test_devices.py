"""Devices built from a pin map: expanders read each tick, a silent expander is one DeviceFault, lock wiring."""

from __future__ import annotations

from pathlib import Path

import pytest

from drivers.gpio.config import load_device_config
from drivers.gpio.events import (ButtonPressed, ButtonReleased, DeviceFault, DeviceRecovered, PuckSensed,
                                 SlotLocked)
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
    assert events[1:] == [DeviceRecovered("expander a"), PuckSensed(2)]
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
    sim.devices.update(0.0)
    assert sim.hands.tower_lit() == ("green",)
    sim.devices.update(0.6)
    assert sim.hands.tower_lit() == ()
    # no puck anywhere since the first update (at 0.0): the puck fault is due 5 s later; sooner, the green lamp
    # comes on again (slow blink, 1 Hz), and the sign keeps its title until its next page at 3 s
    assert sim.devices.puck.deadline() == 5.0
    assert sim.devices.deadline() == pytest.approx(1.0)
    sim.devices.update(1.0)
    assert sim.hands.tower_lit() == ("green",)
    sim.close()


def test_failing_lamp_writes_and_display_writes_are_faults_not_crashes():
    events = []
    sim = simulate(load_device_config(HW / "progressive-7.toml"), events.append)
    devices = sim.devices
    sim.hands.chip(1, True)
    tick(devices, 0.0, 0.3)
    devices.progressive.lock(0.3)
    sim.hands.chip(1, False)  # taken out of a locked slot: its lamp blinks, so it is written every 0.25 s
    tick(devices, 0.31, 0.6)
    sim.bus.fail = True

    class BrokenSpi:
        width, height, mode = 8, 8, "1"

        def display(self, image):
            raise OSError(5, "Input/output error")

    devices.jackpot.device = BrokenSpi()
    devices.jackpot.show(123, "ok", 0.6)  # show() does not touch the chip
    tick(devices, 0.61, 1.5)
    faults = [(e.device, e.reason) for e in events if isinstance(e, DeviceFault)]
    assert faults == [("expander a", "expander a at 0x20 did not answer: [Errno 121] Remote I/O error"),
                      ("expander b", "expander b at 0x21 did not answer: [Errno 121] Remote I/O error"),
                      ("jackpot", "[Errno 5] Input/output error")]  # once each, though the lamp writes fail too
    assert not any(isinstance(e, DeviceRecovered) for e in events)
    sim.bus.fail = False
    tick(devices, 1.51, 1.6)
    assert [e.device for e in events if isinstance(e, DeviceRecovered)] == ["expander a", "expander b"]
    assert sim.bus.output(0x21, 8) == devices.progressive.lamp_on(1, 1.6)  # the blinking lamp is driven again
    sim.bus.fail = True
    sim.close()  # lamps off with the bus gone: no exception


def test_no_pin_factory_is_refused_rather_than_gpiozero_setting_its_global():
    import pytest

    from drivers.gpio.devices import build_devices

    with pytest.raises(ValueError, match="pin factory explicitly"):
        build_devices(load_device_config(HW / "bj-burn-7.toml"), [].append, None)
