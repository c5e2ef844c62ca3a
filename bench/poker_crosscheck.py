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
at ``--hands`` or after ``--seconds``, whichever comes first. With
``--interleave`` the games take one hand each in turn, a progress line with
the counts so far is printed every ``--every`` seconds and ``--seconds`` is
for the whole run, so a run stopped at a deadline leaves exact counts for
every game; a run sent SIGTERM finishes the hands under way and prints its
lines as if it had reached its end. Each line also splits the CPU time between making the hand and
playing it through the round (``adapter_cpu_s``: the random moves, the
round, the adapter and PokerKit under it) and playing the same events
through the reference (``reference_cpu_s``: PokerKit alone, or
``reference.py``).

Usage (from the checkout root):
    nice -n 10 python bench/poker_crosscheck.py [--hands N] [--seconds S] [--games id,id] [--seed X]
        [--pokerkit-only] [--interleave --every S] [--phh] [--where]

``--where`` (one game after another) also counts, within ``adapter_cpu_s``,
the round's snapshot before each event, PokerKit's operations under the
adapter and working out what the round allows.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller import games  # noqa: E402
from controller.games.poker_room.crosscheck import (  # noqa: E402
    CASES,
    Case,
    direct_stacks,
    known_difference,
    random_hand,
    split_by_reference,
)
from controller.games.poker_room.history import pokerkit_game, to_phh  # noqa: E402
from controller.games.poker_room.phh_replay import replay  # noqa: E402
from controller.games.poker_room.reference import limit_board_stacks  # noqa: E402


class Checker:
    """One game's seeded random hands, played one at a time, with its counts and where the time went."""

    def __init__(self, case: Case, seed: str, phh: bool = False) -> None:
        self.case = case
        self.spec, self.config = games.configure(case.game, case.variant, {"buy_in": 1, **case.options})
        known_game = pokerkit_game(self.config)
        self.phh = phh and known_game is not None and known_game.code is not None
        self.rng = random.Random(f"{seed}:{case.id}")
        self.hands = self.mismatches = self.phh_bad = self.known = self.merged = self.showdowns = 0
        self.merged_checked = 0  # of those, split by reference.py too
        self.first_bad: list[str] = []
        self.wall = self.cpu = 0.0
        self.adapter_cpu = self.reference_cpu = 0.0  # the hand made and played through the round / the reference

    def step(self) -> None:
        """Play one more hand through the round and through the reference, and count it."""
        case, config = self.case, self.config
        wall, cpu = time.perf_counter(), time.process_time()
        played = random_hand(self.spec, config, self.rng)
        made = time.process_time()
        self.adapter_cpu += made - cpu
        self.hands += 1
        assert sum(played.after.values()) == sum(played.seats.values()), "chips made or lost"
        hand = played.round.hand
        assert hand is not None
        self.showdowns += bool(hand.at_showdown())
        if case.reference == "pokerkit":
            expected = direct = direct_stacks(config, played)
            why = known_difference(played, expected)
            if why == "low half":
                self.known += 1  # PokerKit's shared low half of a side pot nobody there can win
                expected = played.after
            elif why == "pots kept apart":
                self.merged += 1  # PokerKit's one split of a main pot and a side pot with the same players
                split = split_by_reference(config, played)  # where the reference splits the game, it decides
                self.merged_checked += split is not None
                expected = played.after if split is None else split
        else:
            why = None
            expected = limit_board_stacks(config, played.events, omaha=case.game.startswith("omaha"))
        self.reference_cpu += time.process_time() - made
        if self.phh:  # the hand written as PHH, read back through a fresh round and through PokerKit
            again = replay(to_phh(played.round, hand=self.hands))
            # PokerKit reading the PHH settles as PokerKit alone does, its known faults included
            pokerkit_ok = again.pokerkit == played.after or (case.reference == "pokerkit" and why is not None
                                                             and again.pokerkit == direct)
            if not (again.adapter == played.after and pokerkit_ok):
                self.phh_bad += 1
                if len(self.first_bad) < 3:
                    self.first_bad.append(f"hand {self.hands - 1} through PHH: adapter {again.adapter}, "
                                          f"PokerKit {again.pokerkit}, played {played.after}")
        if expected != played.after:
            self.mismatches += 1
            if len(self.first_bad) < 3:
                self.first_bad.append(f"hand {self.hands - 1}: adapter {played.after}, reference {expected}")
        self.wall += time.perf_counter() - wall
        self.cpu += time.process_time() - cpu

    def line(self) -> dict[str, object]:
        return {"game": self.case.id, "reference": self.case.reference, "hands": self.hands,
                "showdowns": self.showdowns, "mismatches": self.mismatches + self.phh_bad,
                "pokerkit_high_low_side_pot_differences": self.known,
                "pokerkit_merged_pot_differences": self.merged,
                "merged_pot_differences_split_by_the_reference": self.merged_checked,
                "phh_round_trips": self.hands if self.phh else 0, "phh_mismatches": self.phh_bad,
                "first_mismatches": self.first_bad, "wall_s": round(self.wall, 1), "cpu_s": round(self.cpu, 1),
                "adapter_cpu_s": round(self.adapter_cpu, 1), "reference_cpu_s": round(self.reference_cpu, 1),
                "hands_per_second": round(self.hands / self.wall, 1) if self.wall else 0.0,
                "hands_per_cpu_second": round(self.hands / self.cpu, 1) if self.cpu else 0.0}


