"""Status lines to events: once per spin, voids suppress the number, conflicts are faults."""

from __future__ import annotations

import pytest

from drivers.wheel.events import WheelFault, WheelNoMoreBets, WheelNumber, WheelState, WheelVoid
from drivers.wheel.protocol import WheelStatus
from drivers.wheel.tracker import REMEMBERED_SPINS, WheelTracker


def feed(tracker: WheelTracker, *statuses: WheelStatus) -> list:
    return [e for s in statuses for e in tracker.update(s)]


def game(spin: int, number: int, warnings: int = 0, previous: int = 0) -> list[WheelStatus]:
    return [WheelStatus(state, spin, number if state == 5 else previous, warnings if state >= 3 else 0, 400, 1)
            for state in (1, 2, 3, 4, 5)]


def test_one_clean_game() -> None:
    events = feed(WheelTracker(), *game(552, 24))
    assert events == [WheelState(1, 552, 400, 1), WheelState(2, 552, 400, 1), WheelState(3, 552, 400, 1),
                      WheelNoMoreBets(552), WheelNumber(24, 552)]
    assert WheelState(3, 1).name == "ball in track"


def test_repeated_lines_give_each_event_once() -> None:
    tracker = WheelTracker()
    events = feed(tracker, *[s for s in game(9, 0) for _ in range(4)])
    assert events.count(WheelNoMoreBets(9)) == 1 and events.count(WheelNumber(0, 9)) == 1 and len(events) == 5


def test_table_closed_is_reported() -> None:
    assert feed(WheelTracker(), WheelStatus(6, 10, 3, 0, 0, 1)) == [WheelState(6, 10, 0, 1)]


@pytest.mark.parametrize("flag,reason", [(1, "ball not sensed"), (2, "ball spun the same way as the rotor"),
                                         (8, "void game or failed launch")])
def test_void_flags_void_the_spin_and_hold_back_its_number(flag: int, reason: str) -> None:
    tracker = WheelTracker()
    events = feed(tracker, *game(3, 17, warnings=flag))
    assert WheelVoid(reason, 3) in events and not [e for e in events if isinstance(e, WheelNumber)]
    assert tracker.suppressed == 1
    assert WheelNumber(5, 4) in feed(tracker, *game(4, 5))  # the next spin is normal again


def test_several_void_flags_give_one_void_naming_them_all() -> None:
    events = feed(WheelTracker(), WheelStatus(5, 3, 17, 1 | 8))
    assert events == [WheelVoid("ball not sensed; void game or failed launch", 3)]


def test_sensor_fault_is_a_fault_once_and_the_number_still_reported() -> None:
    events = feed(WheelTracker(), *[s for s in game(8, 12, warnings=4) for _ in range(2)])
    assert events.count(WheelFault("sensor or motor fault", 8)) == 1
    assert WheelNumber(12, 8) in events


def test_unknown_flags_are_a_fault() -> None:
    events = feed(WheelTracker(), WheelStatus(3, 8, 0, 16 | 4))
    assert WheelFault("sensor or motor fault", 8) in events
    assert WheelFault("warning flags 16 not known to this driver", 8) in events


def test_two_numbers_for_one_spin_are_a_fault_never_a_second_result() -> None:
    tracker = WheelTracker()
    events = feed(tracker, WheelStatus(5, 7, 23, 0), WheelStatus(5, 7, 22, 0), WheelStatus(5, 7, 21, 0))
    assert events[0] == WheelNumber(23, 7)
    assert events[1:] == [WheelFault("spin 7: the wheel reported 23, then 22; no result taken", 7)]


def test_confirmations_need_agreeing_lines_and_a_disagreement_gives_no_result() -> None:
    tracker = WheelTracker(confirmations=2)
    assert feed(tracker, WheelStatus(5, 1, 30, 0)) == []
    assert feed(tracker, WheelStatus(5, 1, 30, 0)) == [WheelNumber(30, 1)]
    assert feed(tracker, WheelStatus(5, 2, 31, 0), WheelStatus(5, 2, 30, 0), WheelStatus(5, 2, 30, 0)) == [
        WheelFault("spin 2: the wheel reported 31, then 30; no result taken", 2)]
    with pytest.raises(ValueError):
        WheelTracker(confirmations=0)


def test_memory_is_bounded() -> None:
    tracker = WheelTracker()
    for spin in range(1000):
        feed(tracker, *game(spin, spin % 37))
    assert len(tracker._spins) == REMEMBERED_SPINS
