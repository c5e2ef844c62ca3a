"""Every poker scenario file settles cleanly; the scenario 'meters' key is checked like the rest."""

from __future__ import annotations

import json

import pytest

from controller.scenario import ScenarioError, load_scenario, settle
from tests.controller.games.poker_scenarios import SCENARIOS
from tests.tablectl import run_tablectl

POKER = ("three-card-poker", "fast-poker", "restaurant-holdem", "caribbean-stud", "ultimate-texas-holdem",
         "texas-holdem-bonus", "dynamic-poker-pro")
FILES = sorted(p for game in POKER for p in (SCENARIOS / game).glob("*.json") if not p.name.endswith(".expected.json"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_round_completes(path):
    doc = settle(load_scenario(json.loads(path.read_text())))
    assert doc["rounds"]
    assert all(r["complete"] for r in doc["rounds"])


def test_there_is_a_scenario_per_game():
    assert {p.parent.name for p in FILES} == set(POKER)


@pytest.mark.parametrize("meters, place", [([1], "meters"), ({"caribbean-stud": -1}, "meters.caribbean-stud"),
                                           ({"caribbean-stud": 1.5}, "meters.caribbean-stud")])
def test_bad_meters_are_refused(meters, place, tmp_path):
    document = {"game": "caribbean-stud", "variant": "classic", "meters": meters, "rounds": []}
    with pytest.raises(ScenarioError) as caught:
        load_scenario(document)
    assert caught.value.place == place
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(document))
    done = run_tablectl("settle", str(path))
    assert done.returncode == 2 and place in done.stderr


def test_without_meters_the_output_is_unchanged():
    doc = settle(load_scenario(json.loads((SCENARIOS / "caribbean-stud" / "progressive.json").read_text()) | {"meters": None}))
    assert "meters" not in doc
    assert all("paid" not in m for r in doc["rounds"] for m in r.get("meters", []))
