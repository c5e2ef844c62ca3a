"""House edge of Pai Gow Poker: the house way on both sides, simulated over random deals of the 53-card deck.

Each round deals seven cards to one box and seven to the dealer from a
freshly shuffled 53-card deck (``random.Random(--seed)``). Both hands are set
by the table's house way (``controller.games.pai_gow_house_way``, the seed's
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
import math
import random
import time
from typing import Any

from controller.cards import deck
from controller.games.contract import GameSpec, RoundConfig
from controller.games.pai_gow_house_way import HouseWay, set_hand
from controller.games.pai_gow_poker import banker_net, contest, house_way_of, player_net, values_of

STAKE = 10_000  # minor units staked a round: the commission rounds as at the table, in whole units of this


def deal_values(way: HouseWay, cards: list[Any]) -> tuple[tuple[int, int] | None, tuple[int, int] | None]:
    """The (front, back) values of the first and the second seven cards, each set by the house way."""
    first = set_hand(way, cards[:7])
    second = set_hand(way, cards[7:14])
    return values_of(first.front, first.back), values_of(second.front, second.back)


def simulate(config: RoundConfig, rounds: int, seed: int, progress: Any = None) -> dict[str, Any]:
    table = config.paytable[config.variant]
    way = house_way_of(config)
    rng = random.Random(seed)
    cards = deck(jokers=1)
    tallies = {"bet": [0, 0], "bank": [0, 0]}  # sum of net, sum of net squared
    counts = {"win": 0, "push": 0, "lose": 0, "front_copy": 0, "back_copy": 0, "both_copies": 0}
    half = [0, 0]
    for n in range(rounds):
        rng.shuffle(cards)
        player, dealer = deal_values(way, cards)
        result = contest(player, dealer)
        counts[result] += 1
        assert player is not None and dealer is not None  # the house way never fouls
        front_copy, back_copy = player[0] == dealer[0], player[1] == dealer[1]
        counts["front_copy"] += front_copy
        counts["back_copy"] += back_copy
        counts["both_copies"] += front_copy and back_copy
        bet = player_net(table, result, STAKE)
        against_bank = contest(dealer, player)  # the dealer's hand staked against the player's bank
        bank = banker_net(table, {"win": -STAKE, "lose": STAKE}.get(against_bank, 0))
        for key, net in (("bet", bet), ("bank", bank)):
            tallies[key][0] += net
            tallies[key][1] += net * net
        mixed = bet if n % 2 == 0 else bank
        half[0] += mixed
        half[1] += mixed * mixed
        if progress is not None and n % 4096 == 0:
            progress(n)
    out: dict[str, Any] = {}
    for key, (total, squares) in (*tallies.items(), ("half_banking", half)):
        mean = total / rounds / STAKE
        var = max(0.0, squares / rounds / STAKE ** 2 - mean * mean)
        half_width = 1.96 * math.sqrt(var / rounds)
        out[key] = {"house_edge_percent": -100 * mean,
                    "ci95_percent": [-100 * (mean + half_width), -100 * (mean - half_width)],
                    "rounds": rounds}
    out["bet"]["rates"] = {k: round(v / rounds, 6) for k, v in counts.items()}
    return out


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
