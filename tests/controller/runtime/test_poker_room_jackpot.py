"""The poker room's house take and bad beat jackpot through the runtime (seed 004), on the example table.

hw/tables/texas-holdem-no-limit.toml (rake 5 % capped at 300 a hand in 25 chips, a drop of 100, the jackpot's
guaranteed minimum 500,000) is loaded with every device simulated, and the hand of the scenario
``bad-beat-tied-losing-hands`` is driven through ``Table.submit`` as the shoe and the dealer terminal send it:
the rake and the drop are counted on their meters in the hand's transaction; the hit's six shares wait, the
jackpot display frozen on ``PEnding``, until a supervisor has confirmed each; what is left is below the
guaranteed minimum, so the jackpot is reseeded to it; at the end of the day the day's drop is added to the
jackpot, and the journal verifies.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

from controller import config as table_config
from controller.events import event_from_json
from controller.runtime.audit import verify
from controller.runtime.interfaces import Command
from controller.runtime.journal import Journal
from controller.runtime.table import Table
from tests.tablectl import ROOT

EXAMPLE = ROOT / "hw" / "tables" / "texas-holdem-no-limit.toml"
HAND = ROOT / "tests" / "scenarios" / "poker-room" / "bad-beat-tied-losing-hands.json"
SOURCE = {"bet": "bets", "card": "shoe"}  # the rest (no more bets, the players' actions) from the terminal


def table_for(tmp: Path) -> Table:
    data = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))
    data["journal"]["path"] = str(tmp / "journal.sqlite")
    data["devices"] = {name: {"driver": "simulated"} for name in ("shoe", "gpio", "sign", "jackpot_display")}
    data["terminal"] = {"enabled": False}
    return Table.open(table_config.from_mapping(data, "test"))


def meters(table: Table, kinds: tuple[str, ...] = ("hit", "payout", "reset", "contribution")) -> list[Any]:
    return [(b["meter"], b["kind"], b.get("seat"), b.get("amount"))
            for b in (r.body for r in table.journal.records(kinds=("meter",))) if b["kind"] in kinds]


def test_a_bad_beat_waits_for_the_supervisor_then_reseeds_to_the_guaranteed_minimum(tmp_path: Path) -> None:
    table = table_for(tmp_path)
    assert table.meters.states["bad_beat"].value == 500_000  # opened at its base, the casino's guarantee
    assert table.command(Command("correct_meter", {"meter": "bad_beat", "value": 1_000_000,
                                                   "reason": "the jackpot as carried over"}, "sven")) == "done"
    for raw in json.loads(HAND.read_text(encoding="utf-8"))["rounds"][0]["events"]:
        assert table.submit(SOURCE.get(raw["type"], "terminal"), event_from_json(raw)) == "accepted", raw
    # the pot of 2,300: 5 % is 115, in whole 25 chips 100; the drop 100 (six dealt in, the flop seen)
    assert table.meters.states["rake"].value == 100 and table.meters.states["bad_beat_drop"].value == 100
    shares = [(seat, amount) for meter, kind, seat, amount in meters(table, ("hit",))]
    assert shares == [(1, 268_750), (3, 268_750), (5, 250_000), (2, 37_500), (4, 37_500), (6, 37_500)]
    assert table.meters.states["bad_beat"].value == 100_000  # 10 % stays
    for confirmed in range(6):  # each share is a pending hit of its own; the display stays frozen until the last
        view = table.view()
        assert view["jackpot_display"]["meters"]["bad_beat"] == "PEnding", confirmed
        assert view["tower"]["pattern"] == "jackpot_pending"
        assert table.command(Command("confirm_jackpot", {"meter": "bad_beat"}, "supervisor key")) == "done"
    assert table.command(Command("confirm_jackpot", {"meter": "bad_beat"}, "sven")).startswith("no jackpot hit")
    payouts = [(seat, amount) for meter, kind, seat, amount in meters(table, ("payout",))]
    assert payouts == shares
    assert meters(table, ("reset",)) == [("bad_beat", "reset", None, 400_000)]  # 100,000 left: topped up to 500,000
    assert table.meters.states["bad_beat"].value == 500_000
    assert table.view()["jackpot_display"]["meters"]["bad_beat"] == "5000"  # euros, as the display shows them
    # the box settlements: box 5 wins the pot less the rake and the drop
    nets = {s["seat"]: s["net"] for r in table.journal.records(kinds=("event",)) for e in r.body["effects"]
            if "settlement" in e for s in [e["settlement"]]}
    assert nets == {1: -600, 2: -100, 3: -600, 4: -300, 5: 2300 - 600 - 200, 6: -100}
    # the end of the day: the day's drop goes into the jackpot, each move a meter record
    assert table.command(Command("day_end", {"meter": "bad_beat_drop", "into": "bad_beat"}, "sven")) == "done"
    assert [(b["meter"], b["kind"], b["amount"]) for b in (r.body for r in table.journal.records(kinds=("meter",)))
            if b["kind"] in ("day_end", "day_in")] == [("bad_beat_drop", "day_end", 100), ("bad_beat", "day_in", 100)]
    assert table.meters.states["bad_beat"].value == 500_100 and table.meters.states["bad_beat_drop"].value == 0
    table.journal.close()
    report = verify(Journal(tmp_path / "journal.sqlite", readonly=True))
    assert report["ok"], report["problems"][:5]
