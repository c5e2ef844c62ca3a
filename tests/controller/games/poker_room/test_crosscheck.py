"""The adapter against PokerKit alone, and PHH round trips (PokerKit writes and reads the hand history).

Random hands (seeded) go through a poker-room round as a table would send
them; the same events then go through PokerKit's own standard game class for
those rules, with no adapter in between; the stacks after the hand must
agree seat by seat. The default run plays a few dozen hands of each game
PokerKit has; ``-m slow`` plays TABLECTL_CROSSCHECK_HANDS (100,000 unless set)
of each, which takes hours (docs/performance.md records the runs made, by
``bench/poker_crosscheck.py``). The fixed-limit board games PokerKit has no
class for (limit Omaha high-low: PokerKit's class of that name bets pot
limit) are checked against ``reference.limit_board_stacks`` instead.
"""

from __future__ import annotations

import os
import random
import warnings

import pytest

from controller import games
from controller.cards import parse_cards
from controller.events import Action, Bet, CardOut, CloseBets, Event
from controller.games.contract import Accepted
from controller.games.poker_room.crosscheck import (
    CASES,
    PlayedHand,
    direct_stacks,
    known_difference,
    random_hand,
    split_by_reference,
)
from controller.games.poker_room.history import from_phh, pokerkit_game, to_phh
from controller.games.poker_room.phh_replay import Unplayable, replay
from controller.games.poker_room.reference import limit_board_stacks

EXPRESSIBLE = [(c.game, c.variant, c.options, c.default_hands) for c in CASES if c.reference == "pokerkit"]
IDS = [c.id for c in CASES if c.reference == "pokerkit"]
REFERENCED = [c for c in CASES if c.reference == "reference"]


def crosscheck(game, variant, options, hands, seed):
    spec, config = games.configure(game, variant, {"buy_in": 1, **options})
    assert pokerkit_game(config) is not None
    rng = random.Random(f"{seed}:{game}:{variant}:{sorted(options.items())}")
    for number in range(hands):
        played = random_hand(spec, config, rng)
        expected = direct_stacks(config, played)
        why = known_difference(played, expected)
        if why == "pots kept apart" and split_by_reference(config, played) is not None:
            expected = split_by_reference(config, played)  # PokerKit merges the pots: the reference splits each
        elif why:
            continue  # PokerKit's shared low half (test_high_low_pots) or its merged pots in a game without reference
        assert expected == played.after, f"hand {number}"
        assert sum(played.after.values()) == sum(played.seats.values())  # no rake here: no chip made or lost


@pytest.mark.parametrize("game, variant, options, hands", EXPRESSIBLE, ids=IDS)
def test_random_hands_settle_to_the_same_stacks_as_pokerkit_alone(game, variant, options, hands):
    crosscheck(game, variant, options, hands, seed=2026)


@pytest.mark.slow
@pytest.mark.parametrize("game, variant, options, hands", EXPRESSIBLE, ids=IDS)
def test_many_random_hands_settle_to_the_same_stacks_as_pokerkit_alone(game, variant, options, hands):
    crosscheck(game, variant, options, int(os.environ.get("TABLECTL_CROSSCHECK_HANDS", "100000")), seed=7)


def referenced(case, hands, seed):
    spec, config = games.configure(case.game, case.variant, {"buy_in": 1, **case.options})
    assert pokerkit_game(config) is None  # PokerKit has no reference for these
    rng = random.Random(f"{seed}:{case.id}")
    for number in range(hands):
        played = random_hand(spec, config, rng)
        assert limit_board_stacks(config, played.events, case.game.startswith("omaha")) == played.after, f"hand {number}"


@pytest.mark.parametrize("case", REFERENCED, ids=lambda c: c.id)
def test_limit_board_games_pokerkit_has_no_class_for_settle_as_the_reference_does(case):
    referenced(case, case.default_hands, seed=2026)


