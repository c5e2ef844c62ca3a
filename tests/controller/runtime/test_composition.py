"""The shoe's composition: six- and eight-deck shoes counted card by card; a card the shoe cannot hold is a misdeal."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller import config as table_config
from controller.cards import parse_card
from controller.events import Bet, CardOut, CloseBets
from controller.runtime.composition import ShoeComposition
from controller.runtime.interfaces import Command
from controller.runtime.outputs import Terminal
from controller.runtime.table import Table
from drivers.shoe.emulator import seeded_shoe


def punto(tmp: Path, decks: int) -> Table:
    data = table_config.simulated_defaults("punto-banco", "fi", str(tmp / "journal.sqlite"))
    data["options"]["decks"] = decks
    return Table.open(table_config.from_mapping(data, "test"))


@pytest.mark.parametrize("decks", [6, 8])
def test_a_whole_shoe_is_taken_and_one_card_more_of_a_kind_is_a_misdeal(tmp_path: Path, decks: int) -> None:
    table = punto(tmp_path, decks)
    cards = seeded_shoe(decks, 7)
    answers = [table.submit("shoe", CardOut(parse_card(c))) for c in cards]
    assert "refused" not in answers and len(answers) == 52 * decks  # every card of the shoe is one it may hold
    before = table.journal.last_seq
    assert table.submit("shoe", CardOut(parse_card("As"))) == "refused"  # the (decks + 1)th ace of spades
    record = list(table.journal.records(since=before))[-1]
    assert record.kind == "refuse" and record.body["misdeal"] is True
    words = f"MISDEAL: a {decks + 1}th As came out of shoe 1, and {decks} decks hold only {decks}"
    assert words in record.body["reason"]
    assert Terminal.line(record).startswith("REFUSE card As: MISDEAL")  # what the croupier sees
    last = next(r for r in table.journal.records(kinds=("event", "reject"), since=before - 3))
    assert last.body["shoe"]["no"] == 1 and last.body["shoe"]["cards"] >= 52 * decks - 2  # the count is journaled


def test_the_seventh_ace_of_six_decks_is_refused_and_the_coup_is_not_settled_on_it(tmp_path: Path) -> None:
    table = punto(tmp_path, 6)
    table.submit("bets", Bet(1, "punto", 1000))
    table.submit("bets", CloseBets())
    answers = [table.submit("shoe", CardOut(parse_card("As"))) for _ in range(7)]
    assert "refused" not in answers[:6] and answers[6] == "refused"  # six aces of spades may come; the 7th not
    assert table.composition.seen["As"] == 6
    outcomes = [e["outcome"] for r in table.journal.records(kinds=("event",)) for e in r.body["effects"]
                if "outcome" in e]
    assert all(len(o["punto_cards"]) + len(o["banco_cards"]) <= 6 for o in outcomes)


def test_a_joker_is_a_misdeal_in_a_shoe_without_jokers(tmp_path: Path) -> None:
    table = punto(tmp_path, 8)
    assert table.submit("shoe", CardOut(parse_card("JK"))) == "refused"
    record = table.journal.last("refuse")
    assert record is not None and "joker came out, and this 8-deck shoe has none" in record.body["reason"]


def test_the_count_survives_a_restart_and_starts_again_with_a_new_shoe(tmp_path: Path) -> None:
    table = punto(tmp_path, 6)
    for _ in range(6):
        table.submit("shoe", CardOut(parse_card("Kd")))
    table.journal.close()
    again = punto(tmp_path, 6)
    assert again.composition.seen["Kd"] == 6
    assert again.submit("shoe", CardOut(parse_card("Kd"))) == "refused"
    while again.round_events:  # finish the coup, then change the shoe
        again.submit("shoe", CardOut(parse_card("2c")))
    assert again.command(Command("new_shoe", {}, "test")) == "done"
    assert again.composition.seen["Kd"] == 0
    assert again.submit("shoe", CardOut(parse_card("Kd"))) == "accepted"


def test_the_composition_counts_by_deck_and_jokers() -> None:
    shoe = ShoeComposition(2, jokers_per_deck=1)
    for _ in range(2):
        assert shoe.refuse(parse_card("JK")) is None
        shoe.take(parse_card("JK"))
    assert shoe.refuse(parse_card("JK")) is not None
    assert ShoeComposition.for_options({"decks": 8}).decks == 8
    assert ShoeComposition.for_options({}).decks == 1
