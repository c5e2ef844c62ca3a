"""Sökö (Canadian stud): five-card hands with two extra four-card classes.

Seed 004 (peer poker, hand ranks): "Straight of four (only in Sökö): four cards
of consecutive value; the highest four-straight wins; equal ones are decided by
the fifth card" and "Flush of four (only in Sökö): four cards of one suit; the
flush with the highest card wins; equal ones are decided by the fifth card".
RULES-NOTES fixes the order: one pair < four-card straight < four-card flush <
two pair.

Readings (the seed is terse):
- A four-straight may be A-2-3-4 (lowest, ace low) up to J-Q-K-A (highest).
- Four-flushes compare their four cards from the highest down, then the fifth
  card ("the highest card wins" read as high-card order inside the four).
- A hand that holds both classes (or a pair and a four-class) counts as the
  best of them; a five-card straight or flush is the ordinary class above.

``value = category << 20 | ranks`` on the ``SOKO_CATEGORIES`` scale.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Sequence

from controller.cards import Card
from controller.hands.high import (PAIR, check_cards, describe_high, high_value,
                                   make_value, rank_word, value_category, value_ranks)

SOKO_CATEGORIES: tuple[str, ...] = (
    "high_card", "pair", "four_straight", "four_flush", "two_pair", "three_of_a_kind",
    "straight", "flush", "full_house", "four_of_a_kind", "straight_flush",
)
FOUR_STRAIGHT, FOUR_FLUSH = 2, 3


@dataclass(frozen=True, slots=True)
class SokoHand:
    """A ranked Sökö hand: compare ``value`` (higher wins, equal ties)."""

    category: str
    value: int
    cards: tuple[Card, ...]
    name: str

    def __lt__(self, other: "SokoHand") -> bool:
        return self.value < other.value


def _four_straight(five: Sequence[Card]) -> int:
    """Value of the best four-straight in five cards, or 0."""
    ranks = {c.rank for c in five}
    best = 0
    for top in range(14, 3, -1):
        need = [14 if r == 1 else r for r in range(top - 3, top + 1)]
        if all(r in ranks for r in need):
            rest = sorted((c.rank for c in five), reverse=True)
            for r in need:
                rest.remove(r)
            best = make_value(FOUR_STRAIGHT, (top, rest[0]))
            break
    return best


def _four_flush(five: Sequence[Card]) -> int:
    """Value of the four-flush in five cards, or 0."""
    for suit in "cdhs":
        same = sorted((c.rank for c in five if c.suit == suit), reverse=True)
        if len(same) == 4:
            fifth = next(c.rank for c in five if c.suit != suit)
            return make_value(FOUR_FLUSH, same + [fifth])
    return 0


def soko_value(five: Sequence[Card]) -> int:
    """The Sökö value of exactly five cards (no checks)."""
    high = high_value(five)
    cat = value_category(high)
    if cat > PAIR:
        return make_value(cat + 2, value_ranks(high))
    four = max(_four_straight(five), _four_flush(five))
    if four:
        return four
    return high


def describe_soko(value: int) -> str:
    """The croupier's words: "Four-card flush, king high", "Four-card straight, jack high"."""
    cat = value_category(value)
    ranks = value_ranks(value)
    if cat == FOUR_FLUSH:
        return f"Four-card flush, {rank_word(ranks[0])} high"
    if cat == FOUR_STRAIGHT:
        return f"Four-card straight, {rank_word(ranks[0])} high"
    if cat > FOUR_FLUSH:
        return describe_high(make_value(cat - 2, ranks))
    return describe_high(value)


def best_soko(cards: Sequence[Card]) -> SokoHand:
    """The best Sökö hand of five (or, for a stud deal, more) distinct cards."""
    cards = tuple(cards)
    check_cards(cards, 5)
    value, five = max(((soko_value(f), f) for f in combinations(cards, 5)), key=lambda x: x[0])
    ordered = tuple(sorted(five, key=lambda c: (c.rank, c.suit), reverse=True))
    return SokoHand(SOKO_CATEGORIES[value_category(value)], value, ordered, describe_soko(value))

