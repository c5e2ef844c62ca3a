"""The progressive's random special prizes through the runtime (seed 002): drawn by the table, journaled first.

The example table hw/tables/ultimate-texas-holdem-i.toml (progressive and
special prizes on) is loaded with its journal in a temporary directory; the
round is driven through ``Table.submit`` with a rigged deck, as the shoe sends
it. The numbers come from the table's draw source (a seeded one here, the
system's at a live table), never from a device.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from controller import config as table_config
from controller import games
from controller.cards import parse_card
from controller.events import Action, Bet, CardOut, CloseBets, Draw
from controller.runtime.audit import export_round, replay_rounds, verify
from controller.runtime.draws import SeededDraws, SystemDraws
from controller.runtime.interfaces import Command
from controller.runtime.table import Table
from controller.scenario import load_scenario, settle
from tests.tablectl import ROOT

EXAMPLE = ROOT / "hw" / "tables" / "ultimate-texas-holdem-i.toml"
METER = "uth-progressive"
FACES = 500


def config_for(tmp: Path) -> Any:
    data = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))
    data["journal"]["path"] = str(tmp / "journal.sqlite")
    data["devices"] = {name: {"driver": "simulated"} for name in ("shoe", "gpio", "sign", "jackpot_display")}
    data.pop("console", None)
    return table_config.from_mapping(data, "test")


def seed_where(second_wins: bool) -> int:
    """A seed whose first draw of two numbers gives box 2 (and not box 1) the special prize, or neither."""
    for seed in range(100_000):
        first, second = SeededDraws(seed).draw(2, FACES)
        if first > 1 and (second == 1) == second_wins:
            return seed
    raise AssertionError("no such seed")


class Broken:
    """An apparatus that fails when asked (the table stops between the request and the draw)."""

    name = "draw:broken"

    def draw(self, count: int, faces: int) -> tuple[int, ...]:
        raise RuntimeError("the apparatus did not answer")


def play_to_showdown(table: Table) -> None:
    for box in (1, 2):
        for spot in ("ante", "blind", "progressive"):
            assert table.submit("bets", Bet(box, spot, 500 if spot != "progressive" else 100)) == "accepted"
    assert table.submit("buttons", CloseBets()) == "accepted"

    def card(text: str) -> None:
        assert table.submit("shoe", CardOut(parse_card(text))) == "accepted"

    for text in "7c 9s Ac 7d 2c 2d".split():  # one at a time from box 1, the dealer last in each turn
        card(text)
    assert table.submit("buttons", Action(1, "play", multiple=4)) == "accepted"
    assert table.submit("buttons", Action(2, "check")) == "accepted"
    for text in "7h 9c 9d".split():
        card(text)
    assert table.submit("buttons", Action(2, "check")) == "accepted"
    card("7s")
    card("3h")
    table.submit("buttons", Action(2, "fold"))  # the showdown: the round asks the apparatus


def events(table: Table) -> list[Any]:
    return list(table.journal.records(kinds=("event", "meter", "refuse")))


def test_the_draw_is_journaled_before_its_prize_and_replays_to_the_same_prize(tmp_path: Path) -> None:
    seed = seed_where(second_wins=True)
    table = Table.open(config_for(tmp_path), draws=SeededDraws(seed))
    base = table.meters.states[METER].value
    play_to_showdown(table)
    records = events(table)
    request = next(r for r in records if r.kind == "event" and any("draw_request" in e for e in r.body["effects"]))
    assert request.body["event"] == {"type": "action", "seat": 2, "action": "fold"}
    assert request.body["effects"][0]["draw_request"]["count"] == 2 and not request.body["complete"]
    draw = next(r for r in records if r.kind == "event" and r.body["event"]["type"] == "draw")
    assert draw.body["source"] == f"draw:seed {seed}"
    numbers = draw.body["event"]["numbers"]
    assert numbers == list(SeededDraws(seed).draw(2, FACES)) and numbers[1] == 1
    hits = [r for r in records if r.kind == "meter" and r.body["kind"] == "hit"]
    assert [(h.body["seat"], h.body["hand"]) for h in hits] == [
        (1, "full_house"), (2, "three_of_a_kind"), (2, "special_prize")]
    assert all(h.seq > draw.seq for h in hits)  # nothing is paid before the numbers are in the journal
    assert hits[2].body["amount"] == 10_000
    progressive = [s for s in table.last_settlements if s["spot"] == "progressive"]
    assert "special prize, drawn number 1" in progressive[1]["note"]
    assert table.last_outcome is not None and table.last_outcome["special_draw"]["winners"] == [2]
    assert table.view()["jackpot_display"]["meters"][METER] == "PEnding"
    for _ in range(3):
        assert table.command(Command("confirm_jackpot", {"meter": METER}, "supervisor key")) == "done"
    payouts = [r.body for r in table.journal.records(kinds=("meter",)) if r.body["kind"] == "payout"]
    assert [(p["seat"], p["amount"]) for p in payouts] == [(1, 5000), (2, 900), (2, 10_000)]
    assert table.meters.states[METER].value >= base
    # the replay: every round through the game code from the journal gives the journaled effects, the prize too
    assert replay_rounds(table.journal, games.load_game) == []
    assert verify(table.journal, lookup=games.load_game)["ok"]
    # and the round exported as a scenario settles to the same special prize
    scenario = export_round(table.journal, draw.round)
    assert {"type": "draw", "numbers": numbers} in scenario["rounds"][0]["events"]
    replayed = settle(load_scenario(scenario))["rounds"][0]
    assert [s for s in replayed["settlements"] if s["spot"] == "progressive"] == progressive


def test_a_lost_draw_leaves_only_the_hand_prizes(tmp_path: Path) -> None:
    table = Table.open(config_for(tmp_path), draws=SeededDraws(seed_where(second_wins=False)))
    play_to_showdown(table)
    hits = [r.body for r in table.journal.records(kinds=("meter",)) if r.body["kind"] == "hit"]
    assert [h["hand"] for h in hits] == ["full_house", "three_of_a_kind"]
    assert table.round_no == 2  # settled: the next round is open


def test_a_draw_from_a_device_or_the_console_is_refused(tmp_path: Path) -> None:
    table = Table.open(config_for(tmp_path), draws=SeededDraws(1))
    assert table.submit("buttons", Draw((1, 1))) == "refused"
    refused = [r.body for r in table.journal.records(kinds=("refuse",))]
    assert "random-draw apparatus" in refused[-1]["reason"]


def test_a_restart_between_the_request_and_the_draw_draws_then(tmp_path: Path) -> None:
    config = config_for(tmp_path)
    table = Table.open(config, draws=Broken())  # type: ignore[arg-type]
    with pytest.raises(RuntimeError, match="did not answer"):
        play_to_showdown(table)
    assert table.round_no == 1 and "special prize draw" in table.round.waiting_for()
    table.journal.close()
    seed = seed_where(second_wins=True)
    again = Table.open(config, draws=SeededDraws(seed))  # the daemon restarts: the open round is replayed
    assert again.round_no == 2  # the apparatus drew at once, and the round settled
    draw = [r for r in again.journal.records(kinds=("event",)) if r.body["event"]["type"] == "draw"]
    assert [d.body["source"] for d in draw] == [f"draw:seed {seed}"]
    assert replay_rounds(again.journal, games.load_game) == []


def test_the_system_source_draws_in_range() -> None:
    numbers = SystemDraws().draw(200, 6)
    assert len(numbers) == 200 and set(numbers) <= set(range(1, 7)) and len(set(numbers)) > 1
