"""Exact house edge of Three Card Poker: every player hand against every dealer hand.

The play rule is found, not given: a hand is played where playing nets at
least as much as folding (the ante lost) over the 18 424 dealer hands left.
Ante, play and ante bonus settle through ``three_card_poker.main_results``
and Pair Plus through ``pair_plus_result``: the game's own rules.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from controller.games.contract import GameSpec, RoundConfig
from controller.games.three_card_poker import main_results, pair_plus_result
from controller.house_edge.three_card import all_hands, best_play, play_rule, versus_counts
from controller.money import Odds


def unit_net(result: str, odds: Odds | None) -> float:
    """The net of one unit staked, settled ``result`` at ``odds``."""
    if result == "win":
        assert odds is not None
        return odds.paid / odds.per
    return -1.0 if result == "lose" else 0.0


def report(spec: GameSpec, config: RoundConfig, args: argparse.Namespace) -> dict[str, Any]:
    if not getattr(args, "exact", False):
        raise ValueError("three-card-poker math is exact enumeration: add --exact")
    started = time.perf_counter()
    hands, least = all_hands()
    counts = versus_counts(hands, least)

    def play_net(category: str, versus: str) -> float:
        # ante, play and ante bonus are each one ante unit
        return sum(unit_net(*r) for r in main_results(config, category, versus).values())

    fold = unit_net(*main_results(config, "high_card", None)["ante"])
    plays, nets = best_play(hands, counts, play_net, fold)
    n = len(hands)
    edge = -sum(nets) / n
    play_share = sum(plays) / n
    pair_plus = -sum(unit_net(*pair_plus_result(config, h.category, p)) for h, p in zip(hands, plays)) / n
    pair_plus_always = -sum(unit_net(*pair_plus_result(config, h.category, True)) for h in hands) / n
    return {
        "game": spec.id,
        "variant": config.variant,
        "ante_bonus_table": config["ante_bonus"],
        "method": "exact: 22 100 player hands x 18 424 dealer hands (inclusion-exclusion counts)",
        "play_rule": play_rule(hands, plays),
        "play_share": round(play_share, 6),
        "bets": {
            "ante_play": {
                "house_edge_percent": round(edge * 100, 4),
                "house_edge_per_total_staked_percent": round(edge / (1 + play_share) * 100, 4),
                "note": "per ante, the ante bonus included; the second figure divides by ante plus the average play",
            },
            "pair_plus": {
                "house_edge_percent": round(pair_plus * 100, 4),
                "house_edge_if_never_folded_percent": round(pair_plus_always * 100, 4),
                "note": "a fold loses Pair Plus (002); with the play rule above no paying hand is folded"
                if abs(pair_plus - pair_plus_always) < 1e-12 else "a fold loses Pair Plus (002)",
            },
        },
        "seconds": round(time.perf_counter() - started, 3),
    }
