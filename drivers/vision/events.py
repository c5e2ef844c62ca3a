"""Events the camera readers hand to the caller: frozen records, safe to pass between threads.

A dice camera posts one ``DiceRead`` per still throw, a roulette camera one
``SpinRead`` per spin: the reader's status (``ok``, ``void``, ``unsure``), what
it read (``None`` where a face or the number could not be read) and its
reason. What a read means at the table (a ``dice`` or ``wheel`` event, a void,
a result held for the croupier) is the controller's business.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DiceRead", "SpinRead", "VisionEvent"]


@dataclass(frozen=True, slots=True)
class DiceRead:
    """One still throw as the camera read it."""

    status: str  # ok | void | unsure
    values: tuple[int | None, ...]
    colors: tuple[str, ...]
    reason: str = ""


@dataclass(frozen=True, slots=True)
class SpinRead:
    """One spin as the camera read it."""

    status: str  # ok | void | unsure
    number: int | None
    reason: str = ""
    ball_direction: str | None = None
    rotor_direction: str | None = None


VisionEvent = DiceRead | SpinRead
