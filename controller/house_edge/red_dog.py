"""Exact house edge of Red Dog over a six-deck shoe, with the raise decided optimally.

Every ordered pair of first and second card and every third card from the 310
left (by rank, weighted by how many of each rank the shoe still holds) is
settled by the game's own ``red_dog.stake_result``. The raise is found, not
given: on each spread the player raises the whole bet where the raise's
expectation is positive (``--decks`` changes the shoe). Bulldog settles each
spot the same way (``controller.house_edge.bulldog``).
"""

from __future__ import annotations

import argparse
import time
from fractions import Fraction
from typing import Any, Mapping

from controller.cards import Card
from controller.games.contract import GameSpec, RoundConfig
from controller.games.red_dog import spread_of, stake_result
from controller.money import Odds

RANKS = range(2, 15)


def _net(result: str, odds: Odds | None) -> Fraction:
    if result == "win":
        assert odds is not None
        return Fraction(odds.paid, odds.per)
    return Fraction(-1) if result == "lose" else Fraction(0)


def exact(table: Mapping[str, Any], decks: int) -> dict[str, Any]:
    """House edge per initial bet (exact fractions), the raise rule found and the chance of each case."""
    per_rank = 4 * decks
    cards = 13 * per_rank
    total = Fraction(0)
    staked = Fraction(0)
    by_spread: dict[str, dict[str, Any]] = {}
    for first in RANKS:
        for second in RANKS:
            p_two = Fraction(per_rank, cards) * Fraction(per_rank - (first == second), cards - 1)
            spread = spread_of(Card(first, "s"), Card(second, "h"))
            ev = Fraction(0)
            if spread == 0:
                ev = _net(*stake_result(table, Card(first, "s"), Card(second, "h"), None))
            else:
                for third in RANKS:
                    left = per_rank - (third == first) - (third == second)
                    ev += Fraction(left, cards - 2) * _net(*stake_result(table, Card(first, "s"), Card(second, "h"),
                                                                         Card(third, "d")))
            raise_ = spread not in (None, 0) and ev > 0
            total += p_two * ev * (2 if raise_ else 1)
            staked += p_two * (2 if raise_ else 1)
            key = "pair" if spread is None else str(spread)
            entry = by_spread.setdefault(key, {"probability": Fraction(0), "raise": raise_, "ev_per_unit": ev})
            entry["probability"] += p_two
    rule = sorted(int(k) for k, v in by_spread.items() if v["raise"] and k != "pair")
    return {
        "house_edge_percent": round(float(-total) * 100, 4),
        "house_edge_per_total_staked_percent": round(float(-total / staked) * 100, 4),
        "raise_rule": f"raise the whole bet on a spread of {rule[0]} or more" if rule else "never raise",
        "by_spread": {k: {"probability": round(float(v["probability"]), 6), "raise": v["raise"],
                          "ev_per_unit": round(float(v["ev_per_unit"]), 6)}
                      for k, v in sorted(by_spread.items(), key=lambda kv: (kv[0] == "pair", int(kv[0]) if
                                                                           kv[0] != "pair" else 0))},
        "exact_fraction": f"{-total.numerator}/{total.denominator}",
    }


def report(spec: GameSpec, config: RoundConfig, args: argparse.Namespace) -> dict[str, Any]:
    if getattr(args, "simulate", None):
        raise ValueError(f"{spec.id} math is exact enumeration: use --exact")
    started = time.perf_counter()
    figures = exact(config.paytable[config.variant], config["decks"])
    return {"game": spec.id, "variant": config.variant, "decks": config["decks"],
            "method": f"exact: every first, second and third card of a {config['decks']}-deck shoe, the raise "
                      "decided where it gains",
            "bets": {"bet_raise": figures}, "seconds": round(time.perf_counter() - started, 3)}
