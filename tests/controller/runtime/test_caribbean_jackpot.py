"""Jackpot meters end to end with Caribbean Stud Poker (issue 4, item 6): the game's hits through the runtime.

The example table hw/tables/caribbean-stud-classic.toml is loaded (with the
journal and, where a test needs it, the meter's figures changed); the round is
driven through ``Table.submit`` with a rigged deck, as the shoe would send it.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from controller import config as table_config
from controller.cards import parse_card
from controller.events import Action, Bet, CardOut, CloseBets
from controller.runtime.audit import verify
from controller.runtime.interfaces import Command
from controller.runtime.journal import Journal
from controller.runtime.table import Table
from tests.tablectl import ROOT

EXAMPLE = ROOT / "hw" / "tables" / "caribbean-stud-classic.toml"
METER = "cs-progressive"


def table_for(tmp: Path, **meter: Any) -> Table:
    data = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))
    data["journal"]["path"] = str(tmp / "journal.sqlite")
    data["jackpot"][METER].update(meter)
    for key in [k for k, v in data["jackpot"][METER].items() if v is None]:
        del data["jackpot"][METER][key]
    data["devices"] = {name: {"driver": "simulated"} for name in ("shoe", "gpio", "sign", "jackpot_display")}
    return Table.open(table_config.from_mapping(data, "test"))


def deal(table: Table, hands: dict[int, str], dealer: str) -> None:
    """Five cards each, one at a time from box 1, the dealer after each pass (003 'Uddeling af kort' 2-3)."""
    split = {box: text.split() for box, text in hands.items()}
    cards = dealer.split()
    for i in range(5):
        for box in sorted(split):
            assert table.submit("shoe", CardOut(parse_card(split[box][i]))) == "accepted"
        assert table.submit("shoe", CardOut(parse_card(cards[i]))) == "accepted"


def meter_records(table: Table) -> list[dict[str, Any]]:
    return [r.body for r in table.journal.records(kinds=("meter",))]


def test_two_hits_in_one_round_are_paid_in_order_each_from_what_the_meter_then_holds(tmp_path: Path) -> None:
    table = table_for(tmp_path)
    base = 1_000_000
    assert table.meters.states[METER].value == base
    for box in (1, 2, 3):
        assert table.submit("bets", Bet(box, "ante", 1000)) == "accepted"
        assert table.submit("bets", Bet(box, "progressive", 100)) == "accepted"
    assert table.submit("buttons", CloseBets()) == "accepted"
    assert table.meters.states[METER].value == base + 3 * 70  # contributions when the bets close
    deal(table, {1: "Ah Kh Qh Jh Th", 2: "9s 8s 7s 6s 5s", 3: "2c 2d 7h 9c Jd"}, "3c 4d 8h Tc Qd")
    for box in (1, 2):
        assert table.submit("buttons", Action(box, "raise"))
    assert table.submit("buttons", Action(3, "fold"))
    hits = [b for b in meter_records(table) if b["kind"] == "hit"]
    # settled from the dealer's right: box 2's straight flush (fixed 125 000) first, then box 1's royal (all of the rest)
    assert [(h["seat"], h["hand"], h["amount"]) for h in hits] == [
        (2, "straight_flush", 125_000), (1, "royal_flush", base + 210 - 125_000)]
    assert table.meters.states[METER].value == 0
    view = table.view()
    assert view["jackpot_display"]["meters"][METER] == "PEnding" and view["tower"]["pattern"] == "jackpot_pending" and view["tower"]["amber"] == "flash"
    # the next round's contributions do not change the frozen amounts
    assert table.submit("bets", Bet(1, "ante", 1000)) == "accepted"
    assert table.submit("bets", Bet(1, "progressive", 100)) == "accepted"
    assert table.submit("buttons", CloseBets()) == "accepted"
    assert table.command(Command("confirm_jackpot", {"meter": METER}, "supervisor key")) == "done"
    assert table.view()["jackpot_display"]["meters"][METER] == "PEnding"  # the second hit still waits
    assert table.command(Command("confirm_jackpot", {"meter": METER}, "supervisor key")) == "done"
    payouts = [b for b in meter_records(table) if b["kind"] == "payout"]
    assert [(p["seat"], p["amount"]) for p in payouts] == [(2, 125_000), (1, base + 210 - 125_000)]
    assert table.meters.states[METER].value == base  # reset to base (the 70 contributed meanwhile is in the seed)
    assert table.view()["jackpot_display"]["meters"][METER] == "10000"
    assert table.command(Command("confirm_jackpot", {"meter": METER}, "sup")).startswith("no jackpot hit is waiting")
    table.journal.close()
    journal = Journal(tmp_path / "journal.sqlite", readonly=True)
    report = verify(journal)
    assert report["ok"], report


def test_a_fixed_prize_larger_than_the_meter_pays_what_the_meter_holds(tmp_path: Path) -> None:
    table = table_for(tmp_path, base=100_000, cap=None, overflow=None)
    assert table.submit("bets", Bet(4, "ante", 1000)) == "accepted"
    assert table.submit("bets", Bet(4, "progressive", 100)) == "accepted"
    deal(table, {4: "9s 8s 7s 6s 5s"}, "3c 4d 8h Tc Qd")
    assert table.submit("buttons", Action(4, "fold")) == "accepted"  # the progressive pays whatever the decision
    hit = next(b for b in meter_records(table) if b["kind"] == "hit")
    assert (hit["amount"], hit["fixed"], hit["short"]) == (100_070, 125_000, 24_930)
    assert table.command(Command("confirm_jackpot", {}, "console:sup")) == "done"
    assert [b["kind"] for b in meter_records(table)][-2:] == ["payout", "reset"]
    assert table.meters.states[METER].value == 100_000
    table.journal.close()
    assert verify(Journal(tmp_path / "journal.sqlite", readonly=True))["ok"]


def test_cap_sends_contributions_to_the_overflow_meter_which_refills_after_a_hit(tmp_path: Path) -> None:
    table = table_for(tmp_path, base=100_000, cap=100_100, overflow=True)
    for box in (1, 2, 3):
        assert table.submit("bets", Bet(box, "ante", 1000)) == "accepted"
        assert table.submit("bets", Bet(box, "progressive", 100)) == "accepted"
    assert table.submit("buttons", CloseBets()) == "accepted"
    state = table.meters.states[METER]
    assert (state.value, state.overflow) == (100_100, 110)  # 3 x 70 = 210: 100 to the meter, 110 to the overflow
    deal(table, {1: "Ah Kh Qh Jh Th", 2: "2c 2d 7h 9c Jd", 3: "3s 5s 7d 9h Js"}, "3c 4d 8h Tc Qd")
    for box in (1, 2, 3):
        assert table.submit("buttons", Action(box, "fold")) == "accepted"
    assert table.command(Command("confirm_jackpot", {}, "sup")) == "done"
    kinds = [(b["kind"], b["amount"]) for b in meter_records(table)][-3:]
    assert kinds == [("payout", 100_100), ("reset", 100_000), ("overflow", 100)]
    state = table.meters.states[METER]
    assert (state.value, state.overflow) == (100_100, 10)
    table.journal.close()
    assert verify(Journal(tmp_path / "journal.sqlite", readonly=True))["ok"]


def test_example_caribbean_tables_feed_their_meter(tmp_path: Path) -> None:
    for name in ("caribbean-stud-dk", "caribbean-stud-classic"):
        config = table_config.load(ROOT / "hw" / "tables" / f"{name}.toml")
        assert [j.name for j in config.jackpots] == [config.round_config["meter"]]
