"""Benchmark: blackjack simulation speed, fast path and through the Round (prints JSON).

Usage (from the checkout root): python bench/blackjack_math.py [--rounds N] [--round-rounds M]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]  # bench/serial.py
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # would shadow pyserial: the checkout instead

from controller import games  # noqa: E402
from controller.games.blackjack import rules as R  # noqa: E402
from controller.house_edge.blackjack import FastTable, derive_strategy, new_shoe, play_through_round, simulate  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=200_000, help="rounds per variant on the fast path")
    parser.add_argument("--round-rounds", type=int, default=2_000, help="rounds through BlackjackRound")
    args = parser.parse_args()
    out: dict[str, dict[str, float]] = {}
    for variant in ("se", "se-two-decks", "fi", "fi-a", "fi-b"):
        spec, config = games.configure("blackjack", variant)
        rules = R.rules_of(config)
        started = time.perf_counter()
        table = FastTable(rules, derive_strategy(rules))
        derived = time.perf_counter()
        simulate(table, rules.decks, args.rounds, 1)
        fast = time.perf_counter()
        rng = random.Random(1)
        shoe = new_shoe(rules.decks)
        rng.shuffle(shoe)
        pos = 0
        slow_started = time.perf_counter()
        for _ in range(args.round_rounds):
            if pos > len(shoe) * 3 // 4:
                rng.shuffle(shoe)
                pos = 0
            _net, pos = play_through_round(spec, config, table, shoe, pos)
        slow = time.perf_counter()
        out[variant] = {
            "derive_seconds": round(derived - started, 3),
            "fast_rounds_per_second": round(args.rounds / (fast - derived)),
            "round_rounds_per_second": round(args.round_rounds / (slow - slow_started)),
        }
    print(json.dumps({"python": sys.version.split()[0], "rounds": args.rounds, "variants": out}, indent=2))


if __name__ == "__main__":
    main()
