"""Exact house edge of roulette bets: every pocket of the wheel once, settled by ``RouletteRules``."""

from __future__ import annotations

import argparse
from typing import Any

from controller.games.contract import GameSpec, RoundConfig
from controller.games.roulette import RouletteRules
from controller.house_edge.layout_math import report_for


def report(spec: GameSpec, config: RoundConfig, args: argparse.Namespace) -> dict[str, Any]:
    rules = RouletteRules(config)
    results = [(n, 1) for n in rules.grid.numbers]
    return report_for(rules, results, lambda shape: shape.kind,
                      f"exact: each of the {len(results)} pockets once, every spot of the layout", args)
