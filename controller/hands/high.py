"""Poker high hands: the best five of five or more cards, and its value.

Values follow ``controller.hands.values`` (higher is better, equal ties); the
fast single-hand value is ``controller.hands.fast.high_value``, re-exported
here.  This module adds the checked, named result a game shows: the category,
the five cards used and the croupier's words, and the combination rules
(any five, hold'em with own cards, Omaha).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Sequence

from controller.cards import Card
from controller.hands.fast import general_value as _general_value
from controller.hands.fast import high_value
from controller.hands.values import (CATEGORIES, FIVE_OF_A_KIND, FLUSH, FULL_HOUSE, HIGH_CARD,
                                     PAIR, QUADS, STRAIGHT, STRAIGHT_FLUSH, TRIPS, TWO_PAIR,
                                     HandError, flush_value, make_value, rank_word,
                                     value_category, value_from_counts, value_ranks)

__all__ = ["CATEGORIES", "FIVE_OF_A_KIND", "FLUSH", "FULL_HOUSE", "HIGH_CARD", "PAIR", "QUADS",
           "STRAIGHT", "STRAIGHT_FLUSH", "TRIPS", "TWO_PAIR", "HandError", "HighHand",
           "best_high", "best_holdem_using_hole", "best_omaha", "check_cards", "describe_high",
           "flush_value", "high_hand_from", "high_value", "make_value", "pick_cards",
           "rank_word", "value_category", "value_from_counts", "value_ranks", "_general_value"]


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


def pick_cards(cards: Sequence[Card], value: int) -> tuple[Card, ...]:
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
        cards=pick_cards(cards, value),
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

