"""The checks of one configuration value: each returns ``None`` when the value is good, else what is allowed.

``controller/config.py`` checks the table's sections with them, and every device kind
(``controller/runtime/devices/<kind>.py``) declares its keys with them, so a problem reads the same
wherever the key is.
"""

from __future__ import annotations

import re
from typing import Any, Callable

Check = Callable[[Any], "str | None"]

PIN_FACTORIES = ("lgpio", "rpigpio", "pigpio", "native", "mock")
BAUDS = (1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200)
_SERIAL_URL = re.compile(r"^(/dev/\S+|(loop|socket|rfc2217|spy|alt|hwgrep)://\S*|COM\d+|pty)$")


def text(v: Any) -> str | None:
    return None if isinstance(v, str) and v.strip() else "text"


def int_range(low: int, high: int) -> Check:
    def check(v: Any) -> str | None:
        if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
            return f"a whole number from {low} to {high}"
        return None
    return check


def choice(*allowed: Any) -> Check:
    def check(v: Any) -> str | None:
        return None if v in allowed and not isinstance(v, bool) else "one of " + ", ".join(map(str, allowed))
    return check


def boolean(v: Any) -> str | None:
    return None if isinstance(v, bool) else "true or false"


def port(v: Any) -> str | None:
    if isinstance(v, str) and _SERIAL_URL.match(v):
        return None
    return "a device path such as /dev/ttyUSB0, a pyserial URL (loop://, socket://host:port, rfc2217://...) or pty"


SERIAL: dict[str, Check] = {"port": port, "baud": choice(*BAUDS), "timeout_s": int_range(1, 60)}
"""The keys of a device on a serial line (a shoe, a shuffler, a wheel reader)."""
