"""The console on a serial line, driven over a real pseudo-terminal the way a technician types."""

from __future__ import annotations

import asyncio
import os
import threading
import time
import tty

import pytest
import serial

from controller.runtime.auth import ConsoleUser, hash_pin
from controller.runtime.console import COMMANDS
from controller.runtime.console_server import ConsoleHost, SerialConsole
from tests.controller.runtime.fake_control import FakeControl

TECH_PIN, SUP_PIN = "2468", "97531"


@pytest.fixture(scope="module")
def users():
    return {"tech": ConsoleUser("tech", "technician", hash_pin(TECH_PIN)),
            "sup": ConsoleUser("sup", "supervisor", hash_pin(SUP_PIN))}


class Terminal:
    """The technician's side of the serial line: types bytes, reads the screen."""

    def __init__(self, master: int) -> None:
        self.master = master
        self.screen = ""

    def type(self, text: str) -> None:
        os.write(self.master, text.encode())

    def read_until(self, marker: str, timeout: float = 5.0) -> str:
        deadline = time.monotonic() + timeout
        start = len(self.screen)
        while marker not in self.screen[start:]:
            if time.monotonic() > deadline:
                raise AssertionError(f"no {marker!r} on the screen; got {self.screen[start:]!r}")
            import select
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if ready:
                self.screen += os.read(self.master, 4096).decode("utf-8", "replace")
        return self.screen[start:]

    def enter(self, line: str, until: str) -> str:
        self.type(line + "\r")
        return self.read_until(until)


@pytest.fixture
def console(users):
    master, slave = os.openpty()
    tty.setraw(slave)
    port = serial.Serial(os.ttyname(slave), 115200, timeout=0.05)
    now = [1000.0]
    control = FakeControl()
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    host = ConsoleHost(users, control, clock=lambda: now[0], idle_seconds=600)
    holder = {}

    def start() -> None:
        holder["console"] = SerialConsole(host, loop, port)
        holder["console"].start()

    loop.call_soon_threadsafe(start)
    terminal = Terminal(master)
    terminal.read_until("login: ")
    yield terminal, control, now
    loop.call_soon_threadsafe(lambda: None)
    holder["console"].stop()
    loop.call_soon_threadsafe(loop.stop)
    thread.join(timeout=2)
    port.close()
    os.close(master)
    os.close(slave)


def login(terminal: Terminal, name: str, pin: str) -> str:
    terminal.enter(name, "PIN: ")
    return terminal.enter(pin, "> ")


def test_pin_is_never_echoed_and_every_command_answers(console):
    terminal, control, now = console
    shown = terminal.enter("tech", "PIN: ")
    assert shown.startswith("tech")  # the name is echoed
    after = terminal.enter(TECH_PIN, "tech> ")
    assert TECH_PIN not in terminal.screen and "Welcome, tech (technician)" in after
    for line, expected in [("help", "jackpot [show|confirm M|correct M A R]"), ("status", "BJ-07"),
                           ("devices", "bad crc 0"), ("round", "14 against 6"), ("history 3", "last 3 rounds"),
                           ("limits", "986.66"), ("jackpot", "caribbean: 1000000"), ("faults", "shoe_link"),
                           ("selftest", "9 ok"), ("calibrate camera", "camera calibrated"),
                           ("journal verify", "chain intact"), ("journal tail 2", "record 1"),
                           ("config check", "no problems"), ("version", "tablectl 0.1.0"),
                           ("frobnicate", "Unknown command 'frobnicate'"), ("history x", "count from 1 to 1000")]:
        assert expected in terminal.enter(line, "tech> "), line
    shown = terminal.enter("config show", "tech> ")
    assert all(len(row) <= 80 for row in shown.replace("\r", "").split("\n"))
    assert "needs a supervisor login" in terminal.enter("jackpot correct caribbean 5 test", "tech> ")
    assert "tech cleared" not in terminal.enter("faults clear nothing", "tech> ")
    assert "shoe_link cleared by tech" in terminal.enter("faults clear shoe_link", "tech> ")
    assert "dice [3, 5] confirmed by tech" in terminal.enter("confirm red=3 green=5", "tech> ")
    assert "is not a die" in terminal.enter("confirm 7", "tech> ")
    assert "a colour for every die" in terminal.enter("confirm red=3 5", "tech> ")
    terminal.enter("confirm number=17", "tech> ")
    assert ("confirm_result", [17], None, "tech") in control.calls  # a roulette spin the camera was unsure of
    assert "is not a roulette number" in terminal.enter("confirm number=-1", "tech> ")
    assert "is not a roulette number" in terminal.enter("confirm number=3 4", "tech> ")
    assert ("confirm_result", [3, 5], ["red", "green"], "tech") in control.calls
    assert "Logged out" in terminal.enter("logout", "login: ")
    for who, what, ok in [("tech", "confirm red=3 green=5", True), ("tech", "login as technician on serial", True), ("tech", "selftest", True),
                          ("tech", "calibrate camera", True), ("tech", "faults clear shoe_link", True),
                          ("tech", "logout on serial", True)]:
        assert (who, what, ok) in control.audits
    assert any(a[0] == "tech" and a[1].startswith("refused: faults clear nothing") and not a[2] for a in control.audits)
    assert not any("status" in a[1] for a in control.audits)  # read-only commands are not journaled


