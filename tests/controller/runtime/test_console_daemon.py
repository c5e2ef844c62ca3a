"""The console, the watchdog and the code self-check inside a running daemon (a subprocess)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path


from controller.runtime.auth import hash_pin
from controller.runtime.journal import Journal
from controller.runtime.selfcheck import code_digest
from tests.tablectl import ROOT

PIN_TECH, PIN_SUP = "1357", "8642"


def write_config(tmp: Path, digest_file: Path | None) -> Path:
    config = tmp / "table.toml"
    runtime = f'\n[runtime]\ncode_digest = "{digest_file}"\n' if digest_file else ""
    config.write_text(f"""
[table]
id = "pb-console"
game = "punto-banco"
variant = "fi"
currency = "EUR"

[devices.shoe]
driver = "simulated"

[journal]
path = "{tmp / 'journal.sqlite'}"

[console]
enabled = true
socket = "{tmp / 'console.sock'}"
idle_minutes = 5

[console.users.tech]
role = "technician"
pin = "{hash_pin(PIN_TECH)}"

[console.users.sup]
role = "supervisor"
pin = "{hash_pin(PIN_SUP)}"
{runtime}""")
    return config


def start(config: Path, notify: str | None = None, extra: tuple[str, ...] = ()) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("NOTIFY_SOCKET", None)
    if notify:
        env.update(NOTIFY_SOCKET=notify, WATCHDOG_USEC="400000")
    proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "run", "--config", str(config), "--simulate",
                             "--quiet", *extra], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=env, cwd=ROOT)
    assert proc.stdout is not None
    for _ in range(200):
        line = proc.stdout.readline()
        if line.startswith("ready:") or not line:
            return proc
    return proc


class Session:
    def __init__(self, path: Path) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        for _ in range(100):
            try:
                self.sock.connect(str(path))
                break
            except OSError:
                time.sleep(0.05)
        self.sock.settimeout(10)
        self.buffer = ""
        self.until("login: ")

    def until(self, marker: str) -> str:
        while marker not in self.buffer:
            data = self.sock.recv(4096)
            if not data:
                raise AssertionError(f"closed; got {self.buffer!r}")
            self.buffer += data.decode()
        text, _, self.buffer = self.buffer.partition(marker)
        return text

    def say(self, line: str, marker: str) -> str:
        self.sock.sendall((line + "\n").encode())
        return self.until(marker)


def test_console_over_the_socket_journals_who_did_what(tmp_path: Path) -> None:
    proc = start(write_config(tmp_path, None), extra=("--idle",))
    try:
        s = Session(tmp_path / "console.sock")
        s.say("tech", "PIN: ")
        assert "Wrong name or PIN" in s.say("0000", "login: ")
        s.say("tech", "PIN: ")
        assert "Welcome, tech (technician)" in s.say(PIN_TECH, "tech> ")
        assert "Table pb-console: punto-banco fi" in s.say("status", "tech> ")
        assert "shoe: ok" in s.say("devices", "tech> ")
        assert "Round 1" in s.say("round", "tech> ")
        assert "Journal ok" in s.say("journal verify", "tech> ")
        assert "opens: place your bets" in s.say("journal tail 3", "tech> ")
        assert "no faults" in s.say("faults", "tech> ")
        assert "no problems" in s.say("config check", "tech> ")
        assert "tablectl 0.1.0" in s.say("version", "tech> ")
        assert "Refused: no fault 'shoe' is latched" in s.say("faults clear shoe", "tech> ")
        assert "needs a supervisor login" in s.say("jackpot correct main 5 x", "tech> ")
        assert "nothing to calibrate" in s.say("calibrate shoe", "tech> ")
        assert "device shoe: ok" in s.say("selftest", "tech> ")
        s.say("logout", "login: ")
    finally:
        proc.terminate()
        proc.communicate(timeout=30)
    journal = Journal(tmp_path / "journal.sqlite", readonly=True)
    audits = [(r.body["who"], r.body["what"], r.body["ok"]) for r in journal.records(kinds=("console",))]
    assert ("tech", "failed login on socket", False) in audits
    assert ("tech", "login as technician on socket", True) in audits
    assert ("tech", "selftest", True) in audits and ("tech", "logout on socket", True) in audits
    assert any(a[1].startswith("refused: faults clear shoe") for a in audits)
    commands = [r.body for r in journal.records(kinds=("command",))]
    assert any(c.get("by") == "console:tech" and c.get("refused") for c in commands)


def test_watchdog_pings_and_ready_through_the_notify_socket(tmp_path: Path) -> None:
    notify = tmp_path / "notify"
    sink = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sink.bind(str(notify))
    sink.settimeout(10)
    proc = start(write_config(tmp_path, None), notify=str(notify), extra=("--idle",))
    try:
        messages = [sink.recv(4096).decode() for _ in range(4)]
    finally:
        proc.terminate()
        proc.communicate(timeout=30)
        sink.close()
    assert messages[0].startswith("READY=1")
    assert messages[1:] == ["WATCHDOG=1"] * 3


def test_a_changed_install_latches_the_code_fault_and_stops_the_table(tmp_path: Path) -> None:
    digest = tmp_path / "code.sha256"
    digest.write_text("sha256:" + "0" * 64 + "\n")
    proc = start(write_config(tmp_path, digest), extra=("--idle",))
    try:
        s = Session(tmp_path / "console.sock")
        s.say("tech", "PIN: ")
        s.say(PIN_TECH, "tech> ")
        faults = s.say("faults", "tech> ")
        assert "code_digest (the installed code changed): installed code differs" in faults
        assert "STOPPED" in s.say("status", "tech> ")
    finally:
        proc.terminate()
        proc.communicate(timeout=30)
    journal = Journal(tmp_path / "journal.sqlite", readonly=True)
    assert any(r.body["name"] == "code_digest" for r in journal.records(kinds=("fault",)))
    checks = [r.body for r in journal.records(kinds=("console",)) if r.body["who"] == "selfcheck"]
    assert checks and checks[0]["ok"] is False
    digest.write_text(code_digest() + "\n")
    proc = start(write_config(tmp_path, digest), extra=("--idle",))
    proc.terminate()
    proc.communicate(timeout=30)
    journal = Journal(tmp_path / "journal.sqlite", readonly=True)
    checks = [r.body for r in journal.records(kinds=("console",)) if r.body["who"] == "selfcheck"]
    assert checks[-1]["ok"] is True and "matches" in checks[-1]["what"]
    # a restart does not clear the latched fault: only an explicit clear does
    assert "code_digest" in [r.body["name"] for r in journal.records(kinds=("fault",))]
