"""Three tables and the floor service through a hub outage and a leaf-node outage (real nats-server processes).

Every record of every table reaches the stream exactly once and in order, the
floor verifies every chain and every table's signature without an alarm, and
the floor's drop and win are the tables' own (``state.money`` over each table's
journal). Two tables' keys are made at installation (``tablectl journal
keygen``), the third's at its first start; each public key is copied into the
floor's keys folder as a technician does. Then a record forged on the bus (a
good chain, re-hashed, but not signed with the table's key) is a floor alarm
naming the table, and the table's tile is no longer ``signed``.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import nats

from controller.floor import schema
from controller.floor.state import money
from controller.runtime.integrity import TableKey
from controller.runtime.journal import Journal, Record, canonical, record_hash
from tests.controller.floor.broker import Broker, nats_server_binary, tablectl
from tests.controller.floor.helpers import floor_toml, query, run, stream_records, table_toml, wait_for

pytestmark = pytest.mark.skipif(nats_server_binary() is None, reason="nats-server is not installed")

TABLES = ("cs-1", "cs-2", "cs-3")


def journal_last(folder, table: str) -> int:
    journal = Journal(folder / table / "journal.sqlite", readonly=True)
    try:
        return journal.last_seq
    finally:
        journal.close()

FAST = ("cs-1", "cs-2")
KEY_FILES = {"cs-1": "cs-1.key.pub", "cs-2": "cs-2.pub", "cs-3": "cs-3.key.pub"}  # both names the floor reads
KEYGEN = ("cs-1", "cs-2")  # keys made at installation; cs-3 makes its own at its first start


def keygen(folder, table: str) -> None:
    done = subprocess.run([sys.executable, "-m", "controller.cli", "journal", "keygen",
                           str(folder / table / "journal.sqlite")], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def copy_key(folder, table: str) -> None:
    pub = folder / table / "journal.sqlite.key.pub"
    wait_for(f"{table}'s public key", pub.exists, 30)
    shutil.copy(pub, folder / "keys" / KEY_FILES[table])


async def publish_forgery(url: str, pit: str, table: str, last: dict, folder: Path) -> None:
    """What a broker operator could do: the table's next record, chained and hashed right, signed by another key."""
    body = {"source": "console", "command": "stop"}
    seq = last["seq"] + 1
    mono, wall = last["mono_ns"] + 1, time.time_ns()
    digest = record_hash(seq, mono, wall, "command", last["round"], canonical(body), last["hash"])
    forger = TableKey.create(folder / "forger.key")
    record = Record(seq, mono, wall, "command", last["round"], body, last["hash"], digest,
                    forger.sign_record(digest))
    nc = await nats.connect(url, connect_timeout=2, allow_reconnect=False)
    try:
        js = nc.jetstream(timeout=5)
        await js.publish(schema.journal_subject("sthlm", pit, table), schema.record_message("sthlm", pit, table, record),
                         headers={"Nats-Msg-Id": schema.msg_id(table, seq)})
    finally:
        await nc.close()


