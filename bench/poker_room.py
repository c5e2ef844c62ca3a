"""Benchmark: the poker room's adapter against PokerKit alone, in the same run (prints JSON).

1. Hands per second: the same seeded random hands (events made beforehand,
   not timed) replayed through a ``PokerRoomRound`` (every event through
   ``Round.apply``: snapshot, PokerKit, the prompt, the settlement) and
   through PokerKit's own game class alone (``crosscheck.direct_stacks``).
   The adapter's time per event is also given (mean, 99th percentile, worst).
2. A nine-player showdown: nine players call and check to the river; the
   cost of the last check, which ends the betting, shows down nine hands,
   pushes the pots and settles the hand, through the adapter and through
   PokerKit alone: wall time (median, worst) and the process's CPU time
   (median), which a machine shared with other work disturbs less.

Usage (from the checkout root):
    python bench/poker_room.py [--hands N] [--showdowns M] [--games texas-holdem,omaha]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller import games  # noqa: E402
from controller.cards import card_from_index  # noqa: E402
from controller.events import Action, Bet, CardOut, CloseBets, Event  # noqa: E402
from controller.games.poker_room.crosscheck import PlayedHand, direct_stacks, direct_state, random_hand  # noqa: E402
from controller.games.poker_room.history import pokerkit_game  # noqa: E402
from controller.games.poker_room.round import PokerRoomRound  # noqa: E402
from controller.games.poker_room.variants import forget_hands  # noqa: E402

VARIANTS = {"texas-holdem": "no-limit", "omaha": "pot-limit", "seven-card-stud": "limit", "razz": "limit",
            "lowball": "limit"}
OPTIONS = {"lowball": {"draws": 3}}


def replay_adapter(spec, config, played: PlayedHand, per_event: list[float]) -> dict[int, int]:
    round_ = spec.new_round(config, ())
    for event in played.events:
        started = time.perf_counter()
        round_.apply(event)
        per_event.append(time.perf_counter() - started)
    return {s: round_.stacks.get(s, 0) for s in played.seats}


def hands_per_second(game: str, hands: int) -> dict[str, float]:
    spec, config = games.configure(game, VARIANTS[game], {"buy_in": 1, **OPTIONS.get(game, {})})
    rng = random.Random(f"bench:{game}")
    played = [random_hand(spec, config, rng) for _ in range(hands)]
    events = sum(len(p.events) for p in played)
    per_event: list[float] = []
    forget_hands()  # the hands were made through the adapter: time it without what it remembered then
    started = time.perf_counter()
    for p in played:
        assert replay_adapter(spec, config, p, per_event) == p.after
    adapter = time.perf_counter() - started
    started = time.perf_counter()
    for p in played:
        assert direct_stacks(config, p) == p.after
    alone = time.perf_counter() - started
    per_event.sort()
    return {
        "hands": hands, "events": events,
        "adapter_hands_per_second": round(hands / adapter, 1),
        "pokerkit_alone_hands_per_second": round(hands / alone, 1),
        "adapter_over_pokerkit": round(adapter / alone, 2),
        "adapter_ms_per_event_mean": round(1000 * statistics.fmean(per_event), 3),
        "adapter_ms_per_event_p99": round(1000 * per_event[int(0.99 * (len(per_event) - 1))], 3),
        "adapter_ms_per_event_max": round(1000 * per_event[-1], 3),
    }


def nine_way(game: str, rng: random.Random) -> tuple[list[Event], list[Event]]:
    """A nine-player hand called and checked to the river: (everything but the last check, the last check)."""
    spec, config = games.configure(game, VARIANTS[game], {"buy_in": 1, "seats": 9})
    deck = [card_from_index(i) for i in range(52)]
    rng.shuffle(deck)
    round_ = spec.new_round(config, ())
    assert isinstance(round_, PokerRoomRound)
    events: list[Event] = [*(Bet(s, "buy_in", 10_000) for s in range(1, 10)), Action(9, "button"), CloseBets()]
    for e in events:
        round_.apply(e)
    while True:
        legal = round_.legal()
        if legal["waiting"] == "card":
            event: Event = CardOut(deck.pop())
        else:
            acts = legal["actions"]
            event = Action(legal["box"], "check" if "check" in acts else "call")
        round_.apply(event)
        if round_.complete:
            return events, [event]
        events.append(event)


def showdown_cost(game: str, repeats: int) -> dict[str, float]:
    spec, config = games.configure(game, VARIANTS[game], {"buy_in": 1, "seats": 9})
    known = pokerkit_game(config)
    assert known is not None
    adapter_times, alone_times, adapter_cpu, alone_cpu = [], [], [], []
    rng = random.Random(f"showdown:{game}")
    for _ in range(repeats):
        before, last = nine_way(game, rng)
        round_ = spec.new_round(config, ())
        assert isinstance(round_, PokerRoomRound)
        for e in before:
            round_.apply(e)
        forget_hands()
        started, cpu = time.perf_counter(), time.process_time()
        round_.apply(last[0])
        adapter_times.append(time.perf_counter() - started)
        adapter_cpu.append(time.process_time() - cpu)
        assert round_.complete
        played = PlayedHand(before, {s: 10_000 for s in range(1, 10)}, 9, {}, round_)
        # PokerKit alone: the same hand up to the last check, then the last check timed
        state, _order = direct_state(config, played)
        started, cpu = time.perf_counter(), time.process_time()
        state.check_or_call()
        alone_times.append(time.perf_counter() - started)
        alone_cpu.append(time.process_time() - cpu)
        assert not state.status
    return {"repeats": repeats,
            "adapter_ms_median": round(1000 * statistics.median(adapter_times), 2),
            "adapter_ms_max": round(1000 * max(adapter_times), 2),
            "pokerkit_alone_ms_median": round(1000 * statistics.median(alone_times), 2),
            "pokerkit_alone_ms_max": round(1000 * max(alone_times), 2),
            "adapter_cpu_ms_median": round(1000 * statistics.median(adapter_cpu), 2),
            "pokerkit_alone_cpu_ms_median": round(1000 * statistics.median(alone_cpu), 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=300, help="random hands per game")
    parser.add_argument("--showdowns", type=int, default=20, help="nine-player showdowns per game")
    parser.add_argument("--games", default=",".join(VARIANTS), help="comma-separated game ids")
    args = parser.parse_args()
    out: dict[str, dict[str, object]] = {}
    for game in args.games.split(","):
        entry: dict[str, object] = {"betting": VARIANTS[game], **hands_per_second(game, args.hands)}
        if game in ("texas-holdem", "omaha"):
            entry["nine_player_showdown"] = showdown_cost(game, args.showdowns)
        out[game] = entry
    print(json.dumps({"python": sys.version.split()[0], "games": out}, indent=2))


if __name__ == "__main__":
    main()
