"""Every game says while its bets are open: after the first bet and until no more bets (the tower shows it)."""

from __future__ import annotations

import random

import pytest

from controller import games
from controller.events import CloseBets
from controller.games.contract import Accepted
from controller.runtime.players import players_for

VARIANTS = [(spec.id, v.id) for spec in games.all_games() for v in spec.variants]


@pytest.mark.parametrize("game,variant", VARIANTS, ids=[f"{g}-{v}" for g, v in VARIANTS])
def test_bets_stay_open_after_the_first_bet_until_no_more_bets(game: str, variant: str) -> None:
    spec, config = games.configure(game, variant)
    for seed in range(20):
        round_ = spec.new_round(config, ())
        players = players_for(spec, round_, random.Random(seed), 100)
        taken = [bet for bet in players.bets(round_, 7) if isinstance(round_.apply(bet), Accepted)]
        if taken:
            break
    assert taken, "the virtual players found no bet the round takes"
    assert round_.betting_open, f"{game} {variant}: bets closed after the first bet"
    assert isinstance(round_.apply(CloseBets()), Accepted)
    assert not round_.betting_open, f"{game} {variant}: bets still open after no more bets"
