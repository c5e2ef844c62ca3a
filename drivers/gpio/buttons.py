"""Dealer buttons: press, release and long press, debounced on the caller's clock.

The loop calls ``update(now)`` whenever a button's pin changed (gpiozero's edge
callback only wakes the loop) and again at ``deadline()``, when a pending level
settles or a held button reaches its long-press time. What a button does in a
game (no more bets, stand, burn, confirm...) is the table configuration's and
the controller's business; this driver only names the button.
"""

from __future__ import annotations

from dataclasses import dataclass

from drivers.gpio.debounce import DebouncedInput, earliest
from drivers.gpio.events import ButtonLongPress, ButtonPressed, ButtonReleased, EventSink
from drivers.gpio.lines import InputLine


@dataclass
class _ButtonState:
    name: str
    input: DebouncedInput
    long_press: float
    long_reported: bool = False


class ButtonBank:
    """A set of named buttons; events go to ``sink`` in the order they happened within one ``update``."""

    def __init__(self, buttons: list[tuple[str, InputLine, float]], sink: EventSink, settle: float = 0.02) -> None:
        """``buttons`` holds (name, line, long-press seconds); ``settle`` is the debounce time in seconds."""
        self._sink = sink
        self._buttons = [_ButtonState(name, DebouncedInput(line, settle), long_press)
                         for name, line, long_press in buttons]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(b.name for b in self._buttons)

    def is_down(self, name: str) -> bool:
        return next(b.input.stable for b in self._buttons if b.name == name)

    def update(self, now: float) -> None:
        for button in self._buttons:
            changed = button.input.poll(now)
            if changed is True:
                button.long_reported = False
                self._sink(ButtonPressed(button.name))
            elif changed is False:
                self._sink(ButtonReleased(button.name, long=button.long_reported))
                button.long_reported = False
            if (button.input.stable and not button.long_reported
                    and now >= button.input.debouncer.changed_at + button.long_press):
                button.long_reported = True
                self._sink(ButtonLongPress(button.name))

    def deadline(self) -> float | None:
        """When ``update`` must run next even if no pin changes (``None``: only on the next edge)."""
        times: list[float | None] = []
        for button in self._buttons:
            times.append(button.input.deadline())
            if button.input.stable and not button.long_reported:
                times.append(button.input.debouncer.changed_at + button.long_press)
        return earliest(*times)
