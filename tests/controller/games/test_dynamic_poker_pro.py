"""Dynamic Poker Pro (seed 002, versions A to G) through `tablectl settle`, against results worked out by hand."""

from __future__ import annotations

import pytest

from tests.controller.games.scenario_lines import check_file

G = "dynamic-poker-pro"


def ladder(river: dict[int, int]) -> str:
    """Blind 100, flop 200, turn and river 100 at six boxes; ``river`` the river bet's win at boxes 1, 3 and 6."""
    out = []
    for seat in range(1, 7):
        if seat == 4:
            out += ["4 blind push 0", "4 flop push 0", "4 turn push 0", "4 river push 0"]
            continue
        out += [f"{seat} blind push 0", f"{seat} flop win 200", f"{seat} turn win 100",
                f"{seat} river win {river.get(seat, 100)}"]
        if seat == 2:
            out.append("2 bonus win 300")
        if seat == 6:
            out.append("6 bonus lose -100")
    return "; ".join(out)


TWO = {1: 200, 3: 200, 6: 200}  # three of the version's rank, the straight and the flush at 2 to 1
BELOW = {3: 200, 6: 200}  # three of a lower rank: 1 to 1


@pytest.mark.parametrize("variant, rounds", [
    ("b", [ladder(TWO), ladder(BELOW)]),
    ("c", [ladder(TWO), ladder(BELOW)]),
    ("d", [ladder(TWO), ladder(BELOW)]),
    ("e", [ladder(TWO), ladder(BELOW)]),
    ("f", [ladder({3: 300, 6: 300})]),
    ("g", [ladder({6: 300})]),
])
def test_river_bet_by_version(variant, rounds):
    check_file(G, f"{variant}-river", rounds)


def test_version_a_fold_and_loss():
    check_file(G, "a-river", [
        ladder(BELOW),
        "1 blind lose -100; 1 bonus lose -100; 2 blind lose -100; 2 flop lose -200; 2 turn lose -100; "
        "2 river lose -100; 3 blind lose -100; 3 flop lose -200",
    ], rejected=[[], [3, 4]])


def test_bonus_table_i():
    check_file(G, "bonus", [
        "1 blind push 0; 1 flop win 200; 1 bonus win 3000; 2 blind push 0; 2 flop win 200; 2 bonus win 2500; "
        "3 blind push 0; 3 flop win 200; 3 bonus win 2000; 4 blind push 0; 4 flop win 200; 4 bonus win 1000; "
        "5 blind push 0; 5 flop win 200; 5 bonus win 1000; 6 blind push 0; 6 flop win 200; 6 bonus win 1000",
        "1 blind push 0; 1 flop win 200; 1 bonus win 2000; 2 blind push 0; 2 flop win 200; 2 bonus win 1500; "
        "3 blind push 0; 3 flop win 200; 3 bonus win 500; 4 blind push 0; 4 flop win 200; 4 bonus win 500; "
        "5 blind push 0; 5 flop win 200; 5 bonus win 300; 6 blind lose -100; 6 flop lose -200; 6 bonus lose -100",
    ])
