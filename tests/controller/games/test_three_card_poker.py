"""Three Card Poker (seed 002): every branch and paytable line through `tablectl settle`."""

from __future__ import annotations

import pytest

from controller.games import configure
from controller.hands.three import three_card
from controller.cards import parse_cards
from controller.games.three_card_poker import contest, main_results, pair_plus_result
from tests.controller.games.poker_scenarios import check_round, settle

G = "three-card-poker"


def test_branches():
    rounds = settle(G, "branches")["rounds"]
    check_round(rounds[0], [(1, "ante", "lose", -1000), (1, "pair_plus", "lose", -500)])
    check_round(rounds[1], [(1, "ante", "win", 1000, (1, 1)), (1, "play", "push", 0), (1, "pair_plus", "lose", -500)])
    check_round(rounds[2], [(1, "ante", "win", 1000), (1, "play", "win", 1000), (1, "pair_plus", "win", 500, (1, 1))])
    check_round(rounds[3], [(1, "ante", "lose", -1000), (1, "play", "lose", -1000),
                            (1, "ante_bonus", "win", 1000, (1, 1)), (1, "pair_plus", "win", 3000, (6, 1))])
    check_round(rounds[4], [(1, "ante", "push", 0), (1, "play", "push", 0),
                            (2, "ante", "lose", None), (2, "play", "lose", None)])
    assert rounds[1]["outcome"]["dealer"]["qualifies"] is False
    assert rounds[0]["settlements"][1]["note"] == "folded"


def test_paytable_lines():
    rounds = settle(G, "paytable")["rounds"]
    check_round(rounds[0], [(1, "ante", "win", 1000), (1, "play", "push", 0),
                            (1, "ante_bonus", "win", 3000, (3, 1)), (1, "pair_plus", "win", 20000, (40, 1))])
    check_round(rounds[1], [(1, "ante", "win", 1000), (1, "play", "win", 1000),
                            (1, "ante_bonus", "win", 2000, (2, 1)), (1, "pair_plus", "win", 15000, (30, 1))])
    check_round(rounds[2], [(1, "ante", "win", 1000), (1, "play", "win", 1000), (1, "pair_plus", "win", 1500, (3, 1))])
    check_round(rounds[3], [(1, "ante", "win", 1000), (1, "play", "win", 1000),
                            (1, "ante_bonus", "win", 1000, (1, 1)), (1, "pair_plus", "win", 3000, (6, 1))])


def test_541_ante_bonus_option():
    rounds = settle(G, "ante-bonus-5-4-1")["rounds"]
    check_round(rounds[0], [(1, "ante", "win", 1000), (1, "play", "win", 1000), (1, "ante_bonus", "win", 4000, (4, 1))])


def test_rejections_leave_the_round_unchanged():
    rounds = settle(G, "rejections")["rounds"]
    check_round(rounds[0], [(1, "ante", "win", 1000), (1, "play", "push", 0),
                            (1, "ante_bonus", "win", 3000, (3, 1)), (1, "pair_plus", "win", 20000, (40, 1))],
                rejected=(0, 1, 2, 4, 5, 10, 15, 16, 17, 19, 20))
    reasons = [r["reason"] for r in rounds[0]["rejected"]]
    assert "Pair Plus needs the ante" in reasons[0]
    assert "already dealt" in reasons[5]


@pytest.mark.parametrize("player, dealer, versus", [
    ("Qh 6d 4c", "Jh 9d 8c", "no_qualify"),
    ("Qh 6d 4c", "Qd 6s 3c", "player_higher"),
    ("Qh 6d 4c", "Qd 6s 4h", "tie"),
    ("Ac 2d 3h", "Kd Kh 2s", "player_higher"),  # A-2-3 straight beats a pair
    ("2c 2d 3h", "Ad Kd Qd", "dealer_higher"),
])
def test_contest(player, dealer, versus):
    assert contest(three_card(parse_cards(player)), three_card(parse_cards(dealer))) == versus


def test_fold_loses_pair_plus_and_ante_bonus_is_independent_of_the_dealer():
    _, config = configure(G, "fi")
    assert pair_plus_result(config, "three_of_a_kind", False) == ("lose", None)
    for versus in ("no_qualify", "player_higher", "tie", "dealer_higher"):
        assert main_results(config, "straight_flush", versus)["ante_bonus"][0] == "win"
    assert "ante_bonus" not in main_results(config, "flush", "player_higher")
