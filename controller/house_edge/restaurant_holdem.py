"""House edge of Hold em (SE): exact (the default), or sampled over flops with ``--simulate N``.

Exact: ``holdem_enumeration`` walks every own-card class, every flop and every
turn and river, and calls where calling beats folding.

Sampled: the decision to call or fold comes after the flop, so the tool works per
(own two cards, flop): it settles all 1 081 turn-river pairs exactly and
calls where calling nets more than folding (the ante lost). The 1 326
own-card pairs fall into 169 classes (pairs, suited, offsuit) which are all
covered, weighted by their number of combinations; flops are sampled within
each class (``--simulate N`` is the total number of flops, ``--seed`` the
tool's random source). Hands are ranked in batch (``controller.hands.batch``);
where the board itself is the best hand, the best of the 20 five-card subsets
holding an own card is taken (rule 6; a test holds this equal to
``best_holdem_using_hole``). Each distinct value is settled once by
``restaurant_holdem.main_result``, the game's code. The bonus is exact over
the 1 326 own-card pairs.
"""

from __future__ import annotations

import argparse
import math
import time
from itertools import combinations
from typing import Any, Callable

import numpy as np

from controller.cards import Card, deck
from controller.games.contract import GameSpec, RoundConfig
from controller.progress import nothing
from controller.games.restaurant_holdem import bonus_result, main_result
from controller.hands.batch import rank_batch
from controller.house_edge.five_card import ValueTable, value_table
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


PAIRS_47 = np.array(list(combinations(range(47), 2)), dtype=np.int64)  # the 1 081 turn-river pairs
# five-card subsets of (hole 0, hole 1, board 0..4) that hold at least one own card: 20 of the 21
WITH_OWN = np.array([c for c in combinations(range(7), 5) if 0 in c or 1 in c], dtype=np.int64)


def main_nets(config: RoundConfig, table: ValueTable) -> np.ndarray:
    """Net of ante and call together (in antes) per distinct five-card value, decided by the game."""
    return np.array([2 * unit_net(*main_result(config, hand)) for hand in table.hands])


def own_card_values(seven: np.ndarray) -> np.ndarray:
    """The best value using at least one own card; ``seven`` rows are (own, own, board x 5)."""
    values = rank_batch(seven)
    board_plays = values == rank_batch(seven[:, 2:])
    if board_plays.any():
        rows = seven[board_plays]
        subsets = rows[:, WITH_OWN].reshape(-1, 5)
        values[board_plays] = rank_batch(subsets).reshape(len(rows), len(WITH_OWN)).max(axis=1)
    return values


def class_values(config: RoundConfig, nets: np.ndarray, table: ValueTable, hole: tuple[Card, Card],
                 flops: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """For ``flops`` sampled flops with these own cards: the value of calling (exact over turn and river)."""
    own = np.array([c.index for c in hole], dtype=np.int64)
    others = np.array([i for i in range(52) if i not in own], dtype=np.int64)
    keys = rng.random((flops, 50))
    flop = others[np.argpartition(keys, 3, axis=1)[:, :3]]
    taken = np.zeros((flops, 52), dtype=bool)
    taken[:, own] = True
    np.put_along_axis(taken, flop, True, axis=1)
    rest = np.nonzero(~taken)[1].reshape(flops, 47)
    turn_river = rest[:, PAIRS_47]  # (flops, 1081, 2)
    runs = PAIRS_47.shape[0]
    seven = np.empty((flops, runs, 7), dtype=np.int64)
    seven[:, :, 0:2] = own
    seven[:, :, 2:5] = flop[:, None, :]
    seven[:, :, 5:7] = turn_river
    values = own_card_values(seven.reshape(-1, 7))
    call = nets[table.index(values)].reshape(flops, runs).mean(axis=1)
    return call, flop


def simulate(config: RoundConfig, flops: int, seed: int, progress: Callable[[int], None] = nothing) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    table = value_table()
    nets = main_nets(config, table)
    fold = unit_net(*main_result(config, None))  # the ante alone
    classes = hole_classes()
    per_class = max(2, math.ceil(flops / len(classes)))
    mean = variance = called = 0.0
    for number, (hole, weight) in enumerate(classes):
        progress(number * per_class)
        calls = []
        for start in range(0, per_class, 200):
            call, _ = class_values(config, nets, table, hole, min(200, per_class - start), rng)
            calls.append(call)
        call = np.concatenate(calls)
        best = np.maximum(call, fold)
        m = float(best.mean())
        s2 = float(best.var(ddof=1))
        mean += weight / 1326 * m
        variance += (weight / 1326) ** 2 * s2 / per_class
        called += weight * float((call > fold).mean())
    progress(len(classes) * per_class)
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


def exact(config: RoundConfig) -> dict[str, Any]:
    """The main game exactly: every own-card class, every flop, every turn and river (``holdem_enumeration``)."""
    from controller.house_edge.holdem_enumeration import call_values, nets_by_key

    table = value_table()
    net = nets_by_key(table.values, table.hands, lambda hand: 2 * unit_net(*main_result(config, hand)))
    fold = unit_net(*main_result(config, None))  # the ante alone
    mean = called = 0.0
    for hole, weight in hole_classes():
        call = call_values(hole, net)
        mean += weight / 1326 * float(np.maximum(call, fold).mean())
        called += weight * float((call > fold).mean())
    share = called / 1326
    return {
        "strategy": "call after the flop where the exact expectation over turn and river beats folding",
        "method": "exact: 169 own-card classes (1 326 pairs) x 19 600 flops x 1 081 turn-river pairs",
        "house_edge_percent": round(-mean * 100, 4),
        "house_edge_per_total_staked_percent": round(-mean / (1 + share) * 100, 4),
        "call_share": round(share, 6),
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
    started = time.perf_counter()
    if flops:
        out["method"] = "main game: exact turn and river, sampled flops per own-card class; bonus exact"
        out["bets"]["ante_call"] = simulate(config, flops, getattr(args, "seed", 1), getattr(args, "progress", nothing))
    else:
        out["method"] = "exact enumeration of the main game and the bonus"
        out["bets"]["ante_call"] = exact(config)
    out["seconds"] = round(time.perf_counter() - started, 3)
    return out
