"""The adapter against PokerKit alone, and PHH round trips (PokerKit writes and reads the hand history).

Random hands (seeded) go through a poker-room round as a table would send
them; the same events then go through PokerKit's own standard game class for
those rules, with no adapter in between; the stacks after the hand must
agree seat by seat. The default run plays a few dozen hands of each game
PokerKit has; ``-m slow`` plays TABLECTL_CROSSCHECK_HANDS (100,000 unless set)
of each, which takes hours (docs/games/poker-room.md records the runs made).
"""

from __future__ import annotations

import os
import random
import warnings

import pytest

from controller import games
from controller.games.poker_room.crosscheck import direct_stacks, random_hand
from controller.games.poker_room.history import from_phh, pokerkit_game, to_phh

# (game, variant, options, hands in the default run); PokerKit's Omaha showdown is slow, so fewer of it
EXPRESSIBLE = [
    ("texas-holdem", "no-limit", {}, 40),
    ("texas-holdem", "limit", {}, 40),
    ("double-board-holdem", "no-limit", {}, 20),
    ("omaha", "pot-limit", {}, 8),
    ("seven-card-stud", "limit", {}, 30),
    ("seven-card-stud", "limit", {"scale": "high-low"}, 30),
    ("razz", "limit", {}, 30),
    ("lowball", "no-limit", {"draws": 1}, 30),
    ("lowball", "limit", {"draws": 3}, 30),
]
IDS = [f"{g}-{v}" + "".join(f"-{k}={x}" for k, x in o.items()) for g, v, o, _ in EXPRESSIBLE]


def crosscheck(game, variant, options, hands, seed):
    spec, config = games.configure(game, variant, {"buy_in": 1, **options})
    assert pokerkit_game(config) is not None
    rng = random.Random(f"{seed}:{game}:{variant}:{sorted(options.items())}")
    for number in range(hands):
        played = random_hand(spec, config, rng)
        assert direct_stacks(config, played) == played.after, f"hand {number}"
        assert sum(played.after.values()) == sum(played.seats.values())  # no rake here: no chip made or lost


@pytest.mark.parametrize("game, variant, options, hands", EXPRESSIBLE, ids=IDS)
def test_random_hands_settle_to_the_same_stacks_as_pokerkit_alone(game, variant, options, hands):
    crosscheck(game, variant, options, hands, seed=2026)


@pytest.mark.slow
@pytest.mark.parametrize("game, variant, options, hands", EXPRESSIBLE, ids=IDS)
def test_many_random_hands_settle_to_the_same_stacks_as_pokerkit_alone(game, variant, options, hands):
    crosscheck(game, variant, options, int(os.environ.get("TABLECTL_CROSSCHECK_HANDS", "100000")), seed=7)


PHH = [case for case in EXPRESSIBLE if case[0] != "double-board-holdem"]  # PHH has no double-board code


@pytest.mark.parametrize("game, variant, options, hands", PHH, ids=[i for i in IDS if "double" not in i])
def test_generated_hands_round_trip_through_phh(game, variant, options, hands):
    spec, config = games.configure(game, variant, {"buy_in": 1, "rake_bp": 500, "rake_cap": 200, **options})
    rng = random.Random(f"phh:{game}:{variant}")
    for number in range(max(4, hands // 4)):
        played = random_hand(spec, config, rng)
        text = to_phh(played.round, hand=number + 1)
        history = from_phh(text)
        assert from_phh(history.dumps()).dumps() == text  # PokerKit reads back exactly what it wrote
        with warnings.catch_warnings():
            # PHH records no burn cards: PokerKit burns at random from its own deck on a replay, which may
            # name a card the hand later deals (a warning, not a money question) or one from the muck
            warnings.simplefilter("ignore")
            *_, last = iter(history)
        outcome = played.round.outcome()
        take = outcome["rake"] + outcome["drop"]
        replayed = {seat: last.stacks[i] for i, seat in enumerate(played.round.order)}
        assert sum(replayed.values()) - take == sum(played.after.values())
        assert history.seats == played.round.order and history.user_defined_fields["_rake"] == outcome["rake"]
        if not take:
            assert replayed == played.after, f"hand {number}"
            assert list(history.finishing_stacks) == [played.after[s] for s in played.round.order]
