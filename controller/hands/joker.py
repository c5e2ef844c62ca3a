"""Hands from a 53-card deck with one joker: Pai Gow Poker and the Oasis joker paytable.

What the joker may stand for:

- Pai Gow Poker (seed 002, Pai Gow Poker, first chapter and "Korten och deras
  poängvärden"): "the joker may complete a straight, a flush or a straight
  flush; otherwise it counts as an ace".  So it stands for any card not
  already in the hand when the result is a straight, flush or straight flush,
  and otherwise for an ace not already in the hand; with all four aces in the
  hand it makes five aces ("Five of a kind: four aces and a joker"), the best
  hand.  The same section ranks A-2-3-4-5 as the second-best straight and the
  second-best straight flush (below A-K-Q-J-T, above K-Q-J-T-9).
- Oasis Stud joker paytable (seed 002, Oasis Stud, the table with "Royal Flush
  (med joker)" and "Fem lika"): the joker is fully wild: any card not already
  in the hand, or the fifth card of a rank held four times (five of a kind).
  Five of a kind ranks above every straight flush, royal included (the seed
  does not order them for the showdown; this is the usual wild-card order and
  the one Pai Gow's seed gives).  ``HighHand.joker_as`` says what the joker
  became, so that a paytable can tell a natural royal from one with the joker.

Values use the high-hand layout (``controller.hands.high``) with category 9 for
five of a kind.  On the Pai Gow scale the straight's top rank is written 15 for
A-K-Q-J-T and 14 for A-2-3-4-5, so that one integer comparison gives the seed's
order.
"""

from __future__ import annotations

from itertools import combinations
from typing import Sequence

from controller.cards import Card, deck
from controller.hands.high import (FIVE_OF_A_KIND, FLUSH, STRAIGHT, STRAIGHT_FLUSH, CATEGORIES,
                                   HandError, HighHand, pick_cards, check_cards, describe_high,
                                   high_value, make_value, value_category, value_ranks)

_FULL_DECK: tuple[Card, ...] = tuple(deck())
_STRAIGHTISH = (STRAIGHT, FLUSH, STRAIGHT_FLUSH)


def _split(cards: Sequence[Card]) -> tuple[tuple[Card, ...], int]:
    natural = tuple(c for c in cards if not c.is_joker)
    jokers = len(cards) - len(natural)
    if jokers > 1:
        raise HandError("a hand can hold only one joker")
    return natural, jokers


def _five_of_a_kind(natural: tuple[Card, ...], allowed: Sequence[int]) -> int | None:
    """The rank held four times among ``allowed`` ranks, best first, or None."""
    for rank in sorted(allowed, reverse=True):
        if sum(1 for c in natural if c.rank == rank) == 4:
            return rank
    return None


def _wrap(natural: tuple[Card, ...], value: int, name_value: int,
          substitute: Card | None, joker: Card) -> HighHand:
    """A HighHand whose cards show the joker where it stands in for ``substitute``."""
    cat = value_category(value)
    if cat == FIVE_OF_A_KIND:
        rank = value_ranks(value)[0]
        five = tuple(c for c in natural if c.rank == rank) + (joker,)
        return HighHand(CATEGORIES[cat], False, value, five, describe_high(value), substitute)
    pool = natural + ((substitute,) if substitute is not None else ())
    five = pick_cards(pool, name_value)
    if substitute is not None:
        five = tuple(joker if c == substitute else c for c in five)
    royal = cat == STRAIGHT_FLUSH and value_ranks(name_value)[0] == 14
    used = substitute if substitute is not None and joker in five else None
    return HighHand(CATEGORIES[cat], royal, value, five, describe_high(name_value), used)


def pai_gow_scale(value: int) -> int:
    """Re-write a standard value on the Pai Gow scale (A-2-3-4-5 second-best straight)."""
    cat = value_category(value)
    if cat in (STRAIGHT, STRAIGHT_FLUSH):
        top = value_ranks(value)[0]
        top = {14: 15, 5: 14}.get(top, top)
        return make_value(cat, (top,))
    return value


