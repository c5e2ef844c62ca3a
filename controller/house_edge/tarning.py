"""Exact house edge of Tärning and High Jack bets: all 36 (red, green) throws, settled by ``TarningRules``."""

from __future__ import annotations

import argparse
from typing import Any

from controller.games.contract import GameSpec, RoundConfig
from controller.games.grid import Shape
from controller.games.tarning import TarningRules
from controller.house_edge.layout_math import report_for


def _group(shape: Shape) -> str:
    return shape.name if shape.kind == "total" else shape.kind


def report(spec: GameSpec, config: RoundConfig, args: argparse.Namespace) -> dict[str, Any]:
    rules = TarningRules(config)
    results = [((red, green), 1) for red in range(1, 7) for green in range(1, 7)]
    return report_for(rules, results, _group, "exact: all 36 throws of the red and the green die", args)
