"""Caribbean Stud and Hold em (SE) math: small runs of `tablectl math`, checked against what is known exactly."""

from __future__ import annotations

import json

import pytest

from tests.tablectl import run_tablectl


def _math(*args: str) -> dict:
    done = run_tablectl("math", *args, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_caribbean_classic_simulation_brackets_the_published_figure():
    doc = _math("caribbean-stud", "--variant", "classic", "--simulate", "200000", "--seed", "7")
    low, high = doc["bets"]["ante_bet"]["confidence_95_percent"]
    assert low < 5.32 < high  # published for the AKJ83 rule
    assert 0.5 < doc["bets"]["ante_bet"]["raise_share"] < 0.55


def test_caribbean_progressive_is_exact():
    from controller import games
    from controller.house_edge.caribbean_stud import game_view, progressive_return

    spec, config = games.configure("caribbean-stud", "dk")
    progressive = progressive_return(config, 2_000_000, game_view())
    hands = {k: v["hands"] for k, v in progressive["lines"].items()}
    assert hands == {"royal_flush": 4, "straight_flush": 36, "four_of_a_kind": 624, "full_house": 3744,
                     "flush": 5108, "straight": 10200, "three_of_a_kind": 54912}
    paid = 4 * 2_000_000 + 36 * 125000 + 624 * 25000 + 3744 * 2500 + 5108 * 1500 + 10200 * 300 + 54912 * 200
    assert progressive["return_percent"] == pytest.approx(paid / 2598960 / 50 * 100, abs=1e-4)
    assert progressive["meter"] == 2_000_000


def test_holdem_bonus_exact_and_main_game_sampled():
    doc = _math("restaurant-holdem", "--simulate", "169", "--seed", "3")
    assert doc["bets"]["bonus"]["house_edge_percent"] == pytest.approx(387 / 1326 * 100, abs=1e-4)
    main = doc["bets"]["ante_call"]
    assert main["flops"] == 338  # at least two flops for each of the 169 classes
    assert main["confidence_95_percent"][0] < main["house_edge_percent"] < main["confidence_95_percent"][1]
    assert 0 < main["call_share"] < 1


def test_batch_versus_codes_agree_with_the_games_contest():
    import numpy as np

    from controller.cards import card_from_index
    from controller.games.caribbean_stud import contest
    from controller.hands.batch import rank_batch
    from controller.hands.high import best_high
    from controller.house_edge.caribbean_stud import VERSUS, game_view, versus_codes

    view = game_view()
    rng = np.random.default_rng(5)
    dealt = np.argsort(rng.random((3000, 52)), axis=1)[:, :10]
    # force ties and near-ties: the dealer copies the player's ranks in other suits in some rows
    dealt[:300, 5:] = (dealt[:300, :5] // 4) * 4 + (dealt[:300, :5] + 1) % 4
    dealt = dealt[[len(set(row)) == 10 for row in dealt.tolist()]]
    codes = versus_codes(view, rank_batch(dealt[:, :5]), rank_batch(dealt[:, 5:]))
    for row, code in zip(dealt.tolist(), codes.tolist()):
        player = best_high([card_from_index(i) for i in row[:5]])
        dealer = best_high([card_from_index(i) for i in row[5:]])
        assert VERSUS[code] == contest(player, dealer)
    assert set(codes.tolist()) == {0, 1, 2, 3}


def test_batch_own_card_values_agree_with_best_holdem_using_hole():
    import numpy as np

    from controller.cards import card_from_index, parse_cards
    from controller.hands.high import best_holdem_using_hole
    from controller.house_edge.restaurant_holdem import own_card_values

    rng = np.random.default_rng(9)
    rows = np.argsort(rng.random((2000, 52)), axis=1)[:, :7]
    fixed = [parse_cards("2c 3d Ts Js Qs Ks As"), parse_cards("3h 4d Kd 5c 5d 9h 9s"), parse_cards("2c 2d 7h 7s 9c 9d Kh")]
    rows = np.vstack([rows, [[c.index for c in f] for f in fixed]])
    values = own_card_values(rows)
    for row, value in zip(rows.tolist(), values.tolist()):
        cards = [card_from_index(i) for i in row]
        assert value == best_holdem_using_hole(cards[:2], cards[2:], 1).value


@pytest.mark.slow
@pytest.mark.parametrize("variant, edge", [("dk", 4.0751), ("classic", 5.3163)])
def test_caribbean_main_game_is_exact_by_default(variant, edge):
    # the reference figures: an independent exact count of the AKJ83 rule (a carried dk stake counted as returned)
    doc = _math("caribbean-stud", "--variant", variant, "--meter", "2000000")
    main = doc["bets"]["ante_bet"]
    assert main["house_edge_percent"] == edge
    assert main["method"].startswith("exact")
    best = main["best_without_up_card"]
    assert best["house_edge_percent"] <= main["house_edge_percent"]  # the best decision per hand cannot do worse
    assert doc["bets"]["progressive"]["meter"] == 2_000_000


def test_dealer_counts_are_the_dealer_hands_counted_one_by_one():
    from itertools import combinations

    import numpy as np

    from controller.hands.batch import rank_batch
    from controller.house_edge.dealer_counts import DEALER_HANDS, PLAYER_HANDS, DealerCounts, player_classes
    from controller.house_edge.five_card import value_table

    table = value_table()
    classes = player_classes()
    assert len(classes.weights) == 134_459 and int(classes.weights.sum()) == PLAYER_HANDS
    counter = DealerCounts(table)
    rng = np.random.default_rng(29)
    picks = np.concatenate([rng.integers(len(classes.weights), size=2), [0, len(classes.weights) - 1]])
    others = np.array(list(combinations(range(47), 5)))
    for i in picks:
        player = classes.hands[i]
        rest = np.array([c for c in range(52) if c not in player.tolist()])
        dealer = table.index(rank_batch(rest[others]))
        xs = np.concatenate([rng.integers(0, len(table.values), size=5), [0, len(table.values)]])
        got = counter.below(np.repeat(player[None], len(xs), axis=0), xs)
        assert got.tolist() == [int((dealer < x).sum()) for x in xs]
        assert got[-1] == DEALER_HANDS


@pytest.mark.slow
def test_holdem_main_game_is_exact_by_default():
    doc = _math("restaurant-holdem")
    main = doc["bets"]["ante_call"]
    assert main["method"].startswith("exact")
    assert main["house_edge_percent"] == 2.5408  # an independent exact count
    assert 0.7 < main["call_share"] < 0.78


@pytest.mark.slow
def test_holdem_walk_sums_every_turn_and_river_as_the_batch_path_does():
    from itertools import combinations
    from math import comb

    import numpy as np

    from controller import games
    from controller.cards import Card
    from controller.games.restaurant_holdem import main_result
    from controller.house_edge.five_card import value_table
    from controller.house_edge.holdem_enumeration import call_values, nets_by_key
    from controller.house_edge.restaurant_holdem import own_card_values
    from controller.house_edge.three_card_poker import unit_net

    _, config = games.configure("restaurant-holdem", "se")
    table = value_table()
    net = nets_by_key(table.values, table.hands, lambda hand: 2 * unit_net(*main_result(config, hand)))
    nets = np.array([2 * unit_net(*main_result(config, hand)) for hand in table.hands])
    rng = np.random.default_rng(29)
    for hole in ((Card(14, "s"), Card(13, "h")), (Card(7, "d"), Card(7, "c")), (Card(9, "h"), Card(2, "h"))):
        calls = call_values(hole, net)
        own = [c.index for c in hole]
        rest = [c for c in range(52) if c not in own]
        for i, j, k in [tuple(sorted(rng.choice(50, 3, replace=False).tolist())) for _ in range(4)]:
            flop = [rest[i], rest[j], rest[k]]
            pairs = np.array(list(combinations([c for c in rest if c not in flop], 2)))
            seven = np.hstack([np.tile(own + flop, (len(pairs), 1)), pairs])
            expected = nets[table.index(own_card_values(seven))].mean()
            assert calls[comb(i, 1) + comb(j, 2) + comb(k, 3)] == pytest.approx(expected, abs=1e-12)
