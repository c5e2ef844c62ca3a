"""Simulated hardware for one ``DeviceConfig``: mock pins, a fake I2C bus, dummy displays, and hands to use them.

``simulate(config, sink)`` builds the devices on gpiozero's ``MockFactory``,
``FakeMcp23017Bus`` and luma ``dummy`` displays; ``Hands`` does to them what
a technician's hands would (press a button, put the puck in a circle, a chip
in a slot) and reads what the outputs show (which tower lamps are lit, what
the displays show). Used by ``tablectl selftest --simulate`` and the tests.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from drivers.gpio.config import DeviceConfig, PinRef
from drivers.gpio.devices import Devices, build_devices, simulated_displays
from drivers.gpio.events import EventSink
from drivers.gpio.mcp23017 import FakeMcp23017Bus


@dataclass
class Simulation:
    devices: Devices
    factory: Any
    bus: FakeMcp23017Bus
    hands: "Hands"

    def close(self) -> None:
        self.devices.close()
        self.factory.close()


def simulate(config: DeviceConfig, sink: EventSink, wake: Callable[[], None] | None = None) -> Simulation:
    from gpiozero.pins.mock import MockFactory

    factory = MockFactory()
    bus = FakeMcp23017Bus(tuple(e.address for e in config.expanders))
    sign, jackpot = simulated_displays(config)
    devices = build_devices(config, sink, factory, bus, sign, jackpot, wake=wake)
    return Simulation(devices, factory, bus, Hands(config, factory, bus))


class Hands:
    """Closes and opens contacts and reads outputs, by the names the configuration gives them."""

    def __init__(self, config: DeviceConfig, factory: Any, bus: FakeMcp23017Bus) -> None:
        self.config = config
        self.factory = factory
        self.bus = bus
        self._address = {e.name: e.address for e in config.expanders}

    def _drive(self, pin: PinRef, active: bool, active_low: bool = True) -> None:
        high = active != active_low
        if pin.expander is None:
            mock = self.factory.pin(pin.number)
            mock.drive_high() if high else mock.drive_low()
        else:
            self.bus.drive(self._address[pin.expander], pin.number, high)

    def _output(self, pin: PinRef) -> bool:
        if pin.expander is None:
            return bool(self.factory.pin(pin.number).state)
        return bool(self.bus.output(self._address[pin.expander], pin.number))

    def button(self, name: str, down: bool) -> None:
        pin = next(b.pin for b in self.config.buttons if b.name == name)
        self._drive(pin, down)

    def puck(self, seat: int, present: bool) -> None:
        assert self.config.puck is not None
        self._drive(self.config.puck.sensors[seat - 1], present, self.config.puck.active_low)

    def presence(self, seat: int, spot: str, present: bool) -> None:
        assert self.config.presence is not None
        pin = next(s.pin for s in self.config.presence.sensors if (s.seat, s.spot) == (seat, spot))
        self._drive(pin, present, self.config.presence.active_low)

    def chip(self, seat: int, present: bool) -> None:
        assert self.config.progressive is not None
        self._drive(self.config.progressive.sensors[seat - 1], present, self.config.progressive.active_low)

    def tower_lit(self) -> tuple[str, ...]:
        """The tower lamps (and buzzer) that are on now."""
        assert self.config.tower is not None
        return tuple(lamp for lamp, pin in self.config.tower.lamps().items() if self._output(pin))

    def slot_lamp(self, seat: int) -> bool:
        assert self.config.progressive is not None
        return self._output(self.config.progressive.lamps[seat - 1])
