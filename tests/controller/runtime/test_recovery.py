"""Recovery: the open round rebuilt from the journal, latched faults stay latched, meters checked."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from controller.cards import parse_card
from controller.events import Bet, CardOut, CloseBets
from controller.runtime.audit import verify
from controller.runtime.interfaces import Command
from drivers.shoe.events import Jam
from controller.runtime.table import Table
from tests.controller.runtime.helpers import open_table, progressive_config, punto_config


def test_the_open_round_is_rebuilt_by_replaying_its_events(tmp_path: Path) -> None:
    config = punto_config(tmp_path)
    table = Table.open(config)
    table.submit("bets", Bet(1, "banco", 1000))
    table.submit("bets", Bet(2, "dragon", 1000))  # rejected: journaled, not replayed
    table.submit("buttons", CloseBets())
    table.submit("shoe", CardOut(parse_card("2h")))
    table.submit("shoe", CardOut(parse_card("3d")))
    waiting = table.round.waiting_for()
    del table  # a crash: nothing is closed or flushed beyond what was committed
    again = Table.open(config)
    assert again.round_no == 1 and again.round.waiting_for() == waiting
    assert again.recovered["replayed"] == 4  # bet, no more bets, two cards
    for card in ("4c", "5s", "Kd", "Kc"):
        if again.round_no == 1:
            again.submit("shoe", CardOut(parse_card(card)))
    assert again.round_no == 2
    report = verify(again.journal)
    assert report["ok"] and report["rounds_settled"] == 1


def test_a_latched_fault_survives_a_restart_and_stops_only_its_input(tmp_path: Path) -> None:
    config = punto_config(tmp_path)
    table = Table.open(config)
    assert table.submit("shoe", Jam("card stuck in the exit")) == "fault"
    assert "device_fault.shoe" in table.faults
    del table
    again = Table.open(config)
    assert "device_fault.shoe" in again.faults
    assert again.view()["tower"]["red"] == "flash"
    assert again.submit("bets", Bet(1, "banco", 1000)) == "accepted"  # other inputs keep working
    assert again.submit("buttons", CloseBets()) == "accepted"
    assert again.submit("shoe", CardOut(parse_card("9h"))) == "refused"
    assert again.command(Command("clear_fault", {"name": "device_fault.shoe"}, "technician")) == "done"
    assert again.submit("shoe", CardOut(parse_card("9h"))) == "accepted"
    kinds = [r.kind for r in again.journal.records()]
    assert "refuse" in kinds and "clear" in kinds


def test_a_meter_mismatch_is_a_fault_that_stops_the_progressive(tmp_path: Path) -> None:
    config = progressive_config(tmp_path)
    table = open_table(config)
    table.submit("bets", Bet(1, "progressive", 500))
    table.journal.close()
    db = sqlite3.connect(tmp_path / "journal.sqlite")
    db.execute("UPDATE meters SET state = json_set(state, '$.value', 1)")
    db.commit()
    again = open_table(config)
    assert "meter_mismatch.main" in again.faults
    assert again.meters.states["main"].value == 1  # not silently fixed
    assert again.submit("bets", Bet(2, "progressive", 500)) == "refused"
    assert again.submit("bets", Bet(2, "main", 500)) == "accepted"
    assert again.command(Command("correct_meter", {"meter": "main", "value": 100250, "reason": "restored from the records"},
                                 "supervisor")) == "done"
    assert again.command(Command("clear_fault", {}, "supervisor")) == "done"
    assert again.submit("bets", Bet(3, "progressive", 500)) == "accepted"
    del again
    third = open_table(config)
    assert not third.faults  # the correction is in the records: the meter agrees again


def test_a_round_that_does_not_replay_is_a_fault_that_stops_all_input(tmp_path: Path) -> None:
    config = punto_config(tmp_path)
    table = Table.open(config)
    table.submit("bets", Bet(1, "banco", 1000))
    table.submit("buttons", CloseBets())
    table.journal.close()
    db = sqlite3.connect(tmp_path / "journal.sqlite")
    db.execute("UPDATE records SET body = replace(body, 'Card 1 to Punto', 'Card 1 to Banco') WHERE kind = 'event'")
    db.commit()
    again = Table.open(config)
    assert "replay_mismatch" in again.faults and not again.summary()["accepting"]
    assert again.submit("shoe", CardOut(parse_card("9h"))) == "refused"


def test_an_unjournaled_restart_with_a_changed_config_keeps_the_open_round_on_its_own_rules(tmp_path: Path) -> None:
    table = Table.open(punto_config(tmp_path, "fi"))
    table.submit("bets", Bet(1, "tie", 1000))
    del table
    again = Table.open(punto_config(tmp_path, "de"))
    assert again.round.config.variant == "fi"  # the open round finishes under the rules it opened with
    again.submit("buttons", CloseBets())
    for card in "9h 8s Kc Kd".split():
        again.submit("shoe", CardOut(parse_card(card)))
    assert again.round_no == 2 and again.round.config.variant == "de"
