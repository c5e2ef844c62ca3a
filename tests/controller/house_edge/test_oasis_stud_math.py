"""`tablectl math oasis-stud`: the bonus exact, the ante and bet simulated through the game's rules."""

from __future__ import annotations

from fractions import Fraction

import pytest

from controller.games import configure
from controller.house_edge.oasis_stud import bonus_exact, progressive_exact, simulate


def test_the_bonus_is_the_textbook_count_of_five_card_hands():
    _, config = configure("oasis-stud", "fi")
    # royal 4, straight flush 36, quads 624, full house 3,744, flush 5,108, straight 10,200 pay 5000 .. 50;
    # three of a kind (54,912) and two pair (123,552) push; the other 2,400,780 hands lose
    won = 4 * 5000 + 36 * 1000 + 624 * 250 + 3744 * 150 + 5108 * 100 + 10200 * 50
    edge = -Fraction(won - 2_400_780, 2_598_960) * 100
    assert bonus_exact(config)["house_edge_percent"] == pytest.approx(float(edge), abs=1e-9)


@pytest.mark.parametrize("variant", ["fi", "fi-a", "fi-b"])
def test_the_simulation_follows_the_version(variant):
    _, config = configure("oasis-stud", variant)
    out = simulate(config, 3000, seed=9)
    low, high = out["ci95_percent"]
    assert low < out["house_edge_percent"] < high
    rates = out["rates"]
    assert (rates["switch"] == 0 and rates["buy"] == 0) if variant == "fi-a" else rates["switch"] > 0
    assert 0.3 < rates["fold"] < 0.6 if variant != "fi-b" else rates["fold"] == 0  # B: every hand bets
    assert (rates["exchange"] > 0.4) if variant == "fi-b" else rates["exchange"] == 0  # B: the dealer's own


def test_the_progressive_chip_at_a_meter_and_in_the_long_run():
    _, config = configure("oasis-stud", "fi", {"progressive": True, "progressive_stake": 100,
                                               "progressive_contribution": 15})
    out = progressive_exact(config, 1_000_000)
    # the royal (4 hands) returns the meter; the other paying lines chip and win, two pair and trips the chip
    fixed = 100 * (36 * 1001 + 624 * 251 + 3744 * 151 + 5108 * 101 + 10200 * 51 + 54_912 + 123_552)
    total = 2_598_960
    assert out["return_percent"] == pytest.approx(100 * (fixed + 4 * 1_000_000) / (total * 100), abs=1e-4)
    assert out["long_run_return_percent"] == pytest.approx(100 * (fixed / total + 15) / 100, abs=1e-4)
    assert out["meter_for_100_percent_return"] == -(-(total * 100 - fixed) // 4)
    assert out["chips_per_hit"] == total / 4 and out["meter_growth_between_hits"] == 15 * total // 4


def test_the_long_run_counts_the_houses_seed_and_says_where_the_players_get_the_edge():
    from controller.config import JackpotConfig
    from controller.house_edge.oasis_stud import long_run, progressive_warnings

    fixed = 100 * (36 * 1001 + 624 * 251 + 3744 * 151 + 5108 * 101 + 10200 * 51 + 54_912 + 123_552)
    total = 2_598_960
    even = 100 - fixed / total - 500_000 * 4 / total  # the chip, less its lines, less the seed per chip
    for contribution in (15, 23, 24):
        _, config = configure("oasis-stud", "fi", {"progressive": True, "progressive_stake": 100,
                                                   "progressive_contribution": contribution})
        out = long_run(config, 500_000, 25_000_000, True)
        assert out["return_percent"] == pytest.approx((fixed / total + contribution + 500_000 * 4 / total), abs=1e-9)
        assert out["break_even_contribution"] == pytest.approx(even, abs=1e-9) and 23 < even < 24
        assert out["chips_per_reset"] == total / 4 and not out["bound"]
        meters = {"oasis-stud": JackpotConfig("oasis-stud", 500_000, contribution, 25_000_000, True)}
        warned = progressive_warnings(config, meters)
        assert len(warned) == (1 if contribution > even else 0)
        assert progressive_warnings(config, {}) == []  # no such meter: config check refuses the table instead
    assert warned[0].startswith("options.progressive_contribution = 24: the players have the edge in the long run: "
                                f"a chip of 100 returns {100 * (fixed / total + 24 + 500_000 * 4 / total) / 100:.2f} %")
    assert f"below {even:.2f}" in warned[0]
    _, config = configure("oasis-stud", "fi", {"progressive": True, "progressive_stake": 100,
                                               "progressive_contribution": 24})
    no_overflow = {"oasis-stud": JackpotConfig("oasis-stud", 500_000, 24, 25_000_000, False)}
    assert "returns at most" in progressive_warnings(config, no_overflow)[0]  # the cap keeps part of it
