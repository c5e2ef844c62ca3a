"""The watchdog is pinged only while healthy, through a real (fake systemd) notify socket."""

from __future__ import annotations

import socket

import pytest

from controller.runtime.watchdog import Notifier, Watchdog


@pytest.fixture
def notify_socket(tmp_path):
    path = str(tmp_path / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(0.2)
    yield path, sock
    sock.close()


def received(sock) -> list[str]:
    out = []
    while True:
        try:
            out.append(sock.recv(4096).decode())
        except (socket.timeout, BlockingIOError):
            return out


def test_ready_and_pings_while_healthy(notify_socket):
    path, sock = notify_socket
    notifier = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "10000000"})
    health = {"ok": True, "why": ""}
    dog = Watchdog(notifier, lambda: (health["ok"], health["why"]))
    assert dog.interval == 5.0
    assert notifier.ready("table open")
    assert dog.beat() and dog.beat()
    assert received(sock) == ["READY=1\nSTATUS=table open", "WATCHDOG=1", "WATCHDOG=1"]


def test_ping_withheld_while_a_device_is_unhealthy(notify_socket):
    path, sock = notify_socket
    notifier = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "10000000"})
    health = {"ok": False, "why": "shoe: no heartbeat for 3.0 s"}
    dog = Watchdog(notifier, lambda: (health["ok"], health["why"]))
    assert not dog.beat() and not dog.beat()
    assert dog.withheld == 2
    assert received(sock) == ["STATUS=unhealthy: shoe: no heartbeat for 3.0 s"]  # said once, no WATCHDOG=1
    health.update(ok=True)
    assert dog.beat()
    assert received(sock) == ["WATCHDOG=1"]


def test_without_systemd_nothing_is_sent():
    notifier = Notifier({})
    assert not notifier.enabled and not notifier.ready() and Watchdog(notifier, lambda: (True, "")).interval is None
    assert Notifier({"NOTIFY_SOCKET": "/x", "WATCHDOG_USEC": "5", "WATCHDOG_PID": "1"}).watchdog_seconds is None
