"""The single-hand path's keys and literals: each card carries its key, and the hot path's literals are the names."""

from __future__ import annotations

import pickle
import random

from controller.cards import JOKER, SEVEN_RANK_TERMS, Card, deck, parse_card, seven_key
from controller.hands import fast
from controller.hands.fast import high_value


def test_each_card_carries_its_term_of_the_hand_key():
    for card in deck():
        assert card.key == fast.CARD_KEY[card.suit][card.rank]
    assert JOKER.key == 0
    assert parse_card("Ah").key == Card(14, "h").key
    card = pickle.loads(pickle.dumps(Card(10, "d")))
    assert card == Card(10, "d") and card.key == Card(10, "d").key and hash(card) == hash(Card(10, "d"))
    assert card.key7 == Card(10, "d").key7 == seven_key(10, "d")


def test_each_card_carries_its_term_of_the_seven_card_key():
    for card in deck():
        assert card.key7 == seven_key(card.rank, card.suit)
        assert card.key7 & 0xFFFF == card.key & 0xFFFF  # the same suit counter as the hand key
        assert card.key7 >> 16 == SEVEN_RANK_TERMS[card.rank - 2]
    assert JOKER.key7 == 0


def test_every_seven_rank_multiset_has_its_own_place_and_the_three_table_value():
    tables = fast.filled_tables()
    sums, values = list(tables["sums7"]), list(tables["values7"])
    assert len(sums) == len(values) == 49_205 and len(set(sums)) == 49_205
    assert max(sums) == fast._SEVEN_SPAN - 1
    seven = fast._SEVEN
    assert len(seven) == fast._SEVEN_SPAN
    assert all(seven[s] == v for s, v in zip(sums, values))
    assert sum(1 for v in seven if v) == 49_205  # every other place is empty


def test_the_hot_paths_literals_are_the_modules_names():
    assert (fast._SUIT_START, fast._FLUSH_BITS) == (0x3333, 0x8888)
    assert (fast._LOW_SHIFT, fast._LOW_MASK, fast._HIGH_SHIFT) == (16, 0x1FFFF, 33)
    assert all(card.key7 >> fast._LOW_SHIFT == SEVEN_RANK_TERMS[card.rank - 2] for card in deck())


def test_every_length_gives_the_general_value():
    rng = random.Random(29)
    cards = deck()
    for n in (5, 6, 7, 7, 7, 8):
        for _ in range(3000):
            hand = rng.sample(cards, n)
            assert high_value(hand) == fast.general_value(hand), hand
    flush = [Card(r, "s") for r in (2, 5, 9, 11, 13)] + [Card(3, "h"), Card(4, "d")]
    assert high_value(flush) == fast.general_value(flush)
