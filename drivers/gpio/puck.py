"""Burn-puck sensors: one Hall or reed sensor per burn circle (box).

The puck is where exactly one circle senses it: that box is reported once as
``PuckSensed(seat)`` (again only when it moves to another box, or after a
fault). While no circle or several circles sense it, nothing is reported
until that has lasted ``fault_after`` seconds; then one ``PuckFault`` says
which. Moving the puck from box to box briefly senses none, which is why the
fault waits.
"""

from __future__ import annotations

from drivers.gpio.debounce import DebouncedInput, earliest
from drivers.gpio.events import EventSink, PuckFault, PuckSensed
from drivers.gpio.lines import InputLine


class PuckSensors:
    """The burn circles of one table, keyed by box number."""

    def __init__(self, sensors: dict[int, InputLine], sink: EventSink, settle: float = 0.05,
                 fault_after: float = 5.0) -> None:
        if not sensors:
            raise ValueError("at least one burn-circle sensor is needed")
        self._sink = sink
        self._inputs = {seat: DebouncedInput(line, settle) for seat, line in sorted(sensors.items())}
        self._fault_after = fault_after
        self._seats: tuple[int, ...] | None = None  # None until the first update
        self._bad_since: float | None = None  # when the sensors last stopped agreeing on one box
        self._reported_seat: int | None = None
        self._faulted = False  # a fault was reported in the current episode

    @property
    def seats(self) -> tuple[int, ...]:
        """The boxes whose sensor currently (debounced) senses the puck."""
        return tuple(seat for seat, inp in self._inputs.items() if inp.stable)

    def update(self, now: float) -> None:
        for inp in self._inputs.values():
            inp.poll(now)
        seats = self.seats
        first = self._seats is None
        if seats != self._seats:
            self._seats = seats
            if len(seats) == 1:
                self._bad_since = None
                if seats[0] != self._reported_seat or self._faulted:
                    self._reported_seat = seats[0]
                    self._faulted = False
                    self._sink(PuckSensed(seats[0]))
            elif first or self._bad_since is None:
                self._bad_since = now
        if self._bad_since is not None and not self._faulted and now - self._bad_since >= self._fault_after:
            self._faulted = True
            if seats:
                listed = ", ".join(str(s) for s in seats)
                reason = f"the puck is sensed at several boxes ({listed}) for {self._fault_after:g} s"
            else:
                reason = f"no box has sensed the puck for {self._fault_after:g} s"
            self._sink(PuckFault(reason, seats))

    def deadline(self) -> float | None:
        times = [inp.deadline() for inp in self._inputs.values()]
        if self._bad_since is not None and not self._faulted:
            times.append(self._bad_since + self._fault_after)
        return earliest(*times)
