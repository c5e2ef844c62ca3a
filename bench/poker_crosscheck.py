"""The poker room's cross-check at size: random hands through the adapter against a reference (prints JSON lines).

For every game the adapter plays that PokerKit 0.7.7 has a standard class
for, the same seeded random hands (``crosscheck.random_hand``: every move
chosen among the round's legal ones, two to nine players, random stacks and
all-ins) are played through a ``PokerRoomRound`` and through PokerKit's own
class alone (``crosscheck.direct_stacks``); the stacks after each hand must
agree seat by seat and no chip may be made or lost. For the fixed-limit
board games PokerKit has no class for (limit Omaha high-low above all: its
``FixedLimitOmahaHoldemHighLowSplitEightOrBetter`` bets pot limit) the
reference is ``reference.limit_board_stacks``, the project's own betting
check and brute-force pot split.

A high-low hand where the adapter gave a side pot's unwinnable low half to
its high hand (PokerKit 0.7.7 shares it among that pot's players,
docs/games/poker-room.md) is counted apart when PokerKit alone differs
there, and then checked against the brute-force split where one exists.

With ``--phh`` every hand of a game PHH has a code for is also written as
PHH (``history.to_phh``) and replayed from that text through a fresh round
(``phh_replay``) and through PokerKit's reading of it: the three stacks must
agree.

One JSON line per game as it finishes, then a summary line. Each game stops
at ``--hands`` or after ``--seconds``, whichever comes first.

Usage (from the checkout root):
    nice -n 10 python bench/poker_crosscheck.py [--hands N] [--seconds S] [--games id,id] [--seed X]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller import games  # noqa: E402
from controller.games.poker_room.crosscheck import CASES, Case, direct_stacks, random_hand  # noqa: E402
from controller.games.poker_room.history import pokerkit_game, to_phh  # noqa: E402
from controller.games.poker_room.phh_replay import replay  # noqa: E402
from controller.games.poker_room.reference import limit_board_stacks  # noqa: E402


def run_case(case: Case, hands: int, seconds: float, seed: str, phh: bool = False) -> dict[str, object]:
    spec, config = games.configure(case.game, case.variant, {"buy_in": 1, **case.options})
    known_game = pokerkit_game(config)
    phh = phh and known_game is not None and known_game.code is not None
    phh_bad = 0
    rng = random.Random(f"{seed}:{case.id}")
    played_n = mismatches = known = showdowns = 0
    first_bad: list[str] = []
    started = time.perf_counter()
    cpu = time.process_time()
    while played_n < hands and time.perf_counter() - started < seconds:
        played = random_hand(spec, config, rng)
        played_n += 1
        assert sum(played.after.values()) == sum(played.seats.values()), "chips made or lost"
        hand = played.round.hand
        assert hand is not None
        moved = hand.state.__dict__.get("halves_moved", 0)
        showdowns += bool(hand.at_showdown())
        if case.reference == "pokerkit":
            expected = direct_stacks(config, played)
            if expected != played.after and moved:
                known += 1  # PokerKit's shared low half of a side pot nobody there can win
                expected = played.after
        else:
            expected = limit_board_stacks(config, played.events, omaha=case.game.startswith("omaha"))
        if phh:  # the hand written as PHH, read back through a fresh round and through PokerKit
            again = replay(to_phh(played.round, hand=played_n))
            if not (again.adapter == again.pokerkit == played.after):
                phh_bad += 1
                if len(first_bad) < 3:
                    first_bad.append(f"hand {played_n - 1} through PHH: adapter {again.adapter}, "
                                     f"PokerKit {again.pokerkit}, played {played.after}")
        if expected != played.after:
            mismatches += 1
            if len(first_bad) < 3:
                first_bad.append(f"hand {played_n - 1}: adapter {played.after}, reference {expected}")
    wall = time.perf_counter() - started
    return {"game": case.id, "reference": case.reference, "hands": played_n, "showdowns": showdowns,
            "mismatches": mismatches + phh_bad, "pokerkit_high_low_side_pot_differences": known,
            "phh_round_trips": played_n if phh else 0, "phh_mismatches": phh_bad,
            "first_mismatches": first_bad, "wall_s": round(wall, 1),
            "cpu_s": round(time.process_time() - cpu, 1), "hands_per_second": round(played_n / wall, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=100_000, help="hands per game, at most")
    parser.add_argument("--seconds", type=float, default=3600.0, help="seconds per game, at most")
    parser.add_argument("--games", default="", help="comma-separated case ids (default: all)")
    parser.add_argument("--seed", default="bench-2026", help="the random hands' seed")
    parser.add_argument("--phh", action="store_true", help="also write each hand as PHH and replay it through a "
                        "fresh round (phh_replay) and through PokerKit (games PHH has a code for)")
    args = parser.parse_args()
    chosen = [c for c in CASES if not args.games or c.id in args.games.split(",")]
    total = bad = 0
    for case in chosen:
        line = run_case(case, args.hands, args.seconds, args.seed, args.phh)
        total += int(str(line["hands"]))
        bad += int(str(line["mismatches"]))
        print(json.dumps(line), flush=True)
    print(json.dumps({"summary": True, "games": len(chosen), "hands": total, "mismatches": bad,
                      "python": sys.version.split()[0]}), flush=True)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
