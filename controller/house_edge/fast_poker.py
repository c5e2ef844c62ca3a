"""Exact house edge of Fast Poker and Caribbean Fast Poker (seed 000), no published figure to match.

The same enumeration as Three Card Poker (``three_card``): every player hand
against every bank hand from the other 49 cards, the play rule found by
comparing playing with giving up, settled by ``fast_poker.main_results`` and
``fast_poker.bonus_result``.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from controller.games.contract import GameSpec, RoundConfig
from controller.games.fast_poker import bonus_result, main_results
from controller.house_edge.three_card import all_hands, best_play, play_rule, versus_counts
from controller.house_edge.three_card_poker import unit_net


def report(spec: GameSpec, config: RoundConfig, args: argparse.Namespace) -> dict[str, Any]:
    if not getattr(args, "exact", False):
        raise ValueError("fast-poker math is exact enumeration: add --exact")
    started = time.perf_counter()
    multiple = int(config.paytable[config.variant]["play_multiple"])
    hands, least = all_hands()
    counts = versus_counts(hands, least)

    def play_net(category: str, versus: str) -> float:
        results = main_results(config, category, versus)
        return sum(unit_net(*r) * (multiple if spot == "play" else 1) for spot, r in results.items())

    fold = unit_net(*main_results(config, "high_card", None)["bet"])
    plays, nets = best_play(hands, counts, play_net, fold)
    n = len(hands)
    edge = -sum(nets) / n
    play_share = sum(plays) / n
    bonus = -sum(unit_net(*bonus_result(config, h.category, h.ranks, p)) for h, p in zip(hands, plays)) / n
    bonus_always = -sum(unit_net(*bonus_result(config, h.category, h.ranks, True)) for h in hands) / n
    return {
        "game": spec.id,
        "variant": config.variant,
        "method": "exact: 22 100 player hands x 18 424 bank hands (inclusion-exclusion counts)",
        "play_multiple": multiple,
        "play_rule": play_rule(hands, plays),
        "play_share": round(play_share, 6),
        "bets": {
            "bet_play": {
                "house_edge_percent": round(edge * 100, 4),
                "house_edge_per_total_staked_percent": round(edge / (1 + multiple * play_share) * 100, 4),
                "note": "per bet; the second figure divides by the bet plus the average play stake",
            },
            "bonus": {
                "house_edge_percent": round(bonus * 100, 4),
                "house_edge_if_never_given_up_percent": round(bonus_always * 100, 4),
                "note": "rule 18: giving up loses the bonus; the first figure follows the play rule above "
                        "(which ignores the bonus), the second is the box that plays every bonus-winning hand",
            },
        },
        "seconds": round(time.perf_counter() - started, 3),
    }
