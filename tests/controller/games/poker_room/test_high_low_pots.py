"""High-low: each pot is split on its own; a side pot none of whose players has a low goes whole to its high hand."""

from __future__ import annotations

import pytest

from controller import games
from controller.cards import parse_card
from controller.events import Action, Bet, CardOut, CloseBets
from controller.games.contract import Accepted
from controller.games.poker_room.reference import LimitRuleError, limit_board_stacks


def _play(game, variant, options, stacks, holes, board):
    spec, config = games.configure(game, variant, {"buy_in": 1, "seats": len(stacks), **options})
    round_ = spec.new_round(config, ())
    events = [Bet(seat, "buy_in", chips) for seat, chips in stacks.items()] + [Action(max(stacks), "button"), CloseBets()]
    for event in events:
        assert isinstance(round_.apply(event), Accepted)
    n = len(stacks)
    dealt = [parse_card(holes[j % n][2 * (j // n):2 * (j // n) + 2]) for j in range(n * len(holes[0]) // 2)]
    cards = iter(dealt + [parse_card(board[i:i + 2]) for i in range(0, len(board), 2)])
    while not round_.complete:
        legal = round_.legal()
        if legal["waiting"] == "card":
            event = CardOut(next(cards))
        else:
            acts = legal["actions"]
            move = "all_in" if "all_in" in acts or "raise" in acts or "bet" in acts else ("call" if "call" in acts else "check")
            event = Action(legal["box"], move)
        answer = round_.apply(event)
        assert isinstance(answer, Accepted), answer
        events.append(event)
    return {s: round_.stacks.get(s, 0) for s in stacks}, round_.outcome(), config, events


def test_a_side_pot_without_a_low_goes_whole_to_its_high_hand():
    # box 1: the only low, in the main pot only; box 2: kings full of nothing, the best high of the first
    # side pot; box 3: queens, the best high of the second side pot; box 4: nothing. Everyone is all in preflop.
    # The burn cards (6s, 6c, 6d) come between the streets.
    after, outcome, config, events = _play("omaha", "limit", {"scale": "high-low", "small_blind": 50, "big_blind": 100},
                           {1: 100, 2: 200, 3: 400, 4: 400},
                           ["As2c9d9h", "KsKhJcJh", "QhQcTcTh", "9c9sTdJd"], "6s3d4s8c6cKd6dQs")
    # main pot 400: high (box 2) 200, low (box 1) 200; first side pot 300 to box 2; second side pot 400 to box 3
    assert after == {1: 200, 2: 500, 3: 400, 4: 0}
    assert [p["won"] for p in outcome["paid"]] == [{"1": 200, "2": 200}, {"2": 300}, {"3": 400}]
    # the independent reference (its own betting ledger and brute-force split) says the same
    assert limit_board_stacks(config, events, omaha=True) == after
    # and it refuses what fixed limit does not allow: a raise to a pot-limit size
    bad = list(events)
    at = next(i for i, e in enumerate(bad) if isinstance(e, Action) and e.action == "all_in")
    bad[at] = Action(bad[at].seat, "raise", amount=300)
    with pytest.raises(LimitRuleError, match="fixed limit allows"):
        limit_board_stacks(config, bad, omaha=True)