@pytest.mark.slow
@pytest.mark.parametrize("case", REFERENCED, ids=lambda c: c.id)
def test_many_limit_board_hands_settle_as_the_reference_does(case):
    referenced(case, int(os.environ.get("TABLECTL_CROSSCHECK_HANDS", "100000")), seed=7)


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
        try:
            again = replay(text)  # the PHH text through a fresh poker-room round, as a dealer terminal sends it
        except Unplayable as exc:
            assert "dealt twice" in str(exc)  # a triple draw that reached the muck: PHH has no burns to place it
        else:
            assert again.pokerkit == replayed, f"hand {number}"
            state = played.round.hand.state.__dict__
            if state.get("pots_kept_apart") or state.get("halves_moved"):  # PokerKit's two faults: odd chips
                assert sum(again.adapter.values()) == sum(replayed.values()), f"hand {number}"
            else:
                assert again.adapter == replayed, f"hand {number}"
        assert sum(replayed.values()) - take == sum(played.after.values())
        assert history.seats == played.round.order and history.user_defined_fields["_rake"] == outcome["rake"]
        if not take:
            assert replayed == played.after, f"hand {number}"
            assert list(history.finishing_stacks) == [played.after[s] for s in played.round.order]


def test_a_main_and_a_side_pot_with_the_same_players_are_split_apart_where_pokerkit_merges_them():
    """Hand 148 of the seeded no-limit hold'em hands: boxes 6, 8 and 2 tie; the main pot (6,194) and the first side
    pot (3,035) have those three players once the others' hands are killed. Each pot is split on its own, its odd
    chips to box 6 (first from the button's left): 2,066 and 1,013. PokerKit alone splits one pot of 9,229."""
    spec, config = games.configure("texas-holdem", "no-limit", {"buy_in": 1})
    rng = random.Random("ab-2026:texas-holdem-no-limit")
    for _ in range(149):
        played = random_hand(spec, config, rng)
    paid = played.round.outcome()["paid"]
    assert [(p["amount"], p["boxes"], p["won"]) for p in paid[:2]] == [
        (6194, [6, 8, 2], {"2": 2064, "6": 2066, "8": 2064}), (3035, [6, 8, 2], {"2": 1011, "6": 1013, "8": 1011})]
    alone = direct_stacks(config, played)
    assert (alone[6], alone[8], alone[2]) == (3077, 4410, 8386)  # 9,229 split once: 3,077 / 3,076 / 3,076
    assert known_difference(played, alone) == "pots kept apart"
    assert split_by_reference(config, played) == played.after
    assert (played.after[6], played.after[8], played.after[2]) == (3079, 4409, 8385)


def test_a_double_board_hand_whose_pots_pokerkit_merges_is_split_pot_by_pot_and_board_by_board():
    """Double-board no-limit hand 8,458 of seed ``crosscheck-2026-12-02c-1``: box 6 is all in for 970 and wins
    nothing; boxes 1 and 2 tie on both boards (6-6-4-4-Q and K-K-A-A-Q). The main pot (2,910) and the side pot
    (11,862) are each halved between the boards and each half split between 1 and 2, its odd chip to box 2 (first
    from the button's left): four parts, four odd chips to box 2. PokerKit alone merges the two pots into one of
    14,772 and splits it evenly, two chips fewer for box 2."""
    spec, config = games.configure("double-board-holdem", "no-limit", {"buy_in": 1})
    seats = {1: 6901, 2: 7704, 6: 970, 9: 4584}
    round_ = spec.new_round(config, ())
    events: list[Event] = [Bet(seat, "buy_in", stack) for seat, stack in seats.items()]
    events += [Action(1, "button"), CloseBets()]
    events += [CardOut(c) for c in parse_cards("Qs 8s 9h 8d Th 3s 2h Qc")]
    events += [Action(9, "fold"), Action(1, "all_in"), Action(2, "call"), Action(6, "call")]
    events += [CardOut(c) for c in parse_cards("9c 6h 4h 4d Kd 4s Ks 7s 6s Ad Kc 9s Ac")]
    for event in events:
        assert isinstance(round_.apply(event), Accepted), event
    assert round_.complete
    played = PlayedHand(events, seats, 1, {s: round_.stacks.get(s, 0) for s in seats}, round_)
    assert played.after == {1: 7384, 2: 8191, 6: 0, 9: 4584}
    alone = direct_stacks(config, played)
    assert alone == {1: 7386, 2: 8189, 6: 0, 9: 4584}
    assert known_difference(played, alone) == "pots kept apart"
    assert split_by_reference(config, played) == played.after
