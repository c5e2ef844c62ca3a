"""Linked progressives over a real nats-server: order of hits, a table cut off and back, the link's answers.

The tables run in this process (``Table`` with its ``FloorLink``, as the daemon
wires them) so that a test can deal the hands it needs; the link controller
is its own process (``tablectl floor --link``), killed with SIGKILL where a
test says so.
"""

from __future__ import annotations

import asyncio
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
from controller.runtime.interfaces import Command
from controller.runtime.journal import Journal
from controller.runtime.table import Table
from controller.runtime.translate import progressive_spot
from tests.controller.floor.broker import Broker, nats_server_binary, tablectl
from tests.controller.floor.helpers import floor_toml, table_toml

pytestmark = pytest.mark.skipif(nats_server_binary() is None, reason="nats-server is not installed")

METER = "cs-progressive"
LINK = "group-stud"
BASE = 500_000


class LinkedTable:
    """A table and its floor link on this loop, as ``Daemon.run`` wires them."""

    def __init__(self, folder: Path, name: str, url: str) -> None:
        config = table_config.load(table_toml(folder, name, [url], link=LINK))
        self.table = Table.open(config)
        self.link = FloorLink(self.table, config.floor, progressive_spot(config.spec, config.round_config.variant))
        self.table.listeners.append(self.link.after_commit)
        self.table.gates.append(self.link.gate)
        self.task = asyncio.create_task(self.link.run())

    def submit(self, source: str, event: Any) -> str:
        return self.table.submit(source, event)

    def meter_bodies(self, kind: str) -> list[dict[str, Any]]:
        return [r.body for r in self.table.journal.records(kinds=("meter",)) if r.body["kind"] == kind]

    async def close(self) -> None:
        self.task.cancel()
        await asyncio.gather(self.task, return_exceptions=True)
        self.table.journal.close()


async def until(what: str, check: Any, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout} s")
        await asyncio.sleep(0.05)


def royal_round(t: LinkedTable) -> None:
    """Box 1 plays the progressive and is dealt a royal flush; the dealer is dealt nothing."""
    assert t.submit("bets", Bet(1, "ante", 1000)) == "accepted"
    assert t.submit("bets", Bet(1, "progressive", 100)) == "accepted"
    assert t.submit("buttons", CloseBets()) == "accepted"
    for mine, dealer in zip("Ah Kh Qh Jh Th".split(), "3c 4d 8h Tc 2s".split()):
        assert t.submit("shoe", CardOut(parse_card(mine))) == "accepted"
        assert t.submit("shoe", CardOut(parse_card(dealer))) == "accepted"


async def bus_ready(url: str) -> None:
    nc = await connect((url,), "test")
    await ensure_stream(nc.jetstream(domain="hub"), schema.JOURNAL_STREAM, [schema.JOURNAL_SUBJECTS])
    await nc.close()


def start_link(tmp_path: Path, hub: Broker) -> Any:
    config = floor_toml(tmp_path, [hub.url], links={LINK: BASE})
    return tablectl("floor", "--config", str(config), "--link", LINK, log=tmp_path / "link.out")


def link_journal(tmp_path: Path) -> list[dict[str, Any]]:
    j = Journal(tmp_path / "floor" / f"link-{LINK}.sqlite", readonly=True)
    try:
        return [r.body for r in j.records(kinds=("link",))]
    finally:
        j.close()


