"""The console against a guesser: same time for unknown names, lockout across a restart, a flood, the role table,
long and malformed lines, the last audit record before the journal closes, the socket removed at stop."""

from __future__ import annotations

import asyncio
import dataclasses
import io
import statistics
import time
from pathlib import Path
from typing import Awaitable, Callable

import pytest

from controller import config as table_config
from controller.runtime import auth, faults
from controller.runtime.auth import Lockout, PinFormatError, check_pin_hash, role_to_clear
from controller.runtime.console import ConsoleSession
from controller.runtime.daemon import Daemon
from controller.runtime.journal import Journal
from tests.controller.runtime.fake_control import FakeControl
from tests.controller.runtime.test_console_daemon import PIN_SUP, PIN_TECH, write_config
from controller.runtime.auth import ConsoleUser, hash_pin


def test_an_unknown_name_takes_as_long_as_a_wrong_pin_for_a_known_one() -> None:
    users = {"eva": ConsoleUser("eva", "technician", hash_pin("2468"))}
    lockout = Lockout(max_failures=10_000, checks_per_second=1e9)
    session = ConsoleSession(users, FakeControl(), lockout)
    session.start(0.0)

    walls: dict[str, list[float]] = {"eva": [], "nobody": []}

    def attempt(name: str) -> float:
        """The CPU time of one wrong login (the work it costs, whatever else this shared machine runs)."""
        session.feed(name, 1.0)
        t0, w0 = time.thread_time(), time.perf_counter()
        reply = session.feed("1111", 1.0)
        elapsed = time.thread_time() - t0
        walls.setdefault(name, []).append(time.perf_counter() - w0)
        assert reply.lines == ("Wrong name or PIN.",)
        return elapsed
    attempt("warmup")
    known, unknown = [], []
    for _ in range(7):  # interleaved, so that the machine's load falls on both alike
        known.append(attempt("eva"))
        unknown.append(attempt("nobody"))
    gap_ms = abs(min(known) - min(unknown)) * 1000
    print(f"CPU time of a wrong PIN for a known name {min(known) * 1000:.1f} ms, for an unknown name "
          f"{min(unknown) * 1000:.1f} ms (fastest of 7 each), gap {gap_ms:.1f} ms; wall-clock medians "
          f"{statistics.median(walls['eva']) * 1000:.1f} and {statistics.median(walls['nobody']) * 1000:.1f} ms")
    assert gap_ms < 5.0


def test_the_work_factor_is_bounded() -> None:
    good = hash_pin("1234")
    check_pin_hash(good)
    for n in (2**10, 2**20, 3 * 2**13):
        with pytest.raises(PinFormatError):
            check_pin_hash(good.replace("$16384$", f"${n}$", 1))
    with pytest.raises(PinFormatError):
        check_pin_hash(good.replace("$16384$8$1$", "$16384$64$1$", 1))


def logged_in(role: str, control: FakeControl) -> ConsoleSession:
    session = ConsoleSession({"who": ConsoleUser("who", role, hash_pin("2468"))}, control, Lockout())
    session.start(0.0)
    session.feed("who", 0.0)
    session.feed("2468", 0.0)
    return session


def test_the_role_table_keeps_the_serious_faults_for_a_supervisor() -> None:
    for name in ("code_digest", "replay_mismatch", "meter_mismatch.main", "deck_check.shuffler"):
        assert role_to_clear(name) == "supervisor", name
    assert role_to_clear("link_down.shoe") == "technician" and role_to_clear("device_fault.shoe") == "technician"
    assert role_to_clear("journal") is None and role_to_clear("integrity.record_7") is None
    control = FakeControl()
    control.fault_names = {f"{kind}.x" for kind in faults.FAULTS}
    tech, sup = logged_in("technician", control), logged_in("supervisor", control)
    for name, kind in faults.FAULTS.items():  # what the console does is what the one fault table says
        said = " ".join(tech.feed(f"faults clear {name}.x", 1.0).lines)
        if kind.clear_role == "supervisor":
            assert "needs a supervisor login" in said and f"{name}.x" in control.fault_names, said
            said = " ".join(sup.feed(f"faults clear {name}.x", 1.0).lines)
        if kind.clear_role == "restart":
            assert "clears only by a restart" in said and f"{name}.x" in control.fault_names, said
            assert "clears only by a restart" in " ".join(sup.feed(f"faults clear {name}.x", 1.0).lines)
        else:
            assert f"{name}.x cleared by" in said and f"{name}.x" not in control.fault_names, said


