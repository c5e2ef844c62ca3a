"""The single-hand path's keys and literals: each card carries its key, and the hot path's literals are the names."""

from __future__ import annotations

import pickle
import random

from controller.cards import JOKER, Card, deck, parse_card
from controller.hands import fast
from controller.hands.fast import high_value


def test_each_card_carries_its_term_of_the_hand_key():
    for card in deck():
        assert card.key == fast.CARD_KEY[card.suit][card.rank]
    assert JOKER.key == 0
    assert parse_card("Ah").key == Card(14, "h").key
    card = pickle.loads(pickle.dumps(Card(10, "d")))
    assert card == Card(10, "d") and card.key == Card(10, "d").key and hash(card) == hash(Card(10, "d"))


def test_the_hot_paths_literals_are_the_modules_names():
    assert (fast._SUIT_START, fast._FLUSH_BITS) == (0x3333, 0x8888)
    assert (fast._LOW_SHIFT, fast._LOW_MASK, fast._HIGH_SHIFT) == (16, 0x1FFFF, 33)


def test_every_length_gives_the_general_value():
    rng = random.Random(29)
    cards = deck()
    for n in (5, 6, 7, 7, 7, 8):
        for _ in range(3000):
            hand = rng.sample(cards, n)
            assert high_value(hand) == fast.general_value(hand), hand
    flush = [Card(r, "s") for r in (2, 5, 9, 11, 13)] + [Card(3, "h"), Card(4, "d")]
    assert high_value(flush) == fast.general_value(flush)
