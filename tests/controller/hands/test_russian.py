"""Russian Poker two combinations (seed 002): the seed's examples are the tests."""

from __future__ import annotations

import pytest

from controller.cards import parse_cards
from controller.hands.high import HandError
from controller.hands.russian import russian_combinations


@pytest.mark.parametrize("text, combination", [
    ("Ac Ad Kh 8s 9c", "ace_king+pair"),
    ("4c 4d Kh Ks Ac", "ace_king+two_pair"),
    ("3c 3d 3h Ac Kd", "ace_king+three_of_a_kind"),
    ("4c 4d 8h 8s Qc Qd", "two_pair+two_pair"),
    ("4c 4d 8h 8s Qc Qd", "three_pairs"),
    ("2c 3d 4h 5s 6c 6d", "straight+straight"),
    ("9c 9d 9h 9s Jc Jd", "full_house+four_of_a_kind"),
    ("5h 6h 7h 8h 9h 9s", "straight+straight_flush"),
])
def test_seed_examples(text: str, combination: str) -> None:
    assert combination in russian_combinations(parse_cards(text))


@pytest.mark.parametrize("text, combination", [
    ("Ac Kc Qc Jc Tc", "ace_king+royal_flush"),   # AK lies inside the royal
    ("Ac Kd Qh Js Tc", "ace_king+straight"),
    ("3c 3d 3h Ac 7d", "ace_king+three_of_a_kind"),  # no king
    ("2c 3d 4h 5s 6c", "straight+straight"),        # one straight only
    ("Ac Kc 9c 5c 2c", "ace_king+flush"),           # five cards: AK inside the flush
    ("4c 4d 8h 8s Qc 2d", "three_pairs"),
])
def test_not_two_combinations(text: str, combination: str) -> None:
    assert combination not in russian_combinations(parse_cards(text))


def test_six_card_combinations() -> None:
    found = russian_combinations(parse_cards("Ac Kc Qc Jc Tc Ts"))
    assert "straight+royal_flush" in found
    assert "ace_king+flush" in russian_combinations(parse_cards("Ac 9c 7c 5c 2c Kd"))
    assert "pair+flush" in russian_combinations(parse_cards("Ac 9c 7c 5c 2c 2d"))
    assert "flush+flush" in russian_combinations(parse_cards("Ac 9c 7c 5c 2c 3c"))


def test_hand_size() -> None:
    with pytest.raises(HandError, match="5 to 6"):
        russian_combinations(parse_cards("Ac Kc Qc Jc"))
