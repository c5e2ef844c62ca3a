"""Poker high hands: the best five of five or more cards, and its value.

A hand's ``value`` is one integer, higher is better, equal means a tie:

    value = category << 20 | r1 << 16 | r2 << 12 | r3 << 8 | r4 << 4 | r5

``category`` is 0 (high card) .. 8 (straight flush), 9 for five of a kind
(joker decks only, see ``controller.hands.joker``); ``r1..r5`` are the ranks
(2..14) that break ties inside the category, most significant first: the pair
before its kickers, the trips before the pair of a full house, the top card of a
straight (5 for the wheel A-2-3-4-5).  Unused slots are 0.

The single-hand path is pure Python and fast: each card adds a rank key (a
base-5 digit per rank, so the sum identifies the rank multiset) and a suit key
(a 4-bit counter per suit started at 3, so bit 3 of a nibble says "five or more
of this suit").  Two lookup tables, built once on first use, map the rank
multiset of a non-flush hand of 5 to 7 cards, and the rank set of a flush suit,
to the value.  Larger hands (stud, pineapples before the discard) take the
general path, which reads the value off the rank counts directly.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations, combinations_with_replacement
from typing import Sequence

from controller.cards import Card

CATEGORIES: tuple[str, ...] = (
    "high_card", "pair", "two_pair", "three_of_a_kind", "straight", "flush",
    "full_house", "four_of_a_kind", "straight_flush", "five_of_a_kind",
)
"""Category names, lowest first; the index is the ``category`` field of a value."""

HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH, FIVE_OF_A_KIND = range(10)

_RANK_KEY: tuple[int, ...] = (0, 0) + tuple(5 ** (r - 2) for r in range(2, 15))
_SUIT_KEY: dict[str, int] = {"c": 1, "d": 1 << 4, "h": 1 << 8, "s": 1 << 12}
_SUIT_START = 0x3333
_FLUSH_BITS = 0x8888
_NIBBLE_SUIT = {3: "c", 7: "d", 11: "h", 15: "s"}
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


def _straight_top(mask: int) -> int:
    for bits, top in _STRAIGHTS:
        if mask & bits == bits:
            return top
    return 0


def _flush_value(mask: int) -> int:
    """Value of the best five of a set of at least five same-suit ranks (bit mask)."""
    top = _straight_top(mask)
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
    top = _straight_top(mask)
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


@dataclass(frozen=True, slots=True)
class _Tables:
    noflush: dict[int, int]
    flush: tuple[int, ...]


@cache
def _tables() -> _Tables:
    """Build the lookup tables once (about half a second, on first use)."""
    noflush: dict[int, int] = {}
    counts = [0] * 15
    for size in (5, 6, 7):
        for multiset in combinations_with_replacement(range(2, 15), size):
            for r in range(2, 15):
                counts[r] = 0
            for r in multiset:
                counts[r] += 1
            if max(counts) > 4:
                continue
            key = sum(_RANK_KEY[r] for r in multiset)
            noflush[key] = value_from_counts(counts)
    flush = [0] * (1 << 15)
    for size in (5, 6, 7):
        for ranks in combinations(range(2, 15), size):
            mask = sum(1 << r for r in ranks)
            flush[mask] = _flush_value(mask)
    return _Tables(noflush, tuple(flush))


def _general_value(cards: Sequence[Card]) -> int:
    """Any number of cards (>= 5): the rank-count value or the best flush."""
    counts = [0] * 15
    suit_masks = {"c": 0, "d": 0, "h": 0, "s": 0}
    for c in cards:
        counts[c.rank] += 1
        suit_masks[c.suit] |= 1 << c.rank
    best = value_from_counts(counts)
    for mask in suit_masks.values():
        if mask.bit_count() >= 5:
            best = max(best, _flush_value(mask))
    return best


_CARD_KEY: dict[str, tuple[int, ...]] = {
    s: tuple((_RANK_KEY[r] << 16) + _SUIT_KEY[s] for r in range(15)) for s in "cdhs"
}
"""Per card, the rank key (high bits) and the suit counter (low 16 bits) in one int."""


def _flush_lookup(cards: Sequence[Card], sk: int) -> int:
    suit = _NIBBLE_SUIT[(sk & _FLUSH_BITS).bit_length() - 1]
    mask = 0
    for c in cards:
        if c.suit == suit:
            mask |= 1 << c.rank
    return _tables().flush[mask]


def high_value(cards: Sequence[Card], _ck: dict[str, tuple[int, ...]] = _CARD_KEY) -> int:
    """The value of the best five of ``cards`` (five or more, no joker, no checks).

    This is the hot path for games and simulations: it does not validate its
    input. Use ``best_high`` for a checked, named result.
    """
    n = len(cards)
    if n == 7:
        a, b, c, d, e, f, g = cards
        t = (_SUIT_START + _ck[a.suit][a.rank] + _ck[b.suit][b.rank] + _ck[c.suit][c.rank]
             + _ck[d.suit][d.rank] + _ck[e.suit][e.rank] + _ck[f.suit][f.rank] + _ck[g.suit][g.rank])
    elif n == 5:
        a, b, c, d, e = cards
        t = (_SUIT_START + _ck[a.suit][a.rank] + _ck[b.suit][b.rank] + _ck[c.suit][c.rank]
             + _ck[d.suit][d.rank] + _ck[e.suit][e.rank])
    elif n == 6:
        t = _SUIT_START
        for c in cards:
            t += _ck[c.suit][c.rank]
    else:
        return _general_value(cards)
    if t & _FLUSH_BITS:
        return _flush_lookup(cards, t & 0xFFFF)
    return _tables().noflush[t >> 16]


def check_cards(cards: Sequence[Card], minimum: int, maximum: int | None = None,
                jokers: bool = False) -> None:
    """Raise HandError unless ``cards`` are distinct cards in the allowed number."""
    n = len(cards)
    if n < minimum or (maximum is not None and n > maximum):
        want = f"{minimum}" if maximum == minimum else (
            f"at least {minimum}" if maximum is None else f"{minimum} to {maximum}")
        raise HandError(f"a hand needs {want} cards, got {n}")
    seen: set[Card] = set()
    for c in cards:
        if not isinstance(c, Card):
            raise HandError(f"not a card: {c!r}")
        if c.is_joker:
            if not jokers:
                raise HandError("this game has no joker")
            continue
        if c in seen:
            raise HandError(f"the card {c} appears twice")
        seen.add(c)


def describe_high(value: int) -> str:
    """The croupier's words for a high-hand value: "Full house, kings over fives"."""
    cat = value_category(value)
    ranks = value_ranks(value)
    top = ranks[0] if ranks else 0
    if cat == FIVE_OF_A_KIND:
        return f"Five of a kind, {rank_word(top, True)}"
    if cat == STRAIGHT_FLUSH:
        return "Royal flush" if top == 14 else f"Straight flush, {rank_word(top)} high"
    if cat == QUADS:
        return f"Four of a kind, {rank_word(top, True)}"
    if cat == FULL_HOUSE:
        return f"Full house, {rank_word(top, True)} over {rank_word(ranks[1], True)}"
    if cat == FLUSH:
        return f"Flush, {rank_word(top)} high"
    if cat == STRAIGHT:
        return f"Straight, {rank_word(top)} high"
    if cat == TRIPS:
        return f"Three of a kind, {rank_word(top, True)}"
    if cat == TWO_PAIR:
        return f"Two pair, {rank_word(top, True)} and {rank_word(ranks[1], True)}"
    if cat == PAIR:
        return f"Pair of {rank_word(top, True)}"
    return f"{rank_word(top).capitalize()}-{rank_word(ranks[1])} high"


