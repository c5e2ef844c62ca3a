"""Low hands: ace-to-five, deuce-to-seven, eight-or-better, Omaha low."""

from __future__ import annotations

import pytest

from controller.cards import parse_cards
from controller.hands.high import HandError
from controller.hands.low import (best_ace_to_five, best_deuce_to_seven, best_omaha_low,
                                  eight_or_better)


def _order(fn, texts: list[str]) -> list[int]:  # type: ignore[no-untyped-def]
    return [fn(parse_cards(t)).value for t in texts]


def test_ace_to_five_order() -> None:
    best_first = ["Ac 2c 3c 4c 5c", "Ac 2d 3h 4s 6c", "4c 5d 6h 7s 8c", "Kc Qd Jh Ts 8c",
                  "Ac Ad 2h 3s 4c", "2c 2d 3h 3s 4c", "Kc Kd Kh Qs Qc", "Kc Kd Kh Ks Qc"]
    values = _order(best_ace_to_five, best_first)
    assert values == sorted(values, reverse=True) and len(set(values)) == len(values)


def test_deuce_to_seven_order() -> None:
    best_first = ["7c 5d 4h 3s 2c", "7c 6d 4h 3s 2c", "8c 5d 4h 3s 2c", "Ac 5d 4h 3s 2c",
                  "Ac Kd Qh Js 9c", "2c 2d 3h 4s 5c", "6c 5d 4h 3s 2c", "7c 5c 4c 3c 2c",
                  "6c 5c 4c 3c 2c"]
    values = _order(best_deuce_to_seven, best_first)
    assert values == sorted(values, reverse=True) and len(set(values)) == len(values)


@pytest.mark.parametrize("text, a5, d27", [
    ("Ac 2d 3h 4s 5c", "Five-four low", "Ace-five low"),
    ("7c 5d 4h 3s 2c", "Seven-five low", "Seven-five low"),
    ("8c 6d 4h 3s 2c Kd Kh", "Eight-six low", "Eight-six low"),
    ("Kc Kd 9h 7s 5c", "Pair of kings", "Pair of kings"),
    ("Ac Ad 9h 7s 5c", "Pair of aces", "Pair of aces"),
    ("6c 5c 4c 3c 2c", "Six-five low", "Straight flush, six high"),
])
def test_names(text: str, a5: str, d27: str) -> None:
    assert best_ace_to_five(parse_cards(text)).name == a5
    assert best_deuce_to_seven(parse_cards(text)).name == d27


def test_best_of_seven_uses_five() -> None:
    low = best_ace_to_five(parse_cards("Kc Kd 8h 7s 3c 2d Ah"))
    assert low.name == "Eight-seven low"
    assert len(low.cards) == 5
    assert low.ranks == (8, 7, 3, 2, 1)


def test_eight_or_better() -> None:
    assert eight_or_better(parse_cards("8c 7d 6h 5s 4c")) is not None
    assert eight_or_better(parse_cards("9c 7d 6h 5s 4c")) is None
    assert eight_or_better(parse_cards("8c 8d 6h 5s 4c 9c")) is None
    seven = eight_or_better(parse_cards("8c 8d 6h 5s 4c 3c Ac"))
    assert seven is not None and seven.name == "Six-five low"


def test_omaha_low() -> None:
    # board 2 3 4 K K; hole A 5 gives 5-4 low, using exactly two hole cards
    low = best_omaha_low(parse_cards("Ac 5d Kh Qs"), parse_cards("2c 3d 4h Ks Kd"))
    assert low is not None and low.name == "Five-four low"
    # only one low hole card: no low
    assert best_omaha_low(parse_cards("Ac Jd Kh Qs"), parse_cards("2c 3d 4h Ks 7d")) is None
    # a board with two low cards cannot make a low however good the hand
    assert best_omaha_low(parse_cards("Ac 2d 3h 4s"), parse_cards("5c 6d Kh Ks Qd")) is None
    assert best_omaha_low(parse_cards("Ac 2d 3h 4s"), parse_cards("5c 6d Kh Ks Qd"),
                          qualifier=None) is not None


def test_bad_input() -> None:
    with pytest.raises(HandError):
        best_ace_to_five(parse_cards("Ac 2d 3h 4s"))
    with pytest.raises(HandError, match="4 or 5 hole"):
        best_omaha_low(parse_cards("Ac 2d 3h"), parse_cards("5c 6d Kh Ks Qd"))
