"""Pai Gow Poker (seed 002): the scenarios against results worked out by hand, the house way as data, its checks."""

from __future__ import annotations

import random
import tomllib
from pathlib import Path

import pytest

from controller import paytables
from controller.cards import deck, parse_cards
from controller.games import configure
from controller.games.pai_gow_house_way import HouseWayError, legal, parse_house_way, set_hand
from controller.games.pai_gow_poker import contest
from tests.controller.games.scenario_lines import check_file
from tests.tablectl import ROOT, run_tablectl

SEED_WAY = paytables.load("pai-gow-poker.toml")["house_way"]
TOML = (ROOT / "controller" / "paytables" / "pai-gow-poker.toml").read_text(encoding="utf-8")

# the dealer's seven cards of each round of house-way.json, the rule that must set them and the front it gives,
# worked out by reading the rule (docs/games/pai-gow-poker.md, "The house way")
HOUSE_WAY = [
    ("five-aces-with-kings", "Kc Kd"), ("five-aces", "Ac Ad"), ("quads-face-keep-pair", "Tc Td"),
    ("quads-face-keep-trips", "Jc Jd"), ("quads-face-split", "Jc Jd"), ("quads-middle-keep", "Ac Qd"),
    ("quads-middle-keep-pair", "4c 4d"), ("quads-middle-keep-trips", "3c 3d"), ("quads-middle-split", "Tc Td"),
    ("quads-low", "Ac Kd"), ("quads-low-pair", "Qc Qd"), ("quads-low-trips", "9c 9d"), ("two-trips", "Kc Kd"),
    ("full-house", "6c 6d"), ("royal-flush-break", "Ac 2d"), ("made-two-pair-aces", "5c 5d"),
    ("made-two-pair-high", "Tc Td"), ("made-two-pair-low-ace", "Ah Th"), ("straight-flush-back", "9d 2c"),
    ("flush-or-straight-back", "4d 4h"), ("three-aces", "Ac Kc"), ("trips", "Ks Jd"), ("three-pairs", "Qc Qd"),
    ("two-pair-low", "Kc 9d"), ("two-pair-ace", "Ac 8d"), ("two-pair-face-low-ace", "Ad 9c"), ("two-pair", "8h 8s"),
    ("pair", "Ah Jc"), ("no-pair", "Jd 9h"), ("no-pair", "Kd 9h"),
]


def test_every_rule_of_the_settlement():
    check_file("pai-gow-poker", "rules", [
        "1 bet win 95", "1 bet push 0", "1 bet lose -100", "1 bet push 0", "1 bet push 0", "1 bet lose -100",
        "1 bet lose -100", "1 bet win 28", "1 bet win 95", "1 bet push 0", "1 bet win 95",
        "2 bet win 95; 5 bet lose -200", "1 bet win 95", "1 bet push 0",
        # A-2-3-4-5 above the queen-high straight, below the ace-high one, above the king-high straight flush;
        # the joker completing a flush, then a straight, each beating what it would not beat as an ace
        "1 bet win 95", "1 bet push 0", "1 bet win 95", "1 bet win 95", "1 bet win 95",
    ], rejected=[[]] * 12 + [[1, 2, 3, 5, 13, 14, 22, 23, 24, 26], []] + [[]] * 5)


def test_the_wheel_and_the_joker_in_the_rules_scenario():
    rounds = _settled("rules")["rounds"][14:]
    assert [r["outcome"]["boxes"][0]["back_hand"] for r in rounds] == [
        "Straight, five high", "Straight, five high", "Straight flush, five high", "Flush, ace high",
        "Straight, king high"]
    assert [r["outcome"]["dealer"]["back_hand"] for r in rounds] == [
        "Straight, queen high", "Straight, ace high", "Straight flush, king high", "Straight, ten high",
        "Three of a kind, sevens"]


def test_player_banking():
    doc = check_file("pai-gow-poker", "player-banking", [
        "1 bet win 95; 3 bet lose -200; 2 bank win 190",
        "1 bet win 95; 2 bank lose -200",
        "2 bet win 95; 1 bank lose -150",
        "1 bet win 95; 3 bank push 0",
    ], rejected=[[], [], [], [1, 3, 4]])
    rounds = doc["rounds"]
    assert [r["outcome"]["banker"]["dealer_result"] for r in rounds] == ["lose", "win", "win", "lose"]
    assert "foul" in rounds[2]["outcome"]["banker"]
    assert rounds[0]["settlements"][-1]["note"] == "the bank took +200, 10 commission to the house"


def test_one_round_per_house_way_rule_and_each_sets_the_dealer_as_written():
    doc = _settled("house-way")  # the settlements are held by house-way.expected.json (tests/controller/test_settle_cli.py)
    assert all(r["complete"] and not r["rejected"] for r in doc["rounds"])
    dealers = [r["outcome"]["dealer"] for r in doc["rounds"]]
    assert [(d["set"], " ".join(d["front"])) for d in dealers] == HOUSE_WAY
    assert {rule for rule, _ in HOUSE_WAY} == {r["id"] for r in SEED_WAY["rules"]}


def _settled(name: str) -> dict:  # type: ignore[type-arg]
    from tests.controller.games.scenario_lines import SCENARIOS, settle_file

    return settle_file(SCENARIOS / "pai-gow-poker" / f"{name}.json")