def _outage(tmp_path, hub_down_s: float, leaf_down_s: float) -> None:
    hub = Broker(tmp_path, "hub").start()
    leaf = Broker(tmp_path, "leaf-cs-1", jetstream=False, leaf_of=hub).start()  # the Pi's own leaf node
    procs = []
    (tmp_path / "keys").mkdir()
    for table in KEYGEN:
        keygen(tmp_path, table)
        copy_key(tmp_path, table)
    try:
        procs.append(tablectl("floor", "--config", str(floor_toml(tmp_path, [hub.url], keys=tmp_path / "keys")),
                              log=tmp_path / "floor.out"))
        for i, table in enumerate(TABLES):
            url = leaf.url if table == "cs-1" else hub.url
            config = table_toml(tmp_path, table, [url], pit="pit-1" if i < 2 else "pit-2")
            pace = ["--fast"] if table in FAST else []  # two tables flat out, one at a croupier's pace
            procs.append(tablectl("run", "--config", str(config), "--simulate", "--quiet", "--seed", str(11 + i),
                                  *pace, log=tmp_path / f"{table}.out"))
        copy_key(tmp_path, "cs-3")  # made at its first start; the floor picks it up while it runs
        tiles = lambda: run(query(hub.url, {"what": "tables"}))["tables"]  # noqa: E731
        seqs = lambda: {t: s["last_seq"] for t, s in tiles().items()}  # noqa: E731
        wait_for("every table on the floor", lambda: len(seqs()) == 3 and min(seqs().values()) > 5, 40, show=seqs)
        hub.kill()  # the hub away: the tables play on, their records wait in their journals
        time.sleep(hub_down_s)
        hub.start()
        made = {t: journal_last(tmp_path, t) for t in TABLES}  # everything made while the hub was away
        wait_for("the floor caught up after the hub", lambda: all(tiles()[t]["last_seq"] >= made[t] for t in TABLES),
                 60, show=seqs)
        leaf.kill()  # the table's leaf node away (the table's own Pi)
        time.sleep(leaf_down_s)
        leaf.start()
        made = {t: journal_last(tmp_path, t) for t in TABLES}
        wait_for("cs-1 caught up through its leaf", lambda: tiles()["cs-1"]["last_seq"] >= made["cs-1"], 60,
                 show=seqs)
        for proc in procs[1:]:
            proc.send_signal(signal.SIGTERM)
        for proc in procs[1:]:
            assert proc.wait(20) == 0
        journals = {t: Journal(tmp_path / t / "journal.sqlite", readonly=True) for t in TABLES}
        last = {t: j.last_seq for t, j in journals.items()}
        wait_for("the floor has every record", lambda: all(tiles()[t]["last_seq"] == last[t] for t in TABLES), 30)
        floor = tiles()
        answer = run(query(hub.url, {"what": "alarms"}))
        assert answer["alarms"] == []
        for table, journal in journals.items():
            on_bus = run(stream_records(hub.url, schema.JOURNAL_STREAM,
                                        schema.journal_subject("sthlm", floor[table]["pit"], table)))
            assert [m["seq"] for m in on_bus] == list(range(1, last[table] + 1)), f"{table}: not once each, in order"
            assert floor[table]["held_back"] == 0  # the floor never had to put a late record back in its place
            mine = list(journal.records())
            assert [m["hash"] for m in on_bus] == [r.hash for r in mine]
            drop = sum(money(r)[0] for r in mine)
            win = sum(money(r)[1] for r in mine)
            if table in FAST:
                assert drop > 0, f"{table} settled no stakes: the test would prove nothing"
            assert (floor[table]["drop"], floor[table]["win"]) == (drop, win)
            assert floor[table]["records"] == last[table]
            assert all(r.sig for r in mine), f"{table}: its journal is not signed"
            assert (floor[table]["signed"], floor[table]["unsigned"]) == (True, 0), f"{table}: not signed on the floor"
            journal.close()
        # a forged record on the bus: a good chain, but not the table's signature
        last_cs2 = run(stream_records(hub.url, schema.JOURNAL_STREAM,
                                      schema.journal_subject("sthlm", floor["cs-2"]["pit"], "cs-2")))[-1]
        run(publish_forgery(hub.url, floor["cs-2"]["pit"], "cs-2", last_cs2, tmp_path))
        wait_for("the forgery is a floor alarm", lambda: run(query(hub.url, {"what": "alarms"}))["alarms"], 20)
        alarms = [a["text"] for a in run(query(hub.url, {"what": "alarms"}))["alarms"]]
        assert alarms == [f"table cs-2: record {last['cs-2'] + 1}: its signature is not the table's "
                          "(forged or re-hashed)"]
        after = tiles()
        assert (after["cs-2"]["signed"], after["cs-2"]["unsigned"]) == (False, 1)
        assert after["cs-2"]["last_seq"] == last["cs-2"] + 1  # on record, not dropped: the alarm names it
        assert all(after[t]["signed"] for t in ("cs-1", "cs-3"))
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait(5)
        leaf.kill()
        hub.kill()


def test_hub_and_leaf_outage(tmp_path) -> None:
    _outage(tmp_path, hub_down_s=float(os.environ.get("TABLECTL_FLOOR_OUTAGE_S", 10)), leaf_down_s=5)


@pytest.mark.slow
def test_hub_and_leaf_outage_of_a_minute(tmp_path) -> None:
    _outage(tmp_path, hub_down_s=60, leaf_down_s=60)