def count_where(spent: dict[str, float]) -> None:
    """Wrap three parts of the round with CPU counters (``--where``): the snapshot before each event, PokerKit's
    operations under the adapter, and working out what the round allows."""
    from controller.games.poker_room import engine
    from controller.games.poker_room.round import PokerRoomRound

    def counted(owner: Any, name: str, key: str) -> None:
        inner = getattr(owner, name)

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            started = time.process_time()
            try:
                return inner(*args, **kwargs)
            finally:
                spent[key] += time.process_time() - started
        setattr(owner, name, wrapper)

    for key in ("snapshot_cpu_s", "pokerkit_under_the_adapter_cpu_s", "legal_moves_cpu_s"):
        spent[key] = 0.0
    counted(PokerRoomRound, "_snapshot", "snapshot_cpu_s")
    counted(engine, "_strict", "pokerkit_under_the_adapter_cpu_s")
    counted(PokerRoomRound, "_legal", "legal_moves_cpu_s")


def run_case(case: Case, hands: int, seconds: float, seed: str, phh: bool = False,
             spent: dict[str, float] | None = None) -> dict[str, object]:
    checker = Checker(case, seed, phh)
    if spent is not None:
        spent.update(dict.fromkeys(spent, 0.0))
    started = time.perf_counter()
    while checker.hands < hands and time.perf_counter() - started < seconds:
        checker.step()
    line = checker.line()
    if spent is not None:  # within adapter_cpu_s
        line.update({key: round(value, 2) for key, value in spent.items()})
    return line


def run_interleaved(chosen: list[Case], hands: int, seconds: float, seed: str, every: float) -> list[dict[str, object]]:
    """One hand of each game in turn until each has ``hands`` or ``seconds`` have passed in all; the counts so far
    are printed every ``every`` seconds (a run stopped early still leaves its exact counts)."""
    checkers = [Checker(case, seed) for case in chosen]
    stop: list[int] = []  # SIGTERM: finish the round of hands under way, then print the lines as at the end
    signal.signal(signal.SIGTERM, lambda signum, frame: stop.append(signum))
    started = last = time.perf_counter()
    while time.perf_counter() - started < seconds and not stop:
        left = [c for c in checkers if c.hands < hands]
        if not left:
            break
        for checker in left:
            checker.step()
        if time.perf_counter() - last >= every:
            last = time.perf_counter()
            print(json.dumps({"progress": True, "elapsed_s": round(last - started),
                              "hands": {c.case.id: c.hands for c in checkers},
                              "mismatches": sum(c.mismatches + c.phh_bad for c in checkers)}), flush=True)
    return [c.line() for c in checkers]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=100_000, help="hands per game, at most")
    parser.add_argument("--seconds", type=float, default=3600.0, help="seconds per game, at most (with "
                        "--interleave: in all)")
    parser.add_argument("--games", default="", help="comma-separated case ids (default: all)")
    parser.add_argument("--pokerkit-only", action="store_true", help="only the games PokerKit has a class for")
    parser.add_argument("--seed", default="bench-2026", help="the random hands' seed")
    parser.add_argument("--phh", action="store_true", help="also write each hand as PHH and replay it through a "
                        "fresh round (phh_replay) and through PokerKit (games PHH has a code for)")
    parser.add_argument("--interleave", action="store_true", help="one hand of each game in turn, with the counts "
                        "so far every --every seconds")
    parser.add_argument("--every", type=float, default=60.0, help="seconds between progress lines (--interleave)")
    parser.add_argument("--where", action="store_true", help="also count the CPU of the round's snapshots, of "
                        "PokerKit under the adapter and of the legal moves (one game after another)")
    args = parser.parse_args()
    spent: dict[str, float] | None = None
    if args.where:
        spent = {}
        count_where(spent)
    chosen = [c for c in CASES if (not args.games or c.id in args.games.split(","))
              and (not args.pokerkit_only or c.reference == "pokerkit")]
    if args.interleave:
        lines = run_interleaved(chosen, args.hands, args.seconds, args.seed, args.every)
    else:
        lines = []
        for case in chosen:
            lines.append(run_case(case, args.hands, args.seconds, args.seed, args.phh, spent))
            print(json.dumps(lines[-1]), flush=True)
    if args.interleave:
        for line in lines:
            print(json.dumps(line), flush=True)
    total = sum(int(str(line["hands"])) for line in lines)
    bad = sum(int(str(line["mismatches"])) for line in lines)
    print(json.dumps({"summary": True, "games": len(chosen), "hands": total, "mismatches": bad,
                      "python": sys.version.split()[0]}), flush=True)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
