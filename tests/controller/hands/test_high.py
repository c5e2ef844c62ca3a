"""High hands: names, categories, chosen cards, combination rules, input checks."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from controller.cards import JOKER, deck, parse_cards
from controller.hands.fast import general_value as _general_value
from controller.hands.high import (HandError, best_high, best_holdem_using_hole,
                                   best_omaha, high_value)


@pytest.mark.parametrize("text, category, name, used", [
    ("Kh Kd Ks 5c 5d 2h 3h", "full_house", "Full house, kings over fives", "Ks Kh Kd 5d 5c"),
    ("Ah Kd 9s 5c 8d 2h Th", "high_card", "Ace-king high", "Ah Kd Th 9s 8d"),
    ("Kc Kd 2s 3c 7h 9d Jd", "pair", "Pair of kings", "Kd Kc Jd 9d 7h"),
    ("Ah Kh Qh Jh Th 2h 3h", "straight_flush", "Royal flush", "Ah Kh Qh Jh Th"),
    ("5h 4h 3h 2h Ah Kh 7c", "straight_flush", "Straight flush, five high", "5h 4h 3h 2h Ah"),
    ("Ah 2d 3s 4c 5d 9h Th", "straight", "Straight, five high", "5d 4c 3s 2d Ah"),
    ("9h 9d 9s 9c 2d 2h 3h", "four_of_a_kind", "Four of a kind, nines", "9s 9h 9d 9c 3h"),
    ("Ac As Kd Kh 7c 7d 2s", "two_pair", "Two pair, aces and kings", "As Ac Kh Kd 7d"),
    ("6c 6s 6d Kh 2c", "three_of_a_kind", "Three of a kind, sixes", "6s 6d 6c Kh 2c"),
    ("2c 9c Jc 4c Qc 3d", "flush", "Flush, queen high", "Qc Jc 9c 4c 2c"),
    ("Tc Jd Qh Ks Ad 9c 8c", "straight", "Straight, ace high", "Ad Ks Qh Jd Tc"),
    ("7c 7d 7h 8c 8d 8h 2s", "full_house", "Full house, eights over sevens", "8h 8d 8c 7h 7d"),
])
def test_named_hands(text: str, category: str, name: str, used: str) -> None:
    hand = best_high(parse_cards(text))
    assert hand.category == category
    assert hand.name == name
    assert hand.cards == parse_cards(used)
    assert hand.royal == (name == "Royal flush")


def test_order_examples() -> None:
    order = ["7c 5d 4h 3s 2c", "Ac Kd Qh Js 9c", "2c 2d 3h 4s 5d", "Ac Ad Kh Qs Jc",
             "2c 2d 3h 3s 4c", "2c 2d 2h 3s 4c", "Ac 2d 3h 4s 5c", "Tc Jd Qh Ks Ad",
             "2c 3c 4c 5c 7c", "2c 2d 2h 3s 3c", "2c 2d 2h 2s 3c", "Ac 2c 3c 4c 5c",
             "Tc Jc Qc Kc Ac"]
    values = [best_high(parse_cards(t)).value for t in order]
    assert values == sorted(values) and len(set(values)) == len(values)


def test_suits_never_break_ties() -> None:
    a = best_high(parse_cards("Ac Kd Qh Js 9c"))
    b = best_high(parse_cards("As Kh Qd Jc 9s"))
    assert a.value == b.value and a.name == b.name


@pytest.mark.parametrize("n", [5, 6, 7, 8, 9])
def test_fast_path_matches_general_path(n: int) -> None:
    rng = random.Random(n)
    cards = deck()
    for _ in range(3000):
        hand = rng.sample(cards, n)
        assert high_value(hand) == _general_value(hand)


def test_best_high_equals_best_of_all_fives() -> None:
    rng = random.Random(7)
    for _ in range(300):
        hand = rng.sample(deck(), 8)
        best = max(high_value(five) for five in combinations(hand, 5))
        result = best_high(hand)
        assert result.value == best
        assert high_value(result.cards) == best
        assert set(result.cards) <= set(hand)


@pytest.mark.parametrize("cards, message", [
    ("Ah Kh Qh Jh", "at least 5"),
    ("Ah Kh Qh Jh Ah", "twice"),
])
def test_bad_input(cards: str, message: str) -> None:
    with pytest.raises(HandError, match=message):
        best_high(parse_cards(cards))


def test_joker_rejected_here() -> None:
    with pytest.raises(HandError, match="joker"):
        best_high(list(parse_cards("Ah Kh Qh Jh")) + [JOKER])


def test_holdem_using_hole() -> None:
    board = parse_cards("Ah Kh Qh Jh Th")
    hole = parse_cards("2c 3d")
    assert best_high(hole + board).name == "Royal flush"
    used = best_holdem_using_hole(hole, board, at_least=1)
    assert used.name == "Ace-king high"
    assert sum(1 for c in used.cards if c in hole) >= 1
    assert best_holdem_using_hole(hole, board, at_least=0).name == "Royal flush"
    pair = best_holdem_using_hole(parse_cards("Kc 2d"), parse_cards("Ks 9d 7c 5h 3s"))
    assert pair.name == "Pair of kings"


def test_omaha_exactly_two_and_three() -> None:
    # four hearts in hand and one on board: no flush in Omaha
    hand = best_omaha(parse_cards("Ah Kh Qh Jh"), parse_cards("2h 7c 8d 9s Tc"))
    assert hand.category == "straight"  # Q J + 8 9 T
    assert hand.name == "Straight, queen high"
    # board quads do not play for four: exactly three board cards
    quads = best_omaha(parse_cards("2c 3d 4h 8s"), parse_cards("9c 9d 9h 9s Kd"))
    assert quads.category == "three_of_a_kind"
    five = best_omaha(parse_cards("Ac Ad 2h 3s 4s"), parse_cards("Ah Kc Kd 7s 6s"))
    assert five.name == "Full house, aces over kings"


def test_omaha_rejects_wrong_counts() -> None:
    with pytest.raises(HandError, match="4 or 5 hole"):
        best_omaha(parse_cards("Ac Ad 2h"), parse_cards("Ah Kc Kd 7s 6s"))


@pytest.mark.parametrize("first", ["Ah Kh Qh Jh 9h", "Ah Kd Qh Jh 9h", "Ah Kd Qh Jh 9h 2c",
                                   "Ah Kd Qh Jh 9h 2c 3c", "Ah Kh Qh Jh 9h 2h 3c"])
def test_tables_fill_on_any_first_call(first: str) -> None:
    """Whatever kind of hand comes first fills the tables and gets the right value."""
    import subprocess
    import sys
    code = ("from controller.cards import parse_cards as p\n"
            "from controller.hands.fast import high_value, general_value\n"
            f"h = p({first!r}); v = high_value(h); assert v == general_value(h), v\n"
            "h = p('2c 2d 5h 7s 9c Jd Kh'); assert high_value(h) == general_value(h)\n")
    subprocess.run([sys.executable, "-c", code], check=True)
