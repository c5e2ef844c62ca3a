"""Three-card poker ranks (Three Card Poker, Fast Poker; seed 002, seed 000).

Order, lowest first: high card, pair, flush, straight, three of a kind,
straight flush (RULES-NOTES "Poker against the house").  A-2-3 is the lowest
straight and A-K-Q the highest; suits never break ties.

``value = category << 12 | r1 << 8 | r2 << 4 | r3`` with the category index of
``THREE_CATEGORIES`` and the tie-break ranks most significant first (the pair
before its kicker, the top card of a straight: 3 for A-2-3).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from controller.cards import Card
from controller.hands.high import check_cards, rank_word

THREE_CATEGORIES: tuple[str, ...] = (
    "high_card", "pair", "flush", "straight", "three_of_a_kind", "straight_flush",
)
T_HIGH, T_PAIR, T_FLUSH, T_STRAIGHT, T_TRIPS, T_STRAIGHT_FLUSH = range(6)


@dataclass(frozen=True, slots=True)
class ThreeHand:
    """A ranked three-card hand: compare ``value`` (higher wins, equal ties)."""

    category: str
    value: int
    name: str
    cards: tuple[Card, ...]

    @property
    def ranks(self) -> tuple[int, ...]:
        """The tie-break ranks, most significant first."""
        v = self.value
        return tuple(r for r in ((v >> 8) & 15, (v >> 4) & 15, v & 15) if r)

    def __lt__(self, other: "ThreeHand") -> bool:
        return self.value < other.value


def three_value(cards: Sequence[Card]) -> int:
    """The value of exactly three cards (no checks; see ``three_card``)."""
    a, b, c = sorted((cards[0].rank, cards[1].rank, cards[2].rank), reverse=True)
    flush = cards[0].suit == cards[1].suit == cards[2].suit
    if a == b == c:
        return T_TRIPS << 12 | a << 8 | a << 4 | a
    if a == b:
        return T_PAIR << 12 | a << 8 | a << 4 | c
    if b == c:
        return T_PAIR << 12 | b << 8 | b << 4 | a
    top = 0
    if a - c == 2 and a - b == 1:
        top = a
    elif (a, b, c) == (14, 3, 2):
        top = 3
    if top:
        cat = T_STRAIGHT_FLUSH if flush else T_STRAIGHT
        return cat << 12 | top << 8
    return (T_FLUSH if flush else T_HIGH) << 12 | a << 8 | b << 4 | c


def describe_three(value: int) -> str:
    """The croupier's words for a three-card value."""
    cat = value >> 12
    r1, r2 = (value >> 8) & 15, (value >> 4) & 15
    if cat == T_STRAIGHT_FLUSH:
        return f"Straight flush, {rank_word(r1)} high"
    if cat == T_TRIPS:
        return f"Three of a kind, {rank_word(r1, True)}"
    if cat == T_STRAIGHT:
        return f"Straight, {rank_word(r1)} high"
    if cat == T_FLUSH:
        return f"Flush, {rank_word(r1)}-{rank_word(r2)} high"
    if cat == T_PAIR:
        return f"Pair of {rank_word(r1, True)}"
    return f"{rank_word(r1).capitalize()}-{rank_word(r2)} high"


def _order(cards: Sequence[Card], value: int) -> tuple[Card, ...]:
    """The cards best first: pair before kicker; A-2-3 with the ace last."""
    cat = value >> 12
    if cat in (T_STRAIGHT, T_STRAIGHT_FLUSH) and (value >> 8) & 15 == 3:
        return tuple(sorted(cards, key=lambda c: (c.rank % 14, c.suit), reverse=True))
    count = {c.rank: sum(1 for d in cards if d.rank == c.rank) for c in cards}
    return tuple(sorted(cards, key=lambda c: (count[c.rank], c.rank, c.suit), reverse=True))


def three_card(cards: Sequence[Card]) -> ThreeHand:
    """Rank exactly three distinct cards."""
    cards = tuple(cards)
    check_cards(cards, 3, 3)
    value = three_value(cards)
    return ThreeHand(THREE_CATEGORIES[value >> 12], value, describe_three(value),
                     _order(cards, value))
