"""The device walk over the console socket, on a running daemon's own mock GPIO pins (hw/tables/blackjack-se-burn).

A test technician logs in over the Unix socket, answers the lamp and display
questions, presses the mock buttons and moves the mock puck when asked, and
reads the report; the table refuses game input while the walk runs and takes
it again afterwards; the report is journaled with who ran it.
"""

from __future__ import annotations

import asyncio
import io
import re
import tomllib
from pathlib import Path
from typing import Any, Callable

import pytest

from controller import config as table_config
from controller.events import Bet
from controller.runtime import console_selftest
from controller.runtime.auth import hash_pin
from controller.runtime.daemon import Daemon
from controller.runtime.device_outputs import tower_pattern
from tests.controller.runtime.test_real_devices import records, run_daemon
from tests.tablectl import ROOT

pytestmark = pytest.mark.timeout(90)
PIN = "1357"


def burn_table(tmp: Path) -> table_config.TableConfig:
    """The example table on mock pins and a dummy sign; journal (and, under --simulate, the console socket) in tmp."""
    data: dict[str, Any] = tomllib.loads((ROOT / "hw" / "tables" / "blackjack-se-burn.toml").read_text())
    data["devices"]["gpio"].update(pin_factory="mock", pin_map=str(ROOT / "hw" / "bj-burn-7.toml"))
    data["devices"]["sign"] = {"driver": "dummy"}
    data["journal"]["path"] = str(tmp / "journal.sqlite")
    data["console"] = {"enabled": True, "socket": str(tmp / "console.sock"),
                       "users": {"eva": {"role": "technician", "pin": hash_pin(PIN)}}}
    return table_config.from_mapping(data, "test")


class Technician:
    """Reads the console over the socket; answers y to every question, does every action but ``skip``."""

    def __init__(self, daemon: Daemon, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 skip: str | None = None) -> None:
        self.daemon, self.reader, self.writer, self.skip = daemon, reader, writer, skip
        self.screen = ""
        self.puck_at: int | None = None
        self.during: list[tuple[str, str]] = []  # (what the table said to a bet, tower pattern) mid-walk
        self.tower_after_lamps: tuple[str, dict[str, bool]] | None = None

    async def until(self, *markers: str, timeout: float = 15.0) -> str:
        async def read() -> str:
            while not any(m in self.screen for m in markers):
                data = await self.reader.read(4096)
                assert data, f"closed; got {self.screen!r}"
                self.screen += data.decode()
            at = min(self.screen.index(m) + len(m) for m in markers if m in self.screen)
            text, self.screen = self.screen[:at], self.screen[at:]
            return text
        return await asyncio.wait_for(read(), timeout)

    async def say(self, line: str, *markers: str) -> str:
        self.writer.write((line + "\n").encode())
        await self.writer.drain()
        return await self.until(*markers)

    async def act(self, text: str) -> None:
        hands = self.daemon.built.inputs["gpio"].hands
        for name in re.findall(r"Press the (\w+) button", text):
            if name.lower() == self.skip:
                continue
            hands.button(name.lower(), True)
            await asyncio.sleep(0.1)
            hands.button(name.lower(), False)
        for seat in map(int, re.findall(r"burn circle of box (\d+)", text)):
            if self.puck_at is not None:
                hands.puck(self.puck_at, False)
            hands.puck(seat, True)
            self.puck_at = seat

    async def walk(self) -> str:
        """Start the walk and see it through; the whole screen until the command prompt comes back."""
        seen = ""
        panel = self.daemon.built.inputs["gpio"]
        # the simulated table was set up with the puck in a burn circle; the sensors settle (debounce)
        # before the reading stands, later under load
        await puck_settles(panel, lambda seats: bool(seats), tries=250)
        (laid,) = panel.devices.puck.seats
        last = len(panel.pin_map.puck.sensors)
        if laid != last:  # the walk starts at box 1: a puck that never left box 1 is not sensed there anew
            panel.hands.puck(laid, False)
            panel.hands.puck(last, True)
            await puck_settles(panel, lambda seats: seats == (last,), tries=100)
        self.puck_at = last
        text = await self.say("selftest", "[y/n] ", "'abort' to stop) ", "eva> ")
        while True:
            seen += text
            if text.endswith("eva> "):
                return seen
            if "Press the NO_MORE_BETS button" in text:  # the lamp test is over: the tower shows maintenance
                tower = self.daemon.built.inputs["gpio"].devices.tower
                self.tower_after_lamps = (tower.pattern, dict(tower.state))
            if len(self.during) < 2:  # mid-walk: the table refuses game input and shows maintenance
                self.during.append((self.daemon.table.submit("bets", Bet(2, "main", 1000)),
                                    tower_pattern(self.daemon.table)))
            if text.endswith("[y/n] "):
                text = await self.say("y", "[y/n] ", "'abort' to stop) ", "eva> ")
            else:
                await self.act(text)
                text = await self.until("[y/n] ", "'abort' to stop) ", "eva> ")


