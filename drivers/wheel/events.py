"""Events the wheel reader hands to the caller: frozen records, safe to pass between threads.

``WheelNumber`` is the result the runtime turns into a ``wheel`` game event
(DESIGN.md section 5); ``WheelNoMoreBets`` closes betting; ``WheelVoid`` says
the spin must not be settled (the wheel flagged it); ``WheelFault`` is a
device problem to latch. ``WheelState`` reports the other states for the
console. Link events (``LinkFault``, ``LinkRestored``) come from
``drivers.seriallink`` and are re-exported here.
"""

from __future__ import annotations

from dataclasses import dataclass

from drivers.seriallink import LinkFault, LinkRestored
from drivers.wheel.protocol import STATES

__all__ = ["WheelNumber", "WheelNoMoreBets", "WheelVoid", "WheelFault", "WheelState", "WheelEvent", "LinkFault",
           "LinkRestored"]


@dataclass(frozen=True, slots=True)
class WheelNumber:
    """The winning number of spin ``spin`` (state 5), delivered once per spin."""

    number: int
    spin: int


@dataclass(frozen=True, slots=True)
class WheelNoMoreBets:
    """State 4: the ball is slowing, no more bets on spin ``spin``."""

    spin: int


@dataclass(frozen=True, slots=True)
class WheelVoid:
    """The wheel flagged spin ``spin`` (ball not sensed, same direction as the rotor, failed launch): no result."""

    reason: str
    spin: int


@dataclass(frozen=True, slots=True)
class WheelFault:
    """A wheel problem to latch: sensor or motor fault, or a contradiction such as two numbers for one spin."""

    reason: str
    spin: int | None = None


@dataclass(frozen=True, slots=True)
class WheelState:
    """An informational state change (1 game start, 2 rotor turning, 3 ball in track, 6 table closed)."""

    state: int
    spin: int
    rotor_speed: int | None = None
    direction: int | None = None

    @property
    def name(self) -> str:
        return STATES.get(self.state, f"state {self.state}")


WheelEvent = WheelNumber | WheelNoMoreBets | WheelVoid | WheelFault | WheelState | LinkFault | LinkRestored