def test_the_console_reads_who_may_clear_from_the_fault_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """auth keeps no table of its own: a kind made a supervisor's in FAULTS is a supervisor's at the console."""
    assert not any(isinstance(v, dict) and "code_digest" in v for v in vars(auth).values())
    changed = dict(faults.FAULTS)
    changed["link_down"] = dataclasses.replace(changed["link_down"], clear_role="supervisor")
    monkeypatch.setattr(faults, "FAULTS", changed)
    control = FakeControl()
    control.fault_names = {"link_down.shoe"}
    said = " ".join(logged_in("technician", control).feed("faults clear link_down.shoe", 1.0).lines)
    assert "needs a supervisor login" in said and control.fault_names == {"link_down.shoe"}


def test_the_table_refuses_to_clear_what_only_a_restart_clears(tmp_path: Path) -> None:
    from controller.runtime.faults import Fault
    from controller.runtime.interfaces import Command
    from tests.controller.runtime.helpers import open_table, punto_config

    table = open_table(punto_config(tmp_path))
    table.faults["journal"] = Fault("journal", "disk full", 0)
    table.faults["device_fault.shoe"] = Fault("device_fault.shoe", "jam", 0)
    answer = table.command(Command("clear_fault", {"name": "journal"}, "console:sup"))
    assert "clears only by a restart" in answer and "journal" in table.faults
    assert table.command(Command("clear_fault", {}, "button")) == "done"  # the key's clear: all it may clear
    assert set(table.faults) == {"journal"}
    table.journal.close()


def test_long_and_malformed_lines_are_refused_in_words() -> None:
    session = ConsoleSession({}, FakeControl(), Lockout())
    session.start(0.0)
    assert "at most 1,024: refused" in session.feed("x" * 70_000, 0.0).lines[0]
    assert "control characters" in session.feed("tech\x00\x1b[2J", 0.0).lines[0]
    assert session.feed("", 0.0).prompt == "login: "


def daemon_for(tmp: Path) -> Daemon:
    return Daemon(table_config.load(write_config(tmp, None)), simulate=True, croupier=False, stream=io.StringIO(),
                  quiet=True)


def with_daemon(tmp: Path, body: Callable[[Daemon], Awaitable[None]]) -> Daemon:
    daemon = daemon_for(tmp)

    async def main() -> None:
        task = asyncio.create_task(daemon.run())
        while daemon.ready_s is None:
            assert not task.done()
            await asyncio.sleep(0.02)
        try:
            await body(daemon)
        finally:
            daemon.stopped.set()  # type: ignore[union-attr]
            await asyncio.wait_for(task, 30)
    asyncio.run(main())
    return daemon


class Client:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, path: Path) -> "Client":
        client = cls(*await asyncio.open_unix_connection(str(path)))
        await client.until("login: ")
        return client

    async def until(self, marker: str) -> str:
        text = ""
        while marker not in text:
            data = await asyncio.wait_for(self.reader.read(65536), 10)
            assert data, f"closed; got {text!r}"
            text += data.decode()
        return text

    async def say(self, line: str, marker: str) -> str:
        self.writer.write((line + "\n").encode())
        await self.writer.drain()
        return await self.until(marker)


def console_records(tmp: Path) -> list[tuple[str | None, str, bool]]:
    journal = Journal(tmp / "journal.sqlite", readonly=True)
    try:
        return [(r.body["who"], r.body["what"], r.body["ok"]) for r in journal.records(kinds=("console",))]
    finally:
        journal.close()


