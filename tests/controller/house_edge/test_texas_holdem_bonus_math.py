"""Texas Hold'em Bonus math: the strategy on arrays equals the game's function; the bonus exact."""

from __future__ import annotations

import numpy as np
import pytest

from controller.cards import card_from_index
from controller.games import configure
from controller.games.texas_holdem_bonus import basic_strategy
from controller.house_edge import texas_holdem_bonus as thb


def test_array_strategy_is_the_games_strategy_deal_by_deal():
    rng = np.random.default_rng(7)
    seven = np.argsort(rng.random((500, 52)), axis=1)[:, :7]
    got = thb.decisions(seven[:, :2], seven[:, 2:])
    for i in range(len(seven)):
        hole = [card_from_index(int(c)) for c in seven[i, :2]]
        board = [card_from_index(int(c)) for c in seven[i, 2:]]
        pre = basic_strategy("preflop", hole, [])
        want = [pre, pre and basic_strategy("flop", hole, board[:3]), pre and basic_strategy("turn", hole, board[:4])]
        assert got[i].tolist() == [int(bool(w)) for w in want], (hole, board)


@pytest.mark.parametrize("table, edge", [("i", 8.8989), pytest.param("ii", 8.5406, marks=pytest.mark.slow)])
def test_bonus_exact(table, edge):
    # table I by hand: 6*30 + 4*25 + 8*20 + 12*15 + 18*10 + 24*5 + 54*3 = 1082 won on 126 pairs, 1200 lost;
    # II: the 6 pairs of aces win 1000 instead of 30 against the dealer's aces, 1 dealer pair in 1225
    _, config = configure("texas-holdem-bonus", "a", {"bonus_table": table})
    assert thb.bonus_exact(config)["house_edge_percent"] == edge


def test_simulation_runs_through_the_games_settlement():
    _, config = configure("texas-holdem-bonus", "b")
    figures = thb.simulate(config, 20_000, 1)
    low, high = figures["confidence_95_percent"]
    assert low < figures["house_edge_percent"] < high
    assert 0.95 < figures["shares"]["played"] < 0.97  # 60 of the 1326 pairs fold (3-2 to 7-2 offsuit)


def test_every_variant_on_the_same_cards_gives_each_variant_alone():
    from controller import games
    from controller.house_edge.texas_holdem_bonus import simulate, simulate_variants

    spec = games.load_game("texas-holdem-bonus")
    configs = [spec.resolve(v.id, {}, games.paytable_of(spec)) for v in spec.variants]
    together = simulate_variants(configs, 20_000, 3)
    assert [f["variant"] for f in together] == ["a", "b", "c"]
    assert together == [simulate(c, 20_000, 3) for c in configs]
    assert len({f["house_edge_percent"] for f in together}) == 3  # the variants' rules do differ


def test_progressive_exact_counts_the_folded_pairs_as_paying_nothing():
    from controller import games
    from controller.house_edge.texas_holdem_bonus import progressive_counts, progressive_exact
    from controller.house_edge.ultimate_texas_holdem import KEYS, key_counts

    spec = games.load_game("texas-holdem-bonus")
    config = spec.resolve("a", {"progressive": True}, games.paytable_of(spec))
    counts = dict(zip(KEYS, progressive_counts(config)))
    five = dict(zip(KEYS, key_counts(5)))
    assert sum(counts.values()) == 1326 * 19600  # ten (own pair, flop) deals per five-card hand
    # the folded pairs are offsuit 3-2 to 7-2: no straight flush or royal with the flop, fewer of the rest
    assert counts["royal_flush"] == 10 * five["royal_flush"] and counts["straight_flush"] == 10 * five["straight_flush"]
    assert counts["three_of_a_kind"] < 10 * five["three_of_a_kind"] and counts["straight"] < 10 * five["straight"]
    special = spec.resolve("a", {"progressive": True, "special_prizes": True}, games.paytable_of(spec))
    plain, drawn = progressive_exact(config, 1_000_000), progressive_exact(special, 1_000_000)
    assert round(drawn["return_percent"] - plain["return_percent"], 4) == round(20 * 1266 / 1326, 4)
