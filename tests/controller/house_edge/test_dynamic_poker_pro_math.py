"""Dynamic Poker Pro math: the same cards settled by each version's own rules order as the versions pay."""

from __future__ import annotations

from controller.games import configure
from controller.games.dynamic_poker_pro import main_results
from controller.house_edge.texas_holdem_bonus import simulate


def test_versions_that_pay_more_have_a_lower_edge_on_the_same_cards():
    edge = {}
    for version in "abcdef":
        _, config = configure("dynamic-poker-pro", version)
        edge[version] = simulate(config, 20_000, 5, main_results, "blind")["house_edge_percent"]
    # b to e: three aces, kings, queens, jacks or better; f pays 3 to 1 where a pays 2 to 1
    assert edge["b"] > edge["c"] > edge["d"] > edge["e"]
    assert edge["a"] > edge["f"]
