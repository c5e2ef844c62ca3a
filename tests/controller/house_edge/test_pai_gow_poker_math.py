"""`tablectl math pai-gow-poker`: the simulation settles each deal as the table would."""

from __future__ import annotations

import argparse
import random

import pytest

from controller.cards import deck
from controller.events import Action, Bet, CardOut, CloseBets
from controller.games import configure
from controller.house_edge.pai_gow_poker import STAKE, deal_values, report, simulate
from controller.games.pai_gow_poker import contest, house_way_of, player_net


def test_a_deal_of_the_tool_settles_as_the_round_does():
    spec, config = configure("pai-gow-poker", "fi")
    way = house_way_of(config)
    rng = random.Random(3)
    cards = deck(jokers=1)
    for _ in range(40):
        rng.shuffle(cards)
        player, dealer = deal_values(way, cards)
        round_ = spec.new_round(config, ())
        for event in [Bet(1, "bet", STAKE), CloseBets(), *(CardOut(c) for c in cards[:14]), Action(1, "set")]:
            assert type(round_.apply(event)).__name__ == "Accepted"
        (settled,) = round_.settlements()
        assert settled.net == player_net(config.paytable["fi"], contest(player, dealer), STAKE)


def test_the_simulation_reports_each_bet_with_its_interval():
    _, config = configure("pai-gow-poker", "fi")
    out = simulate(config, 1500, seed=5)
    rates = out["bet"]["rates"]
    assert rates["win"] + rates["push"] + rates["lose"] == pytest.approx(1.0)
    assert 0.3 < rates["push"] < 0.5 and rates["both_copies"] <= min(rates["front_copy"], rates["back_copy"])
    for key in ("bet", "bank", "half_banking"):
        low, high = out[key]["ci95_percent"]
        assert low < out[key]["house_edge_percent"] < high


def test_exact_is_refused():
    spec, config = configure("pai-gow-poker", "fi")
    with pytest.raises(ValueError, match="not enumerable"):
        report(spec, config, argparse.Namespace(exact=True, simulate=None))
