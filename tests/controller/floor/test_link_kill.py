"""The link controller SIGKILLed again and again while two linked tables play flat out recovers its meter exactly.

meter = base + every table's contributions - every hit the link answered +
the resets the link made, with the contributions and the answered hits read
from every table's own journal; the link applied each message of its stream
exactly once (its journal holds stream records 1..N once each, in order), and
replaying the stream alone gives the same meter.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time
from pathlib import Path
from typing import Any

import nats
import pytest

from controller.floor import schema
from controller.floor.link import replay
from controller.runtime.journal import Journal
from tests.controller.floor.broker import Broker, nats_server_binary, tablectl
from tests.controller.floor.helpers import floor_toml, table_toml, wait_for

pytestmark = pytest.mark.skipif(nats_server_binary() is None, reason="nats-server is not installed")

LINK = "group-stud"
METER = "cs-progressive"
BASE = 500_000
TABLES = {"cs-k1": 7, "cs-k2": 8}


def _bodies(path: Path, kinds: tuple[str, ...]) -> list[Any]:
    j = Journal(path, readonly=True)
    try:
        return [r.body for r in j.records(kinds=kinds)]
    finally:
        j.close()


async def _stream(url: str) -> tuple[int, list[tuple[int, dict[str, Any]]]]:
    nc = await nats.connect(url)
    js = nc.jetstream(domain="hub")
    info = await js.stream_info(schema.link_stream(LINK))
    out = []
    for seq in range(info.state.first_seq, info.state.last_seq + 1):
        msg = await js.get_msg(schema.link_stream(LINK), seq=seq)
        out.append((seq, __import__("json").loads(msg.data)))
    await nc.close()
    return info.state.last_seq, out


def _kill_session(tmp_path: Path, kills: int, rounds: int) -> None:
    hub = Broker(tmp_path).start()
    config = floor_toml(tmp_path, [hub.url], links={LINK: BASE})
    floor = tablectl("floor", "--config", str(config), "--no-links", log=tmp_path / "floor.out")  # makes the streams
    link_journal = tmp_path / "floor" / f"link-{LINK}.sqlite"
    procs: dict[str, Any] = {}
    link = tablectl("floor", "--config", str(config), "--link", LINK, log=tmp_path / "link.out")
    rng = random.Random(27)
    try:
        for table, seed in TABLES.items():
            path = table_toml(tmp_path, table, [hub.url], link=LINK)
            procs[table] = tablectl("run", "--config", str(path), "--simulate", "--fast", "--quiet", "--rounds",
                                    str(rounds), "--seed", str(seed), log=tmp_path / f"{table}.out")
        done = 0
        while done < kills:
            started = lambda: (tmp_path / "link.out").read_text().count(f"link {LINK}: meter")  # noqa: E731
            wait_for("the link controller running", lambda: started() == done + 1, 20)
            time.sleep(rng.uniform(0.1, 0.7))  # while it catches up or applies what the tables send
            link.send_signal(signal.SIGKILL)
            link.wait(5)
            done += 1
            link = tablectl("floor", "--config", str(config), "--link", LINK, log=tmp_path / "link.out")
        for proc in procs.values():
            assert proc.wait(120) == 0
        # the tables come back idle: they send what they still owe the link and journal its last answers
        for table in TABLES:
            procs[table] = tablectl("run", "--config", str(tmp_path / f"{table}.toml"), "--simulate", "--idle",
                                    "--quiet", log=tmp_path / f"{table}.out")

        def ready(table: str) -> bool:
            return (tmp_path / f"{table}.out").read_text(errors="replace").count(f"ready: table {table}") == 2

        wait_for("the idle tables ready", lambda: all(ready(t) for t in TABLES), 30)

        def settled() -> bool:
            last, _ = asyncio.run(_stream(hub.url))
            applied = _bodies(link_journal, ("link",))
            if not applied or applied[-1]["link_seq"] != last:
                return False
            for table in TABLES:
                meter = _bodies(tmp_path / table / "journal.sqlite", ("meter",))
                if sum(b["kind"] == "claim" for b in meter) != sum(b["kind"] == "answer" for b in meter):
                    return False
            return True

        wait_for("the link and the tables settled", settled, 60)
        for proc in procs.values():
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(20) == 0
        link.send_signal(signal.SIGKILL)  # one more, at the end: the journal alone must hold the meter
        link.wait(5)
        contributions = answered = claims = 0
        for table in TABLES:
            meter = [b for b in _bodies(tmp_path / table / "journal.sqlite", ("meter",)) if b["meter"] == METER]
            contributions += sum(b["amount"] for b in meter if b["kind"] == "contribution")
            answered += sum(b["amount"] for b in meter if b["kind"] == "answer")
            claims += sum(b["kind"] == "claim" for b in meter)
        applied = _bodies(link_journal, ("link",))
        resets = sum(b.get("reset", 0) for b in applied)
        final = applied[-1]["meter"]
        assert claims >= 1 and contributions > 0, "no hit or no contribution: the test would prove little"
        assert final["value"] == BASE + contributions - answered + resets
        assert [b["link_seq"] for b in applied] == list(range(1, len(applied) + 1))  # each message once, in order
        last, messages = asyncio.run(_stream(hub.url))
        assert replay(BASE, messages).to_json() == final  # the stream alone gives the same meter
        starts = _bodies(link_journal, ("start",))
        assert len(starts) >= kills + 1
    finally:
        for proc in [*procs.values(), link, floor]:
            if proc.poll() is None:
                proc.kill()
                proc.wait(5)
        hub.kill()


def test_link_controller_killed_ten_times_recovers_its_meter_exactly(tmp_path: Path) -> None:
    _kill_session(tmp_path, kills=int(os.environ.get("TABLECTL_LINK_KILLS", 10)), rounds=25)


@pytest.mark.slow
def test_link_controller_killed_fifty_times_recovers_its_meter_exactly(tmp_path: Path) -> None:
    _kill_session(tmp_path, kills=50, rounds=250)
