import random

import pytest

from controller.cards import JOKER, Card, CardError, card_from_index, deck, parse_card, parse_cards, shoe, shuffled


@pytest.mark.parametrize("text, expected", [
    ("Ah", Card(14, "h")), ("ah", Card(14, "h")), ("10d", Card(10, "d")), ("Td", Card(10, "d")),
    ("ts", Card(10, "s")), ("2c", Card(2, "c")), ("K♠", Card(13, "s")), ("q♥", Card(12, "h")),
    ("J♦", Card(11, "d")), ("9♣", Card(9, "c")), ("JK", JOKER), ("jk", JOKER), (" 7h ", Card(7, "h")),
])
def test_notation_is_read(text, expected):
    assert parse_card(text) == expected


@pytest.mark.parametrize("text", ["", "A", "1h", "11d", "Ax", "Hh", "10", "AhX", "♠", "0s", None, 14, ["Ah"]])
def test_bad_notation_is_refused_with_the_text(text):
    with pytest.raises(CardError) as info:
        parse_card(text)
    assert repr(text) in str(info.value) or "card" in str(info.value)


def test_bad_card_message_quotes_the_offending_text():
    with pytest.raises(CardError, match="'1h'"):
        parse_card("1h")


def test_round_trip_and_index_for_every_card():
    cards = deck()
    assert len(set(cards)) == 52
    for i, card in enumerate(cards):
        assert card.index == i
        assert card_from_index(i) == card
        assert parse_card(str(card)) == card
    assert JOKER.index == 52 and str(JOKER) == "JK"


def test_shoes_and_jokers():
    assert len(shoe(8)) == 416
    assert sum(c.is_joker for c in shoe(2, jokers_per_deck=1)) == 2
    assert len(deck(jokers=1)) == 53
    with pytest.raises(ValueError):
        shoe(0)


def test_shuffle_is_seeded_and_keeps_the_cards():
    a = shuffled(shoe(6), random.Random(7))
    b = shuffled(shoe(6), random.Random(7))
    assert a == b and sorted(a) == sorted(shoe(6)) and a != shoe(6)


def test_parse_cards_accepts_lists_and_strings():
    assert parse_cards("Ah, 10d Ks") == parse_cards(["Ah", "Td", "Ks"])
