"""A void round gives every bet back the same way in every game: one helper, ``contract.settle_void``."""

from __future__ import annotations

import pytest

from controller.events import Bet, Void
from controller.games import configure, load_game
from controller.games.contract import Accepted, Outcome, Settlement, settle_void


def test_settle_void_is_a_push_for_every_bet_noted_with_the_reason():
    bets = [Bet(1, "ante", 1000), Bet(2, "bet", None, "anna")]
    settled = settle_void(bets, "the shoe jammed")
    assert [(s.seat, s.spot, s.result, s.stake, s.net, s.player, s.note) for s in settled] == [
        (1, "ante", "push", 1000, 0, None, "round void: the shoe jammed"),
        (2, "bet", "push", None, None, "anna", "round void: the shoe jammed")]


@pytest.mark.parametrize("game", ["baccara", "caribbean-stud", "oasis-stud", "pai-gow-poker", "red-dog"])
def test_a_void_round_settles_every_stake_through_the_helper(game):
    spec, config = configure(game, load_game(game).variants[0].id)
    round_ = spec.new_round(config, ())
    placed = []
    for seat, spot in enumerate((s.name for s in spec.spots_for(config.variant)), start=1):
        for amount in (1000, 10000, 100):
            if isinstance(round_.apply(Bet(seat, spot, amount)), Accepted):
                placed.append((seat, spot, amount))
                break
    assert placed, f"{game}: no bet was taken"
    answer = round_.apply(Void("the camera saw a hand in the shoe"))
    assert isinstance(answer, Accepted) and round_.complete
    effects = list(answer.effects)
    assert isinstance(effects[0], Outcome) and effects[0].data == {"void": "the camera saw a hand in the shoe"}
    settled = [e for e in effects if isinstance(e, Settlement)]
    assert settled == list(round_.settlements())
    assert {(s.seat, s.spot, s.stake) for s in settled} >= set(placed)
    assert all(s.result == "push" and s.net == 0 and s.note == "round void: the camera saw a hand in the shoe"
               for s in settled)
