"""A live table for the terminal's tests: the daemon in a thread on its own loop, its devices emulated.

The shoe and the bet sensors are emulated devices that post what the test gives them (``CardDealt`` from
the shoe, ``Bet`` from the sensors) through the same ``post`` as real drivers; the dealer terminal is
served on 127.0.0.1 on a free port. ``restart`` stops the daemon and starts a new one on the same journal
and port, as systemd does after a crash.
"""

from __future__ import annotations

import asyncio
import io
import threading
import time
from pathlib import Path
from typing import Any

from controller import config as table_config
from controller.events import Bet
from controller.runtime.auth import hash_pin
from controller.runtime.daemon import Daemon
from drivers.events import CardDealt
from controller.runtime.journal import Journal
from controller.runtime.simulate import SimulatedPanel

PINS = {"carla": ("croupier", "2468"), "sven": ("supervisor", "8642"), "tove": ("technician", "1357")}
_HASHES: dict[str, str] = {}


def _hash(name: str) -> str:
    if name not in _HASHES:
        _HASHES[name] = hash_pin(PINS[name][1])
    return _HASHES[name]


class LiveTable:
    def __init__(self, tmp: Path, game: str, variant: str | None = None, options: dict[str, Any] | None = None,
                 limits: dict[str, Any] | None = None, devices: dict[str, Any] | None = None,
                 terminal: dict[str, Any] | None = None, language: str = "en") -> None:
        self.tmp, self.game, self.variant, self.language = tmp, game, variant, language
        self.terminal = terminal or {}  # more [terminal] keys (cert and key for TLS)
        self.options, self.limits, self.extra_devices = options or {}, limits, devices or {}
        self.port = 0
        self.thread: threading.Thread | None = None
        self.daemon: Daemon | None = None
        self.stream = io.StringIO()

    def config(self) -> table_config.TableConfig:
        data: dict[str, Any] = table_config.simulated_defaults(self.game, self.variant,
                                                               str(self.tmp / "journal.sqlite"))
        data.setdefault("options", {}).update(self.options)
        data["table"]["language"] = self.language
        if self.limits is not None:
            data["limits"] = self.limits
        data["devices"].update(self.extra_devices)
        data["terminal"] = {"enabled": True, "address": "127.0.0.1", "port": self.port, **self.terminal}
        data["console"] = {"users": {n: {"role": PINS[n][0], "pin": _hash(n)} for n in PINS}}
        return table_config.from_mapping(data, "test")

    def start(self) -> "LiveTable":
        self.shoe = SimulatedPanel("shoe")
        self.bets = SimulatedPanel("bets")
        reader = "camera" if "camera" in self.extra_devices else "wheel"  # the results: a camera's or the wheel's
        self.results = SimulatedPanel(reader)
        inputs = {"shoe": self.shoe, "bets": self.bets, reader: self.results}
        daemon = Daemon(self.config(), simulate=True, fast=True, croupier=False, quiet=True, stream=self.stream,
                        inputs=inputs)
        self.daemon = daemon
        self.thread = threading.Thread(target=lambda: asyncio.run(daemon.run()), name="daemon", daemon=True)
        self.thread.start()
        for _ in range(400):
            if daemon.ready_s is not None and daemon.web is not None and daemon.web.server is not None \
                    and daemon.web.server.started:
                break
            time.sleep(0.01)
        else:
            raise AssertionError(f"the daemon did not get ready: {self.stream.getvalue()[-2000:]}")
        self.port = daemon.web.port
        return self

    @property
    def url(self) -> str:
        return f"{'https' if self.terminal.get('cert') else 'http'}://127.0.0.1:{self.port}"

    def call(self, fn: Any) -> Any:
        """Run ``fn()`` on the daemon's loop and return its answer (the one loop owns the state)."""
        assert self.daemon is not None
        done = threading.Event()
        box: list[Any] = []
        self.daemon.running.loop.call_soon_threadsafe(lambda: (box.append(fn()), done.set()))
        assert done.wait(5)
        return box[0]

    def settled(self, timeout: float = 5.0) -> int:
        """Wait until the daemon has taken every event posted so far (one round trip through its loop)."""
        return self.call(lambda: self.daemon.table.journal.last_seq)

    def deal(self, *cards: str) -> None:
        for card in cards:
            self.shoe.send(CardDealt(card))
        self.settled()

    def bet(self, seat: int, spot: str, amount: int | None = None) -> None:
        self.bets.send(Bet(seat, spot, amount))
        self.settled()

    def stop(self) -> None:
        if self.daemon is not None and self.thread is not None:
            daemon = self.daemon
            daemon.running.loop.call_soon_threadsafe(daemon.stopped.set)
            self.thread.join(10)
            assert not self.thread.is_alive(), "the daemon did not stop"
        self.daemon = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def records(self, kinds: tuple[str, ...] = ("event",)) -> list[Any]:
        journal = Journal(self.tmp / "journal.sqlite")
        try:
            return list(journal.records(kinds=kinds))
        finally:
            journal.close()


def login(page: Any, url: str, name: str, view: str = "/") -> None:
    """Log ``name`` in on the terminal's PIN pad (a Playwright page), then wait for the view."""
    page.goto(url + view)
    page.wait_for_selector("#pad")
    page.fill("#name", name)
    for digit in PINS[name][1]:
        page.click(f"#pad button[data-key='{digit}']")
    page.click("#pad button[data-key='Log in']")
    page.wait_for_selector("#view[data-seq]")
