"""Russian Poker: the two combinations a hand of five or six cards may hold.

Seed 002, Russian Poker version A, "Vinstutbetalningar för händer med fem eller
sex kort som har två olika kombinationer": a hand is paid for two separate
combinations (AK + pair, 3 pairs, 2 straights, full house + four of a kind,
...) when "for both combinations the player uses at least one card that is not
part of the other combination".  The seed's examples (the tests):

- A A K 8 9: pair (A-A) + AK
- 4 4 K K A: two pair (4-4, K-K) + AK
- 3 3 3 A K: three of a kind + AK
- 4 4 8 8 Q Q: two pair (4-4, Q-Q) + two pair (8-8, Q-Q) (the table's "3 pairs")
- 2 3 4 5 6 6: straight + straight
- 9 9 9 9 J J: four of a kind (9-9-9-9-J) + full house (9-9-9-J-J)
- 5-9 of hearts + 9 of spades: straight flush (5-9 hearts) + straight (5-8 hearts, 9 spades)

A combination here is a set of cards that by itself is one of the classes
``RUSSIAN_CLASSES``: ace-king (an ace and a king), pair, two pair, three of a
kind (its three cards), four of a kind (its four), or five cards making a
straight, flush, full house, straight flush or royal flush.  Each set is named
by its own best class.  Two sets qualify together when neither lies inside the
other.  The function returns every qualifying pair of class names; the game's
paytable (and only it) says which pairs pay and which pays most.  Three pairs
is also reported as ``"three_pairs"`` (the seed's "3 par" line) only when the
hand holds three different pairs.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import Sequence

from controller.cards import Card
from controller.hands.high import (FLUSH, FULL_HOUSE, STRAIGHT, STRAIGHT_FLUSH, check_cards,
                                   high_value, value_category, value_ranks)

RUSSIAN_CLASSES: tuple[str, ...] = (
    "ace_king", "pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house",
    "four_of_a_kind", "straight_flush", "royal_flush",
)


def _class_of(cards: tuple[Card, ...]) -> str | None:
    """The class this exact set of cards forms by itself, or None."""
    n = len(cards)
    ranks = sorted((c.rank for c in cards), reverse=True)
    shape = sorted(Counter(ranks).values(), reverse=True)
    if n == 2:
        if shape == [2]:
            return "pair"
        return "ace_king" if ranks == [14, 13] else None
    if n == 3:
        return "three_of_a_kind" if shape == [3] else None
    if n == 4:
        if shape == [4]:
            return "four_of_a_kind"
        return "two_pair" if shape == [2, 2] else None
    value = high_value(cards)
    cat = value_category(value)
    if cat == STRAIGHT_FLUSH:
        return "royal_flush" if value_ranks(value)[0] == 14 else "straight_flush"
    return {STRAIGHT: "straight", FLUSH: "flush", FULL_HOUSE: "full_house"}.get(cat)


def _key(a: str, b: str) -> str:
    i, j = sorted((RUSSIAN_CLASSES.index(a), RUSSIAN_CLASSES.index(b)))
    return f"{RUSSIAN_CLASSES[i]}+{RUSSIAN_CLASSES[j]}"


def russian_combinations(cards: Sequence[Card]) -> frozenset[str]:
    """Every pair of combinations the 5- or 6-card hand holds, as "pair+ace_king" style names.

    Names list the lower class first (``RUSSIAN_CLASSES`` order): "ace_king+pair",
    "straight+straight", "full_house+four_of_a_kind", plus "three_pairs".
    """
    cards = tuple(cards)
    check_cards(cards, 5, 6)
    found: list[tuple[frozenset[Card], str]] = []
    for size in (2, 3, 4, 5):
        for subset in combinations(cards, size):
            name = _class_of(subset)
            if name is not None:
                found.append((frozenset(subset), name))
    pairs: set[str] = set()
    for (set_a, name_a), (set_b, name_b) in combinations(found, 2):
        if set_a - set_b and set_b - set_a:
            pairs.add(_key(name_a, name_b))
    if sum(1 for n in Counter(c.rank for c in cards).values() if n == 2) == 3:
        pairs.add("three_pairs")
    return frozenset(pairs)