def _pick_cards(cards: Sequence[Card], value: int) -> tuple[Card, ...]:
    """The five cards (best first) that make ``value`` out of ``cards``."""
    cat = value_category(value)
    ranks = value_ranks(value)
    ordered = sorted(cards, key=lambda c: (c.rank, c.suit), reverse=True)
    if cat in (FLUSH, STRAIGHT_FLUSH):
        suits = [s for s in "shdc" if sum(1 for c in cards if c.suit == s) >= 5]
        for suit in suits:
            pool = [c for c in ordered if c.suit == suit]
            chosen = _take_ranks(pool, _ranks_needed(cat, ranks))
            if chosen is not None:
                return chosen
        raise AssertionError("flush value without a flush")  # pragma: no cover
    chosen = _take_ranks(ordered, _ranks_needed(cat, ranks))
    if chosen is None:  # pragma: no cover
        raise AssertionError("value does not match the cards")
    return chosen


def _ranks_needed(cat: int, ranks: tuple[int, ...]) -> list[int]:
    """The five ranks, with repeats, that a category and its tie-break ranks use."""
    if cat in (STRAIGHT, STRAIGHT_FLUSH):
        top = ranks[0]
        return [5, 4, 3, 2, 14] if top == 5 else list(range(top, top - 5, -1))
    shape = {HIGH_CARD: (1, 1, 1, 1, 1), PAIR: (2, 1, 1, 1), TWO_PAIR: (2, 2, 1),
             TRIPS: (3, 1, 1), FLUSH: (1, 1, 1, 1, 1), FULL_HOUSE: (3, 2), QUADS: (4, 1),
             FIVE_OF_A_KIND: (5,)}[cat]
    out: list[int] = []
    for r, n in zip(ranks, shape):
        out.extend([r] * n)
    return out