async def puck_settles(panel: Any, settled: Callable[[tuple[int, ...]], bool], tries: int) -> None:
    """Wait (20 ms steps, ``tries`` at most) until the burn puck's sensed seats are ``settled``."""
    for _ in range(tries):
        if settled(panel.devices.puck.seats):
            return
        await asyncio.sleep(0.02)


def run_walk(tmp_path: Path, skip: str | None) -> tuple[Daemon, Technician, str, str]:
    daemon = Daemon(burn_table(tmp_path), simulate=True, fast=True, stream=io.StringIO(), croupier=False)
    result: dict[str, Any] = {}

    async def body(d: Daemon) -> None:
        reader, writer = await asyncio.open_unix_connection(str(tmp_path / "console.sock"))
        tech = Technician(d, reader, writer, skip)
        await tech.until("login: ")
        await tech.say("eva", "PIN: ")
        await tech.say(PIN, "eva> ")
        result["screen"] = await tech.walk()
        result["after"] = d.table.submit("bets", Bet(2, "main", 1000))
        result["tech"] = tech
        await tech.say("logout", "login: ")
        writer.close()

    run_daemon(daemon, body)
    return daemon, result["tech"], result["screen"], result["after"]


def test_the_walk_over_the_console_passes_and_is_journaled(tmp_path: Path) -> None:
    daemon, tech, screen, after = run_walk(tmp_path, skip=None)
    assert "Is the RED lamp lit, and no other? [y/n]" in screen
    assert "ok   buttons stand: pressed" in screen and "ok   puck box 7: sensed" in screen
    assert "selftest: all devices passed" in screen and "Maintenance ended" in screen
    assert all(len(line) <= 80 for line in screen.splitlines())
    assert tech.during and all(answer == "refused" and pattern == "maintenance" for answer, pattern in tech.during)
    assert after == "accepted" and not daemon.table.faults
    assert tech.tower_after_lamps == ("maintenance", {"green": False, "amber": True, "red": True, "buzzer": False})
    refusals = [b["reason"] for _, _, b in records(tmp_path, "refuse")]
    assert refusals and all(r.startswith("fault maintenance: device self-test by eva") for r in refusals)
    # the presses and the puck went to the walk, not to the game; before it, the puck as laid and moved to box 7
    gpio = [b["event"] for _, _, b in records(tmp_path, "event") if b["source"] == "gpio"]
    assert gpio == [{"type": "puck", "seat": 1}, {"type": "puck", "seat": 7}]
    audits = [(b["who"], b["what"], b["ok"]) for _, _, b in records(tmp_path, "console")]
    assert ("eva", "selftest: all devices passed: every check passed", True) in audits
    clears = [b for _, _, b in records(tmp_path, "clear")]
    assert clears and clears[-1]["names"] == ["maintenance"] and clears[-1]["by"] == "console:eva"


def test_a_button_never_pressed_is_reported_failed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(console_selftest, "ACTION_TIMEOUT_S", 1.0)
    daemon, _, screen, after = run_walk(tmp_path, skip="void")
    assert "FAIL buttons void: not pressed within 1 s" in screen
    assert "selftest: 1 of " in screen and "ok   buttons confirm: pressed" in screen
    assert after == "accepted"
    audits = [(b["who"], b["what"], b["ok"]) for _, _, b in records(tmp_path, "console")]
    assert any(who == "eva" and "FAIL buttons void" in what and not ok for who, what, ok in audits)


