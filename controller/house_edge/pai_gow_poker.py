"""House edge of Pai Gow Poker: the house way on both sides, simulated over random deals of the 53-card deck.

Each round deals seven cards to one box and seven to the dealer from a
freshly shuffled 53-card deck (``numpy.random.default_rng(--seed)``, many
rounds at once: ``pai_gow_rounds``). Both hands are set by the table's house
way (``controller.games.pai_gow_house_way``, the seed's
unless the ``house_way`` option names another), so the player's strategy is
the house way itself, the common yardstick. Every round settles through the
game's own ``contest`` and ``player_net`` (and ``banker_net`` for the bank):

- ``bet``: the box against the house bank, 1 to 1 less the commission, copies
  to the bank;
- ``bank``: the same deal seen from a player who banks against the dealer's
  hand (the dealer's seven cards are the hand staked against the bank, as
  large as the bank's stake), the banker's win less the commission;
- ``half_banking``: a player who banks every other round (the mean of the two).

Not enumerable (the deals of two seven-card hands from 53 cards number about
2.6e15), so the figures carry 95 % intervals.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from controller.games.contract import GameSpec, RoundConfig
from controller.games.pai_gow_house_way import HouseWay, set_hand
from controller.games.pai_gow_poker import values_of
from controller.house_edge.pai_gow_rounds import STAKE, simulate

__all__ = ["STAKE", "deal_values", "report", "simulate"]


def deal_values(way: HouseWay, cards: list[Any]) -> tuple[tuple[int, int] | None, tuple[int, int] | None]:
    """The (front, back) values of the first and the second seven cards, each set by the house way, one hand at
    a time (the reference the numpy rounds are held to)."""
    first = set_hand(way, cards[:7])
    second = set_hand(way, cards[7:14])
    return values_of(first.front, first.back), values_of(second.front, second.back)


def report(spec: GameSpec, config: RoundConfig, args: argparse.Namespace) -> dict[str, Any]:
    rounds = getattr(args, "simulate", None)
    if getattr(args, "exact", False):
        raise ValueError("pai-gow-poker: not enumerable (two seven-card hands of 53 cards); use --simulate N")
    if not rounds or rounds < 1000:
        raise ValueError("pai-gow-poker: --simulate N with N at least 1000 (the house way on both sides)")
    started = time.perf_counter()
    bets = simulate(config, rounds, getattr(args, "seed", 1), getattr(args, "progress", None))
    return {"game": spec.id, "variant": config.variant, "bets": bets,
            "method": f"simulated {rounds} rounds, the house way on both sides (seed {getattr(args, 'seed', 1)})",
            "seconds": round(time.perf_counter() - started, 1)}