def _pai_gow_natural(natural: tuple[Card, ...]) -> tuple[int, int]:
    """(Pai Gow value, standard value of those five) of the best five of natural cards.

    The standard best five is the Pai Gow best five except among straights and
    straight flushes: of six or seven cards holding both A-2-3-4-5 and a
    six-high (or better) straight of the same category, the standard scale
    keeps the higher top card and the Pai Gow scale may prefer the wheel. So a
    straight or straight flush is looked at again five cards at a time.
    """
    value = high_value(natural)
    if len(natural) == 5 or value_category(value) not in (STRAIGHT, STRAIGHT_FLUSH):
        return pai_gow_scale(value), value
    best = (pai_gow_scale(value), value)
    for five in combinations(natural, 5):
        five_value = high_value(five)
        if value_category(five_value) == value_category(value):
            best = max(best, (pai_gow_scale(five_value), five_value))
    return best


def _joker_stands_for(natural: tuple[Card, ...]) -> list[Card]:
    """The cards the joker may stand for that can matter: every free ace, and per rank one free card and one of
    every suit that four of the others hold (so that flushes and straight flushes are among them)."""
    held = set(natural)
    flush_suits = {s for s in "cdhs" if sum(1 for c in natural if c.suit == s) >= 4}
    out = [c for c in _FULL_DECK if c.rank == 14 and c not in held]
    for rank in range(2, 14):
        free = [c for c in _FULL_DECK if c.rank == rank and c not in held]
        out.extend({*free[:1], *(c for c in free if c.suit in flush_suits)})
    return out


def pai_gow_value(cards: Sequence[Card]) -> int:
    """The Pai Gow value of the best five of five or more checked cards: ``pai_gow_high(cards).value``, without
    naming the hand (the house way and the house-edge tool rank many)."""
    natural = tuple(c for c in cards if not c.is_joker)
    if len(natural) == len(cards):
        return _pai_gow_natural(natural)[0]
    if sum(1 for c in natural if c.rank == 14) == 4:
        return make_value(FIVE_OF_A_KIND, (14,))
    best = 0
    for sub in _joker_stands_for(natural):
        scaled, value = _pai_gow_natural(natural + (sub,))
        if (sub.rank == 14 or value_category(value) in _STRAIGHTISH) and scaled > best:
            best = scaled
    return best


def pai_gow_high(cards: Sequence[Card]) -> HighHand:
    """The best five of five or more cards, the joker under the Pai Gow rule."""
    cards = tuple(cards)
    check_cards(cards, 5, jokers=True)
    natural, jokers = _split(cards)
    if not jokers:
        scaled, value = _pai_gow_natural(natural)
        return _wrap(natural, scaled, value, None, cards[0])
    joker = next(c for c in cards if c.is_joker)
    if _five_of_a_kind(natural, (14,)):
        value = make_value(FIVE_OF_A_KIND, (14,))
        return _wrap(natural, value, value, None, joker)
    best: tuple[int, int, Card] | None = None
    held = set(natural)
    for sub in _FULL_DECK:
        if sub in held:
            continue
        scaled, value = _pai_gow_natural(natural + (sub,))
        if sub.rank != 14 and value_category(value) not in _STRAIGHTISH:
            continue
        if best is None or scaled > best[0]:
            best = (scaled, value, sub)
    assert best is not None  # an ace is always free: at most three aces here
    return _wrap(natural, best[0], best[1], best[2], joker)


def oasis_joker_high(cards: Sequence[Card]) -> HighHand:
    """The best five of five or more cards with a fully wild joker (Oasis joker table)."""
    cards = tuple(cards)
    check_cards(cards, 5, jokers=True)
    natural, jokers = _split(cards)
    if not jokers:
        value = high_value(natural)
        return _wrap(natural, value, value, None, cards[0])
    joker = next(c for c in cards if c.is_joker)
    rank = _five_of_a_kind(natural, range(2, 15))
    if rank:
        value = make_value(FIVE_OF_A_KIND, (rank,))
        return _wrap(natural, value, value, None, joker)
    held = set(natural)
    value, sub = max(((high_value(natural + (s,)), s) for s in _FULL_DECK if s not in held),
                     key=lambda x: x[0])
    return _wrap(natural, value, value, sub, joker)
