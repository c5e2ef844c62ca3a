"""The floor's copy of a table's last position, over a real nats-server: a journal replaced or restored is refused.

The stream holds every record the table published, so its last record of the
table is where the floor knows the table to be. A table whose journal is
restored from an older copy (journal, sealed state, key and outbox together:
the table's own check passes), replaced by a new one, or replaced by another
that has run on past that place, latches ``integrity.floor`` when its link
connects: no input is taken, nothing more is journaled or sent. The genuine
journal, reopened, plays on. The tables run in this process (``Table`` and its
``FloorLink``, checked with ``integrity.open_journal`` first, as the daemon
does).
"""

from __future__ import annotations

import asyncio
import shutil
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from controller import config as table_config
from controller.cards import parse_card
from controller.events import Action, Bet, CardOut, CloseBets
from controller.floor import schema
from controller.floor.bus import connect, ensure_stream
from controller.floor.publisher import FloorLink
from controller.runtime import integrity
from controller.runtime.faults import tower_pattern
from controller.runtime.interfaces import Command
from controller.runtime.table import Table
from tests.controller.floor.broker import Broker, nats_server_binary, tablectl
from tests.controller.floor.helpers import table_toml, wait_for

pytestmark = pytest.mark.skipif(nats_server_binary() is None, reason="nats-server is not installed")

TABLE = "cs-pos"


class FloorTable:
    """One table checked and opened as ``tablectl run`` opens it, with its floor link on this loop."""

    def __init__(self, folder: Path, url: str, link: bool = True) -> None:
        config = table_config.load(table_toml(folder, TABLE, [url]))
        opened = integrity.open_journal(config.journal_path, config.table_id)
        assert opened.problem is None, opened.problem  # the table's own check passes: only the floor can tell
        self.table = Table.open(config, journal=opened.journal)
        self.link = FloorLink(self.table, config.floor, None)
        self.table.listeners.append(self.link.after_commit)
        self.task = asyncio.create_task(self.link.run()) if link else None

    def play(self) -> None:
        """One Caribbean Stud hand at box 1, settled."""
        t = self.table
        assert t.command(Command("new_shoe", {}, "croupier")) == "done"  # the same cards every hand
        assert t.submit("bets", Bet(1, "ante", 1000)) == "accepted"
        assert t.submit("buttons", CloseBets()) == "accepted"
        for mine, dealer in zip("2c 5d 9h Js Kd".split(), "3c 4d 8h Tc As".split()):
            assert t.submit("shoe", CardOut(parse_card(mine))) == "accepted"
            assert t.submit("shoe", CardOut(parse_card(dealer))) == "accepted"
        assert t.submit("buttons", Action(1, "fold")) == "accepted"

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
        else:
            self.link.reader.close()
        self.table.journal.close()


async def until(what: str, check: Any, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout} s")
        await asyncio.sleep(0.05)


async def make_stream(url: str) -> None:
    nc = await connect((url,), "test")
    await ensure_stream(nc.jetstream(domain="hub"), schema.JOURNAL_STREAM, [schema.JOURNAL_SUBJECTS])
    await nc.close()


async def floor_last(url: str) -> int:
    """The seq of the stream's last record of the table (what the floor holds)."""
    nc = await connect((url,), "test")
    try:
        msg = await nc.jetstream(domain="hub").get_last_msg(schema.JOURNAL_STREAM,
                                                            schema.journal_subject("sthlm", "pit-1", TABLE))
        return schema.parse_record(msg.data).record.seq
    finally:
        await nc.close()


def test_a_journal_restored_or_replaced_is_refused_against_the_floors_copy(tmp_path: Path) -> None:
    hub = Broker(tmp_path).start()
    folder = tmp_path / TABLE  # the journal, its sealed state, its key and the floor outbox

    def copy(to: str) -> Path:
        shutil.rmtree(tmp_path / to, ignore_errors=True)
        shutil.copytree(folder, tmp_path / to)
        return tmp_path / to

    def restore(source: Path | None) -> None:
        shutil.rmtree(folder)
        if source is not None:
            shutil.copytree(source, folder)

    async def refused(t: FloorTable, floor_seq: int, words: str) -> None:
        await until("integrity.floor latched", lambda: "integrity.floor" in t.table.faults)
        fault = t.table.faults["integrity.floor"]
        assert fault.text.startswith(f"record {floor_seq}:") and words in fault.text, fault.text
        assert t.table.journal.broken is not None and tower_pattern(t.table) == "latched_fault"
        before = t.table.journal.last_seq
        assert t.table.submit("bets", Bet(1, "ante", 1000)) == "dropped"  # no input is taken
        await asyncio.sleep(1.5)
        assert t.table.journal.last_seq == before and await floor_last(hub.url) == floor_seq  # nothing sent

    async def main() -> None:
        await make_stream(hub.url)
        t = FloorTable(tmp_path, hub.url)
        t.play()
        await until("the floor has every record", lambda: t.link.outbox.acked == t.table.journal.last_seq)
        await t.close()
        older = copy("older")  # a backup taken here
        t = FloorTable(tmp_path, hub.url)
        t.play()
        await until("the floor has every record", lambda: t.link.outbox.acked == t.table.journal.last_seq)
        await t.close()
        latest = copy("latest")
        floor_seq = await floor_last(hub.url)
        assert floor_seq == integrity.Journal(folder / "journal.sqlite", readonly=True).last_seq

        restore(older)  # journal, state, key and outbox from the backup: consistent, but behind the floor
        t = FloorTable(tmp_path, hub.url)
        await refused(t, floor_seq, "restored from an older copy")
        await t.close()

        restore(None)  # a new journal (and key) under the table's name: it starts at record 1
        t = FloorTable(tmp_path, hub.url)
        await refused(t, floor_seq, f"its journal ends at record {t.table.journal.last_seq}")
        await t.close()

        restore(None)  # another journal that ran on, offline, past the floor's place
        t = FloorTable(tmp_path, hub.url, link=False)
        while t.table.journal.last_seq <= floor_seq:
            t.play()
        await t.close()
        t = FloorTable(tmp_path, hub.url)
        await refused(t, floor_seq, "another journal under this table's name")
        await t.close()

        restore(latest)  # the genuine journal: the floor's record is its own, and it plays on
        t = FloorTable(tmp_path, hub.url)
        await until("the link checked the floor's copy", lambda: t.link.synced)
        t.play()
        await until("the floor has every record", lambda: t.link.outbox.acked == t.table.journal.last_seq)
        assert not t.table.faults and t.link.refused is None
        assert await floor_last(hub.url) == t.table.journal.last_seq > floor_seq
        await t.close()

    try:
        asyncio.run(main())
    finally:
        hub.kill()



