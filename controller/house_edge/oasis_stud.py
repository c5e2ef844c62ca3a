"""House edge of Oasis Stud Poker: the bonus exact, ante and bet simulated with the stated strategy.

Bonus (``--exact``): every five-card hand of the 52-card deck is ranked in
batch (``controller.hands.batch``) and counted by paytable key; the counts
settle through the game's ``bonus_result``. The bonus is figured for a box
that plays its five cards (a fold or a switch loses it: that is the box's
choice, priced by the strategy below). The joker table's bonus adds the
hands with the joker: for each four natural cards, the best of every card the
joker may stand for (``oasis_joker_high``'s rule, in batch), five of a kind
where the four share a rank.

Ante and bet (``--simulate N``): N rounds of one box against the dealer
(``oasis_stud_rounds``: numpy deals from ``numpy.random.default_rng(--seed)``,
every hand's decisions and properties asked of the game module once), the box
playing the stated strategy (``oasis_stud.strategy``: bet with a pair or
better or ace-king, switch the odd card of four to a flush, else fold, or at
version B bet; ``buys``: buy the dealer a game with two pair or better), the
dealer at version B exchanging his two highest cards himself when he does not
open (``replaced``), each round settled as ``box_results`` settles it: the net
of ante, bet and fees per ante, with its 95 % interval.
"""

from __future__ import annotations

import argparse
import math
import time
from itertools import combinations
from typing import Any, Mapping

import numpy as np

from controller.games.contract import GameSpec, RoundConfig
from controller.games.oasis_stud import bonus_result, progressive_share
from controller.hands.batch import rank_batch
from controller.hands.high import CATEGORIES, HighHand
from controller.house_edge.oasis_stud_rounds import simulate
from controller.house_edge.ultimate_texas_holdem import KEYS, key_counts

ROYAL = 8 << 20 | 14 << 16


def _stand_in(key: str) -> HighHand:
    """A hand of paytable key ``key`` for ``bonus_result`` (only the key matters to it)."""
    if key == "royal_flush":
        return HighHand("straight_flush", True, 0, (), "")
    return HighHand(key, False, 0, (), "")


def joker_key_counts() -> dict[str, int]:
    """Hands of four natural cards and the joker, by the key of their best (the joker fully wild)."""
    counts: dict[str, int] = {}
    rows = np.array(list(combinations(range(52), 4)), dtype=np.int16)
    for start in range(0, len(rows), 20000):
        four = rows[start:start + 20000]
        best = np.zeros(len(four), dtype=np.int64)
        for sub in range(52):
            free = ~np.any(four == sub, axis=1)
            rows_free = four[free]
            five = np.concatenate([rows_free, np.full((len(rows_free), 1), sub, dtype=np.int16)], axis=1)
            values = rank_batch(np.sort(five, axis=1), presorted=True).astype(np.int64)
            best[free] = np.maximum(best[free], values)
        ranks = four // 4
        quads = np.all(ranks == ranks[:, :1], axis=1)
        keys = np.where(best == ROYAL, 9, best >> 20)
        for index, n in zip(*np.unique(keys[~quads], return_counts=True)):
            key = KEYS[int(index)]
            counts[key] = counts.get(key, 0) + int(n)
        counts["five_of_a_kind"] = counts.get("five_of_a_kind", 0) + int(quads.sum())
    return counts


def bonus_exact(config: RoundConfig) -> dict[str, Any]:
    table = config.paytable["bonus"]
    counts = dict(zip(KEYS, key_counts(5)))
    if config["jokers"]:
        for key, n in joker_key_counts().items():
            counts[key] = counts.get(key, 0) + n
    total = sum(counts.values())
    ev = 0.0
    for key, n in counts.items():
        if not n:
            continue
        result, odds = bonus_result(table, _stand_in(key))
        ev += n * (odds.paid / odds.per if result == "win" and odds else -1.0 if result == "lose" else 0.0)
    return {"house_edge_percent": -100 * ev / total, "hands": total,
            "note": "the box plays its five cards (a fold or a switch loses the bonus)"}


def progressive_exact(config: RoundConfig, meter: int | None) -> dict[str, Any]:
    """The progressive version's chip at ``meter`` (minor units), exact over every five-card hand: a line with a
    share of the meter (``progressive_share``) returns that share (the chip is collected), every other line what
    the bonus table gives on the chip (``bonus_result``: the chip and its win, the chip on a push, nothing on a
    loss). With the break-even meter and the meter's mean growth between two hits at ``progressive_contribution``
    a chip. In the long run every contribution is paid back by the hits, so a chip returns the fixed lines plus
    its contribution (``long_run_return_percent``), and the house adds its seed (the meter's base) at every reset."""
    stake = int(config["progressive_stake"])
    table = config.paytable["bonus"]
    counts = dict(zip(KEYS, key_counts(5)))
    total = sum(counts.values())
    if meter is None:  # the royal's line of the fixed bonus table on the chip
        royal = table["royal_flush"]
        meter = stake * int(royal[0]) // int(royal[1])
    fixed = 0.0
    shares = 0.0
    hitting = 0
    for key, n in counts.items():
        share = progressive_share(config, key)
        if share is not None:
            shares += n * share[0] / share[1]
            hitting += n
            continue
        result, odds = bonus_result(table, _stand_in(key))
        if result == "win" and odds is not None:
            fixed += n * stake * (1 + odds.paid / odds.per)
        elif result == "push":
            fixed += n * stake
    returned = fixed + shares * meter
    contribution = int(config["progressive_contribution"])
    chips_per_hit = total / hitting if hitting else None
    return {"house_edge_percent": round(100 * (1 - returned / (total * stake)), 4),
            "return_percent": round(100 * returned / (total * stake), 4), "meter": meter, "stake": stake,
            "meter_for_100_percent_return": math.ceil((total * stake - fixed) / shares) if shares else None,
            "contribution_per_chip": contribution,
            "long_run_return_percent": round(100 * (fixed / total + contribution) / stake, 4),
            "chips_per_hit": round(chips_per_hit, 1) if chips_per_hit else None,
            "meter_growth_between_hits": round(contribution * chips_per_hit) if chips_per_hit else None,
            "hands": total, "note": "the box plays its five cards (a fold or a switch loses the chip)"}


