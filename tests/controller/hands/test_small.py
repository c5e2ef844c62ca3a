"""Two-card ranks, hold'em bonus classes, the Chinese poker front."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from controller.cards import JOKER, deck, parse_cards
from controller.hands.high import best_high
from controller.hands.small import chinese_front, holdem_bonus_class, pai_gow_front


def test_pai_gow_front() -> None:
    assert pai_gow_front(parse_cards("Kc Kd")).name == "Pair of kings"
    assert pai_gow_front(parse_cards("Ac Kd")).name == "Ace-king high"
    assert pai_gow_front([JOKER, parse_cards("Ad")[0]]).name == "Pair of aces"
    assert pai_gow_front([JOKER, parse_cards("Kd")[0]]).name == "Ace-king high"
    assert pai_gow_front(parse_cards("2c 2d")).value > pai_gow_front(parse_cards("Ac Kd")).value
    assert pai_gow_front(parse_cards("Ac Kd")).value == pai_gow_front(parse_cards("Ah Ks")).value


def test_front_below_back_is_one_comparison() -> None:
    back = best_high(parse_cards("Kc Kd 5h 4s 2c"))
    assert pai_gow_front(parse_cards("Ks Kh")).value < back.value
    assert pai_gow_front(parse_cards("Ac Ah")).value > back.value


@pytest.mark.parametrize("text, cls", [
    ("Ac Ad", "aces"), ("Ac Kc", "ace_king_suited"), ("Qh Ah", "ace_queen_or_jack_suited"),
    ("Ah Jh", "ace_queen_or_jack_suited"), ("Ac Kd", "ace_king_offsuit"),
    ("Kc Kd", "kings_queens_or_jacks"), ("Jc Jd", "kings_queens_or_jacks"),
    ("Ac Qd", "ace_queen_or_jack_offsuit"), ("Tc Td", "tens_or_lower"),
    ("2c 2d", "tens_or_lower"), ("Ac Td", None), ("Kc Qc", None),
])
def test_holdem_bonus_classes(text: str, cls: str | None) -> None:
    assert holdem_bonus_class(parse_cards(text)) == cls


def test_holdem_bonus_class_counts() -> None:
    counts = Counter(holdem_bonus_class(h) for h in combinations(deck(), 2))
    assert counts == {"aces": 6, "ace_king_suited": 4, "ace_queen_or_jack_suited": 8,
                      "ace_king_offsuit": 12, "kings_queens_or_jacks": 18,
                      "ace_queen_or_jack_offsuit": 24, "tens_or_lower": 54, None: 1200}


def test_chinese_front() -> None:
    assert chinese_front(parse_cards("2c 3c 4c")).name == "Four-three high"
    assert chinese_front(parse_cards("Qc Qd 4c")).name == "Pair of queens"
    assert chinese_front(parse_cards("6c 6d 6h")).name == "Three of a kind, sixes"
    counts = Counter(chinese_front(h).category for h in combinations(deck(), 3))
    assert counts == {"three_of_a_kind": 52, "pair": 3744, "high_card": 18304}
    # the front is on the five-card scale: a front pair of queens with a king
    # is below a back pair of queens with K-x-y, so the hand is not foul
    back = best_high(parse_cards("Qs Qh Kd 3s 2d"))
    assert chinese_front(parse_cards("Qc Qd Kc")).value < back.value
