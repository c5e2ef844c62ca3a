"""Sic Bo: every bet and every payout of seed 004's odds table, triples, illegal bets, voids and limits."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from controller import games
from controller.games.sic_bo import SicBoRules
from tests.controller.games.wheel_helpers import bet, by_spot, play, reasons


def dice(*values: int) -> dict[str, Any]:
    return {"type": "dice", "values": list(values)}


def test_the_layout_has_every_seed_bet() -> None:
    table = SicBoRules(games.configure("sic-bo", "fi")[1]).table
    assert Counter(s.kind for s in table) == {"small": 1, "big": 1, "single": 6, "combo": 15, "double": 6,
                                              "any_triple": 1, "triple": 6, "total": 14}


# (spot, winning dice, losing dice, odds) straight from seed 004's table
BETS = [
    ("small", (1, 2, 4), (5, 3, 3), 1),
    ("small", (4, 3, 3), (2, 2, 2), 1),
    ("big", (6, 5, 1), (3, 3, 4), 1),
    ("big", (6, 6, 5), (5, 5, 5), 1),
    ("single:5", (5, 1, 2), (1, 2, 3), 1),
    ("single:5", (5, 5, 2), (6, 6, 6), 2),
    ("single:5", (5, 5, 5), (4, 4, 4), 12),
    ("combo:1,2", (1, 2, 6), (1, 1, 6), 6),
    ("combo:5,6", (6, 5, 5), (6, 6, 6), 6),
    ("double:3", (3, 1, 3), (3, 1, 2), 11),
    ("double:3", (3, 3, 3), (2, 2, 1), 11),
    ("any_triple", (4, 4, 4), (4, 4, 3), 30),
    ("triple:6", (6, 6, 6), (5, 5, 5), 180),
]
TOTAL_ODDS = {4: 60, 5: 30, 6: 18, 7: 12, 8: 8, 9: 6, 10: 6, 11: 6, 12: 6, 13: 8, 14: 12, 15: 18, 16: 30, 17: 60}


@pytest.mark.parametrize("spot, winner, loser, odds", BETS)
def test_every_bet_wins_at_the_seeds_odds_and_loses(spot: str, winner: tuple[int, ...], loser: tuple[int, ...],
                                                    odds: int) -> None:
    won = play("sic-bo", "fi", [bet(spot, 200, player=None), dice(*winner)])
    assert by_spot(won)[spot] == {"seat": 1, "spot": spot, "result": "win", "odds": [odds, 1], "stake": 200,
                                  "net": 200 * odds}
    lost = play("sic-bo", "fi", [bet(spot, 200, player=None), dice(*loser)])
    assert by_spot(lost)[spot]["net"] == -200


def _throw_with_total(total: int) -> tuple[int, int, int]:
    for a in range(1, 7):
        for b in range(1, 7):
            c = total - a - b
            if 1 <= c <= 6:
                return a, b, c
    raise AssertionError(total)


@pytest.mark.parametrize("total, odds", sorted(TOTAL_ODDS.items()))
def test_every_total_pays_the_seeds_odds(total: int, odds: int) -> None:
    spot = f"total:{total}"
    won = play("sic-bo", "fi", [bet(spot, 100, player=None), dice(*_throw_with_total(total))])
    assert by_spot(won)[spot]["odds"] == [odds, 1] and by_spot(won)[spot]["net"] == 100 * odds
    other = 10 if total != 10 else 11
    lost = play("sic-bo", "fi", [bet(spot, 100, player=None), dice(*_throw_with_total(other))])
    assert by_spot(lost)[spot]["result"] == "lose"


def test_the_paytable_holds_exactly_the_seeds_table() -> None:
    table = games.paytable_of(games.load_game("sic-bo"))["fi"]
    assert {int(k): v for k, v in table["total"].items()} == {t: [o, 1] for t, o in TOTAL_ODDS.items()}
    assert table["single"] == [[1, 1], [2, 1], [12, 1]]
    assert (table["small"], table["big"], table["combo"], table["double"], table["any_triple"], table["triple"]) == (
        [1, 1], [1, 1], [6, 1], [11, 1], [30, 1], [180, 1])


def test_a_total_wins_on_a_triple_while_small_and_big_lose() -> None:
    done = by_spot(play("sic-bo", "fi", [bet("total:9", 100, player=None), bet("small", 100, player=None),
                                         dice(3, 3, 3)]))
    assert done["total:9"]["result"] == "win" and done["small"]["result"] == "lose"


@pytest.mark.parametrize("spot, why", [
    ("combo:2,2", "for 2-2 bet double:2"),
    ("combo:3,2", "ascending: combo:2,3"),
    ("combo:1,7", "a die shows 1 to 6"),
    ("combo:1", "combo:A,B"),
    ("single:0", "a die shows 1 to 6"),
    ("double:1,2", "double:N"),
    ("triple:7", "a die shows 1 to 6"),
    ("total:3", "4 to 17"),
    ("total:18", "4 to 17"),
    ("straight:17", "no 'straight:17' bet"),
    ("any_triple:3", "write this bet as any_triple"),
])
def test_every_illegal_sic_bo_bet_is_refused(spot: str, why: str) -> None:
    done = play("sic-bo", "fi", [bet(spot, 100, player=None)])
    assert len(done["rejected"]) == 1 and why in done["rejected"][0]["reason"], done["rejected"]


@pytest.mark.parametrize("event, why", [
    (dice(1, 2), "three dice; this throw has 2"),
    (dice(1, 2, 3, 4), "has 4"),
    (dice(1, 2, 7), "1 to 6, not 7"),
    ({"type": "wheel", "number": 7}, "settled by the dice"),
])
def test_a_bad_throw_is_refused(event: dict[str, Any], why: str) -> None:
    done = play("sic-bo", "fi", [bet("big", 100, player=None), event])
    assert why in reasons(done)[0] and not done["complete"]


def test_colours_are_allowed_and_the_order_of_the_dice_is_kept() -> None:
    done = play("sic-bo", "fi", [{"type": "dice", "values": [6, 1, 3], "colors": ["white", "white", "white"]}])
    assert done["outcome"] == {"dice": [6, 1, 3], "total": 10, "triple": False, "small": True, "big": False,
                               "voids": []}


def test_a_void_keeps_the_bets_until_the_next_throw() -> None:
    done = play("sic-bo", "fi", [bet("big", 100, player=None), {"type": "close_bets"},
                                 {"type": "void", "reason": "a die is not flat", "by": "dealer 7"}, dice(6, 6, 1)])
    assert by_spot(done)["big"]["net"] == 100
    assert done["outcome"]["voids"] == [{"by": "dealer 7", "reason": "a die is not flat"}]


def test_sic_bo_limits_and_chips_are_the_tables_own() -> None:
    options = {"limits": {"triple": [100, 500], "small": [100, 100_000]}, "chip_values": [100, 500]}
    done = play("sic-bo", "fi", [bet("triple:3", 600, player=None), bet("small", 100_000, player=None),
                                 bet("big", 150, player=None)], options)
    why = reasons(done)
    assert len(why) == 2 and "maximum of 500 per player and spot" in why[0] and "cannot be made" in why[1]
    games.configure("sic-bo", "fi", {"chip_values": [1_000_000]})  # no 1/6000 rule outside Sweden
