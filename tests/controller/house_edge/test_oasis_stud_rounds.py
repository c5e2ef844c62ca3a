"""The numpy rounds of Oasis Stud against the game: every round of a seeded sample played by ``OasisRound``."""

from __future__ import annotations

import numpy as np
import pytest

from controller.cards import card_from_index
from controller.events import Action, Bet, CardOut, CloseBets
from controller.games import configure
from controller.games.contract import Accepted
from controller.games.oasis_stud import buys, rank_hand
from controller.house_edge.deals import deal
from controller.house_edge.oasis_stud_rounds import DEALT, HandTables, settle, simulate


def played(variant: str, row: np.ndarray) -> tuple[float, float]:
    """The round on these cards through the game: net and stake per ante of one box of 100 playing the stated
    strategy (the switch and the bought game by ``suggested`` and ``buys``), the cards as the shoe would give them."""
    spec, config = configure("oasis-stud", variant)
    round_ = spec.new_round(config, ())
    cards = iter(card_from_index(int(c)) for c in list(row[0:10].reshape(2, 5).T.ravel()) + list(row[10:]))

    def take(event: object) -> None:
        assert isinstance(round_.apply(event), Accepted), event  # type: ignore[arg-type]

    take(Bet(1, "ante", 100))
    take(CloseBets())
    for _ in range(10):
        take(CardOut(next(cards)))
    while not round_.complete:
        if round_.owed:
            take(CardOut(next(cards)))
        elif round_.phase == "buy":
            if buys(round_.table, rank_hand(config, round_.hands[1])):
                take(Action(1, "buy_dealer"))
            take(CloseBets())
        else:
            take(round_.suggested(1))
    net = sum(s.net or 0 for s in round_.settlements()) / 100
    stake = sum(b.amount or 0 for b in round_.bets) / 100
    return net, stake


@pytest.mark.parametrize("variant, rounds", [("fi", 700), ("fi-a", 300), ("fi-b", 700), ("fi-tens", 300),
                                             ("fi-joker", 500)])
def test_every_round_of_a_seeded_sample_is_the_games(variant, rounds):
    _, config = configure("oasis-stud", variant)
    tables = HandTables(config)
    dealt = deal(np.random.default_rng(5), rounds, tables.cards, DEALT)
    net, stake, counts = settle(tables, dealt)
    game = [played(variant, row) for row in dealt]
    assert list(net) == [n for n, _ in game]
    assert list(stake) == [s for _, s in game]
    assert counts["switch"] > 0 if variant != "fi-a" else counts["switch"] == 0
    if variant == "fi":
        assert counts["buy"] > 0 and counts["fold"] > 0
    if variant in ("fi-b", "fi-tens", "fi-joker"):
        assert counts["exchange"] > 0 and counts["buy"] == 0


def test_the_simulation_reports_its_interval():
    _, config = configure("oasis-stud", "fi-b")
    out = simulate(config, 6_000, seed=3, chunk=2_500)
    low, high = out["ci95_percent"]
    assert low < out["house_edge_percent"] < high and 20 < out["house_edge_percent"] < 42
    assert out["rates"]["fold"] == 0 and 0.6 < out["rates"]["exchange"] < 0.8
