"""Test helpers: an event collector with waiting, and a hand-driven device on a raw pty."""

from __future__ import annotations

import threading
import time
from typing import Any, Callable

from drivers.ptydevice import PtyPort
from drivers.seriallink import Delivery
from drivers.shoe.protocol import Frame, FrameParser, Good, encode


class Collector:
    """The link's callback: keeps events, lets the test wait for a condition on them.

    A ``Delivery`` (a fact to acknowledge after it is journaled) is unwrapped and acknowledged at once, as a
    caller that journals nothing does; with ``hold=True`` the deliveries are kept in ``held`` unacknowledged.
    """

    def __init__(self, hold: bool = False) -> None:
        self.events: list[Any] = []
        self.held: list[Delivery] = []
        self.hold = hold
        self._cond = threading.Condition()

    def __call__(self, event: Any) -> None:
        if isinstance(event, Delivery):
            if self.hold:
                with self._cond:
                    self.held.append(event)
            else:
                event.acknowledge()
            event = event.event
        with self._cond:
            self.events.append(event)
            self._cond.notify_all()

    def of(self, kind: type) -> list[Any]:
        with self._cond:
            return [e for e in self.events if isinstance(e, kind)]

    def wait_for(self, predicate: Callable[[list[Any]], bool], timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        with self._cond:
            while not predicate(self.events):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
        return True

    def wait_count(self, kind: type, count: int, timeout: float) -> bool:
        return self.wait_for(lambda evs: sum(isinstance(e, kind) for e in evs) >= count, timeout)


class HandDevice:
    """A raw pty the test writes frames to and reads the host's frames from (no automatic behaviour)."""

    def __init__(self, link_path: str | None = None) -> None:
        self.pty = PtyPort(link_path)
        self.path = self.pty.plug()
        self._parser = FrameParser()
        self.received: list[Frame] = []

    def send(self, seq: int, type_: str, payload: str = "") -> None:
        self.write(encode(seq, type_, payload))

    def write(self, raw: bytes) -> None:
        self.pty.write(raw)
        deadline = time.monotonic() + 2
        while self.pty.pending_out and time.monotonic() < deadline:
            self.pty.wait(0.01)
            self.pty.flush()

    def hello(self, kind: str = "shoe", version: int = 1, boot: str = "B007") -> None:
        self.send(0, "HEL", f"ver={version} kind={kind} id=HAND-1 fw=t boot={boot}")

    def poll(self, timeout: float = 0.05) -> list[Frame]:
        self.pty.wait(timeout)
        got = [r.frame for r in self._parser.feed(self.pty.read()) if isinstance(r, Good)]
        self.received += got
        return got

    def wait_frame(self, predicate: Callable[[Frame], bool], timeout: float = 2.0) -> Frame | None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for frame in self.poll(0.02):
                if predicate(frame):
                    return frame
        return None

    def close(self) -> None:
        self.pty.unplug()
