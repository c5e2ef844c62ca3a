"""The roulette, Tärning and Sic Bo scenario files, replayed through `tablectl settle` as an auditor would."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tablectl import ROOT, run_tablectl, settle_json

SCENARIOS = ROOT / "tests" / "scenarios"

# file -> per round: ({(seat, spot): (result, net)}, number of refused events, outcome fields to check)
EXPECTED = {
    "roulette/se-full-layout.json": [
        ({(1, "straight:17"): ("win", 15000), (1, "split:17,20"): ("win", 3000), (1, "street:16,17,18"): ("win", 1000),
          (1, "corner:17,18,20,21"): ("win", 700), (2, "line:13,14,15,16,17,18"): ("win", 2000),
          (2, "dozen:2"): ("win", 1400), (2, "column:2"): ("win", 400), (3, "black"): ("win", 900),
          (3, "red"): ("lose", -500), (3, "odd"): ("win", 200), (3, "even"): ("lose", -200),
          (3, "low"): ("win", 100), (3, "high"): ("lose", -100)},
         3, {"number": 17, "color": "black", "dozen": 2, "column": 2, "parity": "odd"}),
        ({(1, "straight:32"): ("win", 6000), (2, "high"): ("win", 500)}, 0,
         {"number": 32, "voids": [{"by": "croupier Lisa", "reason": "a chip fell into the wheel"}]}),
        ({(1, "split:1,2"): ("lose", -100), (3, "red"): ("lose", -300)}, 1, {"number": 0, "color": "green"}),
    ],
    "roulette/european-zero.json": [
        ({(1, "straight:0"): ("win", 3500), (1, "split:0,2"): ("win", 1700), (1, "trio:0,1,2"): ("win", 1100),
          (1, "first_four:0,1,2,3"): ("win", 800), (2, "red"): ("surrender", -76), (2, "low"): ("surrender", -500),
          (2, "dozen:1"): ("lose", -1000)}, 1, {"number": 0}),
        ({(4, "corner:25,26,28,29"): ("win", None)}, 0, {"number": 29, "column": 2}),
    ],
    "tarning/se-throws.json": [
        ({(1, "straight:14"): ("win", 3000), (1, "split:14,17"): ("win", 1500), (1, "street:13,14,15"): ("win", 1000),
          (1, "corner:13,14,16,17"): ("win", 700), (2, "line:13,14,15,16,17,18"): ("win", 2000),
          (2, "total:5"): ("win", 1400), (2, "below"): ("win", 500), (2, "pair"): ("lose", -200),
          (2, "above"): ("lose", -200)}, 1, {"number": 14, "red": 3, "green": 2, "total": 5}),
        ({(1, "pair"): ("win", 2000), (1, "total:8"): ("win", 500), (2, "total:11"): ("lose", -100)}, 0,
         {"number": 22, "voids": [{"by": "camera", "reason": "green die off the table"}]}),
    ],
    "tarning/high-jack.json": [
        ({(1, "total:11"): ("win", 3000), (1, "straight:35"): ("win", 3000), (1, "above"): ("win", 900),
          (1, "line:31,32,33,34,35,36"): ("win", 400)}, 1, {"number": 35, "total": 11}),
    ],
    "sic-bo/fi-throws.json": [
        ({(1, "small"): ("lose", -1000), (1, "big"): ("lose", -1000), (2, "single:5"): ("win", 1200),
          (2, "double:5"): ("win", 1100), (2, "any_triple"): ("win", 3000), (2, "triple:5"): ("win", 18000),
          (3, "total:15"): ("win", 1800), (3, "combo:1,5"): ("lose", -100)}, 1, {"dice": [5, 5, 5], "triple": True}),
        ({(1, "small"): ("win", 500), (1, "big"): ("lose", -500), (2, "single:4"): ("win", 200),
          (2, "single:1"): ("win", 100), (2, "combo:1,4"): ("win", 600), (2, "double:4"): ("win", 1100),
          (3, "total:9"): ("win", 600), (3, "total:10"): ("lose", -100)}, 0, {"dice": [4, 1, 4], "total": 9}),
    ],
}


def test_every_scenario_file_has_expectations() -> None:
    files = {str(p.relative_to(SCENARIOS)) for game in ("roulette", "tarning", "sic-bo")
             for p in (SCENARIOS / game).glob("*.json")}
    assert files == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_scenario_settles_as_expected(name: str) -> None:
    document = settle_json(SCENARIOS / name)
    assert len(document["rounds"]) == len(EXPECTED[name])
    for got, (settlements, refused, outcome) in zip(document["rounds"], EXPECTED[name]):
        assert got["complete"]
        assert {(s["seat"], s["spot"]): (s["result"], s.get("net")) for s in got["settlements"]} == settlements
        assert len(got["rejected"]) == refused, got["rejected"]
        for key, value in outcome.items():
            assert got["outcome"][key] == value


def test_a_broken_scenario_is_one_line_and_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "roulette", "variant": "se", "options": {"chip_values": [5000]}, "rounds": []}')
    done = run_tablectl("settle", str(bad))
    assert done.returncode == 2 and "chip_values" in done.stderr and len(done.stderr.strip().splitlines()) == 1
    bad.write_text('{"game": "tarning", "variant": "se", "rounds": [{"events": [{"type": "dice", "values": "3-2"}]}]}')
    done = run_tablectl("settle", str(bad))
    assert done.returncode == 2 and "rounds[0].events[0].values" in done.stderr
