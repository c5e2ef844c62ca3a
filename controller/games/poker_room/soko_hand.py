"""Sökö's ranking as a PokerKit hand type, so PokerKit's showdown and pots can play Sökö (seed 004).

The ranking itself is ``controller.hands.soko`` (one pair < four-card straight
< four-card flush < two pair); this class only hands PokerKit its values. A
Sökö hand is the five cards a player holds at the end (five-card stud).
"""

from __future__ import annotations

from typing import Any, ClassVar

from pokerkit import Card as PkCard
from pokerkit.hands import Hand
from pokerkit.lookups import Entry, Label

from controller.cards import parse_card
from controller.hands.high import value_category
from controller.hands.soko import SOKO_CATEGORIES, best_soko, describe_soko

_LABELS = {  # PokerKit's label nearest each Sökö class (PokerKit shows it; the controller names Sökö's own)
    "high_card": Label.HIGH_CARD, "pair": Label.ONE_PAIR, "four_straight": Label.ONE_PAIR,
    "four_flush": Label.ONE_PAIR, "two_pair": Label.TWO_PAIR, "three_of_a_kind": Label.THREE_OF_A_KIND,
    "straight": Label.STRAIGHT, "flush": Label.FLUSH, "full_house": Label.FULL_HOUSE,
    "four_of_a_kind": Label.FOUR_OF_A_KIND, "straight_flush": Label.STRAIGHT_FLUSH,
}


class SokoPokerHand(Hand):
    """A Sökö hand of five cards; higher ``entry.index`` wins, equal ones split."""

    low = False
    card_count = 5
    lookup: ClassVar[Any] = None

    def __init__(self, cards: Any) -> None:
        pk = tuple(PkCard.clean(cards))
        if len(pk) != 5:
            raise ValueError(f"a Sökö hand is five cards, not {len(pk)}")
        hand = best_soko([parse_card(repr(c)) for c in pk])
        self._Hand__cards = pk  # what PokerKit's Hand.cards returns
        self.value = hand.value
        self._entry = Entry(hand.value, _LABELS[SOKO_CATEGORIES[value_category(hand.value)]])

    @property
    def entry(self) -> Entry:
        return self._entry

    @property
    def name(self) -> str:
        return describe_soko(self.value)

    @classmethod
    def from_game(cls, hole_cards: Any, board_cards: Any = ()) -> "SokoPokerHand":
        return cls(tuple(PkCard.clean(hole_cards)) + tuple(PkCard.clean(board_cards)))
