"""The one fault table: what stops, the tower, who clears, and the docs page that shows it."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.events import Bet, CloseBets
from controller.runtime.faults import (CLEAR_ROLES, CONSOLE_ROLE, FAULTS, SELF_CLEARING, STOPS, Fault, clear_markdown,
                                       markdown_table, tower_pattern)
from controller.runtime.view import tower_lamps
from drivers.gpio.tower import PATTERNS
from tests.controller.runtime.helpers import open_table, progressive_config, punto_config

ROOT = Path(__file__).resolve().parents[3]


def test_every_fault_kind_is_complete() -> None:
    for name, kind in FAULTS.items():
        assert kind.name == name and kind.meaning
        assert kind.stops in STOPS and kind.clear_role in CLEAR_ROLES and kind.pattern in PATTERNS
    assert SELF_CLEARING == ("link_down", "sensor_fault")


def test_the_runtime_page_shows_the_fault_table() -> None:
    assert markdown_table() in (ROOT / "docs" / "runtime.md").read_text(encoding="utf-8")


def test_the_console_page_shows_who_may_clear_each_fault_from_the_same_table() -> None:
    assert set(CONSOLE_ROLE) == set(CLEAR_ROLES)
    assert clear_markdown() in (ROOT / "docs" / "console.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name, stops_all, stops_shoe, stops_meter", [
    ("journal", True, True, False), ("maintenance", True, True, False), ("device_fault.shoe", False, True, False),
    ("device_fault.wheel", False, False, False), ("link_down.shoe", False, True, False),
    ("meter_mismatch.main", False, False, True), ("deck_check.shuffler", False, False, False),
])
def test_what_a_fault_stops(name: str, stops_all: bool, stops_shoe: bool, stops_meter: bool) -> None:
    fault = Fault(name, "text")
    assert (fault.stops_all(), fault.stops_source("shoe"), fault.stops_meter("main")) == (stops_all, stops_shoe,
                                                                                            stops_meter)
    assert fault.stops_next_shoe() == name.startswith("deck_check")


GOLDEN_LAMPS = {
    "idle": {"green": "on", "amber": "off", "red": "off", "buzzer": "off"},
    "betting_open": {"green": "flash", "amber": "off", "red": "off", "buzzer": "off"},
    "dealing": {"green": "on", "amber": "on", "red": "off", "buzzer": "off"},
    "waiting_decision": {"green": "off", "amber": "flash", "red": "off", "buzzer": "off"},
    "result_pending": {"green": "off", "amber": "flash", "red": "off", "buzzer": "off"},
    "jackpot_pending": {"green": "off", "amber": "flash", "red": "flash", "buzzer": "on"},
    "device_fault": {"green": "off", "amber": "off", "red": "on", "buzzer": "off"},
    "maintenance": {"green": "off", "amber": "on", "red": "on", "buzzer": "off"},
    "latched_fault": {"green": "off", "amber": "off", "red": "flash", "buzzer": "on"},
    "off": {"green": "off", "amber": "off", "red": "off", "buzzer": "off"},
}


def test_golden_tower_lamps_of_every_pattern() -> None:
    assert {name: tower_lamps(name) for name in PATTERNS} == GOLDEN_LAMPS


def test_golden_tower_of_the_table(tmp_path: Path) -> None:
    """The pattern a table shows as a round goes and faults latch, read from the one view."""
    table = open_table(punto_config(tmp_path))
    seen = [table.view()["tower"]["pattern"]]
    table.submit("bets", Bet(1, "punto", 1000))
    seen.append(table.view()["tower"]["pattern"])
    table.submit("buttons", CloseBets())
    seen.append(table.view()["tower"]["pattern"])
    for name in ("link_down.shoe", "maintenance", "device_fault.shoe"):
        table.latch(name, "test")
        seen.append(table.view()["tower"]["pattern"])
    assert seen == ["idle", "betting_open", "dealing", "device_fault", "maintenance", "latched_fault"]
    assert tower_pattern(table) == "latched_fault"
    assert table.view()["tower"] == {"pattern": "latched_fault", **GOLDEN_LAMPS["latched_fault"]}


def test_golden_sign_of_the_table(tmp_path: Path) -> None:
    """The sign's text lines and its LED content for one table, limits and money as the sign shows them."""
    table = open_table(progressive_config(tmp_path))
    view = table.view()
    content = view["sign"]["content"]
    assert (content.title, content.currency, content.minor_per_major) == (table.config.spec.name,
                                                                          table.config.currency, 100)
    assert view["sign"]["lines"][0] == f"{table.config.spec.name} {table.config.round_config.variant.upper()}"
    assert view["jackpot_display"]["meters"] == {"main": "1000"}
    assert (view["jackpot_display"]["meter"], view["jackpot_display"]["state"]) == ("main", "ok")


def test_golden_sign_text_and_content(tmp_path: Path) -> None:
    """What the LED sign and its text stand-in show, zero-padded minor units included (one money formatter)."""
    from controller import config as table_config
    from drivers.displays.sign import limit_text

    data = table_config.simulated_defaults("punto-banco", "fi", str(tmp_path / "journal.sqlite"))
    data["limits"] = {"punto": [1205, 1000000], "banco": [500, 1000050], "tie": [500, 100000]}
    table = open_table(table_config.from_mapping(data, "test"))
    table.submit("bets", Bet(1, "banco", 5000))
    table.submit("buttons", CloseBets())
    from controller.cards import parse_card
    from controller.events import CardOut
    for card in ("9h", "5s", "Kc", "3d"):  # punto 9, banco 8: naturals
        table.submit("shoe", CardOut(parse_card(card)))
    view = table.view()["sign"]
    assert view["lines"] == ["Punto Banco FI", "PUNTO 12.05-10000 EUR", "BANCO 5-10000.50 EUR", "TIE 5-1000 EUR",
                             "LAST Punto 9h Kc (9), Banco 5s 3d (8): Punto wins"]
    content = view["content"]
    assert [limit_text(limit, content) for limit in content.limits] == ["PUNTO 12.05-10000 EUR",
                                                                        "BANCO 5-10000.50 EUR", "TIE 5-1000 EUR"]
    assert [(m.text, m.colour) for m in content.results] == [("P", None)] and content.results_label == "LAST"
