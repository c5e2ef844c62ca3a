"""The Oasis Stud progressive on the runtime's meters: the example table hw/tables/oasis-stud-fi-progressive.toml.

The round is driven through ``Table.submit`` with a rigged deck, as the shoe would send it; the meter's
contributions, the royal's hit, the jackpot display, the supervisor's confirmation and the journal's check.
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

EXAMPLE = ROOT / "hw" / "tables" / "oasis-stud-fi-progressive.toml"
METER = "oasis-progressive"
BASE = 500_000


def table_for(tmp: Path) -> Table:
    data = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))
    data["journal"]["path"] = str(tmp / "journal.sqlite")
    data["devices"] = {name: {"driver": "simulated"} for name in ("shoe", "gpio", "sign", "jackpot_display")}
    return Table.open(table_config.from_mapping(data, "test"))


def deal(table: Table, hands: dict[int, str], dealer: str) -> None:
    """Five cards each, one at a time from box 1, the dealer after each pass."""
    split = {box: text.split() for box, text in hands.items()}
    cards = dealer.split()
    for i in range(5):
        for box in sorted(split):
            assert table.submit("shoe", CardOut(parse_card(split[box][i]))) == "accepted"
        assert table.submit("shoe", CardOut(parse_card(cards[i]))) == "accepted"


def meter_records(table: Table) -> list[dict[str, Any]]:
    return [r.body for r in table.journal.records(kinds=("meter",))]


def test_the_royal_wins_the_meter_shown_on_the_jackpot_display(tmp_path: Path) -> None:
    table = table_for(tmp_path)
    assert table.meters.states[METER].value == BASE
    for box in (1, 2):
        assert table.submit("bets", Bet(box, "ante", 1000)) == "accepted"
        assert table.submit("bets", Bet(box, "bonus", 100)) == "accepted"
    assert table.submit("bets", Bet(3, "ante", 1000)) == "accepted"
    assert table.submit("bets", Bet(3, "bonus", 500)) != "accepted"  # the bonus is one chip of 100
    assert table.submit("buttons", CloseBets()) == "accepted"
    assert table.meters.states[METER].value == BASE + 2 * 15  # the contributions when the bets close
    assert table.view()["jackpot_display"]["meters"][METER] == "5000.30"
    deal(table, {1: "Ah Kh Qh Jh Th", 2: "As Js 8s 5s 2s", 3: "7c 5d 4h 3c 2d"}, "Ad Kc 9h 6s 3d")
    for box, decision in ((1, "bet"), (2, "bet"), (3, "fold")):
        assert table.submit("buttons", Action(box, decision)) == "accepted"
    (hit,) = [b for b in meter_records(table) if b["kind"] == "hit"]
    assert (hit["seat"], hit["hand"], hit["amount"]) == (1, "royal_flush", BASE + 30)
    view = table.view()
    assert view["jackpot_display"]["meters"][METER] == "PEnding" and view["tower"]["pattern"] == "jackpot_pending"
    assert table.command(Command("confirm_jackpot", {"meter": METER}, "supervisor key")) == "done"
    assert [b["kind"] for b in meter_records(table)][-2:] == ["payout", "reset"]
    assert table.meters.states[METER].value == BASE
    table.journal.close()
    report = verify(Journal(tmp_path / "journal.sqlite", readonly=True))
    assert report["ok"], report


def test_the_example_table_feeds_its_meter() -> None:
    config = table_config.load(EXAMPLE)
    assert [j.name for j in config.jackpots] == [config.round_config["meter"]] == [METER]
    assert config.round_config["progressive"] is True
