"""Ultimate Texas Hold'em math: the strategy on arrays equals the game's function; trips and progressive exact."""

from __future__ import annotations

import argparse

import numpy as np
import pytest

from controller.cards import card_from_index
from controller.games import configure
from controller.games.ultimate_texas_holdem import basic_strategy, dealer_outs
from controller.house_edge import ultimate_texas_holdem as uth

# Seven-card hands by best five (the textbook counts), in the order of uth.KEYS.
SEVEN = (23294460, 58627800, 31433400, 6461620, 6180020, 4047644, 3473184, 224848, 37260, 4324)


def test_array_strategy_is_the_games_strategy_deal_by_deal():
    rng = np.random.default_rng(11)
    seven = np.argsort(rng.random((300, 52)), axis=1)[:, :7]
    hole, board = seven[:, :2], seven[:, 2:]
    got = uth.decisions(hole, board)
    for i in range(len(seven)):
        h = [card_from_index(int(c)) for c in hole[i]]
        b = [card_from_index(int(c)) for c in board[i]]
        want = basic_strategy("preflop", h, []) or basic_strategy("flop", h, b[:3]) or basic_strategy("river", h, b)
        assert got[i] == (want or 0), (h, b)
    mine = uth.rank_batch(seven)
    outs = uth.dealer_outs(hole[:40], board[:40], mine[:40])
    assert [dealer_outs([card_from_index(int(c)) for c in hole[i]], [card_from_index(int(c)) for c in board[i]])
            for i in range(40)] == outs.tolist()


@pytest.mark.parametrize("variant, edge", [("i", 0.9018), ("ii", 1.9040), ("iii", 3.4979), ("iv", 6.1808)])
def test_trips_from_the_seven_card_counts(variant, edge):
    _, config = configure("ultimate-texas-holdem", variant)
    assert uth.trips_exact(config, SEVEN)["house_edge_percent"] == edge


@pytest.mark.slow
def test_seven_card_enumeration_gives_the_textbook_counts():
    assert uth.key_counts(7) == SEVEN


def test_progressive_exact_over_five_cards():
    _, config = configure("ultimate-texas-holdem", "i", {"progressive": True})
    counts = uth.key_counts(5)
    assert counts[-1] == 4 and counts[-2] == 36 and sum(counts) == 2_598_960
    figures = uth.progressive_exact(config, counts, 1_000_000)
    assert figures["expected_paid_per_chip"] == 50.0942
    # the royal at 100 % and the straight flush at 10 % of the meter, the rest fixed
    fixed = (54912 * 900 + 10200 * 1500 + 5108 * 4000 + 3744 * 5000 + 624 * 30000) / 2_598_960
    assert figures["expected_paid_per_chip"] == round(fixed + (4 + 36 / 10) * 1_000_000 / 2_598_960, 4)


def test_special_prize_adds_its_chance_times_its_prize():
    _, plain = configure("ultimate-texas-holdem", "i", {"progressive": True})
    _, special = configure("ultimate-texas-holdem", "i", {"progressive": True, "special_prizes": True})
    counts = uth.key_counts(5)
    without = uth.progressive_exact(plain, counts, 1_000_000)
    figures = uth.progressive_exact(special, counts, 1_000_000)
    assert figures["special_prize"] == {"probability": 1 / 500, "prize": 10_000, "return_percent": 20.0}
    assert round(figures["return_percent"] - without["return_percent"], 4) == 20.0  # 1/500 x 10 000 / 100
    assert figures["meter_for_100_percent_return"] < without["meter_for_100_percent_return"]


def test_simulation_holds_the_published_simple_strategy_figure():
    _, config = configure("ultimate-texas-holdem", "i", {"blind_table": "common"})
    figures = uth.simulate(config, 200_000, 3)
    low, high = figures["confidence_95_percent"]
    assert low < 2.43 < high  # the published house edge of this simple strategy with the common blind table
    assert sum(figures["play_shares"].values()) == pytest.approx(1.0)


def test_report_needs_a_method():
    spec, config = configure("ultimate-texas-holdem", "i")
    with pytest.raises(ValueError, match="--exact"):
        uth.report(spec, config, argparse.Namespace(simulate=None, exact=False))
