"""Fast Poker and Caribbean Fast Poker (seed 000 rules 1-22, the variant) through `tablectl settle`."""

from __future__ import annotations

import json

import pytest

from controller.games import configure
from tests.controller.games.poker_scenarios import check_round, settle
from tests.tablectl import run_tablectl

G = "fast-poker"


def test_branches():
    rounds = settle(G, "branches")["rounds"]
    check_round(rounds[0], [(1, "bet", "lose", -2000), (1, "bonus", "lose", -1000)])
    check_round(rounds[1], [(1, "bet", "win", 2000, (1, 1)), (1, "play", "push", 0), (1, "bonus", "lose", -1000)])
    check_round(rounds[2], [(1, "bet", "win", 2000), (1, "play", "win", 2000, (1, 1)), (1, "bonus", "win", 1000, (1, 1))])
    check_round(rounds[3], [(1, "bet", "win", 2000), (1, "play", "win", 3000, (3, 2)), (1, "bonus", "win", 1500, (3, 2))])
    check_round(rounds[4], [(1, "bet", "lose", -2000), (1, "play", "lose", -2000), (1, "bonus", "lose", -1000)])
    check_round(rounds[5], [(1, "bet", "push", 0), (1, "play", "push", 0), (1, "bonus", "win", 1000, (1, 1))])
    check_round(rounds[6], [(1, "bet", "win", 1000), (1, "play", "win", 1500, (3, 2)),
                            (2, "bet", "win", 3000), (2, "play", "win", 4500, (3, 2)), (2, "bonus", "win", 9000, (3, 2))])


def test_rule_11_limits():
    rounds = settle(G, "limits")["rounds"]
    check_round(rounds[0], [(1, "bet", "win", 3000), (1, "play", "push", 0), (1, "bonus", "win", 6000, (1, 1))],
                rejected=(0, 1, 2, 4, 5))
    reasons = [r["reason"] for r in rounds[0]["rejected"]]
    assert "rule 16" in reasons[0]
    assert all("legal" in r and "rule 11" in r for r in reasons[1:])


def test_caribbean_variant_doubles_the_play():
    rounds = settle(G, "caribbean")["rounds"]
    check_round(rounds[0], [(1, "bet", "win", 2000), (1, "play", "win", 6000, (3, 2))], rejected=(0,))
    assert rounds[0]["settlements"][1]["stake"] == 4000
    check_round(rounds[1], [(1, "bet", "lose", -1000), (1, "play", "lose", -2000)])
    check_round(rounds[2], [(1, "bet", "win", 1000), (1, "play", "push", 0), (2, "bet", "lose", -1500)])


@pytest.mark.parametrize("variant, limits", [
    ("se", {"bet": [1000, 4000]}),
    ("se", {"bonus": [500, 6000]}),
    ("se-caribbean", {"bet": [1000, 3000]}),
    ("se-caribbean", {"play": [1000, 4000]}),
])
def test_configured_limits_outside_the_law_are_refused(variant, limits, tmp_path):
    with pytest.raises(ValueError, match="legal"):
        configure(G, variant, {"limits": limits})
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"game": G, "variant": variant, "options": {"limits": limits}, "rounds": []}))
    done = run_tablectl("settle", str(path))
    assert done.returncode == 2
    assert "legal" in done.stderr and "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_tighter_limits_are_kept():
    _, config = configure(G, "se", {"limits": {"bet": [2000, 2500]}})
    assert config["limits"]["bet"] == (2000, 2500)
