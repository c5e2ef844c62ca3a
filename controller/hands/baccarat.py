"""Baccarat points: tens and faces count 0, the ace 1, the rest their pip value, modulo 10."""

from __future__ import annotations

from typing import Iterable

from controller.cards import Card


def card_points(card: Card) -> int:
    """The baccarat value of one card (0..9)."""
    if card.is_joker:
        raise ValueError("the joker has no baccarat value")
    if card.rank == 14:
        return 1
    return 0 if card.rank >= 10 else card.rank


def hand_points(cards: Iterable[Card]) -> int:
    """The baccarat value of a hand: the last digit of the sum."""
    return sum(card_points(c) for c in cards) % 10
