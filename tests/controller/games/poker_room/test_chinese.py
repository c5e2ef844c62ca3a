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


def test_open_face_deals_five_then_one_a_round_and_waits_for_every_card_to_be_placed():
    from controller import games
    from controller.events import Action, Bet, CardOut, CloseBets
    from controller.games.contract import Accepted, Rejected

    spec, config = games.configure("open-face-chinese", "points")
    r = spec.new_round(config, ())
    for event in (Bet(1, "points"), Bet(2, "points"), CloseBets(), *(CardOut(c) for c in cards("2c 3c 4c 5c 6c 7c"))):
        assert isinstance(r.apply(event), Accepted), event
    assert r.next_dealee() == 1  # the first five go one at a time: box 1's fourth card
    assert isinstance(r.apply(Action(1, "back", cards=tuple(cards("2c")))), Rejected)  # not before all five are out
    for card in cards("8c 9c Tc Jc"):
        assert isinstance(r.apply(CardOut(card)), Accepted)
    assert r.next_dealee() is None and r.to_place() == [1, 2]
    assert isinstance(r.apply(Action(1, "front", cards=tuple(cards("2c 4c 6c 8c")))), Rejected)  # three in front
    assert isinstance(r.apply(Action(1, "front", cards=tuple(cards("2c 4c 6c")))), Accepted)
    assert isinstance(r.apply(Action(1, "back", cards=tuple(cards("8c Tc")))), Accepted)
    assert r.to_place() == [2] and r.next_dealee() is None
    assert isinstance(r.apply(Action(2, "middle", cards=tuple(cards("3c 5c 7c 9c Jc")))), Accepted)
    assert r.next_dealee() == 1 and isinstance(r.apply(CardOut(parse_card("Ah"))), Accepted)
    assert r.next_dealee() == 2
