"""Benchmark: place a full roulette layout for several players and settle it; exact math of the three games.

Prints one JSON document. Run: python bench/wheel_dice_settle.py [--players N] [--repeat R]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller import games  # noqa: E402
from controller.events import Bet, CloseBets, Dice, Wheel  # noqa: E402
from controller.house_edge import roulette, sic_bo, tarning  # noqa: E402


def full_layout(game: str, variant: str, players: int, result: object) -> dict[str, float | int]:
    spec, config = games.configure(game, variant, {})
    spots = [s.name for s in spec.new_round(config, ()).rules.table]  # type: ignore[attr-defined]
    colours = [f"colour{p}" for p in range(players)]
    started = time.perf_counter()
    round_ = spec.new_round(config, ())
    for p, colour in enumerate(colours):
        for spot in spots:
            round_.apply(Bet(p + 1, spot, 100, colour))
    placed = time.perf_counter()
    round_.apply(CloseBets())
    round_.apply(result)  # type: ignore[arg-type]
    done = time.perf_counter()
    assert round_.complete and len(round_.settlements()) == players * len(spots)
    return {"bets": players * len(spots), "place_ms": round((placed - started) * 1000, 1),
            "settle_ms": round((done - placed) * 1000, 2)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=8)
    args = parser.parse_args()
    out: dict[str, object] = {
        "roulette_se_full_layout": full_layout("roulette", "se", args.players, Wheel(17)),
        "roulette_european_full_layout": full_layout("roulette", "european", args.players, Wheel(0)),
        "tarning_full_layout": full_layout("tarning", "se", args.players, Dice((3, 2), ("red", "green"))),
        "sic_bo_full_layout": full_layout("sic-bo", "fi", args.players, Dice((4, 1, 4))),
    }
    exact = argparse.Namespace(exact=True)
    for game, variant, module in (("roulette", "european", roulette), ("tarning", "se", tarning),
                                  ("sic-bo", "fi", sic_bo)):
        spec, config = games.configure(game, variant)
        started = time.perf_counter()
        module.report(spec, config, exact)
        out[f"math_{game}_{variant}_ms"] = round((time.perf_counter() - started) * 1000, 1)
    json.dump(out, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