def test_the_daemon_latches_the_floors_refusal_and_stays_up_for_the_technician(tmp_path: Path) -> None:
    """``tablectl run --simulate`` with its floor link: a journal restored from an older copy is refused when
    the link connects (the simulated croupier's input is taken no more, the daemon stays up and stops cleanly);
    so is a table whose own check fails at start, floor link and all."""
    hub = Broker(tmp_path).start()
    config = table_toml(tmp_path, TABLE, [hub.url])
    folder = tmp_path / TABLE
    journal = folder / "journal.sqlite"

    def last_seq() -> int:
        reader = integrity.Journal(journal, readonly=True)
        try:
            return reader.last_seq
        finally:
            reader.close()

    def on_floor() -> int:
        try:
            return int(asyncio.run(floor_last(hub.url)))
        except Exception:  # noqa: BLE001 - nothing of the table on the floor yet
            return 0

    def daemon(name: str, *fast: str) -> Any:
        return tablectl("run", "--config", str(config), "--simulate", *fast, log=tmp_path / f"{name}.out")

    def stop(proc: Any) -> int:
        proc.send_signal(signal.SIGTERM)
        return int(proc.wait(30))

    procs: list[Any] = []
    try:
        asyncio.run(make_stream(hub.url))
        procs.append(daemon("first", "--fast"))
        wait_for("the floor holds 30 records", lambda: on_floor() >= 30, 60, every=0.05)
        assert stop(procs[-1]) == 0
        wait_for("the floor holds the stop record", lambda: on_floor() == last_seq(), 10)
        older, older_seq = tmp_path / "older", last_seq()
        shutil.copytree(folder, older)
        procs.append(daemon("second", "--fast"))
        wait_for("the floor is past the copy", lambda: on_floor() >= older_seq + 20, 60, every=0.05)
        assert stop(procs[-1]) == 0
        floor_seq = on_floor()

        shutil.rmtree(folder)
        shutil.copytree(older, folder)  # journal, state, key and outbox as they were: behind the floor
        procs.append(daemon("restored"))
        out = tmp_path / "restored.out"
        wait_for("integrity.floor latched", lambda: '"fault": "integrity.floor"' in out.read_text(), 30)
        assert f"record {floor_seq}: the floor holds this table's records up to {floor_seq}" in out.read_text()

        def after_latch() -> str:  # from the first line naming the fault (the terminal's or the log's, either first)
            text = out.read_text()
            return text[text.rfind("\n", 0, text.find("integrity.floor")) + 1:]
        wait_for("the terminal, the tower and the sign show it", lambda: "#- FAULT latched: integrity.floor" in
                 after_latch() and "] latched_fault" in after_latch() and "the table is paused" in after_latch(), 10,
                 show=lambda: out.read_text()[-1500:])
        held = last_seq()
        time.sleep(2.0)  # the simulated croupier goes on dealing: nothing of it is taken
        assert procs[-1].poll() is None and last_seq() == held < floor_seq and on_floor() == floor_seq
        assert held <= older_seq + 3  # the restored journal took its start record and no input to speak of
        assert stop(procs[-1]) == 0 and last_seq() == held  # no stop record on a refused journal

        (folder / "journal.sqlite.state").unlink()  # the table's own check fails at start: the link is no reason
        procs.append(daemon("unsealed"))  # to exit, the table stays up for the technician
        out = tmp_path / "unsealed.out"
        wait_for("ready with the integrity fault", lambda: "faults integrity.journal" in out.read_text(), 30)
        time.sleep(1.0)
        assert procs[-1].poll() is None and on_floor() == floor_seq
        assert stop(procs[-1]) == 0
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
        hub.kill()
