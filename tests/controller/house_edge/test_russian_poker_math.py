"""`tablectl math russian-poker`: the bonus exact; the compiled kernel held to the game's own round and lines."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from controller.games import configure
from controller.games.russian_poker import raise_line
from controller.house_edge.russian_poker import bonus_exact, card_of, check, kernel_lines, simulate


def test_the_bonus_is_the_textbook_count_of_five_card_hands():
    _, config = configure("russian-poker", "fi-a")
    # royal 4, straight flush 36, quads 624, full house 3,744, flush 5,108, straight 10,200 pay 5000 .. 50;
    # every other hand (2,579,244) loses
    won = 4 * 5000 + 36 * 1000 + 624 * 250 + 3744 * 150 + 5108 * 100 + 10200 * 50
    edge = -Fraction(won - 2_579_244, 2_598_960) * 100
    assert bonus_exact(config)["house_edge_percent"] == pytest.approx(float(edge), abs=1e-9)


def _lines_agree(hands: int, seed: int) -> None:
    _, config = configure("russian-poker", "fi-a")
    rng = np.random.default_rng(seed)
    for n in (5, 6):
        rows = np.array([rng.permutation(52)[:n] for _ in range(hands)])
        for row, got in zip(rows, kernel_lines(config, rows)):
            line = raise_line(config.paytable, [card_of(int(c)) for c in row])
            assert got == (0.0 if line is None else line[1].paid / line[1].per), [str(card_of(int(c))) for c in row]


def test_the_kernels_raise_line_is_the_games():
    _lines_agree(2000, 3)


@pytest.mark.parametrize("variant", ["fi-a", "fi-b", "fi-c"])
def test_the_kernel_plays_the_games_round(variant):
    _, config = configure("russian-poker", variant)
    assert check(config, 150, seed=11) == 150


def test_without_the_lost_line_too():
    _, config = configure("russian-poker", "fi-a", {"lost_line": False})
    assert check(config, 100, seed=12) == 100


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["fi-a", "fi-b", "fi-c"])
def test_the_kernel_plays_the_games_round_at_length(variant):
    _, config = configure("russian-poker", variant)
    assert check(config, 3000, seed=5) == 3000


@pytest.mark.slow
def test_the_kernels_raise_line_at_length():
    _lines_agree(20000, 1)


def test_the_simulation_reports_its_intervals_and_rates():
    _, config = configure("russian-poker", "fi-b")
    out = simulate(config, 20000, seed=9)
    for bet in ("game", "insurance", "with_insurance"):
        low, high = out[bet]["ci95_percent"]
        assert low < out[bet]["house_edge_percent"] < high
    rates = out["rates"]
    assert 0.15 < rates["fold"] < 0.4 and rates["buy"] > 0 and rates["exchange"] > 0 and rates["buy_dealer"] > 0
    assert 0.5 < rates["dealer_opens"] < 0.6
    _, config = configure("russian-poker", "fi-c")
    rates = simulate(config, 20000, seed=9)["rates"]
    assert rates["exchange"] == 0 and 0.4 < rates["fold"] < 0.7  # two cards at most: the rule folds instead
