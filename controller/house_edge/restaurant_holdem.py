"""House edge of Hold em (SE): exact over the turn and river, sampled over flops, stratified by own cards.

The decision to call or fold comes after the flop, so the tool works per
(own two cards, flop): it settles all 1 081 turn-river pairs exactly through
``restaurant_holdem.main_result`` and calls where calling nets more than
folding (the ante lost). The 1 326 own-card pairs fall into 169 classes
(pairs, suited, offsuit) which are all covered, weighted by their number of
combinations; flops are sampled within each class (``--simulate N`` is the
total number of flops, ``--seed`` the tool's random source). Hands are ranked
by ``controller.hands.high`` (``best_holdem_using_hole`` where the board
itself is the best hand). The bonus is exact over the 1 326 own-card pairs.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from itertools import combinations
from typing import Any

from controller.cards import Card, deck
from controller.games.contract import GameSpec, RoundConfig
from controller.games.restaurant_holdem import bonus_result, main_result
from controller.hands.high import best_holdem_using_hole, high_hand_from, high_value
from controller.house_edge.three_card_poker import unit_net

RANKS = range(2, 15)


def hole_classes() -> list[tuple[tuple[Card, Card], int]]:
    """One representative per class of own cards and the number of pairs in it (sums to 1 326)."""
    out: list[tuple[tuple[Card, Card], int]] = []
    for high in RANKS:
        for low in RANKS:
            if low > high:
                continue
            if low == high:
                out.append(((Card(high, "s"), Card(low, "h")), 6))
            else:
                out.append(((Card(high, "s"), Card(low, "s")), 4))
                out.append(((Card(high, "s"), Card(low, "h")), 12))
    return out


class _Settler:
    """Net of ante and call together, per final hand value (cached: the game decides each value once)."""

    def __init__(self, config: RoundConfig) -> None:
        self.config = config
        self.cache: dict[int, float] = {}

    def net(self, hole: tuple[Card, Card], board: list[Card]) -> float:
        seven = list(hole) + board
        value = high_value(seven)
        if value == high_value(board):  # the board plays: the hand must use an own card
            hand = best_holdem_using_hole(hole, board, 1)
            value = hand.value
        else:
            hand = None
        found = self.cache.get(value)
        if found is None:
            hand = hand or high_hand_from(seven, value)
            found = self.cache[value] = 2 * unit_net(*main_result(self.config, hand))
        return found


def state_value(settler: _Settler, hole: tuple[Card, Card], flop: list[Card], rest: list[Card]) -> tuple[float, bool]:
    """The best of calling and folding after this flop, and whether the box calls."""
    total = 0.0
    n = 0
    for turn, river in combinations(rest, 2):
        total += settler.net(hole, flop + [turn, river])
        n += 1
    call = total / n
    fold = unit_net(*main_result(settler.config, None)) / 1  # the ante alone
    return (call, True) if call > fold else (fold, False)


def simulate(config: RoundConfig, flops: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    settler = _Settler(config)
    classes = hole_classes()
    per_class = max(2, math.ceil(flops / len(classes)))
    mean = variance = called = 0.0
    for hole, weight in classes:
        others = [c for c in deck() if c not in hole]
        values: list[float] = []
        for _ in range(per_class):
            drawn = rng.sample(others, 3)
            rest = [c for c in others if c not in drawn]
            value, call = state_value(settler, hole, drawn, rest)
            values.append(value)
            called += weight * call / per_class
        m = sum(values) / per_class
        s2 = sum((v - m) ** 2 for v in values) / (per_class - 1)
        mean += weight / 1326 * m
        variance += (weight / 1326) ** 2 * s2 / per_class
    half = 1.96 * math.sqrt(variance)
    share = called / 1326
    return {
        "strategy": "call after the flop where the exact expectation over turn and river beats folding",
        "flops": per_class * len(classes),
        "seed": seed,
        "house_edge_percent": round(-mean * 100, 4),
        "confidence_95_percent": [round((-mean - half) * 100, 4), round((-mean + half) * 100, 4)],
        "house_edge_per_total_staked_percent": round(-mean / (1 + share) * 100, 4),
        "call_share": round(share, 4),
    }


def bonus_exact(config: RoundConfig) -> dict[str, Any]:
    total = 0.0
    pairs = list(combinations(deck(), 2))
    for hole in pairs:
        total += unit_net(*bonus_result(config, hole, True))
    edge = -total / len(pairs)
    return {"house_edge_percent": round(edge * 100, 4),
            "note": "exact over the 1 326 own-card pairs, for a box that does not fold a bonus-winning hand "
                    "(a fold loses the bonus)"}


def report(spec: GameSpec, config: RoundConfig, args: argparse.Namespace) -> dict[str, Any]:
    flops = getattr(args, "simulate", None)
    out: dict[str, Any] = {"game": spec.id, "variant": config.variant, "bets": {"bonus": bonus_exact(config)}}
    if not flops:
        if not getattr(args, "exact", False):
            raise ValueError("restaurant-holdem: --simulate N (flops) for the main game, --exact for the bonus alone")
        out["method"] = "exact bonus (the main game needs --simulate N)"
        return out
    started = time.perf_counter()
    out["method"] = "main game: exact turn and river, sampled flops per own-card class; bonus exact"
    out["bets"]["ante_call"] = simulate(config, flops, getattr(args, "seed", 1))
    out["seconds"] = round(time.perf_counter() - started, 3)
    return out
