"""The opt-in hardware suite (each test module here is marked ``hardware``); a test reads its device from the environment.

Run on a table's Pi, daemon stopped (docs/devices/hardware-tests.md):

    TABLECTL_HW_SHOE=/dev/tablectl/shoe TABLECTL_HW_CAMERA=camera:0 sh test.sh -m hardware tests/hardware

A device whose variable is unset is skipped with the variable's name; a device that is set and does not
answer fails with a line saying what did not happen.
"""

from __future__ import annotations

import os

import pytest


def setting(name: str, what: str) -> str:
    """The environment variable ``name``; the test is skipped, naming it, when it is unset."""
    value = os.environ.get(name, "").strip()
    if not value:
        pytest.skip(f"set {name} to {what} to run this test")
    return value
