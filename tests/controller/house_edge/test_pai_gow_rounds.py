"""The numpy rounds of Pai Gow Poker against the game module: every round of a seeded sample set and settled
by the module itself (``set_hand`` on both hands, ``contest``, ``player_net``, ``banker_net``)."""

from __future__ import annotations

import numpy as np

from controller.cards import card_from_index
from controller.games import configure
from controller.games.pai_gow_poker import banker_net, contest, house_way_of, player_net
from controller.house_edge.deals import deal
from controller.house_edge.pai_gow_poker import deal_values
from controller.house_edge.pai_gow_rounds import RESULTS, STAKE, SetValues, settle, simulate


def test_every_round_of_a_seeded_sample_is_the_modules():
    _, config = configure("pai-gow-poker", "fi")
    table, way = config.paytable["fi"], house_way_of(config)
    values = SetValues(way)
    dealt = deal(np.random.default_rng(11), 1500, 53, 14)
    got = settle(values, table, dealt)
    for row, four, result, bet, bank in zip(dealt, got["values"], got["result"], got["bet"], got["bank"]):
        player, dealer = deal_values(way, [card_from_index(int(c)) for c in row])
        assert player is not None and dealer is not None
        assert tuple(four) == (*player, *dealer)
        outcome = contest(player, dealer)
        assert RESULTS[result] == outcome
        assert bet == player_net(table, outcome, STAKE)
        assert bank == banker_net(table, {"win": -STAKE, "lose": STAKE}.get(contest(dealer, player), 0))
    assert values.one_by_one > 50 and values.by_ranks > 2500  # both paths are in the sample
    assert (dealt == 52).any(axis=1).sum() > 300  # the joker too
    assert set(got["result"].tolist()) == {0, 1, 2} and got["front_copy"].any()


def test_the_simulation_reports_every_bet_with_its_interval():
    _, config = configure("pai-gow-poker", "fi")
    out = simulate(config, 4000, seed=2, chunk=1500)
    for key in ("bet", "bank", "half_banking"):
        low, high = out[key]["ci95_percent"]
        assert low < out[key]["house_edge_percent"] < high and out[key]["rounds"] == 4000
    assert 0.25 < out["bet"]["rates"]["push"] < 0.5
    assert out["hands"]["set_by_rank_table"] + out["hands"]["set_one_by_one"] == 8000
