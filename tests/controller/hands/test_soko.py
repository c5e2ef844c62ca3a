"""Sökö (seed 004): pair < four-straight < four-flush < two pair, with the seed's tie-breaks."""

from __future__ import annotations

import pytest

from controller.cards import parse_cards
from controller.hands.soko import best_soko


def _v(text: str) -> int:
    return best_soko(parse_cards(text)).value


def test_class_order() -> None:
    best_last = ["Ac Qd 9h 7s 5c", "Ac Ad 9h 7s 5c", "Ac 2d 3h 4s 9c", "9c Td Jh Qs 2c",
                 "2c 5c 7c 9c Kd", "Kc Qc Jc 9c 2d", "2c 2d 3h 3s 5c", "2c 2d 2h 4s 5c",
                 "2c 3d 4h 5s 6c", "2c 3c 4c 5c 7c"]
    values = [_v(t) for t in best_last]
    assert values == sorted(values) and len(set(values)) == len(values)


def test_tie_breaks() -> None:
    # highest four-straight wins, then the fifth card
    assert _v("9c Td Jh Qs 2c") > _v("8c 9d Th Js Ac")
    assert _v("9c Td Jh Qs 5c") > _v("9d Th Js Qc 4d")
    assert _v("9c Td Jh Qs 5c") == _v("9d Th Js Qc 5d")
    # four-flush: the highest card, then the next ones, then the fifth card
    assert _v("Ac 2c 3c 4c 5d") > _v("Kh Qh Jh 9h 8d")
    assert _v("Kh Qh Jh 9h 8d") > _v("Kh Qh Jh 8h Ad")
    assert _v("Kh Qh Jh 9h 8d") > _v("Kc Qc Jc 9c 7d")
    # ace-low four-straight is the lowest, J-Q-K-A the highest
    assert _v("Ac 2d 3h 4s 9c") < _v("2c 3d 4h 5s 9c") < _v("Jc Qd Kh As 2c")
    # a pair with a four-flush plays as the four-flush
    assert best_soko(parse_cards("5h 5s 8h 9h Kh")).category == "four_flush"


@pytest.mark.parametrize("text, name", [
    ("5h 5s 8h 9h Kh", "Four-card flush, king high"),
    ("Jc Qd Kh As 2c", "Four-card straight, ace high"),
    ("2c 2d 3h 3s 9c", "Two pair, threes and twos"),
    ("Ac Qd 9h 7s 5c", "Ace-queen high"),
])
def test_names(text: str, name: str) -> None:
    assert best_soko(parse_cards(text)).name == name
