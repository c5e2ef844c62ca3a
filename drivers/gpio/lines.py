"""Input and output lines: a GPIO pin through gpiozero, or one pin of an MCP23017 expander.

Sensors and lamps do not care where a contact is wired; they read and write
lines. gpiozero's pin factory is always passed in (``MockFactory`` in tests);
the global ``Device.pin_factory`` is never set here.
"""

from __future__ import annotations

from typing import Any, Callable, Protocol

from drivers.gpio.mcp23017 import Mcp23017


class InputLine(Protocol):
    """A contact: ``active()`` is true when the switch/sensor is closed (after the line's polarity)."""

    label: str

    def active(self) -> bool: ...

    def close(self) -> None: ...


class OutputLine(Protocol):
    """A lamp, relay or buzzer."""

    label: str

    def set(self, on: bool) -> None: ...

    def close(self) -> None: ...


class GpioInput:
    """A GPIO input through gpiozero; pulled up and active low by default (a switch to ground)."""

    def __init__(self, pin: int, pin_factory: Any, active_low: bool = True,
                 on_edge: Callable[[], None] | None = None) -> None:
        from gpiozero import DigitalInputDevice

        self.label = f"GPIO{pin}"
        self._device = DigitalInputDevice(pin, pull_up=active_low, pin_factory=pin_factory)
        if on_edge is not None:
            # gpiozero calls these on its own thread: the callback must only wake the loop.
            self._device.when_activated = lambda *_: on_edge()
            self._device.when_deactivated = lambda *_: on_edge()

    def active(self) -> bool:
        return bool(self._device.value)

    def close(self) -> None:
        self._device.close()


class GpioOutput:
    """A GPIO output through gpiozero (lamp, buzzer, relay), active high."""

    def __init__(self, pin: int, pin_factory: Any) -> None:
        from gpiozero import DigitalOutputDevice

        self.label = f"GPIO{pin}"
        self._device = DigitalOutputDevice(pin, initial_value=False, pin_factory=pin_factory)

    def set(self, on: bool) -> None:
        if bool(self._device.value) != on:
            self._device.value = on

    def close(self) -> None:
        self._device.close()


class ExpanderInput:
    """One input pin (0..15: GPA0..GPA7, GPB0..GPB7) of an MCP23017, as last read by ``Mcp23017.refresh``."""

    def __init__(self, chip: Mcp23017, pin: int, active_low: bool = True) -> None:
        self.label = f"{chip.name}:{pin}"
        self._chip = chip
        self._pin = pin
        self._active_low = active_low
        chip.claim_input(pin, pull_up=active_low)

    def active(self) -> bool:
        return self._chip.level(self._pin) != self._active_low

    def close(self) -> None:
        pass


class ExpanderOutput:
    """One output pin of an MCP23017 (a slot lamp), active high."""

    def __init__(self, chip: Mcp23017, pin: int) -> None:
        self.label = f"{chip.name}:{pin}"
        self._chip = chip
        self._pin = pin
        chip.claim_output(pin)

    def set(self, on: bool) -> None:
        self._chip.write(self._pin, on)

    def close(self) -> None:
        pass
