"""House edge of Dynamic Poker Pro: the bonus exact, the blind game simulated with the stated strategy.

The same tools as Texas Hold'em Bonus (``controller.house_edge.texas_holdem_bonus``):
the bonus over every own and dealer pair through ``bonus_result``; the main
game simulated with ``texas_holdem_bonus.basic_strategy`` (the deal and the
decisions are the same) and settled by Dynamic Poker Pro's own ``main_results``.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from controller.games.contract import GameSpec, RoundConfig
from controller.games.dynamic_poker_pro import main_results
from controller.house_edge.texas_holdem_bonus import bonus_exact, other_variants, simulate_variants


def report(spec: GameSpec, config: RoundConfig, args: argparse.Namespace) -> dict[str, Any]:
    rounds = getattr(args, "simulate", None)
    if not rounds and not getattr(args, "exact", False):
        raise ValueError("dynamic-poker-pro: --exact for the bonus, --simulate N for the main game")
    out: dict[str, Any] = {"game": spec.id, "variant": config.variant, "bets": {}}
    started = time.perf_counter()
    out["bets"]["bonus"] = bonus_exact(config)
    out["bonus_seconds"] = round(time.perf_counter() - started, 3)
    methods = ["exact bonus"]
    if rounds:
        if rounds < 1000:
            raise ValueError("--simulate needs at least 1000 rounds")
        started = time.perf_counter()
        configs = other_variants(spec, config, args)
        figures = simulate_variants(configs, rounds, getattr(args, "seed", 1), main_results, "blind",
                                    progress=getattr(args, "progress", None))
        out["bets"]["main"] = figures[0]
        if len(configs) > 1:
            out["main_by_variant"] = {c.variant: f for c, f in zip(configs, figures)}
        out["simulation_seconds"] = round(time.perf_counter() - started, 3)
        methods.append(f"simulated main game ({rounds} rounds" + (", every variant on the same cards)"
                                                                 if len(configs) > 1 else ")"))
    out["method"] = "; ".join(methods)
    return out
