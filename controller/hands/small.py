"""Small hands: two-card ranks and the three-card front of Chinese poker.

- ``pai_gow_front``: the two-card front hand of Pai Gow Poker (seed 002): a
  pair beats no pair, then the higher card, then the second; no straights or
  flushes in two cards; the joker counts as an ace there.
- ``holdem_bonus_class``: Texas Hold'em Bonus "Bonus I/II" (seed 002): the
  class of the player's own two cards, which the paytable prices.
- ``chinese_front``: the three-card front of Chinese poker (seed 004): three of
  a kind, pair, high card only; straights and flushes do not count.

Front values sit on the five-card high scale (missing cards count as nothing),
so a game can check "the front may not beat the back" with one comparison.
"""

from __future__ import annotations

from collections import Counter
from typing import Sequence

from controller.cards import Card
from controller.hands.high import (CATEGORIES, HIGH_CARD, PAIR, TRIPS, HandError, HighHand,
                                   check_cards, describe_high, make_value)

HOLDEM_BONUS_CLASSES: tuple[str, ...] = (
    "aces", "ace_king_suited", "ace_queen_or_jack_suited", "ace_king_offsuit",
    "kings_queens_or_jacks", "ace_queen_or_jack_offsuit", "tens_or_lower",
)
"""Texas Hold'em Bonus I/II classes, best first (seed 002)."""


def _ordered(cards: Sequence[Card], ranks: Sequence[int]) -> tuple[Card, ...]:
    counts = Counter(ranks)
    pairs = sorted(zip(cards, ranks), key=lambda cr: (counts[cr[1]], cr[1], cr[0].suit),
                   reverse=True)
    return tuple(c for c, _ in pairs)


def _named(cards: tuple[Card, ...], ranks: Sequence[int]) -> HighHand:
    counts = Counter(ranks)
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    top = counts[order[0]]
    cat = TRIPS if top == 3 else PAIR if top == 2 else HIGH_CARD
    value = make_value(cat, order)
    return HighHand(CATEGORIES[cat], False, value, _ordered(cards, ranks), describe_high(value))


def pai_gow_front(cards: Sequence[Card]) -> HighHand:
    """The Pai Gow two-card front hand (the joker is an ace)."""
    cards = tuple(cards)
    check_cards(cards, 2, 2, jokers=True)
    if all(c.is_joker for c in cards):
        raise HandError("a hand can hold only one joker")
    ranks = [14 if c.is_joker else c.rank for c in cards]
    return _named(cards, ranks)


def chinese_front(cards: Sequence[Card]) -> HighHand:
    """The Chinese poker front: three cards, trips > pair > high card."""
    cards = tuple(cards)
    check_cards(cards, 3, 3)
    return _named(cards, [c.rank for c in cards])


def holdem_bonus_class(hole: Sequence[Card]) -> str | None:
    """The Bonus I/II class of two hole cards, or None when the bonus loses."""
    hole = tuple(hole)
    check_cards(hole, 2, 2)
    a, b = sorted(hole, key=lambda c: c.rank, reverse=True)
    suited = a.suit == b.suit
    if a.rank == b.rank:
        if a.rank == 14:
            return "aces"
        return "kings_queens_or_jacks" if a.rank >= 11 else "tens_or_lower"
    if a.rank == 14 and b.rank == 13:
        return "ace_king_suited" if suited else "ace_king_offsuit"
    if a.rank == 14 and b.rank in (12, 11):
        return "ace_queen_or_jack_suited" if suited else "ace_queen_or_jack_offsuit"
    return None