def long_run(config: RoundConfig, base: int, cap: int | None = None, overflow: bool = False) -> dict[str, Any]:
    """The progressive chip in the long run at a table whose meter has ``base`` (and ``cap``, ``overflow``), exact
    over every five-card hand. Every contribution is paid back by the hits, and the house seeds the meter with its
    base each time a hit takes the whole meter (``share = [1, 1]``), so a chip returns the fixed lines (``bonus_result``
    on the chip) + ``progressive_contribution`` + base x the chance of such a hit. Above a cap without overflow part of
    the contributions is not collected: the return is then at most that (``bound``). ``break_even_contribution``: the
    contribution in minor units at which the chip returns exactly 100 %; above it the players have the edge."""
    stake = int(config["progressive_stake"])
    table = config.paytable["bonus"]
    counts = dict(zip(KEYS, key_counts(5)))
    total = sum(counts.values())
    fixed = 0.0
    emptying = 0
    for key, n in counts.items():
        share = progressive_share(config, key)
        if share is not None:
            emptying += n if share[0] == share[1] else 0
            continue
        result, odds = bonus_result(table, _stand_in(key))
        if result == "win" and odds is not None:
            fixed += n * stake * (1 + odds.paid / odds.per)
        elif result == "push":
            fixed += n * stake
    contribution = int(config["progressive_contribution"])
    lines, seed = fixed / total, base * emptying / total  # minor units a chip gets back, on average
    returned = lines + contribution + seed
    return {"stake": stake, "contribution": contribution, "base": base,
            "lines_return_percent": 100 * lines / stake, "contribution_percent": 100 * contribution / stake,
            "seed_percent": 100 * seed / stake, "return_percent": 100 * returned / stake,
            "house_edge_percent": 100 - 100 * returned / stake,
            "chips_per_reset": total / emptying if emptying else None,
            "break_even_contribution": stake - lines - seed,
            "bound": cap is not None and not overflow}


def progressive_warnings(config: RoundConfig, meters: Mapping[str, Any]) -> list[str]:
    """``config check``'s warnings for a progressive table (``meters``: the table's jackpots by name, each with
    ``base``, ``cap``, ``overflow``): the players' edge in the long run where the contribution gives it them."""
    meter = meters.get(config["meter"]) if config["progressive"] else None
    if meter is None:
        return []
    linked = getattr(meter, "link", None) is not None  # a linked meter's seed and cap are the floor's: not counted
    figures = long_run(config, 0 if linked else int(meter.base), None if linked else meter.cap, bool(meter.overflow))
    if figures["house_edge_percent"] > 0:
        return []
    every = figures["chips_per_reset"]
    seeded = f", {figures['seed_percent']:.2f} % the meter's base {figures['base']} seeded every {every:,.0f} chips" \
        if every else ""
    at_most = " at most" if figures["bound"] else ""
    return [f"options.progressive_contribution = {figures['contribution']}: the players have the edge in the long "
            f"run: a chip of {figures['stake']} returns{at_most} {figures['return_percent']:.2f} % (house edge "
            f"{figures['house_edge_percent']:.2f} %: {figures['lines_return_percent']:.2f} % from the bonus table's "
            f"lines, {figures['contribution_percent']:.2f} % to the meter{seeded}); the house keeps an edge with a "
            f"contribution below {figures['break_even_contribution']:.2f} (docs/games/oasis-stud.md)"]


def report(spec: GameSpec, config: RoundConfig, args: argparse.Namespace) -> dict[str, Any]:
    rounds = getattr(args, "simulate", None)
    if not rounds and not getattr(args, "exact", False):
        raise ValueError("oasis-stud: --exact for the bonus, --simulate N for ante and bet")
    out: dict[str, Any] = {"game": spec.id, "variant": config.variant, "bets": {}}
    methods = []
    if getattr(args, "exact", False):
        started = time.perf_counter()
        if config["jokers"]:  # the joker table offers no bonus: what the 52-card table would give there
            out["not_offered"] = {"bonus": bonus_exact(config)}
        elif config["progressive"]:
            out["bets"]["bonus"] = progressive_exact(config, getattr(args, "meter", None))
        else:
            out["bets"]["bonus"] = bonus_exact(config)
        out["exact_seconds"] = round(time.perf_counter() - started, 2)
        methods.append("exact bonus")
    if rounds:
        if rounds < 1000:
            raise ValueError("--simulate needs at least 1000 rounds")
        started = time.perf_counter()
        out["bets"]["ante_bet"] = simulate(config, rounds, getattr(args, "seed", 1), getattr(args, "progress", None))
        out["simulation_seconds"] = round(time.perf_counter() - started, 1)
        methods.append(f"simulated ante and bet ({rounds} rounds, the stated strategy)")
    out["method"] = "; ".join(methods)
    return out


__all__ = ["CATEGORIES", "bonus_exact", "long_run", "progressive_warnings", "report", "simulate"]
