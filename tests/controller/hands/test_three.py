"""Three-card ranks: all 22,100 hands, the order, names."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from controller.cards import deck, parse_cards
from controller.hands.three import three_card, three_value
from controller.hands.high import HandError


def test_all_22100_counts() -> None:
    names = ("high_card", "pair", "flush", "straight", "three_of_a_kind", "straight_flush")
    counts = Counter(names[three_value(h) >> 12] for h in combinations(deck(), 3))
    assert sum(counts.values()) == 22_100
    assert counts == {"straight_flush": 48, "three_of_a_kind": 52, "straight": 720,
                      "flush": 1096, "pair": 3744, "high_card": 16440}


def test_order_and_ties() -> None:
    order = ["2c 3d 5h", "Ac Kd Jh", "2c 2d 3h", "Ac Ad Kh", "2c 3c 5c", "Ac Kc Jc",
             "Ac 2d 3h", "2c 3d 4h", "Ac Kd Qh", "2c 2d 2h", "Ac Ad Ah", "Ac 2c 3c",
             "Qc Kc Ac"]
    values = [three_card(parse_cards(t)).value for t in order]
    assert values == sorted(values) and len(set(values)) == len(values)
    assert three_card(parse_cards("Ac Kd Qh")).value == three_card(parse_cards("As Kc Qd")).value


@pytest.mark.parametrize("text, name, cards", [
    ("Qh 9c 4d", "Queen-nine high", "Qh 9c 4d"),
    ("5c Kd 5s", "Pair of fives", "5s 5c Kd"),
    ("2h Ah 3h", "Straight flush, three high", "3h 2h Ah"),
    ("Kc Ac Qc", "Straight flush, ace high", "Ac Kc Qc"),
    ("7d 7c 7s", "Three of a kind, sevens", "7s 7d 7c"),
    ("Jd 4d 8d", "Flush, jack-eight high", "Jd 8d 4d"),
])
def test_names(text: str, name: str, cards: str) -> None:
    hand = three_card(parse_cards(text))
    assert hand.name == name
    assert hand.cards == parse_cards(cards)


def test_bad_input() -> None:
    with pytest.raises(HandError, match="needs 3 cards"):
        three_card(parse_cards("Ac Kd"))
    with pytest.raises(HandError, match="twice"):
        three_card(parse_cards("Ac Kd Ac"))