def test_supervisor_corrects_and_confirms_the_jackpot(console):
    terminal, control, now = console
    login(terminal, "sup", SUP_PIN)
    assert "set to 750000 by sup: meter chip reset" in terminal.enter("jackpot correct caribbean 750000 meter chip reset", "sup> ")
    assert "Refused: no meter named 'nope'" in terminal.enter("jackpot correct nope 1 x", "sup> ")
    assert "usage: jackpot correct" in terminal.enter("jackpot correct caribbean", "sup> ")
    assert "hit confirmed by sup" in terminal.enter("jackpot confirm caribbean", "sup> ")
    assert ("correct", "caribbean", 750000, "meter chip reset", "sup") in control.calls
    assert ("sup", "jackpot correct caribbean 750000 meter chip reset", True) in control.audits


def test_five_wrong_pins_lock_the_name_for_five_minutes(console):
    terminal, control, now = console
    for attempt in range(4):
        terminal.enter("tech", "PIN: ")
        now[0] += 0.5  # a person's pace: the console takes at most 2 PIN checks a second
        assert "Wrong name or PIN." in terminal.enter("0000", "login: ")
    terminal.enter("tech", "PIN: ")
    now[0] += 0.5
    assert "locked for 5 minutes" in terminal.enter("0000", "login: ")
    terminal.enter("tech", "PIN: ")
    assert "try again in 5 minutes" in terminal.enter(TECH_PIN, "login: ")  # even the right PIN
    failures = [a for a in control.audits if a[0] == "tech" and not a[2]]
    assert len(failures) == 6 and "locked for 5 minutes" in failures[4][1]
    now[0] += 299
    terminal.enter("tech", "PIN: ")
    assert "try again in 1 minutes" in terminal.enter(TECH_PIN, "login: ")
    now[0] += 2
    assert "Welcome, tech" in login(terminal, "tech", TECH_PIN)
    assert "Wrong name or PIN." in (terminal.enter("logout", "login: ") and terminal.enter("ghost", "PIN: ")
                                    and terminal.enter("1111", "login: "))


def test_idle_logout(console):
    terminal, control, now = console
    login(terminal, "tech", TECH_PIN)
    now[0] += 601
    assert "Logged out after 10 minutes without input." in terminal.read_until("login: ", timeout=5)
    assert ("tech", "logout (idle 600 s) on serial", True) in control.audits
    assert "Log in first" in terminal.enter("help", "login: ")


def test_backspace_edits_the_line(console):
    terminal, control, now = console
    login(terminal, "tech", TECH_PIN)
    assert "BJ-07" in terminal.enter("statsu\x7f\x7fus", "tech> ")


def test_help_lists_every_command():
    control = FakeControl()
    from controller.runtime.auth import Lockout
    from controller.runtime.console import ConsoleSession
    session = ConsoleSession({}, control, Lockout())
    text = "\n".join(COMMANDS["help"].run(session, []))
    for name in ("help", "status", "devices", "round", "history", "limits", "jackpot", "faults", "confirm", "selftest",
                 "calibrate", "journal", "config", "version", "logout"):
        assert name in text


def test_a_dialog_over_the_serial_line(console):
    from tests.controller.runtime.test_console_dialog import TwoQuestions

    terminal, control, now = console
    dialog = TwoQuestions()
    control.selftest = lambda who: dialog
    login(terminal, "tech", TECH_PIN)
    assert "Walk starts." in terminal.enter("selftest", "Is the RED lamp lit, and no other? [y/n] ")
    assert "Press the STAND button." in terminal.enter("y", "(waiting; 'abort' to stop) ")
    assert "ok buttons stand: pressed" in terminal.read_until("[y/n] ", timeout=5)  # polled on the fast tick
    assert "walk aborted (abort typed by tech)" in terminal.enter("abort", "tech> ")
    assert dialog.polls >= 3 and dialog.answers == ["y"]
