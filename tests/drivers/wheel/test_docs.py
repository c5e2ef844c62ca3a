"""docs/devices/wheel-reader.md: the example lines give the events the page says."""

from __future__ import annotations

from drivers.wheel.events import WheelFault, WheelNoMoreBets, WheelNumber, WheelState, WheelVoid
from drivers.wheel.protocol import LineError, parse_line
from drivers.wheel.tracker import WheelTracker
from tests.tablectl import ROOT

DOC = (ROOT / "docs" / "devices" / "wheel-reader.md").read_text(encoding="utf-8")


def test_the_examples_table() -> None:
    rows = [line for line in DOC.splitlines() if line.startswith("| `*X:") or line.startswith("| `*X;")]
    assert len(rows) == 10
    tracker = WheelTracker()
    got = []
    for row in rows:
        text = row.split("`")[1]
        try:
            got.append(tracker.update(parse_line(text)))
        except LineError:
            got.append("unknown")
    assert got == [
        [WheelState(1, 552, 439, 1)], [WheelState(2, 552, 439, 1)], [WheelState(3, 552, 439, 1)],
        [WheelNoMoreBets(552)], [WheelNumber(17, 552)], [WheelNumber(0, 553)],
        [WheelVoid("void game or failed launch", 554), WheelNoMoreBets(554)],
        [WheelFault("sensor or motor fault", 555), WheelNumber(9, 555)], [WheelState(6, 556, 0, 1)], "unknown"]
