"""Ultimate Texas Hold'em's optimal strategy: the kernel's counts against a direct walk of every dealer pair."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from controller import games
from controller.house_edge import ultimate_texas_holdem as uth
from controller.house_edge import ultimate_texas_holdem_optimal as optimal
from tests.tablectl import ROOT

pytest.importorskip("numba")

SPEC = games.load_game("ultimate-texas-holdem")


def config(**options: object) -> object:
    return SPEC.resolve("i", options, games.paytable_of(SPEC))


def direct_sums(cfg: object, flop: tuple[int, int, int], hole: tuple[int, int]) -> list[int]:
    """The kernel's five sums for one own pair, by ranking every dealer pair on every turn and river."""
    from controller.hands import compiled

    nets, scale = optimal.integer_nets(cfg)  # type: ignore[arg-type]
    left = [c for c in range(52) if c not in flop and c not in hole]
    sums = [0] * 5
    for turn_river in combinations(left, 2):
        board = np.array(flop + turn_river)
        dealers = np.array([d for d in combinations(left, 2) if not set(d) & set(turn_river)])
        mine = compiled.rank7(np.concatenate([board, hole])[None, :])
        theirs = compiled.rank7(np.concatenate([np.tile(board, (len(dealers), 1)), dealers], axis=1))
        versus = np.where(mine > theirs, 0, np.where(mine == theirs, 1, 2))
        qualifies = (theirs >= 1 << 20).astype(np.int64)
        key = int(uth.key_index(mine)[0])
        ev = [int(nets[key, versus, qualifies, m].sum()) for m in range(5)]
        fold = len(dealers) * int(nets[key, 3, 0, 0])
        sums[0] += ev[2]
        sums[1] += max(ev[1], fold)
        sums[2] += ev[4]
        sums[3] += ev[3]
        sums[4] += ev[1] > fold
    return sums


def test_kernel_counts_equal_every_dealer_pair_ranked() -> None:
    seed, common = config(), config(blind_table="common")
    flop = (0, 8, 45)  # deuce, four, king of one suit and another
    nets = np.stack([optimal.integer_nets(c)[0] for c in (seed, common)])  # type: ignore[arg-type]
    both = optimal.flop_sums_tables(flop, nets)  # both tables on one walk of the boards
    index = optimal.pair_index()
    for hole in [(1, 2), (48, 51)]:  # nothing much; a pair of aces
        assert list(both[0][:, index[hole]]) == direct_sums(seed, flop, hole)
    assert list(both[1][:, index[12, 32]]) == direct_sums(common, flop, (12, 32))  # two suits apart
    assert (both[0] == optimal.flop_sums(seed, flop)).all()  # type: ignore[arg-type]
    assert not both[:, :, index[0, 1]].any()  # an own pair using a flop card has no deals


def test_flops_up_to_suits_cover_every_flop_once() -> None:
    classes = optimal.flop_classes()
    assert len(classes) == uth.OPTIMAL_STEPS
    every = np.arange(optimal.HANDS)
    for _, images in classes:
        for moved in images:
            assert (np.sort(moved) == every).all()  # a permutation of the own pairs
    assert sum(len(images) for _, images in classes) == 22100


def test_common_blind_table_scales_the_nets_to_half_antes() -> None:
    nets, scale = optimal.integer_nets(config(blind_table="common"))  # type: ignore[arg-type]
    assert scale == 2
    assert optimal.integer_nets(config())[1] == 1  # type: ignore[arg-type]


def test_partial_walk_says_it_is_partial_and_tables_walk_together() -> None:
    seed, common = config(), config(blind_table="common")
    together = optimal.solve_tables([seed, common], limit=2)  # type: ignore[list-item]
    alone = optimal.solve(common, limit=2)  # type: ignore[arg-type]
    assert together[0]["method"].startswith("partial") and together[0]["flops_up_to_suits"] == 2
    times = ("seconds", "cpu_seconds")
    assert {k: v for k, v in together[1].items() if k not in times} == {k: v for k, v in alone.items() if k not in times}


@pytest.mark.slow
def test_full_walk_gives_the_documented_figure() -> None:
    """About three CPU minutes: the figure docs/games/ultimate-texas-holdem.md gives for the seed's blind table."""
    figures = optimal.solve(config())  # type: ignore[arg-type]
    assert figures["method"].startswith("exact")
    assert figures["preflop"]["3x"] == 0
    text = (ROOT / "docs" / "games" / "ultimate-texas-holdem.md").read_text(encoding="utf-8")
    assert f"**{figures['house_edge_percent']:.4f} %**" in text.replace("−", "-")