def test_two_tables_claiming_the_top_hit_within_a_millisecond_are_paid_in_the_links_order(tmp_path: Path) -> None:
    hub = Broker(tmp_path).start()
    link = start_link(tmp_path, hub)

    async def main() -> None:
        await bus_ready(hub.url)
        a, b = LinkedTable(tmp_path, "cs-a", hub.url), LinkedTable(tmp_path, "cs-b", hub.url)
        try:
            await until("both tables linked", lambda: a.table.meters.link_up[METER] and b.table.meters.link_up[METER])
            assert a.table.view()["jackpot_display"]["meters"][METER] == "5000"  # the link's meter, not the table's
            royal_round(a)
            royal_round(b)
            await until("both contributions on the link", lambda: a.table.meters.link_value[METER] == BASE + 140)
            t0 = time.perf_counter()
            assert a.submit("buttons", Action(1, "raise")) == "accepted"  # the showdown: a claims the royal
            assert b.submit("buttons", Action(1, "raise")) == "accepted"  # and b right after
            apart_ms = (time.perf_counter() - t0) * 1000
            claims = [t.meter_bodies("claim") for t in (a, b)]
            print(f"the two claims were committed {apart_ms:.3f} ms apart")
            for t, claim in zip((a, b), claims):
                assert [c["terms"] for c in claim] == [{"share": [1, 1]}]
                assert t.table.view()["jackpot_display"]["meters"][METER] == "PEnding"
                answer = t.table.command(Command("confirm_jackpot", {"meter": METER}, "supervisor key"))
                assert "waits for the link's answer" in answer  # no confirmation before the link answers
            await until("both answers", lambda: all(t.meter_bodies("answer") for t in (a, b)))
            answers = {name: t.meter_bodies("answer")[0] for name, t in (("cs-a", a), ("cs-b", b))}
            first, second = sorted(answers, key=lambda n: answers[n]["order"])
            assert [answers[first]["order"], answers[second]["order"]] == [1, 2]
            assert answers[first]["amount"] == BASE + 140  # the first claim in the link's stream: the whole meter
            assert answers[second]["amount"] == BASE  # the next: what is left after the reset
            applied = [body for body in link_journal(tmp_path) if body["type"] == "claim"]
            assert [body["table"] for body in applied] == [first, second]  # the link's own stream order
            for t in (a, b):
                assert t.table.view()["jackpot_display"]["meters"][METER] == "PEnding"  # until the supervisor
                assert t.table.command(Command("confirm_jackpot", {"meter": METER}, "supervisor key")) == "done"
                payout = t.meter_bodies("payout")[0]
                assert payout["amount"] == t.meter_bodies("answer")[0]["amount"]
            await until("the display shows the link's meter again",
                        lambda: a.table.view()["jackpot_display"]["meters"][METER] == "5000")
        finally:
            await a.close()
            await b.close()

    try:
        asyncio.run(main())
    finally:
        link.kill()
        link.wait(5)
        hub.kill()


def test_a_table_cut_off_refuses_the_progressive_and_takes_it_back_on_return(tmp_path: Path) -> None:
    hub = Broker(tmp_path).start()
    link = start_link(tmp_path, hub)

    async def main() -> None:
        await bus_ready(hub.url)
        t = LinkedTable(tmp_path, "cs-c", hub.url)
        try:
            await until("linked", lambda: t.table.meters.link_up[METER])
            assert t.submit("bets", Bet(1, "ante", 1000)) == "accepted"
            assert t.submit("bets", Bet(1, "progressive", 100)) == "accepted"
            hub.kill()  # the bus away: the table is cut off from its link
            await until("cut off", lambda: not t.table.meters.link_up[METER], 10)
            assert t.table.view()["jackpot_display"]["meters"][METER] == "no LInK"
            assert t.submit("bets", Bet(2, "progressive", 100)) == "refused"
            refusal = t.table.journal.last("refuse")
            assert refusal is not None and "cut off from its link" in refusal.body["reason"]
            assert t.submit("bets", Bet(2, "ante", 1000)) == "accepted"  # the base game goes on
            assert t.submit("buttons", CloseBets()) == "accepted"  # box 1's contribution waits in the journal
            assert t.meter_bodies("link_down")
            hub.start()
            await until("back", lambda: t.table.meters.link_up[METER], 20)
            await until("caught up: the contribution made while away is on the link's meter",
                        lambda: t.table.meters.link_value[METER] == BASE + 70, 5)
            assert t.table.view()["jackpot_display"]["meters"][METER] == "5000.70"
            assert t.submit("bets", Bet(1, "progressive", 100)) == "rejected"  # the spot is open again: the
            # game itself now answers (this round's bets are closed), not the link's refusal
            reject = t.table.journal.last("reject")
            assert reject is not None and "cut off" not in reject.body["reason"]
            ups = t.meter_bodies("link_up")
            assert len(ups) == 2 and ups[-1]["link"] == LINK
        finally:
            await t.close()

    try:
        asyncio.run(main())
    finally:
        link.kill()
        link.wait(5)
        hub.kill()
