"""The three-card enumeration: counts checked by brute force, and the published figures reproduced."""

from __future__ import annotations

import json
from itertools import combinations

import pytest

from controller.cards import card_from_index
from controller.games.three_card_poker import contest
from controller.hands.three import three_card
from controller.house_edge.three_card import DEALER_HANDS, all_hands, versus_counts
from tests.tablectl import run_tablectl

# The module fixture is costly: its tests stay on one worker under `sh test.sh` (xdist).
pytestmark = pytest.mark.xdist_group("three-card-enumerated")


@pytest.fixture(scope="module")
def enumerated():
    hands, least = all_hands()
    return hands, versus_counts(hands, least)


@pytest.mark.parametrize("index", [0, 777, 5000, 12345, 21000, 22099])
def test_counts_match_brute_force(enumerated, index):
    hands, counts = enumerated
    player = hands[index]
    mine = three_card([card_from_index(i) for i in player.cards])
    rest = [i for i in range(52) if i not in player.cards]
    tally = {"no_qualify": 0, "player_higher": 0, "tie": 0, "dealer_higher": 0}
    for combo in combinations(rest, 3):
        tally[contest(mine, three_card([card_from_index(i) for i in combo]))] += 1
    assert sum(tally.values()) == DEALER_HANDS
    assert counts[index].as_dict() == tally


def _math(*args: str) -> dict:
    done = run_tablectl("math", *args, "--exact", "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_three_card_poker_published_figures():
    doc = _math("three-card-poker")
    assert doc["play_rule"]["least_hand_played"].startswith("Q-6-4")
    assert doc["play_rule"]["hands_at_or_above_not_played"] == 0
    assert doc["bets"]["ante_play"]["house_edge_percent"] == pytest.approx(4.278, abs=0.0005)
    assert doc["bets"]["ante_play"]["house_edge_per_total_staked_percent"] == pytest.approx(2.555, abs=0.0005)
    assert doc["bets"]["pair_plus"]["house_edge_percent"] == pytest.approx(7.276, abs=0.0005)


def test_three_card_poker_541_ante_bonus():
    doc = _math("three-card-poker", "--option", "ante_bonus=5-4-1")
    assert doc["bets"]["ante_play"]["house_edge_percent"] == pytest.approx(3.373, abs=0.0005)


def test_fast_poker_figures_are_computed_per_variant():
    se, caribbean = _math("fast-poker"), _math("fast-poker", "--variant", "se-caribbean")
    assert se["play_multiple"] == 1 and caribbean["play_multiple"] == 2
    # the same ranking and bank qualifier as Three Card Poker give the same play rule at 1x
    assert se["play_rule"]["least_hand_played"].startswith("Q-6-4")
    assert se["bets"]["bet_play"]["house_edge_percent"] != caribbean["bets"]["bet_play"]["house_edge_percent"]


def test_math_without_exact_is_a_usage_error():
    done = run_tablectl("math", "three-card-poker")
    assert done.returncode == 2 and "add --exact" in done.stderr
