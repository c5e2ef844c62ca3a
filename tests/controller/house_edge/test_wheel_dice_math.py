"""Exact house edge of roulette, Tärning and Sic Bo: the published figures, and the round agrees with the math."""

from __future__ import annotations

import argparse
import json
from fractions import Fraction
from itertools import product

import pytest

from controller import games
from controller.house_edge import roulette as roulette_math, sic_bo as sic_bo_math, tarning as tarning_math
from tests.controller.games.wheel_helpers import bet, play
from tests.tablectl import run_tablectl

EXACT = argparse.Namespace(exact=True)


def edges(game: str, variant: str, **options: object) -> dict[str, float]:
    spec, config = games.configure(game, variant, options)
    module = {"roulette": roulette_math, "tarning": tarning_math, "sic-bo": sic_bo_math}[game]
    return {name: f["house_edge_percent"] for name, f in module.report(spec, config, EXACT)["bets"].items()}


def test_european_roulette_is_2_7027_on_every_standard_bet() -> None:
    figures = edges("roulette", "european")
    assert set(figures) == {"straight", "split", "street", "trio", "corner", "first_four", "line", "dozen",
                            "column", "red", "black", "even", "odd", "low", "high"}
    assert set(figures.values()) == {2.7027}


def test_la_partage_halves_the_even_chances() -> None:
    figures = edges("roulette", "european", la_partage=True)
    assert figures["red"] == figures["low"] == 1.3514 and figures["straight"] == 2.7027


def test_se_roulette_follows_from_the_seed_odds() -> None:
    # 37 pockets, paid 30/15/10/7/4 on 1/2/3/4/6 numbers: edge = 1 - n(k+1)/37
    assert edges("roulette", "se") == {
        "straight": 16.2162, "split": 13.5135, "street": 10.8108, "corner": 13.5135, "line": 18.9189,
        "dozen": 2.7027, "column": 2.7027, "red": 2.7027, "black": 2.7027, "even": 2.7027, "odd": 2.7027,
        "low": 2.7027, "high": 2.7027}


@pytest.mark.parametrize("variant", ["se", "se-high-jack"])
def test_tarning_figures(variant: str) -> None:
    figures = edges("tarning", variant)
    assert figures["straight"] == 13.8889 and figures["street"] == 8.3333 and figures["line"] == 16.6667
    assert figures["total:3"] == figures["total:11"] == 11.1111 and figures["total:7"] == 16.6667
    assert figures["pair"] == figures["below"] == figures["above"] == 16.6667


def test_sic_bo_matches_the_published_figures() -> None:
    figures = edges("sic-bo", "fi")
    assert figures["small"] == figures["big"] == 2.7778
    assert figures["single"] == 3.7037
    assert figures["combo"] == 2.7778
    assert figures["double"] == 11.1111
    assert figures["any_triple"] == 13.8889
    assert figures["triple"] == 16.2037
    assert figures["total:4"] == figures["total:17"] == 15.2778


def test_tablectl_math_prints_json_and_refuses_without_exact() -> None:
    done = run_tablectl("math", "sic-bo", "--exact", "--json")
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert document["outcomes"] == 216 and document["bets"]["triple"]["house_edge_exact"] == "35/216"
    refused = run_tablectl("math", "roulette", "--variant", "se")
    assert refused.returncode == 2 and "add --exact" in refused.stderr and "Traceback" not in refused.stderr
    bad = run_tablectl("math", "roulette", "--variant", "se", "--option", "la_partage=true", "--exact")
    assert bad.returncode == 2 and "unknown option 'la_partage'" in bad.stderr


def test_the_round_itself_returns_what_the_math_says() -> None:
    """Play every throw of Sic Bo and every pocket of SE roulette through the round, and sum the nets."""
    stake = 216 * 37
    spots = ["small", "single:4", "combo:2,5", "double:6", "any_triple", "triple:1", "total:6", "total:10"]
    net = {s: 0 for s in spots}
    for throw in product(range(1, 7), repeat=3):
        done = play("sic-bo", "fi", [bet(s, stake, player=None) for s in spots]
                    + [{"type": "dice", "values": list(throw)}])
        for settlement in done["settlements"]:
            net[settlement["spot"]] += settlement["net"]
    spec, config = games.configure("sic-bo", "fi")
    report = sic_bo_math.report(spec, config, EXACT)["bets"]
    for spot in spots:
        key = spot if spot.startswith("total") else spot.split(":")[0]
        assert Fraction(-net[spot], 216 * stake) == Fraction(report[key]["house_edge_exact"]), spot

    spots = ["straight:17", "split:0,3", "corner:1,2,4,5", "line:31,32,33,34,35,36", "column:2", "odd"]
    net = {s: 0 for s in spots}
    for number in range(37):
        done = play("roulette", "se", [bet(s, 500) for s in spots] + [{"type": "wheel", "number": number}],
                    {"zero_bets": True})
        for settlement in done["settlements"]:
            net[settlement["spot"]] += settlement["net"]
    spec, config = games.configure("roulette", "se", {"zero_bets": True})
    report = roulette_math.report(spec, config, EXACT)["bets"]
    for spot in spots:
        assert Fraction(-net[spot], 37 * 500) == Fraction(report[spot.split(":")[0]]["house_edge_exact"]), spot
