"""Bet-presence sensors and progressive bet slots with their lamps.

Presence sensors (optical or capacitive, one contact per bet spot) tell which
boxes play: each debounced change is a ``PresenceChanged``. Progressive slots
hold one sensor and one lamp per box; the lamp is lit while a chip is in the
slot. At no more bets the croupier presses the lock button and the caller
calls ``lock()``: the slots holding a chip at that moment are the round's
progressive bets (``SlotLocked``) and their lamps stay lit, steady. A chip put
in after the lock is reported but does not light its lamp; a locked slot whose
chip is taken out blinks its lamp so the croupier sees it. ``unlock()`` opens
the slots for the next round.
"""

from __future__ import annotations

from drivers.gpio.debounce import DebouncedInput, earliest
from drivers.gpio.events import EventSink, PresenceChanged, SlotChanged, SlotLocked, SlotsUnlocked
from drivers.gpio.lines import InputLine, OutputLine

BLINK_PERIOD = 0.5
"""A locked slot whose chip is gone blinks its lamp: on for half of each period."""


class PresenceSensors:
    """Bet-presence contacts keyed by (seat, spot)."""

    def __init__(self, sensors: dict[tuple[int, str], InputLine], sink: EventSink, settle: float = 0.1) -> None:
        self._sink = sink
        self._inputs = {key: DebouncedInput(line, settle) for key, line in sorted(sensors.items())}

    def present(self) -> tuple[tuple[int, str], ...]:
        """The (seat, spot) pairs where a bet is sensed now."""
        return tuple(key for key, inp in self._inputs.items() if inp.stable)

    def update(self, now: float) -> None:
        for (seat, spot), inp in self._inputs.items():
            changed = inp.poll(now)
            if changed is not None:
                self._sink(PresenceChanged(seat, spot, changed))

    def deadline(self) -> float | None:
        return earliest(*(inp.deadline() for inp in self._inputs.values()))


class ProgressiveSlots:
    """One chip sensor and one lamp per box; locked by the croupier at no more bets."""

    def __init__(self, sensors: dict[int, InputLine], lamps: dict[int, OutputLine], sink: EventSink,
                 settle: float = 0.1) -> None:
        missing = sorted(set(sensors) ^ set(lamps))
        if missing:
            raise ValueError(f"progressive slots need a sensor and a lamp at every box; box {missing[0]} has one only")
        self._sink = sink
        self._inputs = {seat: DebouncedInput(line, settle) for seat, line in sorted(sensors.items())}
        self._lamps = dict(lamps)
        self._locked: tuple[int, ...] | None = None
        self._updated = 0.0

    @property
    def locked(self) -> tuple[int, ...] | None:
        """The locked seats, or ``None`` while the slots are open."""
        return self._locked

    def present(self) -> tuple[int, ...]:
        return tuple(seat for seat, inp in self._inputs.items() if inp.stable)

    def lock(self, now: float) -> None:
        """No more bets: the slots holding a chip now are this round's progressive bets. A second lock does nothing."""
        if self._locked is not None:
            return
        self._poll(now)
        self._locked = self.present()
        self._sink(SlotLocked(self._locked))

    def unlock(self, now: float) -> None:
        if self._locked is None:
            return
        self._locked = None
        self._sink(SlotsUnlocked())

    def update(self, now: float) -> None:
        """Read the sensors, then set the lamps (``lock``/``unlock`` leave the lamps to the next update)."""
        self._poll(now)
        self._show_lamps(now)
        self._updated = now

    def _poll(self, now: float) -> None:
        for seat, inp in self._inputs.items():
            changed = inp.poll(now)
            if changed is not None:
                self._sink(SlotChanged(seat, changed, self._locked is not None))

    def lamp_on(self, seat: int, now: float) -> bool:
        """Whether ``seat``'s lamp should be lit at ``now``."""
        present = self._inputs[seat].stable
        if self._locked is None:
            return present
        if seat not in self._locked:
            return False
        return present or (now % BLINK_PERIOD) < BLINK_PERIOD / 2

    def _show_lamps(self, now: float) -> None:
        for seat, lamp in self._lamps.items():
            lamp.set(self.lamp_on(seat, now))

    def close(self) -> None:
        """All slot lamps off."""
        for lamp in self._lamps.values():
            lamp.set(False)

    def deadline(self) -> float | None:
        """The next debounce deadline, and while a locked box's lamp blinks (its chip gone), its next switch."""
        blink = None
        if self._locked is not None and any(not self._inputs[seat].stable for seat in self._locked):
            half = BLINK_PERIOD / 2
            blink = (int(self._updated / half) + 1) * half
        return earliest(blink, *(inp.deadline() for inp in self._inputs.values()))
