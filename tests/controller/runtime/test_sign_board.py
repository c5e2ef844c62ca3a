"""The LED sign's last-results board (controller/runtime/sign_board.py) from a table's committed rounds."""

from __future__ import annotations

from pathlib import Path

from controller import config as table_config
from controller.events import Bet, CardOut, CloseBets, Dice, Wheel
from controller.cards import parse_card
from controller.runtime.device_outputs import DeviceView
from controller.runtime.table import Table
from drivers.displays.sign import ResultMark, items


def open_table(tmp: Path, game: str, variant: str) -> Table:
    return Table.open(table_config.from_mapping(
        table_config.simulated_defaults(game, variant, str(tmp / "journal.sqlite")), "test"))


def test_roulette_sign_shows_last_hot_and_cold_in_the_numbers_colours(tmp_path: Path) -> None:
    table = open_table(tmp_path, "roulette", "european")
    view = DeviceView(table)  # the table marks every commit on its board itself
    for number in (17, 32, 17, 0, 5, 17, 32):
        for event in (Bet(1, "red", 1000), CloseBets(), Wheel(number)):
            assert table.submit("test", event) == "accepted"
    content = view.sign_content(table)
    assert content.results_label == "LAST"
    assert content.results[:3] == (ResultMark("32", "red"), ResultMark("17", "black"), ResultMark("5", "red"))
    labels = [label for label, _ in content.boards]
    assert labels == ["HOT", "COLD"]
    hot = dict(content.boards)["HOT"]
    assert hot[:3] == (ResultMark("17", "black"), ResultMark("32", "red"), ResultMark("5", "red"))  # 5 after 0
    assert ResultMark("0", "green") in hot
    assert len(items(content)) == 1 + len(content.limits) + 1 + 2
    again = Table.open(table.config)  # after a restart the board is read back from the journal
    assert DeviceView(again).sign_content(again) == content


def test_punto_banco_and_sic_bo_boards_on_the_sign(tmp_path: Path) -> None:
    table = open_table(tmp_path, "punto-banco", "fi")
    view = DeviceView(table)  # the table marks every commit on its board itself
    for cards in (("9h", "5s", "Kc", "Kd"), ("2h", "9s", "Kh", "Qd"), ("Th", "Ts", "8c", "8d")):  # P, B, tie
        for event in [Bet(1, "banco", 1000), CloseBets()] + [CardOut(parse_card(c)) for c in cards]:
            assert table.submit("test", event) == "accepted", table.journal.last("reject")
    content = view.sign_content(table)
    assert [m.text for m in content.results] == ["T", "B", "P"]
    assert content.boards == (("P 1 B 1 T 1", ()),)
    table = open_table(tmp_path / "s", "sic-bo", "fi")
    view = DeviceView(table)  # the table marks every commit on its board itself
    for dice in ((1, 2, 3), (6, 6, 5), (4, 4, 4), (2, 5, 6)):
        for event in (Bet(1, "big", 1000), CloseBets(), Dice(dice)):
            assert table.submit("test", event) == "accepted"
    content = view.sign_content(table)
    assert [m.text for m in content.results] == ["2 5 6", "4 4 4", "6 6 5", "1 2 3"]
    assert content.boards == (("BIG 50% SMALL 25% TRIPLE 25%", ()),)


def test_the_boards_words_are_the_tables_language(tmp_path: Path) -> None:
    def swedish(tmp: Path, game: str, variant: str) -> Table:
        data = table_config.simulated_defaults(game, variant, str(tmp / "journal.sqlite"))
        data["table"]["language"] = "sv"
        return Table.open(table_config.from_mapping(data, "test"))

    table = swedish(tmp_path, "roulette", "european")
    view = DeviceView(table)
    for number in (17, 32, 17):
        for event in (Bet(1, "red", 1000), CloseBets(), Wheel(number)):
            assert table.submit("test", event) == "accepted"
    content = view.sign_content(table)
    assert content.results_label == "SENASTE" and [label for label, _ in content.boards] == ["HETA", "KALLA"]
    table = swedish(tmp_path / "s", "sic-bo", "fi")
    view = DeviceView(table)
    for dice in ((1, 2, 3), (4, 4, 4)):
        for event in (Bet(1, "big", 1000), CloseBets(), Dice(dice)):
            assert table.submit("test", event) == "accepted"
    assert view.sign_content(table).boards == (("BIG 0% SMALL 50% TRISS 50%", ()),)
