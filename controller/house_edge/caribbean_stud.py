"""House edge of Caribbean Stud (simulation with a stated strategy) and the progressive's return (exact).

Main game: ``--simulate N`` deals N rounds of one box against the dealer,
ten distinct cards per round in a uniformly random order
(``numpy.random.default_rng(--seed)``, the tool's own randomness; the game
stays pure). The box raises with ace-king-jack-eight-three or better (the
"AKJ83 rule", which ignores the dealer's up card) and folds the rest. Hands
are ranked in batch by ``controller.hands.batch``; each distinct value is
shown once to the game (``hand_key``, ``ace_king_or_better``) and every
settlement is ``caribbean_stud.main_results``. ``versus_codes`` is
``caribbean_stud.contest`` over arrays (a test holds them equal).

A carried stake (``dk``: the raise when the dealer does not qualify, both
stakes on a tie) is counted as returned: it becomes the next round's raise or
ante, which the box would have placed anyway, and a fold returns a carried
raise. So carry and push have the same value here.

Progressive: exact over all 2 598 960 five-card hands, at the meter given by
``--meter`` (minor units).
"""

from __future__ import annotations

import argparse
import math
import time
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from controller.cards import parse_cards
from controller.games.caribbean_stud import hand_key, main_results, progressive_line
from controller.games.contract import GameSpec, RoundConfig
from controller.progress import nothing
from controller.hands.batch import rank_batch
from controller.hands.high import best_high
from controller.hands.qualifiers import ace_king_or_better
from controller.house_edge.five_card import ValueTable, value_table
from controller.house_edge.three_card_poker import unit_net

RAISE_AT_LEAST = "As Kd Jh 8c 3s"  # the stated strategy: raise with this hand or better
DEFAULT_METER = 1_000_000


def _unit(result: str, odds: Any) -> float:
    return 0.0 if result == "carry" else unit_net(result, odds)


VERSUS = ("no_qualify", "player_higher", "tie", "dealer_higher")
CHUNK = 1_000_000


@dataclass(frozen=True)
class GameView:
    """The game's view of every five-card value: paytable key, dealer qualification, hands per key."""

    table: ValueTable
    keys: tuple[str, ...]
    qualifies: np.ndarray
    counts: dict[str, int]

    @property
    def values(self) -> np.ndarray:
        return self.table.values


def game_view() -> GameView:
    table = value_table()
    keys = tuple(hand_key(h) for h in table.hands)
    qualifies = np.array([ace_king_or_better(h) for h in table.hands], dtype=bool)
    counts: dict[str, int] = {}
    for key, n in zip(keys, table.hands_per_value):
        counts[key] = counts.get(key, 0) + int(n)
    return GameView(table, keys, qualifies, counts)


def versus_codes(table: GameView, player: np.ndarray, dealer: np.ndarray) -> np.ndarray:
    """``contest`` for whole arrays of values: an index into ``VERSUS`` per row (checked against it in tests)."""
    qualifies = table.qualifies[np.searchsorted(table.values, dealer)]
    codes = np.where(player > dealer, 1, np.where(player == dealer, 2, 3))
    return np.where(qualifies, codes, 0)


