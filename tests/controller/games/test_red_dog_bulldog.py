"""Red Dog and Bulldog (seed 002, six decks) through `tablectl settle`, against results worked out by hand."""

from __future__ import annotations

import pytest

from controller.cards import parse_card
from controller.games import configure
from controller.games.red_dog import spread_of, stake_result
from tests.controller.games.scenario_lines import check_file


def test_red_dog_every_rule_and_line():
    check_file("red-dog", "fi-rules", [
        "1 bet win 500; 1 raise win 500",
        "1 bet win 400; 1/anna bet win 800; 1/anna raise win 200",
        "2 bet win 200",
        "1 bet win 100; 1 raise win 100",
        "1 bet win 100",
        "1 bet lose -100; 1 raise lose -100",
        "1 bet push 0",
        "3 bet push 0",
        "1 bet win 1100",
        "1 bet push 0",
        "1 bet win 100; 1/anna bet win 100; 1/anna raise win 50; 1/bo bet win 100; 2/eva bet win 100",
        "4 bet win 300; 4 raise win 300",
    ], rejected=[[], [], [], [], [], [], [4], [], [4], [], [0, 4, 5, 6, 11, 13, 14], [6]])


def test_bulldog_every_rule_and_line():
    doc = check_file("bulldog", "fi-rules", [
        "1 bet win 200; 1 raise win 200; 2 bet lose -100; 3 bet lose -100",
        "1 bet win 1100; 2 bet push 0",
        "1 bet push 0; 2 bet push 0",
        "1 bet win 500; 2 bet win 500; 2 raise win 500; 2/anna bet win 500; 2/anna raise win 250; 2/bo bet win 500",
        "2 bet win 400; 5 bet lose -100",
        "1 bet win 100; 3 bet lose -100",
        "1 bet win 100; 1 raise win 100",
        "1 bet win 500; 2 bet lose -100",
        "1 bet win 400; 1 raise win 160",
        "1 bet win 100; 1/anna bet win 100; 1/eva bet win 100; 2/bo bet lose -100",
        "1 bet push 0; 1 raise push 0",
        "3 bet win 200; 3/bo bet win 400",
    ], rejected=[[], [5], [], [], [], [], [], [], [], [3, 4, 9, 11], [], []])
    rounds = doc["rounds"]
    assert rounds[4]["outcome"]["spots"] == [{"spot": 2, "third": "Jc"}, {"spot": 5, "third": "3h"}]
    assert rounds[9]["rejected"][3]["reason"] == "the third card is out: no more raises"


@pytest.mark.parametrize("a, b, spread", [("2c", "Ah", 11), ("Kd", "As", 0), ("7c", "7d", None), ("5c", "7d", 1)])
def test_spread(a, b, spread):
    assert spread_of(parse_card(a), parse_card(b)) == spread


def test_a_sixth_copy_is_the_last_a_six_deck_shoe_holds():
    spec, config = configure("red-dog", "fi", {"decks": 1})
    from controller.events import Bet, CardOut, CloseBets
    round_ = spec.new_round(config, ())
    for event in (Bet(1, "bet", 100), CloseBets(), CardOut(parse_card("7c"))):
        assert round_.apply(event).__class__.__name__ == "Accepted"
    assert "once more than the 1-deck shoe holds" in round_.apply(CardOut(parse_card("7c"))).reason
    _, six = configure("red-dog", "fi")
    assert stake_result(six.paytable["fi"], parse_card("7c"), parse_card("7d"), parse_card("7h"))[0] == "win"
