"""Exact enumeration for three-card games against a dealer (Three Card Poker, Fast Poker).

Every one of the 22 100 player hands meets every one of the 18 424 dealer
hands drawn from the other 49 cards. Rather than 407 million comparisons, the
dealer hands are counted by inclusion-exclusion over the player's cards:
the dealer hands that share no card with the player are all hands, less those
holding each player card, plus those holding each pair of them, less the one
holding all three; each count of "value below x" is a binary search in a
sorted list. Hands are ranked by ``controller.hands.three`` and the dealer's
qualification is ``controller.hands.qualifiers.queen_high_or_better``: the
game's own code, as is the settlement (passed in by the game's tool).
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from itertools import combinations
from typing import Callable

from controller.cards import card_from_index
from controller.hands.qualifiers import queen_high_or_better
from controller.hands.three import describe_three, three_card

DEALER_HANDS = 18424  # C(49, 3)


@dataclass(frozen=True)
class Hand3:
    cards: tuple[int, int, int]
    category: str
    value: int
    ranks: tuple[int, ...]  # the card ranks (not the tie-break ranks)


@dataclass(frozen=True)
class Counts:
    """How many dealer hands end each way against one player hand (they sum to 18 424)."""

    no_qualify: int
    player_higher: int
    tie: int
    dealer_higher: int

    def as_dict(self) -> dict[str, int]:
        return {"no_qualify": self.no_qualify, "player_higher": self.player_higher,
                "tie": self.tie, "dealer_higher": self.dealer_higher}


def all_hands() -> tuple[list[Hand3], int]:
    """Every three-card hand ranked by the hands package, and the least value a dealer qualifies with."""
    hands: list[Hand3] = []
    qualifying: list[int] = []
    not_qualifying: list[int] = []
    for combo in combinations(range(52), 3):
        cards = [card_from_index(i) for i in combo]
        hand = three_card(cards)
        hands.append(Hand3(combo, hand.category, hand.value, tuple(c.rank for c in cards)))
        (qualifying if queen_high_or_better(hand) else not_qualifying).append(hand.value)
    least = min(qualifying)
    if max(not_qualifying) >= least:
        raise AssertionError("the dealer's qualifier is not a threshold on the hand value")
    return hands, least


def versus_counts(hands: list[Hand3], least_qualifying: int) -> list[Counts]:
    """For every player hand, the dealer hands from the other 49 cards by how they end."""
    everything = sorted(h.value for h in hands)
    by_card: list[list[int]] = [[] for _ in range(52)]
    by_pair: dict[tuple[int, int], list[int]] = {}
    by_triple: dict[tuple[int, int, int], int] = {}
    for h in hands:
        a, b, c = h.cards
        for x in h.cards:
            by_card[x].append(h.value)
        for pair in ((a, b), (a, c), (b, c)):
            by_pair.setdefault(pair, []).append(h.value)
        by_triple[h.cards] = h.value
    for values in by_card:
        values.sort()
    for values in by_pair.values():
        values.sort()

    out: list[Counts] = []
    for h in hands:
        a, b, c = h.cards
        singles = (by_card[a], by_card[b], by_card[c])
        pairs = (by_pair[(a, b)], by_pair[(a, c)], by_pair[(b, c)])
        own = h.value

        def below(x: int) -> int:
            n = bisect_left(everything, x)
            n -= sum(bisect_left(s, x) for s in singles)
            n += sum(bisect_left(p, x) for p in pairs)
            n -= 1 if own < x else 0
            return n

        no_qualify = below(least_qualifying)
        if own >= least_qualifying:
            lower = below(own) - no_qualify
            tie = below(own + 1) - below(own)
        else:
            lower = tie = 0
        out.append(Counts(no_qualify, lower, tie, DEALER_HANDS - no_qualify - lower - tie))
    return out


def best_play(hands: list[Hand3], counts: list[Counts], play_net: Callable[[str, str], float],
              fold_net: float) -> tuple[list[bool], list[float]]:
    """Play where the expected net of playing is at least that of folding; per hand (play?, expected net).

    ``play_net(category, versus)`` is the player's net, in units of the first
    stake, of a played hand ending ``versus``; a fold nets ``fold_net``.
    """
    plays: list[bool] = []
    nets: list[float] = []
    for h, n in zip(hands, counts):
        ev = sum(k * play_net(h.category, v) for v, k in n.as_dict().items()) / DEALER_HANDS
        play = ev >= fold_net
        plays.append(play)
        nets.append(ev if play else fold_net)
    return plays, nets


def play_rule(hands: list[Hand3], plays: list[bool]) -> dict[str, object]:
    """The least hand played, and the hands that break the rule 'play it or better' (by value)."""
    played = [h for h, p in zip(hands, plays) if p]
    least = min(played, key=lambda h: h.value)
    exceptions = sum(1 for h, p in zip(hands, plays) if h.value >= least.value and not p)
    words = "-".join("23456789TJQKA"[r - 2] for r in sorted(least.ranks, reverse=True))
    return {"least_hand_played": f"{words} ({describe_three(least.value)})",
            "hands_at_or_above_not_played": exceptions,
            "hands_below_played": sum(1 for h, p in zip(hands, plays) if h.value < least.value and p)}
