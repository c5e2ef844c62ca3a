"""Decision buttons and the decision keypad (controller/runtime/decision_keys.py) through the translator."""

from __future__ import annotations

from pathlib import Path

from controller import config as table_config
from controller.events import Bet, CardOut, CloseBets
from controller.cards import parse_card
from controller.runtime.decision_keys import keypad, legal_now
from controller.runtime.table import Table
from controller.runtime.translate import Noted, translate
from drivers.events import ButtonPressed
from tests.tablectl import ROOT


def open_table(tmp: Path, game: str, variant: str) -> Table:
    data = table_config.simulated_defaults(game, variant, str(tmp / "journal.sqlite"))
    data["devices"]["gpio"] = {"driver": "gpio", "pin_factory": "mock",
                               "pin_map": str(ROOT / "hw" / "dealer-panel.toml")}
    return Table.open(table_config.from_mapping(data, "test"))


def meaning(table: Table, name: str) -> str:
    """What a press of ``name`` means now, when it means nothing (the translator's note)."""
    press = ButtonPressed(name)
    intents = translate("buttons", press, table.translation_view(press)).intents
    assert len(intents) == 1 and isinstance(intents[0], Noted), intents
    return intents[0].text


def feed(table: Table, *events: object) -> None:
    for event in events:
        if isinstance(event, str):
            event = CardOut(parse_card(event))
        assert table.submit("test", event) == "accepted", (event, table.journal.last("reject"))


def last_action(table: Table) -> dict:
    return table.journal.last("event").body["event"]


def test_fold_and_play_buttons_decide_at_the_first_box_still_to_decide(tmp_path: Path) -> None:
    table = open_table(tmp_path, "three-card-poker", "fi")
    feed(table, Bet(1, "ante", 1000), Bet(3, "ante", 1000), CloseBets(),
         "Kh", "2c", "9s", "Kd", "5d", "4h", "7c", "8h", "Qc")
    assert table.submit("buttons", ButtonPressed("play")) == "accepted"
    assert last_action(table) == {"type": "action", "seat": 1, "action": "play"}
    assert table.submit("buttons", ButtonPressed("fold")) == "accepted"
    assert last_action(table) == {"type": "action", "seat": 3, "action": "fold"}
    assert table.round_no == 2


def test_a_button_that_means_nothing_now_sends_nothing(tmp_path: Path) -> None:
    table = open_table(tmp_path, "three-card-poker", "fi")
    feed(table, Bet(1, "ante", 1000))
    seq = table.journal.last_seq
    assert meaning(table, "fold") == "fold: no box may fold now"
    assert meaning(table, "key_1") == "key 1 means nothing now"
    assert table.journal.last_seq == seq


def test_keypad_key_n_is_the_nth_decision_of_the_box_in_turn(tmp_path: Path) -> None:
    table = open_table(tmp_path, "blackjack", "fi")
    feed(table, Bet(1, "main", 1000), Bet(2, "main", 1000), CloseBets(), "8h", "Kd", "6c", "8s", "9d")
    keys = keypad(legal_now(table))
    assert [(d.seat, d.action) for d in keys] == [(1, "stand"), (1, "double"), (1, "split"), (1, "surrender")]
    assert table.submit("buttons", ButtonPressed("key_3")) == "accepted"
    assert last_action(table) == {"type": "action", "seat": 1, "action": "split"}
    assert meaning(table, "key_1") == "key 1 means nothing now"  # the split hand takes a card now
    feed(table, "3c")
    assert [(d.seat, d.action) for d in keypad(legal_now(table))] == [(1, "stand"), (1, "double")]
    assert meaning(table, "key_4") == "key 4 means nothing now (keys 1-2 do)"


def test_a_limit_raise_is_a_key_and_a_no_limit_raise_is_sized_at_the_terminal(tmp_path: Path) -> None:
    for variant, words in (("limit", None), ("no-limit", "raise at box 1: the player chooses the amount; "
                                                         "use the terminal")):
        table = open_table(tmp_path / variant, "texas-holdem", variant)
        feed(table, Bet(1, "buy_in", 20000), Bet(2, "buy_in", 20000), Bet(3, "buy_in", 20000), CloseBets(),
             "Ah", "Kd", "7c", "2s", "9h", "Qd")
        keys = keypad(legal_now(table))
        assert [(d.seat, d.action) for d in keys] == [(1, "fold"), (1, "call"), (1, "raise"), (1, "all_in")]
        if words is None:
            assert table.submit("buttons", ButtonPressed("key_3")) == "accepted"
            assert last_action(table) == {"type": "action", "seat": 1, "action": "raise", "amount": 200}
        else:
            seq = table.journal.last_seq
            assert meaning(table, "key_3") == words
            assert table.journal.last_seq == seq
