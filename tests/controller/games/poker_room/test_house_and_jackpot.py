"""The house's take and the bad beat jackpot's shares, as pure functions (seed 004)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from controller.games.contract import MeterChange, apply_meter
from controller.games.poker_room.engine import HouseTake
from controller.games.poker_room.jackpot import BadBeatRule, bad_beat, sequential_shares


@pytest.mark.parametrize("staked, reached, dealt, want", [
    (23000, True, 4, (300, 0)),     # 5 % is 1,150: one cap of 300 for the whole hand
    (2000, True, 4, (100, 0)),      # under the cap: 5 %
    (2010, True, 4, (100, 0)),      # 100.5 rounded down to the 25 chip
    (1990, True, 4, (75, 0)),       # 99.5 -> 75: whole 25 chips only
    (5000, False, 4, (0, 0)),       # ended before the flop: no flop, no drop
    (5000, True, 6, (250, 100)),    # six dealt in and the flop seen: the drop as well
    (5000, True, 5, (250, 0)),      # five dealt in: no drop
    (5000, False, 9, (0, 0)),       # nine dealt in but no flop: no drop either
])
def test_rake_is_capped_once_per_hand_and_the_drop_needs_six_and_a_flop(staked, reached, dealt, want):
    take = HouseTake(rake_bp=500, rake_cap=300, rake_unit=25, no_flop_no_drop=True, drop=100, drop_players=6)
    assert take.amounts(staked, reached, dealt) == want


def test_without_no_flop_no_drop_a_walk_is_raked():
    take = HouseTake(rake_bp=1000, rake_cap=None, rake_unit=1, no_flop_no_drop=False)
    assert take.amounts(150, False, 2) == (15, 0)


def test_the_drop_never_takes_more_than_is_left_after_the_rake():
    take = HouseTake(rake_bp=5000, rake_cap=None, rake_unit=1, drop=100, drop_players=6)
    assert take.amounts(120, True, 6) == (60, 60)


RULE = BadBeatRule("four-of-a-kind", 6, 50, 25, 15)
QUADS, STRAIGHT_FLUSH, FULL_HOUSE = 7, 8, 6


def test_quads_beaten_by_a_straight_flush_hits_and_the_others_share_the_table_part():
    shown = {3: (100, QUADS), 5: (200, STRAIGHT_FLUSH)}
    hit = bad_beat(RULE, [1, 2, 3, 4, 5, 6], shown, True)
    assert hit is not None and hit.losing == (3,) and hit.winning == (5,)
    assert hit.shares[3] == Fraction(1, 2) and hit.shares[5] == Fraction(1, 4)
    assert all(hit.shares[s] == Fraction(15, 400) for s in (1, 2, 4, 6))
    assert hit.reseed == Fraction(1, 10)


@pytest.mark.parametrize("dealt, reached, shown", [
    ([1, 2, 3, 4, 5], True, {3: (100, QUADS), 5: (200, STRAIGHT_FLUSH)}),  # five dealt in
    ([1, 2, 3, 4, 5, 6], False, {3: (100, QUADS), 5: (200, STRAIGHT_FLUSH)}),  # never reached the second round
    ([1, 2, 3, 4, 5, 6], True, {3: (100, FULL_HOUSE), 5: (200, STRAIGHT_FLUSH)}),  # the loser is below quads
    ([1, 2, 3, 4, 5, 6], True, {3: (200, QUADS), 5: (200, QUADS)}),  # a tie at the top: nobody lost
    ([1, 2, 3, 4, 5, 6], True, {5: (200, STRAIGHT_FLUSH)}),  # no showdown
])
def test_no_hit(dealt, reached, shown):
    assert bad_beat(RULE, dealt, shown, reached) is None


def test_of_several_qualifying_hands_the_two_best_hit_it():
    shown = {1: (100, QUADS), 2: (150, QUADS), 3: (300, STRAIGHT_FLUSH)}
    hit = bad_beat(RULE, [1, 2, 3, 4, 5, 6], shown, True)
    assert hit is not None and hit.winning == (3,) and hit.losing == (2,)
    assert hit.shares[1] == Fraction(15, 400)  # a qualifying hand below the two best is one of the others


def test_tied_winning_hands_share_the_winning_part_and_a_slot():
    shown = {1: (100, QUADS), 2: (300, STRAIGHT_FLUSH), 3: (300, STRAIGHT_FLUSH)}
    hit = bad_beat(RULE, [1, 2, 3, 4, 5, 6, 7, 8], shown, True)
    assert hit is not None and hit.winning == (2, 3)
    slot = Fraction(15, 100) / 6
    assert hit.shares[2] == hit.shares[3] == (Fraction(1, 4) + slot) / 2
    assert sum(hit.shares.values()) + hit.reseed == 1


def test_sequential_shares_pay_each_share_of_the_jackpot_as_it_stood():
    shares = [(1, Fraction(43, 160)), (3, Fraction(43, 160)), (5, Fraction(1, 4)),
              (2, Fraction(3, 80)), (4, Fraction(3, 80)), (6, Fraction(3, 80))]
    value = 1_000_000
    paid = []
    for seat, share in sequential_shares(shares):
        got, value = apply_meter(value, MeterChange("bad_beat", "hit", seat=seat, share=share))
        paid.append(got)
    assert paid == [268_750, 268_750, 250_000, 37_500, 37_500, 37_500] and value == 100_000


@pytest.mark.parametrize("qualifier, losing, hits", [
    ("full-house", FULL_HOUSE, True),        # the table's qualifier lowered: a full house beaten hits
    ("four-of-a-kind", FULL_HOUSE, False),   # the default: a full house beaten does not
    ("straight-flush", QUADS, False),        # raised: four of a kind beaten no longer hits
    ("four-of-a-kind", QUADS, True),
])
def test_the_qualifying_hand_is_the_tables_option(qualifier, losing, hits):
    from controller import games

    spec, config = games.configure("texas-holdem", "no-limit", {"bad_beat": True, "bad_beat_qualifier": qualifier})
    rule = BadBeatRule(config["bad_beat_qualifier"], 6, 50, 25, 15)
    shown = {3: (100, losing), 5: (300, STRAIGHT_FLUSH)}
    hit = bad_beat(rule, [1, 2, 3, 4, 5, 6], shown, True)
    assert (hit is not None) == hits
    if hit is not None:
        assert hit.losing == (3,) and hit.winning == (5,)


def test_a_qualifier_the_table_does_not_know_is_refused():
    from controller import games

    with pytest.raises(ValueError):
        games.configure("texas-holdem", "no-limit", {"bad_beat": True, "bad_beat_qualifier": "royal-straight"})
