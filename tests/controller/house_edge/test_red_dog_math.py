"""Red Dog and Bulldog math: exact over the shoe, the raise found, against the published figures."""

from __future__ import annotations

import argparse

import pytest

from controller.games import configure
from controller.house_edge import bulldog, red_dog


@pytest.mark.parametrize("decks, edge", [(1, 3.1554), (6, 2.7978), (8, 2.7509)])
def test_red_dog_exact(decks, edge):
    # published: 3.15 % (one deck), 2.80 % (six decks), 2.75 % (eight decks), raising on a spread of 7 or more
    _, config = configure("red-dog", "fi", {"decks": decks})
    figures = red_dog.exact(config.paytable["fi"], decks)
    assert figures["house_edge_percent"] == edge
    assert figures["raise_rule"] == "raise the whole bet on a spread of 7 or more"


def test_six_decks_by_hand():
    # six decks: 24 of each rank in 312. Consecutive ranks: 12 ordered rank pairs each way; a pair: 13 ranks.
    _, config = configure("red-dog", "fi")
    figures = red_dog.exact(config.paytable["fi"], 6)
    pair = 13 * 24 * 23 / (312 * 311)
    assert figures["by_spread"]["pair"]["probability"] == round(pair, 6)
    assert figures["by_spread"]["pair"]["ev_per_unit"] == round(22 / 310 * 11, 6)  # three of a kind or a push
    assert figures["by_spread"]["0"]["probability"] == round(2 * 12 * 24 * 24 / (312 * 311), 6)
    assert figures["exact_fraction"] == "17533/626665"


def test_bulldog_is_red_dog_per_spot():
    spec, config = configure("bulldog", "fi")
    out = bulldog.report(spec, config, argparse.Namespace(simulate=None, exact=True))
    assert out["bets"]["bet_raise"]["house_edge_percent"] == 2.7978
