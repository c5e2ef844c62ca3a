"""systemd notification (Type=notify) and the watchdog, pinged from the loop only while healthy.

The protocol is one datagram per message to the Unix socket in $NOTIFY_SOCKET
(an abstract socket when it starts with '@'). ``Watchdog.beat`` runs on the
daemon's loop: it pings only when ``healthy()`` says the loop and every
configured device are well, so a stuck loop or a dead device lets systemd
restart the service. Never ping from a side thread.
"""

from __future__ import annotations

import os
import socket
from typing import Callable, Mapping


class Notifier:
    """Sends sd_notify messages; does nothing when not started by systemd."""

    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        path = env.get("NOTIFY_SOCKET", "")
        self.address = ("\0" + path[1:]) if path.startswith("@") else path
        usec = env.get("WATCHDOG_USEC", "")
        pid = env.get("WATCHDOG_PID", "")
        applies = usec.isdigit() and (not pid or pid == str(os.getpid()))
        self.watchdog_seconds: float | None = int(usec) / 1_000_000 if applies else None
        self.sent = 0

    @property
    def enabled(self) -> bool:
        return bool(self.address)

    def send(self, message: str) -> bool:
        if not self.address:
            return False
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
                sock.connect(self.address)
                sock.sendall(message.encode())
        except OSError:
            return False
        self.sent += 1
        return True

    def ready(self, status: str = "table open") -> bool:
        return self.send(f"READY=1\nSTATUS={status}")

    def stopping(self) -> bool:
        return self.send("STOPPING=1")

    def status(self, text: str) -> bool:
        return self.send(f"STATUS={text}")


class Watchdog:
    """Called every ``interval`` seconds by the loop: pings while healthy, says why not otherwise."""

    def __init__(self, notifier: Notifier, healthy: Callable[[], tuple[bool, str]]) -> None:
        self.notifier = notifier
        self.healthy = healthy
        self.withheld = 0
        self._last_reason = ""

    @property
    def interval(self) -> float | None:
        """Half the watchdog time systemd gave, or None when there is no watchdog."""
        seconds = self.notifier.watchdog_seconds
        return seconds / 2 if seconds else None

    def beat(self) -> bool:
        ok, reason = self.healthy()
        if ok:
            self._last_reason = ""
            return self.notifier.send("WATCHDOG=1")
        self.withheld += 1
        if reason != self._last_reason:
            self.notifier.status(f"unhealthy: {reason}")
            self._last_reason = reason
        return False
