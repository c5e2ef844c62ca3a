"""The value encoding and the croupier's words."""

from __future__ import annotations

import pytest

from controller.cards import JOKER, parse_cards
from controller.hands.joker import oasis_joker_high
from controller.hands.qualifiers import ace_king_or_better, category_at_least, pair_or_better
from controller.hands.values import (CATEGORIES, FULL_HOUSE, PAIR, make_value, rank_word,
                                     value_category, value_ranks)


def test_round_trip() -> None:
    value = make_value(FULL_HOUSE, (13, 5))
    assert value_category(value) == FULL_HOUSE
    assert value_ranks(value) == (13, 5)
    assert CATEGORIES[value_category(value)] == "full_house"
    assert make_value(PAIR, (2, 14, 13, 12)) < make_value(PAIR, (3, 4, 3, 2))


@pytest.mark.parametrize("rank, one, many", [
    (6, "six", "sixes"), (13, "king", "kings"), (14, "ace", "aces"), (10, "ten", "tens"),
])
def test_rank_words(rank: int, one: str, many: str) -> None:
    assert rank_word(rank) == one and rank_word(rank, True) == many


def test_qualifiers_read_joker_hands() -> None:
    five = oasis_joker_high(list(parse_cards("7c 7d 7h 7s")) + [JOKER])
    assert five.category == "five_of_a_kind"
    assert category_at_least(five, "straight_flush")
    assert pair_or_better(five, 14) and ace_king_or_better(five)
