"""Tärning and High Jack: the number from red and green, every bet and payout of the seed's lists, voids, limits."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from controller import games
from controller.games.tarning import TarningRules, number_of
from tests.controller.games.wheel_helpers import bet, by_spot, play, reasons

VARIANTS = ["se", "se-high-jack"]


def dice(red: int, green: int, order: str = "rg") -> dict[str, Any]:
    if order == "rg":
        return {"type": "dice", "values": [red, green], "colors": ["red", "green"]}
    return {"type": "dice", "values": [green, red], "colors": ["green", "red"]}


def rules(variant: str = "se", **options: object) -> TarningRules:
    return TarningRules(games.configure("tarning", variant, options)[1])


def test_the_number_is_six_times_red_less_one_plus_green() -> None:
    assert number_of(1, 1) == 1 and number_of(1, 6) == 6 and number_of(3, 2) == 14 and number_of(6, 6) == 36
    assert sorted(number_of(r, g) for r in range(1, 7) for g in range(1, 7)) == list(range(1, 37))


def test_the_layout_has_no_zero_and_six_lines_are_the_red_sections() -> None:
    table = rules().table
    kinds = Counter(s.kind for s in table)
    assert kinds == {"straight": 36, "split": 57, "street": 12, "corner": 22, "line": 6, "total": 9,
                     "pair": 1, "below": 1, "above": 1}
    lines = sorted(s.numbers for s in table if s.kind == "line")
    assert lines == [tuple(range(6 * k + 1, 6 * k + 7)) for k in range(6)]
    assert Counter(s.kind for s in rules(six_lines="any").table)["line"] == 11


# (spot, a winning (red, green), a losing (red, green), odds on the seed's lists)
BETS = [
    ("straight:14", (3, 2), (3, 3), 30),     # A. 30 gånger
    ("split:14,17", (3, 5), (3, 4), 15),     # B. 15 gånger
    ("split:13,14", (3, 1), (3, 3), 15),
    ("street:13,14,15", (3, 3), (3, 4), 10),  # C. 10 gånger
    ("corner:13,14,16,17", (3, 4), (3, 6), 7),  # D. 7 gånger
    ("line:13,14,15,16,17,18", (3, 6), (4, 1), 4),  # E. 4 gånger
    ("total:3", (1, 2), (2, 2), 15),
    ("total:11", (6, 5), (6, 6), 15),
    ("total:4", (2, 2), (2, 3), 10),
    ("total:10", (4, 6), (5, 6), 10),
    ("total:5", (1, 4), (1, 5), 7),
    ("total:9", (4, 5), (4, 6), 7),
    ("total:6", (3, 3), (3, 4), 5),
    ("total:8", (2, 6), (2, 5), 5),
    ("total:7", (4, 3), (4, 4), 4),
    ("pair", (5, 5), (5, 4), 4),              # Båda lika: 4 gånger
    ("below", (1, 5), (1, 6), 1),             # Under 7: 1 gång
    ("above", (2, 6), (1, 6), 1),             # Över 7: 1 gång
]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("spot, winner, loser, odds", BETS)
def test_every_bet_wins_at_the_seeds_odds_and_loses(variant: str, spot: str, winner: tuple[int, int],
                                                    loser: tuple[int, int], odds: int) -> None:
    won = play("tarning", variant, [bet(spot, 300), dice(*winner)])
    assert by_spot(won)[spot] == {"seat": 1, "spot": spot, "player": "blue", "result": "win", "odds": [odds, 1],
                                  "stake": 300, "net": 300 * odds}
    lost = play("tarning", variant, [bet(spot, 300), dice(*loser)])
    assert by_spot(lost)[spot]["net"] == -300


def test_the_paytables_hold_exactly_the_seeds_lists() -> None:
    """Seed 000: the Tärning list and the High Jack list are the same, 3 or 11 at 15 down to 7 at 4."""
    expected_totals = {3: 15, 4: 10, 5: 7, 6: 5, 7: 4, 8: 5, 9: 7, 10: 10, 11: 15}
    for variant in VARIANTS:
        table = games.paytable_of(games.load_game("tarning"))[variant]
        assert {int(k): v[0] for k, v in table["total"].items()} == expected_totals
        assert all(v[1] == 1 for v in table["total"].values())
        assert {k: v for k, v in table.items() if k != "total"} == {
            "straight": [30, 1], "split": [15, 1], "street": [10, 1], "corner": [7, 1], "line": [4, 1],
            "pair": [4, 1], "below": [1, 1], "above": [1, 1]}


def test_below_and_above_lose_on_seven_and_totals_two_and_twelve_have_no_spot() -> None:
    done = by_spot(play("tarning", "se", [bet("below", 100), bet("above", 100), dice(3, 4)]))
    assert done["below"]["result"] == done["above"]["result"] == "lose"
    why = reasons(play("tarning", "se", [bet("total:2"), bet("total:12")]))
    assert all("totals on the layout are 3 to 11" in w for w in why) and len(why) == 2


def test_the_colours_decide_which_die_is_the_section() -> None:
    one = play("tarning", "se", [bet("straight:14", 100), dice(3, 2, order="gr")])
    assert one["outcome"]["number"] == 14 and one["outcome"]["red"] == 3 and one["outcome"]["green"] == 2
    swedish = play("tarning", "se", [{"type": "dice", "values": [2, 3], "colors": ["Grön", "RÖD"]}])
    assert swedish["outcome"]["number"] == 14


@pytest.mark.parametrize("event, why", [
    ({"type": "dice", "values": [3, 2]}, "say which die is red and which is green"),
    ({"type": "dice", "values": [3, 2], "colors": ["red", "red"]}, "one red and one green, not red and red"),
    ({"type": "dice", "values": [3, 2], "colors": ["red", "blue"]}, "one red and one green"),
    ({"type": "dice", "values": [3, 2, 1], "colors": ["red", "green", "white"]}, "two dice"),
    ({"type": "dice", "values": [7, 2], "colors": ["red", "green"]}, "a die shows 1 to 6, not 7"),
    ({"type": "dice", "values": [0, 2], "colors": ["red", "green"]}, "a die shows 1 to 6, not 0"),
    ({"type": "wheel", "number": 14}, "settled by the dice"),
])
def test_a_dice_event_must_name_red_and_green_and_be_valid(event: dict[str, Any], why: str) -> None:
    done = play("tarning", "se", [bet("straight:14"), event])
    assert why in reasons(done)[0] and not done["complete"]


@pytest.mark.parametrize("spot, why", [
    ("split:6,7", "not neighbours"),
    ("split:14,18", "not neighbours"),
    ("street:2,3,4", "one row"),
    ("corner:2,3,4,5", "2x2 block"),
    ("line:4,5,6,7,8,9", "one red-die section (1-6, 7-12"),
    ("line:1,2,3,4,5", "covers 6 numbers"),
    ("straight:0", "0 is not on the layout (1-36)"),
    ("straight:37", "37 is not on the layout"),
    ("dozen:1", "no 'dozen:1' bet"),
    ("red", "no 'red' bet"),
    ("total:12", "3 to 11"),
    ("pair:3", "pair"),
])
def test_every_illegal_tarning_bet_is_refused(spot: str, why: str) -> None:
    done = play("tarning", "se", [bet(spot)])
    assert len(done["rejected"]) == 1 and why in done["rejected"][0]["reason"], done["rejected"]


def test_a_void_throw_keeps_the_bets_for_the_next_throw() -> None:
    events = [bet("straight:14", 500), {"type": "close_bets"},
              {"type": "void", "reason": "green die off the table", "by": "camera"},
              dice(3, 2)]
    for variant, again in (("se", "Throw the dice again"), ("se-high-jack", "Shake the cup again")):
        done = play("tarning", variant, events)
        assert by_spot(done)["straight:14"]["net"] == 15000
        assert done["outcome"]["voids"] == [{"by": "camera", "reason": "green die off the table"}]
        assert again in done["alerts"][0]["text"]


def test_tarning_se_limits_and_chips_follow_rules_5_to_7() -> None:
    with pytest.raises(ValueError, match="Tärning rule 5"):
        games.configure("tarning", "se-high-jack", {"chip_values": [2000]})
    done = play("tarning", "se", [bet("pair", 987), bet("pair", 100, player=None)])
    why = reasons(done)
    assert "maximum of 986" in why[0] and "Tärning rule 6" in why[0]
    assert "chip colour" in why[1] and "Tärning rule 7" in why[1]
    limited = play("tarning", "se", [bet("total:7", 200), bet("total:6", 200)], {"limits": {"total:7": [10, 100]}})
    assert len(reasons(limited)) == 1 and "maximum of 100" in reasons(limited)[0]


def test_outcome_shows_the_dice_number_and_total() -> None:
    assert play("tarning", "se", [dice(4, 4)])["outcome"] == {
        "number": 22, "red": 4, "green": 4, "total": 8, "pair": True, "below_above": "above", "row": 8,
        "column": 1, "voids": []}
