"""The value encoding shared by every high-scale evaluator in the package.

A hand's ``value`` is one integer, higher is better, equal means a tie:

    value = category << 20 | r1 << 16 | r2 << 12 | r3 << 8 | r4 << 4 | r5

``category`` is 0 (high card) .. 8 (straight flush), 9 for five of a kind
(joker decks only, see ``controller.hands.joker``); ``r1..r5`` are the ranks
(2..14) that break ties inside the category, most significant first: the pair
before its kickers, the trips before the pair of a full house, the top card of a
straight (5 for the wheel A-2-3-4-5).  Unused slots are 0.
"""

from __future__ import annotations

from typing import Sequence

CATEGORIES: tuple[str, ...] = (
    "high_card", "pair", "two_pair", "three_of_a_kind", "straight", "flush",
    "full_house", "four_of_a_kind", "straight_flush", "five_of_a_kind",
)
"""Category names, lowest first; the index is the ``category`` field of a value."""

(HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH,
 FIVE_OF_A_KIND) = range(10)

_STRAIGHTS: tuple[tuple[int, int], ...] = tuple(
    (sum(1 << r for r in range(top - 4, top + 1)), top) for top in range(14, 5, -1)
) + ((1 << 14 | 0b111100, 5),)
"""(rank bit mask, top rank) of every straight, best first; ranks sit at bits 2..14."""

_WORD = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
         9: "nine", 10: "ten", 11: "jack", 12: "queen", 13: "king", 14: "ace"}


class HandError(ValueError):
    """Cards that cannot be ranked (too few, duplicates, a joker where none may be)."""


def rank_word(rank: int, plural: bool = False) -> str:
    """The spoken name of a rank: ``king``, or ``kings``/``sixes`` for ``plural``."""
    word = _WORD[rank]
    if not plural:
        return word
    return word + ("es" if word.endswith("x") else "s")


def make_value(category: int, ranks: Sequence[int]) -> int:
    """Pack a category and up to five tie-break ranks into a value."""
    value = category
    for i in range(5):
        value = value << 4 | (ranks[i] if i < len(ranks) else 0)
    return value


def value_category(value: int) -> int:
    return value >> 20


def value_ranks(value: int) -> tuple[int, ...]:
    """The tie-break ranks packed in a value (trailing zeros dropped)."""
    ranks = [(value >> shift) & 15 for shift in (16, 12, 8, 4, 0)]
    while ranks and ranks[-1] == 0:
        ranks.pop()
    return tuple(ranks)


def straight_top(mask: int) -> int:
    for bits, top in _STRAIGHTS:
        if mask & bits == bits:
            return top
    return 0


def flush_value(mask: int) -> int:
    """Value of the best five of a set of at least five same-suit ranks (bit mask)."""
    top = straight_top(mask)
    if top:
        return make_value(STRAIGHT_FLUSH, (top,))
    ranks = [r for r in range(14, 1, -1) if mask >> r & 1][:5]
    return make_value(FLUSH, ranks)


def value_from_counts(counts: Sequence[int]) -> int:
    """Value of the best non-flush five from rank counts (``counts[r]`` for r in 2..14).

    Used for hands of any size of at least five cards; flushes are the caller's
    business (a flush needs suits).
    """
    by_count: list[list[int]] = [[], [], [], [], []]
    mask = 0
    for r in range(14, 1, -1):
        n = counts[r]
        if n:
            by_count[min(n, 4)].append(r)
            mask |= 1 << r
    quads, trips, pairs = by_count[4], by_count[3], by_count[2]
    if quads:
        q = quads[0]
        kicker = max((r for r in range(14, 1, -1) if counts[r] and r != q), default=0)
        return make_value(QUADS, (q, kicker))
    if trips and (len(trips) > 1 or pairs):
        t = trips[0]
        p = max(trips[1:] + pairs)
        return make_value(FULL_HOUSE, (t, p))
    top = straight_top(mask)
    if top:
        return make_value(STRAIGHT, (top,))
    singles = [r for r in range(14, 1, -1) if counts[r]]
    if trips:
        t = trips[0]
        return make_value(TRIPS, [t] + [r for r in singles if r != t][:2])
    if len(pairs) >= 2:
        hi, lo = pairs[0], pairs[1]
        kicker = max(r for r in singles if r not in (hi, lo))
        return make_value(TWO_PAIR, (hi, lo, kicker))
    if pairs:
        p = pairs[0]
        return make_value(PAIR, [p] + [r for r in singles if r != p][:3])
    return make_value(HIGH_CARD, singles[:5])
