"""A build's GPIO devices on the Pi's own pins, at rest: every line opens, no button reads pressed, no fault."""

from __future__ import annotations

import os
import time
import pytest

from pathlib import Path

from controller.runtime.devices import pin_factory
from drivers.gpio.config import load_device_config
from drivers.gpio.devices import build_devices
from drivers.gpio.events import DeviceFault
from tests.hardware.env import setting

pytestmark = pytest.mark.hardware


def test_the_pin_maps_devices_open_and_rest_quiet() -> None:
    pin_map = Path(setting("TABLECTL_HW_PINMAP", "the build's pin map (e.g. hw/dealer-panel.toml)"))
    factory = pin_factory(os.environ.get("TABLECTL_HW_PIN_FACTORY", "lgpio"))
    config = load_device_config(pin_map)
    bus = None
    if config.expanders:
        from smbus2 import SMBus

        bus = SMBus(1)
    events: list[object] = []
    devices = build_devices(config, events.append, factory, bus)
    try:
        start = time.monotonic()
        while time.monotonic() - start < 1.5:  # longer than every debounce and settle time
            devices.update(time.monotonic())
            time.sleep(0.01)
        faults = [e for e in events if isinstance(e, DeviceFault)]
        assert not faults, f"{pin_map}: {faults}"
        assert not events, (f"{pin_map}: at rest (nothing pressed, no puck, no chips) the devices said {events}: "
                            "a button held or shorted, or a sensor covered?")
    finally:
        devices.close()
