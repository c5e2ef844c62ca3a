"""`tablectl settle` end to end through a subprocess: the scenario files and malformed input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.tablectl import ROOT, run_tablectl

SCENARIOS = sorted(p for p in (ROOT / "tests" / "scenarios").rglob("*.json") if not p.name.endswith(".expected.json"))
WITH_EXPECTED = [p for p in SCENARIOS if p.with_suffix(".expected.json").exists()]


@pytest.mark.parametrize("path", WITH_EXPECTED, ids=lambda p: str(p.relative_to(ROOT / "tests" / "scenarios")))
def test_scenario_settles_to_its_audited_result(path: Path):
    done = run_tablectl("settle", str(path))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == json.loads(path.with_suffix(".expected.json").read_text())


def test_stdin_and_the_design_example():
    example = {"game": "punto-banco", "variant": "se", "options": {}, "rounds": [{"events": [
        {"type": "bet", "seat": 1, "spot": "banco", "amount": 5000}, {"type": "close_bets"},
        {"type": "card", "card": "9h"}, {"type": "card", "card": "5s"},
        {"type": "card", "card": "3c"}, {"type": "card", "card": "Kd"}]}]}
    done = run_tablectl("settle", "-", input=json.dumps(example))
    assert done.returncode == 0, done.stderr
    (round_,) = json.loads(done.stdout)["rounds"]
    # Punto 9+3 = 2 must draw (seed 000 rule 17): the coup waits for Punto's third card.
    assert round_["complete"] is False and round_["outcome"] is None
    assert round_["waiting_for"] == "Punto draws on 2: third card to Punto"


GOOD_EVENTS = [{"type": "close_bets"}]


@pytest.mark.parametrize("text, words", [
    ("{", "line 1 column 2: invalid JSON"),
    ("[]", "a scenario must be a JSON object"),
    ('{"game": "pinball", "rounds": []}', "game: unknown game 'pinball'"),
    ('{"game": "punto-banco", "variant": "xx", "rounds": []}', "variant: unknown variant 'xx'"),
    ('{"game": "punto-banco", "variant": "se", "options": {"decks": 7}, "rounds": []}', "options: option 'decks'"),
    ('{"game": "punto-banco", "variant": "se", "options": {"turbo": 1}, "rounds": []}', "unknown option 'turbo'"),
    ('{"game": "punto-banco", "variant": "se"}', "rounds: missing"),
    ('{"game": "punto-banco", "rounds": [{"evnts": []}]}', "rounds[0]: a round must be an object"),
    ('{"game": "punto-banco", "rounds": [{"events": [{"type": "card", "card": "1h"}]}]}',
     "rounds[0].events[0].card: field 'card': bad card '1h'"),
    ('{"game": "punto-banco", "rounds": [{"events": [{"type": "close_bets"}, {"type": "bet", "spot": "banco"}]}]}',
     "rounds[0].events[1].seat: a bet event needs the field 'seat'"),
    ('{"game": "punto-banco", "rounds": [{"events": [{"type": "bet", "seat": 1, "spot": "banco", "amount": 9.5}]}]}',
     "rounds[0].events[0].amount"),
    ('{"game": "punto-banco", "rounds": [{"events": [{"type": "shuffle"}]}]}', "unknown event type 'shuffle'"),
    ('{"game": "punto-banco", "rounds": [], "extra": 1}', "extra: unknown key"),
    ('{"game": 7, "rounds": []}', "game: missing or not text"),
])
def test_malformed_scenarios_give_one_line_and_exit_2(tmp_path, text, words):
    path = tmp_path / "bad.json"
    path.write_text(text)
    done = run_tablectl("settle", str(path))
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert lines[0].startswith(f"tablectl: {path}: ") and words in lines[0], lines[0]


def test_unreadable_file(tmp_path):
    done = run_tablectl("settle", str(tmp_path / "missing.json"))
    assert done.returncode == 2 and "cannot read: No such file or directory" in done.stderr
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00")
    done = run_tablectl("settle", str(binary))
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1


def test_games_catalog_json():
    done = run_tablectl("games", "--json")
    assert done.returncode == 0, done.stderr
    catalog = {g["id"]: g for g in json.loads(done.stdout)["games"]}
    pb = catalog["punto-banco"]
    assert [v["id"] for v in pb["variants"]] == ["se", "de", "fi", "fi-no-commission"]
    se = pb["variants"][0]
    assert se["spots"] == ["punto", "banco"] and se["options"]["decks"] == 6 and se["options"]["chip_unit"] == 1000
    assert pb["devices"] == ["shoe"] and pb["actions"] == []
    assert pb["paytables"]["de"]["banco"] == [19, 20]
    assert all(s["limit"] for s in pb["spots"][:2])
    plain = run_tablectl("games")
    assert plain.returncode == 0 and "punto-banco" in plain.stdout
