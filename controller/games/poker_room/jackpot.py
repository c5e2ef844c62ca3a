"""The bad beat jackpot (seed 004, "Jackpot"): who hit it and each one's share, as exact fractions.

The seed: the jackpot is paid when a hand of a set strength loses to a still
better hand, only at a table where at least six players were dealt in, and
(RULES-NOTES) only when the hand reached its second betting round. The best
possible hand is always formed for each player. Where several players hold
qualifying hands, the two best hands are the ones that hit it: the best is
the winning hand, the next best the losing hand. A set percentage of the
jackpot goes to the losing hand, another to the winning hand, another is
shared by the other players dealt in; the rest stays as the new jackpot,
which the casino guarantees up to a minimum.

Ties (the seed: players holding the same qualifying hand share the part that
hand earns and a part of what the other players share): the others' part is
divided in one slot for every player dealt in but one winning and one losing
hand; players who tie for a hand pool its part with the slots their extra
holders would have had as "other players", and split the pool equally.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping, Sequence

LABELS = ("high-card", "one-pair", "two-pair", "three-of-a-kind", "straight", "flush", "full-house",
          "four-of-a-kind", "straight-flush")
_PK_LABELS = {"High card": 0, "One pair": 1, "Two pair": 2, "Three of a kind": 3, "Straight": 4, "Flush": 5,
              "Full house": 6, "Four of a kind": 7, "Straight flush": 8}


def label_rank(pk_label: str) -> int:
    """The index in ``LABELS`` of a PokerKit hand label ('Four of a kind' -> 7)."""
    return _PK_LABELS[str(pk_label)]


@dataclass(frozen=True)
class BadBeatRule:
    qualifier: str = "four-of-a-kind"  # the losing hand must be at least this
    players: int = 6  # dealt in, at least
    losing: int = 50  # percent of the jackpot
    winning: int = 25
    table: int = 15  # shared by the other players dealt in; the rest stays as the new jackpot


@dataclass(frozen=True)
class Hit:
    winning: tuple[int, ...]  # the seats holding the winning hand
    losing: tuple[int, ...]  # the seats holding the losing hand
    shares: Mapping[int, Fraction]  # seat -> fraction of the jackpot
    reseed: Fraction

    def to_json(self) -> dict[str, Any]:
        return {"winning": list(self.winning), "losing": list(self.losing),
                "shares": {str(s): [f.numerator, f.denominator] for s, f in sorted(self.shares.items())},
                "reseed": [self.reseed.numerator, self.reseed.denominator]}


def bad_beat(rule: BadBeatRule, dealt_in: Sequence[int], shown: Mapping[int, tuple[Any, int]],
             reached_second_round: bool) -> Hit | None:
    """The hit of one hand, or None.

    ``shown``: seat -> (comparable hand, label rank) for every hand shown at
    the showdown (the players still in); ``dealt_in``: every seat dealt in.
    """
    if len(dealt_in) < rule.players or not reached_second_round or len(shown) < 2:
        return None
    need = LABELS.index(rule.qualifier)
    qualifying = {seat: hand for seat, (hand, label) in shown.items() if label >= need}
    if not qualifying:
        return None
    best = max(hand for hand, _ in shown.values())
    beaten = [hand for hand in qualifying.values() if hand < best]
    if not beaten:
        return None
    second = max(beaten)
    winning = tuple(sorted(s for s, (hand, _) in shown.items() if hand == best))
    losing = tuple(sorted(s for s, hand in qualifying.items() if hand == second))
    slots = len(dealt_in) - 2
    slot = Fraction(rule.table, 100) / slots if slots > 0 else Fraction(0)
    shares: dict[int, Fraction] = {}
    for holders, part in ((winning, Fraction(rule.winning, 100)), (losing, Fraction(rule.losing, 100))):
        pool = part + slot * (len(holders) - 1)
        for seat in holders:
            shares[seat] = pool / len(holders)
    for seat in dealt_in:
        if seat not in shares:
            shares[seat] = slot
    paid = sum(shares.values(), Fraction(0))
    return Hit(winning, losing, shares, 1 - paid)


def sequential_shares(shares: Sequence[tuple[int, Fraction]]) -> list[tuple[int, tuple[int, int]]]:
    """Each recipient's share of what the meter holds after the ones before it, in order.

    A meter pays hits one after the other from what is left (``contract.apply_meter``),
    so a share ``p`` of the jackpot as it stood is ``p / (1 - paid so far)`` of what is left.
    """
    out: list[tuple[int, tuple[int, int]]] = []
    left = Fraction(1)
    for seat, share in shares:
        if share <= 0:
            continue
        part = share / left
        out.append((seat, (part.numerator, part.denominator)))
        left -= share
    return out
