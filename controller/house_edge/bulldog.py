"""Exact house edge of Bulldog: each spot's third card is, seen from that spot, any of the cards left.

Whatever the other spots' third cards are, before they are seen each spot's
own third card is equally likely to be any of the cards left after the two
base cards, so every spot's expectation is Red Dog's: the same enumeration
(``red_dog.exact``) over the game's own paytable and settlement.
"""

from __future__ import annotations

import argparse
from typing import Any

from controller.games.contract import GameSpec, RoundConfig
from controller.house_edge import red_dog


def report(spec: GameSpec, config: RoundConfig, args: argparse.Namespace) -> dict[str, Any]:
    out = red_dog.report(spec, config, args)
    out["method"] += "; per spot (each spot's third card is any of the cards left, as at Red Dog)"
    return out
