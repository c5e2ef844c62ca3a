"""Build every device a ``DeviceConfig`` names, on real or simulated hardware, and drive them from one tick.

``build_devices`` takes the hardware handles explicitly: a gpiozero pin
factory (``MockFactory`` in tests and simulation; on a Pi the daemon passes
``gpiozero.pins.lgpio.LGPIOFactory()``; never ``None``, which would make
gpiozero set its global ``Device.pin_factory``), an smbus2-like I2C bus for the
expanders, and luma devices for the sign and the jackpot display
(``hardware_displays`` or ``simulated_displays``).

The loop calls ``Devices.update(now)`` on every tick and on every wake-up (a
GPIO edge or the expanders' INT line calls ``wake``); events go to the sink on
the loop's thread. Pressing the progressive lock button locks the slots here,
because it is wiring, not a game rule; unlocking at the end of a round is the
controller's call (``devices.progressive.unlock(now)``).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any, Callable

from drivers.gpio.buttons import ButtonBank
from drivers.gpio.config import DeviceConfig, PinRef
from drivers.gpio.debounce import earliest
from drivers.gpio.ticker import DUE_SLACK_S
from drivers.gpio.events import ButtonPressed, DeviceFault, DeviceRecovered, DriverEvent, EventSink
from drivers.gpio.lines import ExpanderInput, ExpanderOutput, GpioInput, GpioOutput, InputLine, OutputLine
from drivers.gpio.mcp23017 import ExpanderError, Mcp23017
from drivers.gpio.puck import PuckSensors
from drivers.gpio.slots import PresenceSensors, ProgressiveSlots
from drivers.gpio.tower import TowerLight


INPUT_DEVICES = ("puck", "presence", "progressive")
"""Read by ``update`` after the expanders and the buttons (the progressive slots set their lamps too)."""
OUTPUT_DEVICES = ("tower", "sign", "jackpot")
"""Drawn by ``update`` and, when their deadline has come, by ``update_outputs``."""


@dataclass
class Devices:
    """The built devices of one table; absent ones are ``None``."""

    config: DeviceConfig
    sink: EventSink
    expanders: dict[str, Mcp23017] = field(default_factory=dict)
    buttons: ButtonBank | None = None
    tower: TowerLight | None = None
    puck: PuckSensors | None = None
    presence: PresenceSensors | None = None
    progressive: ProgressiveSlots | None = None
    sign: Any = None
    jackpot: Any = None
    _closers: list[Callable[[], None]] = field(default_factory=list)
    _faulted: set[str] = field(default_factory=set)
    _lock_pressed: bool = False
    _polled_inputs: bool = False

    def on_button(self, event: DriverEvent) -> None:
        """The button bank's sink: forward, and note a press of the progressive lock button."""
        if self.config.progressive and event == ButtonPressed(self.config.progressive.lock_button):
            self._lock_pressed = True
        self.sink(event)

    def update(self, now: float) -> None:
        """Read the expanders, then every input device; then redraw the outputs for ``now``.

        A device whose bus fails (an expander that does not answer, an SPI
        write that fails) is reported once as ``DeviceFault`` and skipped; when
        it works again, ``DeviceRecovered``. Nothing here raises for a bus error.
        """
        for name, chip in self.expanders.items():
            self._guard(f"expander {name}", chip.refresh)
        if self.buttons:
            self._guard("buttons", lambda: self._update_buttons(now))
        for name in INPUT_DEVICES + OUTPUT_DEVICES:
            device = getattr(self, name)
            if device is not None:
                self._guard(name, functools.partial(device.update, now))

    def update_outputs(self, now: float) -> None:
        """Redraw only the outputs (the tower, the sign, the jackpot display) whose deadline has come: the sign's
        next scroll step does not read every input again (they wake the loop on their edges, ``needs_polling``)
        nor rewrite the lamps. ``update`` redraws them all."""
        for name in OUTPUT_DEVICES:
            device = getattr(self, name)
            if device is None:
                continue
            deadline = device.deadline() if hasattr(device, "deadline") else None
            if deadline is not None and deadline <= now + DUE_SLACK_S:
                self._guard(name, functools.partial(device.update, now))

    def _update_buttons(self, now: float) -> None:
        assert self.buttons is not None
        self._lock_pressed = False
        self.buttons.update(now)
        if self.progressive and self._lock_pressed:
            self.progressive.lock(now)

    def _guard(self, name: str, action: Callable[[], object]) -> None:
        """Run one device's update; a bus error is a ``DeviceFault`` (once), success after one a ``DeviceRecovered``.

        An expander error met while updating a device on that expander (a slot
        lamp write) is left to the expander's own refresh, which reports the
        fault and the recovery: the device's update proves nothing either way.
        """
        try:
            action()
        except ExpanderError as exc:
            if name.startswith("expander "):
                self._fault(name, exc)
            return
        except OSError as exc:  # spidev and smbus errors of a display
            self._fault(name, exc)
            return
        if name in self._faulted:
            self._faulted.discard(name)
            self.sink(DeviceRecovered(name))

    def _fault(self, name: str, exc: OSError) -> None:
        if name not in self._faulted:
            self._faulted.add(name)
            self.sink(DeviceFault(name, str(exc)))

    def deadline(self) -> float | None:
        """The next time ``update`` must run even without a wake-up: an input's debounce or long press, the next
        blink of the tower, frame of the sign or step of the jackpot display."""
        return earliest(self.inputs_deadline(), self.outputs_deadline())

    def inputs_deadline(self) -> float | None:
        """The next debounce or long press of an input, or blink of a progressive slot's lamp."""
        parts: tuple[Any, ...] = (self.buttons, self.puck, self.presence, self.progressive)
        return earliest(*(d.deadline() for d in parts if hasattr(d, "deadline")))

    def outputs_deadline(self) -> float | None:
        """The next blink of the tower, frame of the sign or step of the jackpot display."""
        parts: tuple[Any, ...] = (self.tower, self.sign, self.jackpot)
        return earliest(*(d.deadline() for d in parts if hasattr(d, "deadline")))

    @property
    def needs_polling(self) -> bool:
        """True when some input can change unseen: one on an expander without an INT line is read only by ``update``."""
        return self._polled_inputs

    def close(self) -> None:
        """Everything off (lamps, buzzer), then release the pins."""
        for device in (self.tower, self.progressive):
            if device is not None:
                try:
                    device.close()
                except OSError:
                    pass  # the bus is gone: nothing more to switch off
        for closer in reversed(self._closers):
            closer()