def simulate(config: RoundConfig, rounds: int, seed: int, table: GameView,
             progress: Callable[[int], None] = nothing) -> dict[str, Any]:
    """Mean net per ante over ``rounds`` simulated rounds, with its 95 % confidence interval."""
    rng = np.random.default_rng(seed)
    multiple = int(config.paytable[config.variant]["raise_multiple"])
    threshold = best_high(parse_cards(RAISE_AT_LEAST)).value
    key_names = sorted(set(table.keys))
    key_index = np.array([key_names.index(k) for k in table.keys])
    nets = np.zeros((len(key_names), len(VERSUS)))
    for i, key in enumerate(key_names):
        for j, versus in enumerate(VERSUS):
            nets[i, j] = sum(_unit(*r) * (multiple if spot == "bet" else 1)
                             for spot, r in main_results(config, key, versus).items())
    fold = _unit(*main_results(config, "high_card", None)["ante"])
    total = total_sq = 0.0
    raised = 0
    done = 0
    while done < rounds:
        n = min(CHUNK, rounds - done)
        keys = rng.random((n, 52))
        ten = np.argpartition(keys, 10, axis=1)[:, :10]
        order = np.argsort(np.take_along_axis(keys, ten, axis=1), axis=1)
        dealt = np.take_along_axis(ten, order, axis=1)  # ten distinct cards in a uniformly random order
        player = rank_batch(dealt[:, :5])
        dealer = rank_batch(dealt[:, 5:])
        raise_ = player >= threshold
        key = key_index[np.searchsorted(table.values, player)]
        x = np.where(raise_, nets[key, versus_codes(table, player, dealer)], fold)
        total += float(x.sum())
        total_sq += float((x * x).sum())
        raised += int(raise_.sum())
        done += n
        progress(done)
    mean = total / rounds
    sd = math.sqrt(max(total_sq / rounds - mean * mean, 0.0))
    half = 1.96 * sd / math.sqrt(rounds)
    share = raised / rounds
    return {
        "strategy": f"raise with {RAISE_AT_LEAST} (ace-king-jack-eight-three) or better, fold the rest",
        "rounds": rounds,
        "seed": seed,
        "house_edge_percent": round(-mean * 100, 4),
        "confidence_95_percent": [round((-mean - half) * 100, 4), round((-mean + half) * 100, 4)],
        "house_edge_per_total_staked_percent": round(-mean / (1 + multiple * share) * 100, 4),
        "raise_share": round(share, 6),
        "sd_per_round": round(sd, 4),
    }


def progressive_return(config: RoundConfig, meter: int, table: GameView) -> dict[str, Any]:
    """Exact return of the progressive chip at ``meter``: every five-card hand, the prize by the game's table."""
    counts = table.counts
    total = sum(counts.values())
    stake = config["progressive_stake"]
    paid = fixed_paid = 0
    royal_share = 0.0
    lines: dict[str, Any] = {}
    for key, n in sorted(counts.items(), key=lambda kv: kv[1]):
        line = progressive_line(config, key)
        if line is None:
            continue
        if "share" in line:
            num, den = (int(x) for x in line["share"])
            prize = meter * num // den
            royal_share += n * num / den
        else:
            prize = int(line["fixed"])
            fixed_paid += n * prize
        paid += n * prize
        lines[key] = {"hands": n, "probability": n / total, "prize": prize}
    rtp = paid / total / stake
    break_even = math.ceil((stake * total - fixed_paid) / royal_share) if royal_share else None
    return {
        "method": f"exact over all {total} five-card hands",
        "meter": meter,
        "stake": stake,
        "return_percent": round(rtp * 100, 4),
        "house_edge_percent": round((1 - rtp) * 100, 4),
        "meter_for_100_percent_return": break_even,
        "contribution_per_chip": config["progressive_contribution"],
        "expected_paid_per_chip": round(paid / total, 4),
        "lines": lines,
    }


def report(spec: GameSpec, config: RoundConfig, args: argparse.Namespace) -> dict[str, Any]:
    rounds = getattr(args, "simulate", None)
    if not rounds and not getattr(args, "exact", False):
        raise ValueError("caribbean-stud: give --simulate N for the main game, --exact for the progressive alone")
    out: dict[str, Any] = {"game": spec.id, "variant": config.variant, "bets": {}}
    started = time.perf_counter()
    table = game_view()
    out["ranking_seconds"] = round(time.perf_counter() - started, 3)
    if rounds:
        if rounds < 1000:
            raise ValueError("--simulate needs at least 1000 rounds")
        started = time.perf_counter()
        out["method"] = "simulation of the main game; exact progressive"
        out["bets"]["ante_bet"] = simulate(config, rounds, getattr(args, "seed", 1), table,
                                           getattr(args, "progress", nothing))
        out["simulation_seconds"] = round(time.perf_counter() - started, 3)
    else:
        out["method"] = "exact progressive (the main game needs --simulate N)"
    if config["progressive"]:
        started = time.perf_counter()
        meter = getattr(args, "meter", None)
        progressive = progressive_return(config, DEFAULT_METER if meter is None else meter, table)
        out["bets"]["progressive"] = {"house_edge_percent": progressive["house_edge_percent"], **progressive}
        out["progressive_seconds"] = round(time.perf_counter() - started, 3)
    return out
