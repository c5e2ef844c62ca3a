"""Three tables and the floor service through a hub outage and a leaf-node outage (real nats-server processes).

Every record of every table reaches the stream exactly once and in order, the
floor verifies every chain without an alarm, and the floor's drop and win are
the tables' own (``state.money`` over each table's journal).
"""

from __future__ import annotations

import os
import signal
import time

import pytest

from controller.floor import schema
from controller.floor.state import money
from controller.runtime.journal import Journal
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


def _outage(tmp_path, hub_down_s: float, leaf_down_s: float) -> None:
    hub = Broker(tmp_path, "hub").start()
    leaf = Broker(tmp_path, "leaf-cs-1", jetstream=False, leaf_of=hub).start()  # the Pi's own leaf node
    procs = []
    try:
        procs.append(tablectl("floor", "--config", str(floor_toml(tmp_path, [hub.url])), log=tmp_path / "floor.out"))
        for i, table in enumerate(TABLES):
            url = leaf.url if table == "cs-1" else hub.url
            config = table_toml(tmp_path, table, [url], pit="pit-1" if i < 2 else "pit-2")
            pace = ["--fast"] if table in FAST else []  # two tables flat out, one at a croupier's pace
            procs.append(tablectl("run", "--config", str(config), "--simulate", "--quiet", "--seed", str(11 + i),
                                  *pace, log=tmp_path / f"{table}.out"))
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
            journal.close()
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