def test_the_lockout_is_kept_across_a_restart_and_the_last_audit_is_journaled(tmp_path: Path) -> None:
    async def five_wrong(daemon: Daemon) -> None:
        client = await Client.open(tmp_path / "console.sock")
        for _ in range(5):  # at a person's pace: the global limit takes 2 PIN checks a second
            await client.say("tech", "PIN: ")
            await asyncio.sleep(0.55)
            assert "Wrong name or PIN" in await client.say("0000", "login: ")
        sup = await Client.open(tmp_path / "console.sock")
        await sup.say("sup", "PIN: ")
        await asyncio.sleep(0.55)
        assert "Welcome, sup" in await sup.say(PIN_SUP, "sup> ")  # stays logged in while the daemon stops
    with_daemon(tmp_path, five_wrong)
    audits = console_records(tmp_path)
    assert ("tech", "failed login on socket; locked for 5 minutes", False) in audits
    assert audits[-1] == ("sup", "disconnected on socket: the daemon stops", True)  # written before the close
    assert not (tmp_path / "console.sock").exists()  # the socket goes with the daemon

    async def after_restart(daemon: Daemon) -> None:
        client = await Client.open(tmp_path / "console.sock")
        await client.say("tech", "PIN: ")
        assert "Locked after too many wrong PINs" in await client.say(PIN_TECH, "login: ")  # the right PIN, locked
    daemon = with_daemon(tmp_path, after_restart)
    assert not any(f.kind == "journal" for f in daemon.table.faults.values())  # type: ignore[union-attr]
    assert ("tech", "login refused while locked on socket", False) in console_records(tmp_path)


def test_a_flood_of_2000_attempts_leaves_the_journal_small_and_the_loop_responsive(tmp_path: Path) -> None:
    figures: dict[str, float] = {}

    async def flood(daemon: Daemon) -> None:
        clients = [await Client.open(tmp_path / "console.sock") for _ in range(8)]

        async def guesser(client: Client, k: int) -> None:
            for i in range(250):
                await client.say(f"guess{k}-{i % 7}" if i % 3 else "tech", "PIN: ")
                await client.say(f"{1000 + i}", "login: ")
        watcher = await Client.open(tmp_path / "console.sock")
        await watcher.say("sup", "PIN: ")
        await asyncio.sleep(0.55)
        assert "Welcome" in await watcher.say(PIN_SUP, "sup> ")
        t0 = time.perf_counter()
        jobs = [asyncio.create_task(guesser(c, k)) for k, c in enumerate(clients)]
        worst = 0.0
        while not all(j.done() for j in jobs):
            t = time.perf_counter()
            assert "Table pb-console" in await watcher.say("status", "sup> ")
            worst = max(worst, time.perf_counter() - t)
            await asyncio.sleep(0.05)
        await asyncio.gather(*jobs)
        figures["seconds"] = time.perf_counter() - t0
        figures["worst_status_s"] = worst
    with_daemon(tmp_path, flood)
    quiet = tmp_path / "quiet"
    quiet.mkdir()

    async def nothing(daemon: Daemon) -> None:
        await asyncio.sleep(0.1)
    with_daemon(quiet, nothing)  # the same table without the flood: the journal file to compare with
    figures["journal_growth_bytes"] = (tmp_path / "journal.sqlite").stat().st_size - \
        (quiet / "journal.sqlite").stat().st_size
    print(figures)
    journal = Journal(tmp_path / "journal.sqlite", readonly=True)
    records = sum(1 for _ in journal.records(kinds=("console",)))
    print(f"{records} console records for 2,000 attempts")
    assert figures["worst_status_s"] < 0.5  # the loop answers the supervisor throughout
    assert records < 60
    assert any("more failed or refused logins not journaled one by one" in r.body["what"]
               for r in journal.records(kinds=("console",)))
    assert figures["journal_growth_bytes"] < 50_000


def test_the_pin_check_is_handed_to_a_worker_thread_by_the_transports() -> None:
    from controller.runtime.console_server import ConsoleHost

    host = ConsoleHost({"eva": ConsoleUser("eva", "technician", hash_pin("2468"))}, FakeControl(), lambda: 5.0)
    session = host.session("socket")
    session.start(0.0)
    session.feed("eva", 5.0)
    reply = session.feed("2468", 5.0)
    assert reply.check is not None and reply.lines == ()  # nothing decided on the loop yet
    assert "Checking the PIN" in session.feed("status", 5.0).lines[0]  # typed meanwhile: not taken
    assert "Welcome, eva" in session.checked(reply.check(), 5.0).lines[0]
