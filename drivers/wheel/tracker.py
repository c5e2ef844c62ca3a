"""Turns the wheel's repeated status lines into events, each once per spin (pure: no I/O, no clock).

A wheel repeats its status; the tracker remembers, for the last few spins,
what it already reported: no-more-bets once, the number once, each warning
once. A spin flagged void (warning 1, 2 or 8) gets one ``WheelVoid`` and no
``WheelNumber`` afterwards (the number is counted in ``suppressed`` and
logged by the reader). With ``confirmations`` N > 1 a number is delivered
only once N state-5 lines of the spin agree (the line has no checksum; a wheel
that repeats its status then cannot turn one flipped digit into a result).
Two different numbers for one spin are a ``WheelFault`` and no result at all
(or, if one was already delivered, a fault after it), never a second result.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field

from drivers.wheel.events import WheelEvent, WheelFault, WheelNoMoreBets, WheelNumber, WheelState, WheelVoid
from drivers.wheel.protocol import FAULT_FLAGS, VOID_FLAGS, WARNINGS, WheelStatus

REMEMBERED_SPINS = 16


@dataclass(slots=True)
class _Spin:
    no_more_bets: bool = False
    number: int | None = None  # delivered
    candidate: int | None = None  # seen, maybe not yet confirmed
    seen: int = 0
    void: bool = False
    faults_seen: int = 0
    conflict: bool = False
    states: set[int] = field(default_factory=set)


class WheelTracker:
    """Feed ``WheelStatus`` records in line order; get the events to deliver."""

    def __init__(self, confirmations: int = 1) -> None:
        if confirmations < 1:
            raise ValueError("confirmations must be at least 1")
        self.confirmations = confirmations
        self._spins: OrderedDict[int, _Spin] = OrderedDict()
        self._last: tuple[int, int] | None = None
        self.suppressed = 0

    def _spin(self, spin: int) -> _Spin:
        record = self._spins.get(spin)
        if record is None:
            record = self._spins[spin] = _Spin()
            while len(self._spins) > REMEMBERED_SPINS:
                self._spins.popitem(last=False)
        return record

    def prime(self, spin: int, facts: list[str]) -> None:
        """After a restart: what was already reported of ``spin`` (``number``, ``no_more_bets``, ``void``,
        ``fault``), so that the wheel repeating that spin's status reports none of it again."""
        record = self._spin(spin)
        if "no_more_bets" in facts:
            record.no_more_bets = True
        if "void" in facts:
            record.void = True
        if "number" in facts:
            record.number = -1  # delivered; its value is in the journal
        if "fault" in facts:
            record.faults_seen = ~0

    def update(self, status: WheelStatus) -> list[WheelEvent]:
        out: list[WheelEvent] = []
        record = self._spin(status.spin)
        new_state = (status.state, status.spin) != self._last
        self._last = (status.state, status.spin)
        out += self._warnings(status, record)
        if status.state == 4:
            if not record.no_more_bets:
                record.no_more_bets = True
                out.append(WheelNoMoreBets(status.spin))
        elif status.state == 5:
            out += self._number(status, record)
        elif new_state:
            out.append(WheelState(status.state, status.spin, status.rotor_speed, status.direction))
        return out

    def _warnings(self, status: WheelStatus, record: _Spin) -> list[WheelEvent]:
        out: list[WheelEvent] = []
        flags = status.warnings
        void_bits = flags & VOID_FLAGS
        if void_bits and not record.void:
            record.void = True
            reasons = "; ".join(WARNINGS[bit] for bit in (1, 2, 8) if void_bits & bit)
            out.append(WheelVoid(reasons, status.spin))
        fault_bits = flags & ~VOID_FLAGS
        new_faults = fault_bits & ~record.faults_seen
        if new_faults:
            record.faults_seen |= new_faults
            if new_faults & FAULT_FLAGS:
                out.append(WheelFault(WARNINGS[FAULT_FLAGS], status.spin))
            unknown = new_faults & ~FAULT_FLAGS
            if unknown:
                out.append(WheelFault(f"warning flags {unknown} not known to this driver", status.spin))
        return out

    def _number(self, status: WheelStatus, record: _Spin) -> list[WheelEvent]:
        n = status.number
        if record.void:
            if record.candidate is None:
                record.candidate = n
                self.suppressed += 1
            return []
        if record.conflict:
            return []
        if record.candidate is None:
            record.candidate, record.seen = n, 1
        elif record.candidate == n:
            record.seen += 1
        else:
            record.conflict = True
            return [WheelFault(f"spin {status.spin}: the wheel reported {record.candidate}, then {n}; "
                               "no result taken", status.spin)]
        if record.number is None and record.seen >= self.confirmations:
            record.number = n
            return [WheelNumber(n, status.spin)]
        return []
