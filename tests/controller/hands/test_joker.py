"""Joker decks: Pai Gow (straight/flush/straight flush, else an ace) and the Oasis wild joker."""

from __future__ import annotations

import pytest

from controller.cards import JOKER, parse_card, parse_cards
from controller.hands.high import HandError, best_high
from controller.hands.joker import oasis_joker_high, pai_gow_high


def _j(text: str) -> list:  # type: ignore[type-arg]
    return list(parse_cards(text)) + [JOKER]


@pytest.mark.parametrize("text, name, joker_as", [
    ("Ac Ad Ah As", "Five of a kind, aces", None),
    ("Kh Qh 9h 5h", "Flush, ace high", "Ah"),
    ("Ah Qh 9h 5h", "Flush, ace high", "Kh"),
    ("Th Jh Qh Kh", "Royal flush", "Ah"),
    ("9c Tc Jd Qh", "Straight, king high", "Kc"),
    ("Kc Kd 7h 2s", "Pair of kings", "Ac"),       # not three kings: only an ace otherwise
    ("Kc Kd Kh 2s", "Three of a kind, kings", "Ac"),
    ("Ac Ad 7h 2s", "Three of a kind, aces", "Ah"),
    ("Kc Kd 7h 7s", "Two pair, kings and sevens", "Ac"),
])
def test_pai_gow_joker(text: str, name: str, joker_as: str | None) -> None:
    hand = pai_gow_high(_j(text))
    assert hand.name == name
    assert hand.joker_as == (parse_card(joker_as) if joker_as else None)
    assert JOKER in hand.cards


def test_pai_gow_wheel_is_second_best_straight() -> None:
    broadway = pai_gow_high(parse_cards("Ac Kd Qh Js Tc")).value
    wheel = pai_gow_high(parse_cards("Ac 2d 3h 4s 5c")).value
    king = pai_gow_high(parse_cards("Kd Qh Js Tc 9c")).value
    assert broadway > wheel > king
    sf_royal = pai_gow_high(parse_cards("Ac Kc Qc Jc Tc")).value
    sf_wheel = pai_gow_high(parse_cards("Ac 2c 3c 4c 5c")).value
    sf_king = pai_gow_high(parse_cards("Kc Qc Jc Tc 9c")).value
    assert sf_royal > sf_wheel > sf_king
    assert pai_gow_high(_j("Ac Ad Ah As")).value > sf_royal
    # with the joker, 2-3-4-5 prefers the wheel (second-best) to a six-high straight
    assert pai_gow_high(_j("2c 3d 4h 5s")).name == "Straight, five high"


def test_pai_gow_seven_cards() -> None:
    hand = pai_gow_high(_j("2c 3d 4h 5s Kc Kd"))
    assert hand.category == "straight"
    assert len(hand.cards) == 5


@pytest.mark.parametrize("text, name, category", [
    ("7c 7d 7h 7s", "Five of a kind, sevens", "five_of_a_kind"),
    ("Kc Kd 7h 2s", "Three of a kind, kings", "three_of_a_kind"),
    ("Th Jh Qh Kh", "Royal flush", "straight_flush"),
    ("2c 3d 4h 5s", "Straight, six high", "straight"),
    ("Ac Kd 9h 5s", "Pair of aces", "pair"),
])
def test_oasis_wild_joker(text: str, name: str, category: str) -> None:
    hand = oasis_joker_high(_j(text))
    assert hand.name == name and hand.category == category


def test_oasis_five_of_a_kind_beats_royal() -> None:
    assert oasis_joker_high(_j("2c 2d 2h 2s")).value > oasis_joker_high(_j("Th Jh Qh Kh")).value


def test_natural_hands_unchanged() -> None:
    cards = parse_cards("Ac Kd 9h 5s 2c")
    assert oasis_joker_high(cards).value == best_high(cards).value
    assert oasis_joker_high(cards).joker_as is None


def test_two_jokers_rejected() -> None:
    with pytest.raises(HandError, match="one joker"):
        pai_gow_high(_j("Ac Kd 9h") + [JOKER])
    with pytest.raises(HandError, match="no joker"):
        best_high(_j("Ac Kd 9h 5s"))
