"""Low hands: ace-to-five, deuce-to-seven, and the eight-or-better qualifier.

Seed 004 (peer poker): "every poker game may also be played as Low or
High/Low ... the scale is the opposite in a Low game; in High/Low the best and
the weakest five-card hand split the pot".  RULES-NOTES: "Low" without more
words is ace-to-five (Razz); Lowball takes the scale as an option.

- Ace-to-five: the ace is always low (1), straights and flushes do not count;
  A-2-3-4-5 is the best hand; pairs are bad (a pair beats no hand without one).
- Deuce-to-seven: the ace is always high, straights and flushes count against
  the hand; 7-5-4-3-2 (not all one suit) is the best hand; A-2-3-4-5 is
  merely ace high.
- Eight-or-better: a low half qualifies only with five different ranks of
  eight or lower, ace-to-five (Omaha hi-lo, stud hi-lo).

``value`` keeps the package-wide rule: higher is better (the better low), equal
is a tie.  It is ``LOW_BASE - h`` where ``h`` is the hand's high-scale value on
its own scale (ace = 1 for ace-to-five).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations
from typing import Sequence

from controller.cards import Card
from controller.hands.high import (FLUSH, FULL_HOUSE, HIGH_CARD, PAIR, QUADS, STRAIGHT,
                                   STRAIGHT_FLUSH, TRIPS, TWO_PAIR, CATEGORIES, HandError,
                                   check_cards, describe_high, make_value, rank_word,
                                   value_category, value_ranks)

LOW_BASE = 1 << 24
ACE_TO_FIVE = "ace_to_five"
DEUCE_TO_SEVEN = "deuce_to_seven"

_SHAPES = {(1, 1, 1, 1, 1): HIGH_CARD, (2, 1, 1, 1): PAIR, (2, 2, 1): TWO_PAIR,
           (3, 1, 1): TRIPS, (3, 2): FULL_HOUSE, (4, 1): QUADS}


@dataclass(frozen=True, slots=True)
class LowHand:
    """A ranked low hand: compare ``value`` (higher is the better low, equal ties)."""

    scale: str
    category: str
    value: int
    cards: tuple[Card, ...]
    name: str

    @property
    def ranks(self) -> tuple[int, ...]:
        """The ranks read high to low (ace 1 on the ace-to-five scale)."""
        return value_ranks(LOW_BASE - self.value)

    def __lt__(self, other: "LowHand") -> bool:
        return self.value < other.value


def _paired_value(ranks: Sequence[int]) -> int:
    """High-scale value of five ranks counting only pairs, trips and quads."""
    counts = Counter(ranks)
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = tuple(counts[r] for r in order)
    return make_value(_SHAPES[shape], order)


def a5_high_value(five: Sequence[Card]) -> int:
    """Ace-to-five: the five cards' value with the ace as 1, no straights or flushes."""
    return _paired_value([1 if c.rank == 14 else c.rank for c in five])


def d27_high_value(five: Sequence[Card]) -> int:
    """Deuce-to-seven: the five cards' high value with the ace always high."""
    ranks = sorted((c.rank for c in five), reverse=True)
    flush = len({c.suit for c in five}) == 1
    straight = len(set(ranks)) == 5 and ranks[0] - ranks[4] == 4
    if straight:
        return make_value(STRAIGHT_FLUSH if flush else STRAIGHT, (ranks[0],))
    value = _paired_value(ranks)
    if flush:
        return make_value(FLUSH, ranks)
    return value


def _low_name(scale: str, high: int) -> str:
    cat = value_category(high)
    ranks = value_ranks(high)
    if cat == HIGH_CARD:
        return f"{_word(ranks[0]).capitalize()}-{_word(ranks[1])} low"
    if scale == ACE_TO_FIVE:
        ranks = tuple(14 if r == 1 else r for r in ranks)
        high = make_value(cat, ranks)
    return describe_high(high)


def _word(rank: int) -> str:
    return rank_word(14 if rank == 1 else rank)


def _order(five: Sequence[Card], high: int, scale: str) -> tuple[Card, ...]:
    """The cards as read: pairs first, then high to low (ace low on ace-to-five)."""
    def r(c: Card) -> int:
        return 1 if scale == ACE_TO_FIVE and c.rank == 14 else c.rank
    counts = Counter(r(c) for c in five)
    return tuple(sorted(five, key=lambda c: (counts[r(c)], r(c), c.suit), reverse=True))


def _make(scale: str, five: tuple[Card, ...], high: int) -> LowHand:
    return LowHand(scale, CATEGORIES[value_category(high)], LOW_BASE - high,
                   _order(five, high, scale), _low_name(scale, high))


def _best(scale: str, cards: Sequence[Card]) -> LowHand:
    score = a5_high_value if scale == ACE_TO_FIVE else d27_high_value
    best: tuple[int, tuple[Card, ...]] | None = None
    for five in combinations(cards, 5):
        h = score(five)
        if best is None or h < best[0]:
            best = (h, five)
    assert best is not None
    return _make(scale, best[1], best[0])


def best_ace_to_five(cards: Sequence[Card]) -> LowHand:
    """The best ace-to-five low of five or more cards (Razz, "Low")."""
    cards = tuple(cards)
    check_cards(cards, 5)
    return _best(ACE_TO_FIVE, cards)


def best_deuce_to_seven(cards: Sequence[Card]) -> LowHand:
    """The best deuce-to-seven low of five or more cards (Lowball option)."""
    cards = tuple(cards)
    check_cards(cards, 5)
    return _best(DEUCE_TO_SEVEN, cards)


def qualifies_eight_or_better(low: LowHand) -> bool:
    """An ace-to-five low of five different ranks, none above eight."""
    if low.scale != ACE_TO_FIVE:
        raise HandError("the eight-or-better qualifier reads ace-to-five lows only")
    return low.category == "high_card" and low.ranks[0] <= 8


def eight_or_better(cards: Sequence[Card]) -> LowHand | None:
    """The best qualifying low of five or more cards, or None (no low half)."""
    low = best_ace_to_five(cards)
    return low if qualifies_eight_or_better(low) else None


def best_omaha_low(hole: Sequence[Card], board: Sequence[Card],
                   qualifier: int | None = 8) -> LowHand | None:
    """Omaha low: exactly two hole and three board cards, ace-to-five.

    With ``qualifier`` (8 for hi-lo) a hand whose best low has a pair or a card
    above the qualifier has no low (None).
    """
    hole, board = tuple(hole), tuple(board)
    if len(hole) not in (4, 5):
        raise HandError(f"an Omaha hand has 4 or 5 hole cards, got {len(hole)}")
    if not 3 <= len(board) <= 5:
        raise HandError(f"an Omaha board has 3 to 5 cards, got {len(board)}")
    check_cards(hole + board, 7)
    best: tuple[int, tuple[Card, ...]] | None = None
    for own in combinations(hole, 2):
        for common in combinations(board, 3):
            five = own + common
            h = a5_high_value(five)
            if best is None or h < best[0]:
                best = (h, five)
    assert best is not None
    low = _make(ACE_TO_FIVE, best[1], best[0])
    if qualifier is None:
        return low
    if low.category != "high_card" or low.ranks[0] > qualifier:
        return None
    return low
