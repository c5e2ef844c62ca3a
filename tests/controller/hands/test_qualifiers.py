"""Casino qualifiers."""

from __future__ import annotations

import pytest

from controller.cards import parse_cards
from controller.hands.high import best_high
from controller.hands.qualifiers import (ace_king_or_better, category_at_least, pair_or_better,
                                         queen_high_or_better)
from controller.hands.three import three_card


@pytest.mark.parametrize("text, expected", [
    ("Ac Kd 9h 5s 2c", True), ("Ac Qd Jh 9s 8c", False), ("Kc Qd Jh 9s 7c", False),
    ("2c 2d 5h 7s 9c", True), ("Ac Kc 9c 5c 2c", True),
])
def test_ace_king_or_better(text: str, expected: bool) -> None:
    assert ace_king_or_better(best_high(parse_cards(text))) is expected


@pytest.mark.parametrize("text, expected", [
    ("Qc 3d 2h", True), ("Jc Td 8h", False), ("2c 2d 3h", True), ("Jc 9c 2c", True),
])
def test_queen_high_or_better(text: str, expected: bool) -> None:
    assert queen_high_or_better(three_card(parse_cards(text))) is expected


@pytest.mark.parametrize("text, rank, expected", [
    ("8c 8d 2h 3s 5c", 8, True), ("7c 7d 2h 3s 5c", 8, False), ("Tc Td 2h 3s 5c", 10, True),
    ("9c 9d Ah Ks Qc", 10, False), ("Qc Qd 2h 3s 5c", 13, False), ("Kc Kd 2h 3s 5c", 13, True),
    ("2c 2d 3h 3s 5c", 13, True), ("Ac Kd Qh Js 9c", 8, False),
])
def test_pair_or_better_five(text: str, rank: int, expected: bool) -> None:
    assert pair_or_better(best_high(parse_cards(text)), rank) is expected


def test_pair_or_better_three() -> None:
    assert pair_or_better(three_card(parse_cards("9c 9d 2h")), 8)
    assert not pair_or_better(three_card(parse_cards("7c 7d Ah")), 8)
    assert pair_or_better(three_card(parse_cards("2c 3c 5c")), 14)


def test_category_at_least() -> None:
    straight = best_high(parse_cards("4c 5d 6h 7s 8c"))
    assert category_at_least(straight, "straight")
    assert category_at_least(straight, "pair")
    assert not category_at_least(straight, "flush")
    three_flush = three_card(parse_cards("2c 7c 9c"))
    assert not category_at_least(three_flush, "straight")  # three-card scale
    with pytest.raises(ValueError, match="no category"):
        category_at_least(straight, "royal")
