"""Blackjack totals: hard and soft, the ace that stays one (SE rule 15), Black Jack."""

from __future__ import annotations

import pytest

from controller.cards import parse_card, parse_cards
from controller.hands.blackjack import (
    best_total, card_value, describe_total, hand_total, is_blackjack, values_total,
)

def test_totals_hard_soft_and_the_locked_ace():
    assert hand_total([parse_card("Ah"), parse_card("6d")]) == (17, True)
    assert hand_total([parse_card("Ah"), parse_card("6d")], locked_aces=1) == (7, False)
    assert values_total([1, 1, 9]) == (21, True)
    assert values_total([1, 10, 10]) == (21, False)
    assert best_total(12, 1) == (12, False)
    assert card_value(parse_card("Qs")) == 10 and card_value(parse_card("As")) == 1
    assert is_blackjack([parse_card("As"), parse_card("Kd")])
    assert not is_blackjack([parse_card("As"), parse_card("Kd")], from_split=True)
    assert not is_blackjack([parse_card("As"), parse_card("5d"), parse_card("5c")])


@pytest.mark.parametrize("cards, total, soft", [
    ("Ah Ad", 12, True), ("Ah Ad 9c", 21, True), ("Ah Ad 9c Kd", 21, False), ("5h 6d Ac", 12, False),
    ("As 5d", 16, True), ("Ks Qd", 20, False), ("Ks Qd 5c", 25, False), ("2c 3d 4h 5s Ah", 15, False),
])
def test_totals_table(cards, total, soft):
    assert hand_total(parse_cards(cards)) == (total, soft)


def test_words_and_the_joker():
    assert describe_total(17, True) == "soft 17" and describe_total(23, False) == "bust (23)"
    with pytest.raises(ValueError):
        card_value(parse_card("JK"))