def test_the_house_way_sets_every_hand_legally():
    way = parse_house_way(SEED_WAY, check=True)
    rng = random.Random(25)
    cards = deck(jokers=1)
    for _ in range(1500):
        hand = rng.sample(cards, 7)
        done = set_hand(way, hand)
        assert legal(done.front, done.back) and sorted(done.front + done.back) == sorted(hand)


@pytest.mark.parametrize("hand, bank, result", [
    ((5, 5), (4, 4), "win"), ((5, 3), (4, 4), "push"), ((4, 4), (4, 4), "lose"), ((5, 4), (4, 4), "push"),
    (None, (1, 1), "lose"), ((1, 1), None, "win"), (None, None, "lose"),
])
def test_contest(hand, bank, result):
    assert contest(hand, bank) == result


@pytest.mark.parametrize("change, place", [
    ({"front": ["pairs:1"]}, "house_way.rules[0].front[0]"),
    ({"front": ["single:1"]}, "house_way.rules[0].front"),
    ({"hand": ["two_pairs"]}, "house_way.rules[0].hand"),
    ({"colour": "red"}, "house_way.rules[0].colour"),
    ({"quads": [13, 11]}, "house_way.rules[0].quads"),
    ({"front_min": ["pair"]}, "house_way.rules[0].front_min"),
    ({"back": ["flush"]}, "house_way.rules[0]"),
])
def test_a_bad_rule_is_named_by_its_place(change, place):
    data = {**SEED_WAY, "rules": [{**SEED_WAY["rules"][0], **change}] + list(SEED_WAY["rules"][1:])}
    with pytest.raises(HouseWayError) as caught:
        parse_house_way(data)
    assert caught.value.place == place


def test_a_house_way_must_cover_every_shape():
    data = {**SEED_WAY, "rules": [r for r in SEED_WAY["rules"] if r["id"] != "two-pair"]}
    with pytest.raises(HouseWayError, match="'two_pair'"):
        parse_house_way(data)


def _own_way(tmp_path: Path, text: str | bytes | None) -> Path:
    """A table configuration naming a house way file (the example table, every device simulated); None: the
    file is not there."""
    if isinstance(text, bytes):
        (tmp_path / "our-way.toml").write_bytes(text)
    elif text is not None:
        (tmp_path / "our-way.toml").write_text(text, encoding="utf-8")
    table = (ROOT / "hw" / "tables" / "pai-gow-poker-fi.toml").read_text(encoding="utf-8")
    table = table.replace('# house_way = "../house-ways/our-house-way.toml"', 'house_way = "our-way.toml"')
    table = table.replace('pin_map = "../dealer-panel.toml"', f'pin_map = "{ROOT / "hw" / "dealer-panel.toml"}"')
    path = tmp_path / "table.toml"
    path.write_text(table, encoding="utf-8")
    return path


def _casino_way() -> str:
    """The seed's house way with its two-pair exceptions struck out: this casino always splits two pair."""
    start = TOML.index("[house_way]")
    text = TOML[start:]
    for rule in ("two-pair-low", "two-pair-ace", "two-pair-face-low-ace"):
        head = text.index(f'id = "{rule}"')
        begin = text.rindex("[[house_way.rules]]", 0, head)
        end = text.index("[[house_way.rules]]", head)
        text = text[:begin] + text[end:]
    return text


def test_a_casinos_house_way_is_a_file_config_check_reads(tmp_path):
    path = _own_way(tmp_path, _casino_way())
    done = run_tablectl("config", "check", str(path))
    assert done.returncode == 0, done.stderr
    way = tomllib.loads(_casino_way())["house_way"]
    spec, config = configure("pai-gow-poker", "fi", {"house_way": way})
    from controller.events import Action, Bet, CardOut, CloseBets

    round_ = spec.new_round(config, ())
    hand = parse_cards("6c 6d 3h 3s Kc 9d 2h")  # the seed keeps sixes and threes together; this casino splits
    for event in [Bet(1, "bet", 100), CloseBets(), *(CardOut(c) for c in parse_cards("As Ks 9c 9h 5h 4c 2d")),
                  *(CardOut(c) for c in hand), Action(1, "set")]:
        assert type(round_.apply(event)).__name__ == "Accepted"
    assert round_.outcome()["dealer"]["set"] == "two-pair"
    assert round_.outcome()["dealer"]["front"] == ["3h", "3s"]


@pytest.mark.parametrize("text, words", [
    ('[house_way]\nname = "x"\nrules = []\n', "our-way.toml: house_way.rules: a list of rules"),
    ("[house_way\n", "is not valid TOML"),
    ("", "our-way.toml: house_way.rules: a list of rules"),  # empty: refused, not taken for the seed's way
    ("house_way = 5\n", "our-way.toml: must be a table of rules"),
    (None, "cannot read"),  # no such file
    (b"\xff\xfe[house_way]", "cannot read"),  # not UTF-8
])
def test_a_bad_house_way_file_is_one_line_and_exit_2(tmp_path, text, words):
    done = run_tablectl("config", "check", str(_own_way(tmp_path, text)))
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "options.house_way" in lines[0] and words in lines[0], done.stderr


def test_a_bad_selector_in_a_house_way_file_names_the_rule(tmp_path):
    text = _casino_way().replace('front = ["pair:2"]', 'front = ["pair:9", "x"]', 1)
    done = run_tablectl("config", "check", str(_own_way(tmp_path, text)))
    assert done.returncode == 2 and "our-way.toml: house_way.rules[" in done.stderr and "front" in done.stderr
