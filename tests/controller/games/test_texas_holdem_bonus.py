"""Texas Hold'em Bonus (seed 002) through `tablectl settle`, against results worked out by hand from the paytable."""

from __future__ import annotations

import pytest

from controller.cards import parse_cards
from controller.games import configure
from controller.games.texas_holdem_bonus import bonus_line, bonus_table
from tests.controller.games.scenario_lines import check_file

G = "texas-holdem-bonus"


def first_round(ante_1: str, ante_2: str, ante_3: str) -> str:
    """Board Th 9d 4s 8c 2h, dealer Kd 2c; ante 100, flop 200, turn and river 100; bonus 100 at boxes 1 and 4."""
    return (f"1 ante {ante_1}; 1 flop win 200; 1 turn win 100; 1 river win 100; 1 bonus win 300; "
            f"2 ante {ante_2}; 2 flop win 200; 2 river win 100; 3 ante {ante_3}; 3 flop win 200; "
            "4 ante lose -100; 4 flop lose -200; 4 turn lose -100; 4 bonus win 2500")


def test_variant_a_three_tens():
    doc = check_file(G, "a-ante-rule", [
        first_round("win 100", "push 0", "win 100"),
        "1 ante lose -100; 1 bonus lose -100; 2 ante push 0; 2 flop push 0",
        "1 ante lose -100",
    ])
    assert doc["rounds"][2]["outcome"]["board"] == []
    assert doc["rounds"][1]["settlements"][1]["note"] == "folded"


def test_variant_b_straight():
    check_file(G, "b-ante-rule", [first_round("push 0", "push 0", "win 100")])


def test_variant_c_flush():
    check_file(G, "c-ante-rule", [first_round("push 0", "push 0", "push 0"),
                                  "1 ante win 100; 1 flop win 200; 2 ante push 0; 2 flop win 200"])


def test_bonus_table_i_every_line():
    check_file(G, "bonus-i", [
        "1 ante win 100; 1 flop win 200; 1 bonus win 3000; 2 ante win 100; 2 flop win 200; 2 bonus win 2500; "
        "3 ante win 100; 3 flop win 200; 3 bonus win 2000; 4 ante push 0; 4 flop win 200; 4 bonus win 1000; "
        "5 ante push 0; 5 flop win 200; 5 bonus win 1000; 6 ante push 0; 6 flop win 200; 6 bonus win 1000",
        "1 ante win 100; 1 flop win 200; 1 bonus win 2000; 2 ante win 100; 2 flop win 200; 2 bonus win 1500; "
        "3 ante win 100; 3 flop win 200; 3 bonus win 500; 4 ante win 100; 4 flop win 200; 4 bonus win 500; "
        "5 ante push 0; 5 flop win 200; 5 bonus win 300; 6 ante lose -100; 6 flop lose -200; 6 bonus lose -100",
    ])


def test_bonus_table_ii_aces_against_aces():
    check_file(G, "bonus-ii", [
        "1 ante push 0; 1 flop push 0; 1 bonus win 100000; 2 ante lose -100; 2 flop lose -200; 2 bonus win 1000",
        "1 ante push 0; 1 flop win 200; 1 bonus win 3000",
    ])


def test_progressive():
    doc = check_file(G, "progressive", [
        "1 ante win 100; 1 flop win 200; 1 progressive win ?@40:1; 2 ante win 100; 2 flop win 200; "
        "2 progressive win ?@15:1",
        "1 ante win 100; 1 flop win 200; 1 progressive win ?@300:1; 2 ante win 100; 2 flop win 200; "
        "2 progressive win ?@50:1",
        "1 ante win 100; 1 flop win 200; 1 progressive win ?@9:1; 2 ante win 100; 2 flop win 200; "
        "2 progressive win ?; 3 ante win 100; 3 flop win 200; 3 progressive win ?; 4 ante lose -100; "
        "4 progressive lose -100"])
    hits = [[(m["seat"], m["paid"], m["meter_after"]) for m in r["meters"] if m["kind"] == "hit"] for r in doc["rounds"]]
    assert hits == [[(1, 4000, 996_140), (2, 1500, 994_640)], [(1, 30000, 964_780), (2, 5000, 959_780)],
                    [(1, 900, 959_160), (2, 95_916, 863_244), (3, 863_244, 0)]]


def test_refusals_and_burn_cards():
    doc = check_file(G, "refusals", ["1 ante push 0; 1 flop win 200; 1 turn win 100; 1 river win 100"],
                     rejected=[[0, 2, 3, 9, 10, 15]])
    reasons = [r["reason"] for r in doc["rounds"][0]["rejected"]]
    assert "placed by the box's decision" in reasons[2] and "takes no multiple" in reasons[4]
    doc = check_file(G, "burn-cards", ["1 ante win 100; 1 flop win 200"])
    assert doc["rounds"][0]["outcome"]["board"] == ["Qs", "Js", "5c", "8d", "Td"]


@pytest.mark.parametrize("hole, dealer, table, line", [
    ("As Ah", "Ad Ac", "ii", "aces_against_aces"), ("As Ah", "Ad Ac", "i", "aces"), ("As Ah", "Ad Kc", "ii", "aces"),
    ("Jc Jd", "2c 3c", "i", "kings_queens_or_jacks"), ("Tc Td", "2c 3c", "i", "tens_or_lower"),
    ("Ac Tc", "2c 3c", "i", None), ("Kc Qc", "2c 3c", "i", None),
])
def test_bonus_lines(hole, dealer, table, line):
    _, config = configure(G, "a", {"bonus_table": table})
    assert bonus_line(parse_cards(hole), parse_cards(dealer), bonus_table(config)) == line


def test_special_prizes_drawn_for_the_chips_still_in_the_hand():
    doc = check_file(G, "special-prizes", [
        "1 ante lose -100; 1 progressive lose -100; 2 ante win 100; 2 flop win 200; 2 progressive win ?@109:1",
        "1 ante lose -100; 1 progressive lose -100",
        "1 ante lose -100; 1 flop lose -200; 1 progressive lose -100",
    ], rejected=[[20], [8], []])
    first = doc["rounds"][0]
    assert [(r["count"], r["purpose"][-5:]) for r in first["draw_requests"]] == [(1, "box 2")]  # box 1 folded
    assert [(m["hand"], m["paid"]) for m in first["meters"] if m["kind"] == "hit"] == [
        ("three_of_a_kind", 900), ("special_prize", 10_000)]
    assert "draw_requests" not in doc["rounds"][1]
