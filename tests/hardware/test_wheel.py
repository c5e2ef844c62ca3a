"""A real roulette wheel reader on its serial port: good status lines, none unknown."""

from __future__ import annotations

import os
import time

import pytest

from drivers.wheel.reader import WheelReader
from tests.drivers.shoe.helpers import Collector
from tests.hardware.env import setting

pytestmark = pytest.mark.hardware


def test_the_wheel_sends_status_lines_the_reader_understands() -> None:
    url = setting("TABLECTL_HW_WHEEL", "the wheel reader's port or pyserial URL (e.g. /dev/tablectl/wheel)")
    wait = float(os.environ.get("TABLECTL_HW_WHEEL_WAIT", "10"))  # a wheel that talks only while spinning: spin it
    baudrate = int(os.environ.get("TABLECTL_HW_WHEEL_BAUD", "9600"))
    seen = Collector()
    reader = WheelReader(url, seen, baudrate=baudrate)
    reader.start()
    try:
        deadline = time.monotonic() + wait
        while reader.counters().lines_good < 3 and time.monotonic() < deadline:
            time.sleep(0.1)
        counters = reader.counters()
        assert counters.lines_good >= 3, (
            f"{counters.lines_good} good status line(s) from {url} in {wait:g} s at {baudrate} baud "
            f"({counters.unknown_lines} not understood): wrong port, baud rate or separator?")
        assert counters.unknown_lines == 0 and counters.resyncs == 0, f"lines the reader did not understand: {counters}"
        assert not reader.faulted, f"the link faulted: {seen.events}"
    finally:
        reader.stop()