def build_devices(config: DeviceConfig, sink: EventSink, pin_factory: Any, i2c_bus: Any = None,
                  sign_device: Any = None, jackpot_device: Any = None,
                  wake: Callable[[], None] | None = None) -> Devices:
    """Create and configure every device in ``config``. ``wake`` is called (on gpiozero's thread) on any edge."""
    if pin_factory is None and any(pin.expander is None for _, pin in config.uses()):
        raise ValueError("pass a gpiozero pin factory explicitly (MockFactory in tests, LGPIOFactory on a Pi)")
    devices = Devices(config, sink)
    for exp in config.expanders:
        if i2c_bus is None:
            raise ValueError(f"expanders.{exp.name} is configured but no I2C bus was given")
        devices.expanders[exp.name] = Mcp23017(i2c_bus, exp.address, exp.name)

    without_int = {exp.name for exp in config.expanders if exp.int_pin is None}

    def input_line(pin: PinRef, active_low: bool) -> InputLine:
        if pin.expander is not None:
            devices._polled_inputs |= pin.expander in without_int
            return ExpanderInput(devices.expanders[pin.expander], pin.number, active_low)
        line = GpioInput(pin.number, pin_factory, active_low, on_edge=wake)
        devices._closers.append(line.close)
        return line

    def output_line(pin: PinRef) -> OutputLine:
        if pin.expander is not None:
            return ExpanderOutput(devices.expanders[pin.expander], pin.number)
        line = GpioOutput(pin.number, pin_factory)
        devices._closers.append(line.close)
        return line

    settle = config.debounce_ms / 1000
    for exp in config.expanders:
        if exp.int_pin is not None:
            input_line(PinRef(exp.int_pin), True)  # INTA, open drain: only wakes the loop
    if config.buttons:
        devices.buttons = ButtonBank([(b.name, input_line(b.pin, True), b.long_press_ms / 1000)
                                      for b in config.buttons], devices.on_button, settle=settle)
    if config.tower:
        devices.tower = TowerLight({lamp: output_line(pin) for lamp, pin in config.tower.lamps().items()})
    if config.puck:
        devices.puck = PuckSensors({seat: input_line(pin, config.puck.active_low)
                                    for seat, pin in enumerate(config.puck.sensors, 1)}, sink,
                                   settle=max(settle, 0.05), fault_after=config.puck.fault_after_ms / 1000)
    if config.presence:
        devices.presence = PresenceSensors({(s.seat, s.spot): input_line(s.pin, config.presence.active_low)
                                            for s in config.presence.sensors}, sink, settle=max(settle, 0.1))
    if config.progressive:
        prog = config.progressive
        devices.progressive = ProgressiveSlots(
            {seat: input_line(pin, prog.active_low) for seat, pin in enumerate(prog.sensors, 1)},
            {seat: output_line(pin) for seat, pin in enumerate(prog.lamps, 1)}, sink, settle=max(settle, 0.1))
    for chip in devices.expanders.values():
        chip.configure()
    if config.sign and sign_device is not None:
        from drivers.displays.sign import Sign

        devices.sign = Sign(sign_device)
    if config.jackpot and jackpot_device is not None:
        from drivers.displays.jackpot import JackpotDisplay

        devices.jackpot = JackpotDisplay(jackpot_device, decimals=config.jackpot.decimals)
    return devices


def hardware_displays(config: DeviceConfig) -> tuple[Any, Any]:
    """MAX7219 luma devices on SPI0 for the sign and the jackpot display (luma's SPI without a GPIO dependency)."""
    from luma.core.interface.serial import noop, spi
    from luma.led_matrix.device import max7219

    sign = jackpot = None
    if config.sign:
        serial = spi(port=0, device=config.sign.spi_device, gpio=noop())
        sign = max7219(serial, cascaded=config.sign.cascaded, block_orientation=config.sign.block_orientation,
                       blocks_arranged_in_reverse_order=config.sign.reverse_order, contrast=config.sign.contrast)
    if config.jackpot:
        serial = spi(port=0, device=config.jackpot.spi_device, gpio=noop())
        jackpot = max7219(serial, cascaded=1, contrast=config.jackpot.contrast)
    return sign, jackpot


def simulated_displays(config: DeviceConfig) -> tuple[Any, Any]:
    """luma ``dummy`` devices of the same size: they keep the last image for tests and the renderer."""
    from luma.core.device import dummy

    sign = dummy(width=8 * config.sign.cascaded, height=8, mode="1") if config.sign else None
    jackpot = dummy(width=8, height=8, mode="1") if config.jackpot else None
    return sign, jackpot
