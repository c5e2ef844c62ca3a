"""Casino qualifiers as named predicates, so that a game reads like its seed.

- ``ace_king_or_better``: Caribbean Stud, Oasis Stud dealer (seeds 002, 003).
- ``queen_high_or_better``: Three Card Poker dealer (seed 002).
- ``pair_or_better(hand, 8 | 10 | 13)``: pair of eights, tens (Oasis joker/tens
  paytables), kings (SE Hold em, seed 000) or better.
- ``category_at_least``: "straight or better" style paytable thresholds.

Each works on a ``HighHand`` (five-card scale) and, where it makes sense, on a
``ThreeHand`` (three-card scale, where a flush is below a straight).
"""

from __future__ import annotations

from controller.hands.high import CATEGORIES, HIGH_CARD, PAIR, HighHand
from controller.hands.three import T_HIGH, T_PAIR, THREE_CATEGORIES, ThreeHand

Hand = HighHand | ThreeHand


def _scale(hand: Hand) -> tuple[tuple[str, ...], int]:
    """(category names lowest first, this hand's category index)."""
    if isinstance(hand, HighHand):
        return CATEGORIES, CATEGORIES.index(hand.category)
    if isinstance(hand, ThreeHand):
        return THREE_CATEGORIES, THREE_CATEGORIES.index(hand.category)
    raise TypeError(f"not a ranked poker hand: {hand!r}")


def category_at_least(hand: Hand, category: str) -> bool:
    """True when the hand's category is ``category`` or a better one on its scale."""
    names, index = _scale(hand)
    if category not in names:
        raise ValueError(f"no category {category!r} among {', '.join(names)}")
    return index >= names.index(category)


def ace_king_or_better(high: HighHand) -> bool:
    """A pair or better, or high card ace with king (Caribbean Stud dealer qualifies)."""
    if not isinstance(high, HighHand):
        raise TypeError(f"not a five-card hand: {high!r}")
    if CATEGORIES.index(high.category) > HIGH_CARD:
        return True
    ranks = high.ranks
    return ranks[0] == 14 and ranks[1] == 13


def queen_high_or_better(three: ThreeHand) -> bool:
    """A pair or better, or a queen or higher as top card (Three Card Poker dealer)."""
    if not isinstance(three, ThreeHand):
        raise TypeError(f"not a three-card hand: {three!r}")
    if THREE_CATEGORIES.index(three.category) > T_HIGH:
        return True
    return three.ranks[0] >= 12


def pair_or_better(hand: Hand, rank: int) -> bool:
    """A pair of ``rank`` (2..14) or a higher pair, or any better category."""
    if not 2 <= rank <= 14:
        raise ValueError(f"no such rank: {rank!r}")
    names, index = _scale(hand)
    pair_index = PAIR if names is CATEGORIES else T_PAIR
    if index > pair_index:
        return True
    return index == pair_index and hand.ranks[0] >= rank
