"""The published Punto Banco house edges, computed through the game's own tableau and settlement."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from controller.house_edge.punto_banco import final_points_weights
from tests.tablectl import run_tablectl


@pytest.mark.parametrize("variant, decks, expected", [
    ("fi", 8, {"banco": 1.0579, "punto": 1.2351, "tie": 14.3596}),
    ("fi", 6, {"banco": 1.0558, "punto": 1.2374, "tie": 14.4382}),
    ("de", 8, {"banco": 1.0579, "punto": 1.2351, "tie": 14.3596}),
    ("fi-no-commission", 8, {"banco": 1.4581, "punto": 1.2351, "tie": 14.3596}),
])
def test_published_figures(variant, decks, expected):
    done = run_tablectl("math", "punto-banco", "--variant", variant, "--decks", str(decks), "--exact", "--json")
    assert done.returncode == 0, done.stderr
    bets = json.loads(done.stdout)["bets"]
    assert {spot: bets[spot]["house_edge_percent"] for spot in expected} == expected


def test_enumeration_covers_every_ordered_six_card_deal():
    weights = final_points_weights(8)
    n = 416
    assert sum(weights.values()) == n * (n - 1) * (n - 2) * (n - 3) * (n - 4) * (n - 5)
    # the well-known probabilities for 8 decks: Banco 45.8597 %, Punto 44.6247 %, tie 9.5156 %
    total = Fraction(sum(weights.values()))
    banco = sum(w for (p, b), w in weights.items() if b > p) / total
    tie = sum(w for (p, b), w in weights.items() if b == p) / total
    assert round(float(banco) * 100, 4) == 45.8597 and round(float(tie) * 100, 4) == 9.5156


def test_se_stand_off_is_reported_both_ways():
    done = run_tablectl("math", "punto-banco", "--variant", "se", "--exact", "--json")
    document = json.loads(done.stdout)
    banco = document["bets"]["banco"]
    assert document["decks"] == 6 and set(document["bets"]) == {"punto", "banco"}
    assert banco["results"]["carry"] > 0 and banco["house_edge_per_resolved_bet_percent"] > banco["house_edge_percent"]


def test_math_refuses_bad_usage():
    assert run_tablectl("math", "punto-banco", "--variant", "fi").returncode == 2
    bad = run_tablectl("math", "punto-banco", "--variant", "fi", "--decks", "7", "--exact")
    assert bad.returncode == 2 and "decks" in bad.stderr and len(bad.stderr.splitlines()) == 1
    assert run_tablectl("math", "pinball", "--exact").returncode == 2