def _take_ranks(pool: Sequence[Card], needed: list[int]) -> tuple[Card, ...] | None:
    left = list(pool)
    chosen: list[Card] = []
    for r in needed:
        for i, c in enumerate(left):
            if c.rank == r:
                chosen.append(left.pop(i))
                break
        else:
            return None
    return tuple(chosen)


@dataclass(frozen=True, slots=True)
class HighHand:
    """A ranked poker high hand: compare ``value`` (higher wins, equal ties)."""

    category: str
    royal: bool
    value: int
    cards: tuple[Card, ...]
    name: str
    joker_as: Card | None = None
    """Joker decks only: the card the joker stands for (``controller.hands.joker``)."""

    @property
    def ranks(self) -> tuple[int, ...]:
        """The tie-break ranks, most significant first (on the standard scale)."""
        return value_ranks(self.value)

    def __lt__(self, other: "HighHand") -> bool:
        return self.value < other.value


def high_hand_from(cards: Sequence[Card], value: int) -> HighHand:
    """Wrap a value computed from ``cards`` into a HighHand (picks the five used)."""
    cat = value_category(value)
    return HighHand(
        category=CATEGORIES[cat],
        royal=cat == STRAIGHT_FLUSH and value_ranks(value)[0] == 14,
        value=value,
        cards=_pick_cards(cards, value),
        name=describe_high(value),
    )


def best_high(cards: Sequence[Card]) -> HighHand:
    """The best five-card high hand out of five or more distinct cards."""
    cards = tuple(cards)
    check_cards(cards, 5)
    return high_hand_from(cards, high_value(cards))


def best_holdem_using_hole(hole: Sequence[Card], board: Sequence[Card],
                           at_least: int = 1) -> HighHand:
    """The best five of hole + board that use at least ``at_least`` hole cards.

    SE Hold em (seed 000) requires at least one of the player's own two cards.
    """
    hole, board = tuple(hole), tuple(board)
    check_cards(hole + board, 5)
    if not 0 <= at_least <= min(5, len(hole)):
        raise HandError(f"cannot use at least {at_least} of {len(hole)} hole cards")
    best: tuple[int, tuple[Card, ...]] | None = None
    for k in range(at_least, min(5, len(hole)) + 1):
        if 5 - k > len(board):
            continue
        for own in combinations(hole, k):
            for common in combinations(board, 5 - k):
                five = own + common
                v = high_value(five)
                if best is None or v > best[0]:
                    best = (v, five)
    if best is None:
        raise HandError("not enough board cards to make five")
    return high_hand_from(best[1], best[0])


def best_omaha(hole: Sequence[Card], board: Sequence[Card]) -> HighHand:
    """Omaha: exactly two of the 4 or 5 hole cards and exactly three of the board."""
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
            v = high_value(five)
            if best is None or v > best[0]:
                best = (v, five)
    assert best is not None
    return high_hand_from(best[1], best[0])
