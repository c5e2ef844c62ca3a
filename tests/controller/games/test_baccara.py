"""Baccara, chemin de fer (seed 002): the scenarios against results worked out by hand, the drawing table, the math."""

from __future__ import annotations

import argparse

import pytest

from controller.games import configure
from controller.games.baccara import CHOICE, after_commission, banco_must, punto_must, settle_sides
from controller.house_edge.baccara import figures, report
from tests.controller.games.scenario_lines import check_file

BANK_WINS = "2 punto lose -600; 3 punto lose -400; 1 bank win 950"
PUNTO_WINS = "2 punto win 600; 3 punto win 400; 1 bank lose -1000"
TIE = "2 punto push 0; 3 punto push 0; 1 bank push 0"


def test_every_rule_and_line_of_the_drawing_table():
    doc = check_file("baccara", "fi-rules", [
        PUNTO_WINS, BANK_WINS, TIE, BANK_WINS, PUNTO_WINS, PUNTO_WINS, TIE, BANK_WINS, BANK_WINS, BANK_WINS, TIE,
        BANK_WINS, BANK_WINS, BANK_WINS, BANK_WINS, PUNTO_WINS,
        "4 banco_solo win 1000; 1 bank lose -1000",
        "4 banco_solo lose -1000; 1 bank win 950",
        "2 punto lose -600; 3 punto lose -300; 1 bank win 570; 5 banco_avec win 285",
        "6 banco_avec_la_table win 500; 2 punto win 500; 1 bank lose -1000",
        PUNTO_WINS,
        "1 bank push 0; 2 punto push 0; 3 punto push 0",
        # punto stood: banco 3 draws, banco 2 draws; banco 3 against a 7 draws, 6 against a 7 draws, 4 against a
        # 9 stands
        BANK_WINS, PUNTO_WINS, BANK_WINS, PUNTO_WINS, BANK_WINS,
        # punto's cards to the biggest stake (seat 3's 700, placed after seat 2's 300): seat 2's choice refused
        "2 punto lose -300; 3 punto lose -700; 1 bank win 950",
    ], rejected=[[]] * 20 + [[0, 2, 3, 4, 6, 7, 8, 9, 10, 17, 18, 20], []] + [[]] * 5 + [[8]])
    assert doc["rounds"][27]["outcome"]["punto_hand"] == 3
    assert doc["rounds"][27]["outcome"]["choices"] == [{"side": "punto", "seat": 3, "points": 5, "choice": "stand"}]
    rounds = doc["rounds"]
    points = [(r["outcome"]["punto_points"], r["outcome"]["banco_points"]) for r in rounds[:20]]
    assert points == [(9, 7), (6, 8), (7, 7), (1, 3), (9, 8), (9, 3), (8, 8), (5, 6), (6, 7), (3, 4), (8, 8),
                      (4, 5), (6, 8), (5, 6), (6, 7), (8, 1), (8, 7), (7, 9), (6, 8), (9, 7)]
    assert [(r["outcome"]["punto"], r["outcome"]["banco"]) for r in rounds[22:27]] == [
        (["4c", "3s"], ["2h", "Ad", "5d"]), (["6h", "Kc"], ["Qd", "2s", "Kd"]), (["Kc", "4d", "7h"], ["2s", "Ac", "6d"]),
        (["Ac", "Ah", "7c"], ["3c", "3h", "2c"]), (["Jc", "3d", "9s"], ["4s", "Kh"])]  # who drew, as the table says
    assert [(r["outcome"]["punto_points"], r["outcome"]["banco_points"]) for r in rounds[22:27]] == [
        (7, 8), (6, 2), (1, 9), (9, 8), (2, 4)]
    assert rounds[0]["outcome"]["next_bank"]["passes_to"] == 2
    assert rounds[1]["outcome"]["next_bank"] == {"seat": 1, "bank": 1950, "why": rounds[1]["outcome"]["next_bank"]["why"]}
    assert [c["choice"] for c in rounds[16]["outcome"]["choices"]] == ["draw", "draw"]
    assert rounds[19]["outcome"]["punto_hand"] == 6
    assert rounds[17]["outcome"]["choices"] == []


@pytest.mark.parametrize("points, want", [(0, "draw"), (4, "draw"), (5, CHOICE), (6, "stand"), (7, "stand")])
def test_punto(points, want):
    assert punto_must(points, False) == want
    assert punto_must(points, True) == CHOICE


BANCO = {  # banco's two-card total -> punto's third card values on which banco draws (None: punto stood)
    0: set(range(10)), 1: set(range(10)), 2: set(range(10)), 3: set(range(10)) - {8, 9}, 4: set(range(2, 8)),
    5: set(range(4, 8)), 6: {6, 7}, 7: set(),
}


@pytest.mark.parametrize("points", range(8))
def test_banco(points):
    for third in range(10):
        want = "draw" if third in BANCO[points] else CHOICE if (points, third) == (3, 9) else "stand"
        assert banco_must(points, third, False) == want, (points, third)
    assert banco_must(points, None, False) == ("draw" if points <= 5 else "stand")
    assert banco_must(points, 4, True) == CHOICE


def test_the_bank_side_shares_and_pays_commission():
    table = {"commission_percent": 5}
    assert after_commission(table, 30) == 28 and after_commission(table, -30) == -30
    assert settle_sides(table, "banco", 1000, 500, 900) == (570, 285)
    assert settle_sides(table, "punto", 1000, 500, 900) == (-600, -300)
    assert settle_sides(table, "tie", 1000, 0, 900) == (0, 0)


def test_the_stated_choices_are_each_the_better_one_and_the_house_takes_its_five_percent():
    _, config = configure("baccara", "fi")
    rows = {(p, b): figures(config, 6, p, b) for p in ("draw", "stand") for b in ("draw", "stand")}
    assert rows[("draw", "draw")]["punto_ev"] > rows[("stand", "draw")]["punto_ev"]  # punto: draw on 5
    assert rows[("draw", "draw")]["bank_ev"] > rows[("draw", "stand")]["bank_ev"]  # banco: draw on 3 against a 9
    for row in rows.values():
        assert row["house_take"] == pytest.approx(0.05 * row["banco_wins"], abs=1e-12)
    stated = rows[("draw", "draw")]  # the figures the docs quote (docs/games/baccara.md)
    assert round(-100 * stated["punto_ev"], 4) == 1.2374 and round(-100 * stated["bank_ev"], 4) == 1.0558


def test_the_math_command_refuses_a_simulation():
    spec, config = configure("baccara", "fi")
    with pytest.raises(ValueError, match="exact"):
        report(spec, config, argparse.Namespace(exact=False, simulate=1000))
