"""Frozen event records the GPIO drivers hand to the caller's callback.

They say what the hardware saw, in the table's own words (a box, a spot, a
button name); what it means for a game is the controller's business.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Union


@dataclass(frozen=True, slots=True)
class ButtonPressed:
    """A button went down (after debounce)."""

    name: str


@dataclass(frozen=True, slots=True)
class ButtonReleased:
    """A button came up; ``long`` is true when a ``ButtonLongPress`` was reported for this press."""

    name: str
    long: bool = False


@dataclass(frozen=True, slots=True)
class ButtonLongPress:
    """A button has been held down for its long-press time (reported once per press, while still held)."""

    name: str


@dataclass(frozen=True, slots=True)
class PuckSensed:
    """Exactly one burn circle senses the puck: it is at box ``seat``."""

    seat: int


@dataclass(frozen=True, slots=True)
class PuckFault:
    """No circle or several circles sensed the puck for longer than the fault time."""

    reason: str
    seats: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class PresenceChanged:
    """A bet-presence sensor at ``seat``/``spot`` now does (or no longer does) see a bet."""

    seat: int
    spot: str
    present: bool


@dataclass(frozen=True, slots=True)
class SlotChanged:
    """A progressive slot's chip sensor changed; ``locked`` tells whether the slots were locked at the time."""

    seat: int
    present: bool
    locked: bool


@dataclass(frozen=True, slots=True)
class SlotLocked:
    """The croupier locked the progressive slots: ``seats`` hold a chip and are this round's progressive bets."""

    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SlotsUnlocked:
    """The progressive slots are open again for the next round."""


@dataclass(frozen=True, slots=True)
class DeviceFault:
    """A device stopped answering (the I/O expander on I2C, a display on SPI); reported once until it recovers."""

    device: str
    reason: str


@dataclass(frozen=True, slots=True)
class DeviceRecovered:
    """A device that was reported with ``DeviceFault`` works again."""

    device: str


DriverEvent = Union[ButtonPressed, ButtonReleased, ButtonLongPress, PuckSensed, PuckFault, PresenceChanged,
                    SlotChanged, SlotLocked, SlotsUnlocked, DeviceFault, DeviceRecovered]

EventSink = Callable[[DriverEvent], None]
"""What the caller gives the drivers: called with each event, on the caller's own thread (the loop)."""