def test_abort_ends_maintenance_and_an_open_round_refuses_the_walk(tmp_path: Path) -> None:
    daemon = Daemon(burn_table(tmp_path), simulate=True, fast=True, stream=io.StringIO(), croupier=False)
    seen: dict[str, Any] = {}

    async def body(d: Daemon) -> None:
        reader, writer = await asyncio.open_unix_connection(str(tmp_path / "console.sock"))
        tech = Technician(d, reader, writer)
        await tech.until("login: ")
        await tech.say("eva", "PIN: ")
        await tech.say(PIN, "eva> ")
        assert "Is the GREEN lamp lit" in await tech.say("selftest", "[y/n] ")
        assert "Please answer y or n." in await tech.say("maybe", "[y/n] ")
        seen["mid"] = tower_pattern(d.table)
        seen["abort"] = await tech.say("abort", "eva> ")
        seen["faults"] = dict(d.table.faults)
        seen["bet"] = d.table.submit("bets", Bet(2, "main", 1000))  # the round is open now
        seen["again"] = await tech.say("selftest", "eva> ")
        writer.close()

    run_daemon(daemon, body)
    assert seen["mid"] == "maintenance" and "Self-test aborted (abort typed by eva)" in seen["abort"]
    assert "Maintenance ended" in seen["abort"] and not seen["faults"] and seen["bet"] == "accepted"
    assert "Refused: a round is open: run the self-test between rounds" in seen["again"]
    audits = [(b["who"], b["what"], b["ok"]) for _, _, b in records(tmp_path, "console")]
    assert ("eva", "selftest aborted (abort typed by eva)", False) in audits


def test_a_device_error_mid_walk_ends_maintenance(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    daemon = Daemon(burn_table(tmp_path), simulate=True, fast=True, stream=io.StringIO(), croupier=False)
    seen: dict[str, Any] = {}

    async def body(d: Daemon) -> None:
        def broken(*args: Any) -> None:
            raise OSError("SPI write failed")
        monkeypatch.setattr(type(d.built.inputs["gpio"].devices.sign), "show_image", broken)
        reader, writer = await asyncio.open_unix_connection(str(tmp_path / "console.sock"))
        tech = Technician(d, reader, writer)
        await tech.until("login: ")
        await tech.say("eva", "PIN: ")
        await tech.say(PIN, "eva> ")
        await tech.say("selftest", "[y/n] ")
        for _ in range(3):
            await tech.say("y", "[y/n] ")
        seen["end"] = await tech.say("y", "eva> ")
        seen["faults"], seen["divert"] = dict(d.table.faults), d.built.inputs["gpio"].divert
        writer.close()

    run_daemon(daemon, body)
    assert "Self-test stopped by an error: OSError('SPI write failed')" in seen["end"]
    assert "Maintenance ended" in seen["end"] and not seen["faults"] and seen["divert"] is None


def test_clearing_maintenance_mid_walk_stops_the_walk(tmp_path: Path) -> None:
    daemon = Daemon(burn_table(tmp_path), simulate=True, fast=True, stream=io.StringIO(), croupier=False)
    seen: dict[str, Any] = {}

    async def body(d: Daemon) -> None:
        reader, writer = await asyncio.open_unix_connection(str(tmp_path / "console.sock"))
        tech = Technician(d, reader, writer)
        await tech.until("login: ")
        await tech.say("eva", "PIN: ")
        await tech.say(PIN, "eva> ")
        await tech.say("selftest", "[y/n] ")
        from controller.runtime.interfaces import Command
        assert d.table.command(Command("clear_fault", {}, "console:sup")) == "done"  # 'faults clear' elsewhere
        seen["end"] = await tech.say("y", "eva> ")
        seen["divert"] = d.built.inputs["gpio"].divert
        writer.close()

    run_daemon(daemon, body)
    assert "Self-test stopped: 'maintenance' was cleared while it ran" in seen["end"] and seen["divert"] is None
