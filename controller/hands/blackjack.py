"""Blackjack totals: card values, hard and soft totals, Black Jack (seed 000 Black Jack rule 3; seed 002).

A hand is summed with every ace as one (the *hard* sum); one ace may count
eleven where that does not take the hand over 21 (a *soft* total). Seed 000
rule 15 adds a twist: an ace counted as one to reach a doubling total stays
one for the rest of the hand, so ``hand_total`` takes ``locked_aces``, the
number of aces that may no longer count eleven.

The functions work on small integers (``value`` 1..10, ace 1) so that the
house-edge simulator runs exactly these functions on its fast path.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from controller.cards import Card

ACE = 1


def card_value(card: Card) -> int:
    """Blackjack value of one card: ace 1 (it may count 11 in a total), faces 10, the rest their pips."""
    if card.is_joker:
        raise ValueError("the joker has no blackjack value (jokers are not allowed, seed 000 rule 4)")
    if card.rank == 14:
        return ACE
    return min(card.rank, 10)


def best_total(hard: int, free_aces: int) -> tuple[int, bool]:
    """(total, soft) from the hard sum and the number of aces that may still count eleven."""
    if free_aces > 0 and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


def values_total(values: Iterable[int], locked_aces: int = 0) -> tuple[int, bool]:
    """(total, soft) of card values (ace 1); ``locked_aces`` aces may not count eleven."""
    hard = 0
    aces = 0
    for v in values:
        hard += v
        if v == ACE:
            aces += 1
    return best_total(hard, aces - locked_aces)


def hand_total(cards: Sequence[Card], locked_aces: int = 0) -> tuple[int, bool]:
    """(total, soft) of a hand of cards."""
    return values_total((card_value(c) for c in cards), locked_aces)


def is_blackjack_values(values: Sequence[int], from_split: bool = False) -> bool:
    """21 on the first two cards; not after a split (seed 000 rule 16)."""
    return (not from_split and len(values) == 2 and ACE in values
            and (values[0] == 10 or values[1] == 10))


def is_blackjack(cards: Sequence[Card], from_split: bool = False) -> bool:
    return is_blackjack_values([card_value(c) for c in cards], from_split)


def describe_total(total: int, soft: bool) -> str:
    """Croupier words for a total: ``soft 17``, ``14``, ``bust (23)``."""
    if total > 21:
        return f"bust ({total})"
    return f"soft {total}" if soft else str(total)
