"""Chinese Poker's rows, fouls and points (seed 004)."""

from __future__ import annotations

import pytest

from controller.cards import parse_card
from controller.games.poker_room.chinese import fouled, front_value, points_between, row_values
from controller.hands.fast import high_value


def cards(text):
    return [parse_card(c) for c in text.split()]


def test_the_front_counts_no_straight_or_flush_and_compares_on_the_five_card_scale():
    assert front_value(cards("2h 3h 4h")) < front_value(cards("2c 2d 5s"))  # a three-card straight flush is high cards
    assert front_value(cards("Kc Kd As")) < high_value(cards("Kh Ks Ac Qd Jd"))  # same pair and kicker: more kickers
    assert front_value(cards("Qc Qd Qs")) > high_value(cards("Ah Ad Kc Kd 2s"))  # trips beat two pair


@pytest.mark.parametrize("front, middle, back, foul", [
    ("Ah Qd 2c", "Ks Kh Kd 3c 4c", "5s 6s 7s 8s 9s", False),
    ("Qc Jd 9h", "Tc Td 7h 6h 2h", "Ac Kc Qh Jh 3h", True),  # the middle above the back
    ("Ac Ad 2c", "Kc Kd 3s 4s 5h", "9h 9d 9s 2d 3d", True),  # the front above the middle
])
def test_fouls(front, middle, back, foul):
    assert fouled(row_values(cards(front), cards(middle), cards(back))) is foul


@pytest.mark.parametrize("a, b, scoring, points", [
    ((3, 3, 3), (1, 1, 1), "1-3", 3),
    ((3, 3, 1), (1, 1, 3), "1-3", 1),
    ((3, 1, 1), (1, 3, 3), "1-3", -1),
    ((3, 2, 1), (1, 2, 3), "1-3", 0),   # one row each and a tie: nothing
    ((3, 2, 2), (1, 2, 2), "1-3", 0),   # one row and two ties: not two of three
    ((3, 3, 3), None, "1-3", 3),        # a foul loses every row
    (None, None, "1-3", 0),
    ((3, 3, 3), (1, 1, 1), "1-6", 6),
    ((3, 3, 1), (1, 1, 3), "1-6", 1),
    (None, (1, 1, 1), "1-6", -6),
])
def test_points_between_two_players(a, b, scoring, points):
    assert points_between(a, b, scoring) == points
    assert points_between(b, a, scoring) == -points
