"""The layout geometry and the chip arithmetic shared by the wheel and dice games."""

from __future__ import annotations

from itertools import combinations

import pytest

from controller.games.contract import Reject
from controller.games.grid import Grid, chips_make, parse_spot, spot_name


def test_splits_are_exactly_the_neighbouring_pairs() -> None:
    grid = Grid(12, 3, zero=False)
    splits = {s.numbers for s in grid.inside_bets() if s.kind == "split"}
    for a, b in combinations(range(1, 37), 2):
        same_row = grid.row_of(a) == grid.row_of(b) and abs(grid.column_of(a) - grid.column_of(b)) == 1
        same_column = grid.column_of(a) == grid.column_of(b) and abs(grid.row_of(a) - grid.row_of(b)) == 1
        assert ((a, b) in splits) == (same_row or same_column), (a, b)


def test_corners_are_two_by_two_blocks_and_lines_two_rows() -> None:
    grid = Grid(12, 3, zero=True)
    corners = [s.numbers for s in grid.inside_bets() if s.kind == "corner"]
    assert len(corners) == 22 and (16, 17, 19, 20) in corners and (17, 18, 20, 21) in corners
    assert all(grid.row_of(c[2]) == grid.row_of(c[0]) + 1 for c in corners)
    lines = [s.numbers for s in grid.inside_bets() if s.kind == "line"]
    assert (16, 17, 18, 19, 20, 21) in lines and len(lines) == 11
    sections = [s.numbers for s in grid.inside_bets(line_step=2) if s.kind == "line"]
    assert len(sections) == 6 and (16, 17, 18, 19, 20, 21) not in sections


def test_zero_bets_only_when_asked() -> None:
    grid = Grid(12, 3, zero=True)
    assert not [s for s in grid.inside_bets() if 0 in s.numbers]
    names = {s.name for s in grid.inside_bets(zero_bets=True, trio=True, first_four=True) if 0 in s.numbers}
    assert names == {"straight:0", "split:0,1", "split:0,2", "split:0,3", "trio:0,1,2", "trio:0,2,3",
                     "first_four:0,1,2,3"}


def test_spot_names_and_parsing() -> None:
    assert spot_name("line", (16, 17, 18, 19, 20, 21)) == "line:16,17,18,19,20,21" and spot_name("red") == "red"
    assert parse_spot("split:17,20") == ("split", (17, 20)) and parse_spot("red") == ("red", ())
    for bad in ("split:", "split:1,,2", "split:-1,2", "split:1.5", "straight:²"):
        with pytest.raises(Reject):
            parse_spot(bad)


def test_chips_make_an_amount_exactly() -> None:
    assert chips_make(700, [200, 500]) and chips_make(400, [200, 500]) and not chips_make(300, [200, 500])
    assert not chips_make(100, [200, 500]) and chips_make(10_000_000, [200, 500])
    assert not chips_make(10_000_001, [200, 500])
    assert chips_make(12345, []) and chips_make(12345, [1])
    # against a brute force for small chip sets
    for chips in ([3, 5], [4, 6, 9], [7, 11, 13]):
        reach = {0}
        for total in range(1, 200):
            if any(total - c in reach for c in chips):
                reach.add(total)
        assert all(chips_make(t, chips) == (t in reach) for t in range(1, 200)), chips
