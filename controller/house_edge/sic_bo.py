"""Exact house edge of Sic Bo bets: all 216 ordered throws of three dice, settled by ``SicBoRules``."""

from __future__ import annotations

import argparse
from itertools import product
from typing import Any

from controller.games.contract import GameSpec, RoundConfig
from controller.games.grid import Shape
from controller.games.sic_bo import SicBoRules
from controller.house_edge.layout_math import report_for


def _group(shape: Shape) -> str:
    return shape.name if shape.kind == "total" else shape.kind


def report(spec: GameSpec, config: RoundConfig, args: argparse.Namespace) -> dict[str, Any]:
    rules = SicBoRules(config)
    results = [(dice, 1) for dice in product(range(1, 7), repeat=3)]
    return report_for(rules, results, _group, "exact: all 216 ordered throws of three dice", args)
