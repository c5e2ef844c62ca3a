"""A real card shoe or shuffler on its serial port: the hello, heartbeats, and a clean line."""

from __future__ import annotations

import os
import time

import pytest

from drivers.shoe.events import DeviceIdentity
from drivers.shoe.link import ShoeLink
from tests.drivers.shoe.helpers import Collector
from tests.hardware.env import setting

pytestmark = pytest.mark.hardware


def test_the_shoe_says_hello_and_keeps_a_clean_line() -> None:
    url = setting("TABLECTL_HW_SHOE", "the shoe's port or pyserial URL (e.g. /dev/tablectl/shoe)")
    kind = os.environ.get("TABLECTL_HW_SHOE_KIND", "shoe")
    seen = Collector()
    link = ShoeLink(url, seen, kind=kind)
    link.start()
    try:
        assert seen.wait_for(lambda events: any(isinstance(e, DeviceIdentity) for e in events), 5.0), (
            f"no hello from a {kind} on {url} within 5 s (events: {seen.events[:5]})")
        identity = seen.of(DeviceIdentity)[0]
        assert identity.kind == kind
        time.sleep(3.5)  # more than the link's heartbeat timeout
        counters = link.counters()
        assert counters.connected, f"the {kind} on {url} dropped the link: {seen.events}"
        assert counters.last_heartbeat_age is not None and counters.last_heartbeat_age < 3.0, (
            f"no heartbeat from the {kind} for {counters.last_heartbeat_age} s")
        assert (counters.bad_crc, counters.resyncs) == (0, 0), f"a noisy line: {counters}"
        assert not link.faulted, f"the link faulted: {seen.events}"
    finally:
        link.stop()
