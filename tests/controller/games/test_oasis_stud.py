"""Oasis Stud Poker (seed 002): every version and table through the scenarios, against results worked out by hand."""

from __future__ import annotations

import pytest

from controller.cards import parse_cards
from controller.games import configure
from controller.games.oasis_stud import bonus_result, hand_key, qualifies, rank_hand, replaced
from tests.controller.games.scenario_lines import check_file

FI = [  # ante 100, bet 200, bonus 10: the ante 1 to 1, the bet by the table (100 to 1 ... 1 to 1), the bonus by its
    "1 ante win 100; 1 bet win 20000; 1 bonus win 50000",  # royal flush: 100 and 5000
    "1 ante win 100; 1 bet win 10000; 1 bonus win 10000",  # straight flush: 50 and 1000
    "1 ante win 100; 1 bet win 4000; 1 bonus win 2500",  # four of a kind: 20 and 250
    "1 ante win 100; 1 bet win 1400; 1 bonus win 1500",  # full house: 7 and 150
    "1 ante win 100; 1 bet win 1000; 1 bonus win 1000",  # flush: 5 and 100
    "1 ante win 100; 1 bet win 800; 1 bonus win 500",  # straight: 4 and 50
    "1 ante win 100; 1 bet win 600; 1 bonus push 0",  # three of a kind: 3, the bonus stays
    "1 ante win 100; 1 bet win 400; 1 bonus push 0",  # two pair: 2, the bonus stays
    "1 ante win 100; 1 bet win 200; 1 bonus lose -10",  # a pair: 1, below two pair the bonus loses
    "1 ante win 100; 1 bet win 200; 1 bonus lose -10",  # ace-king: 1
    "1 ante lose -100; 1 bet lose -200",
    "1 ante push 0; 1 bet push 0",
    "1 ante win 100; 1 bet push 0",
    "1 ante lose -100; 1 bonus lose -10",
    "1 ante win 100; 1 bet win 1000; 1 bonus lose -10; 1 switch lose -100",
    "1 ante win 100; 1 bet win 400; 1 buy_dealer lose -100; 2 ante win 100; 2 bet push 0",
    "1 ante lose -100; 1 bet lose -200; 1 buy_dealer lose -100",
    "1 ante push 0; 1 bet push 0; 1 buy_dealer lose -100",
    "1 ante push 0; 1 bet push 0; 1 switch lose -100; 1 buy_dealer lose -100; 2 ante lose -100",
    "1 ante push 0; 1 bonus push 0",
]


def test_the_first_version_every_line_and_rule():
    doc = check_file("oasis-stud", "fi-rules", FI, rejected=[[]] * 18 + [[0, 1, 2, 3, 6, 7, 24, 25, 28, 29, 31, 33], []])
    rounds = doc["rounds"]
    assert rounds[15]["outcome"]["dealer"]["bought"]["cards"] == ["9h", "9c", "7h", "5d", "3s"]
    assert rounds[14]["settlements"][2]["note"] == "switched a card: the bonus is lost (002)"


def test_version_a_switches_nothing():
    # then one round per line of version A's own bet table, each box bets 200 and a bonus of 10 against the
    # dealer's ace-king: ante +100, bet 200 x the line, bonus 10 x the bonus table (trips, two pair: the chip stays)
    check_file("oasis-stud", "fi-a", ["1 ante lose -100; 1 bet lose -200", "1 ante win 100; 1 bet push 0",
                                      "1 ante win 100; 1 bet win 200",
                                      "1 ante win 100; 1 bet win 20000; 1 bonus win 50000",  # royal 100, 5000
                                      "1 ante win 100; 1 bet win 10000; 1 bonus win 10000",  # straight flush 50, 1000
                                      "1 ante win 100; 1 bet win 4000; 1 bonus win 2500",  # four 20, 250
                                      "1 ante win 100; 1 bet win 1400; 1 bonus win 1500",  # full house 7, 150
                                      "1 ante win 100; 1 bet win 1000; 1 bonus win 1000",  # flush 5, 100
                                      "1 ante win 100; 1 bet win 800; 1 bonus win 500",  # straight 4, 50
                                      "1 ante win 100; 1 bet win 600; 1 bonus push 0",  # three of a kind 3
                                      "1 ante win 100; 1 bet win 400; 1 bonus push 0",  # two pair 2
                                      "1 ante win 100; 1 bet win 200; 1 bonus lose -10"],  # ace-king 1
               rejected=[[12], [13]] + [[]] * 10)


def test_version_b_the_dealer_exchanges_two_cards_himself():
    doc = check_file("oasis-stud", "fi-b", [
        "1 ante win 100; 1 bet win 20000", "1 ante win 100; 1 bet win 10000", "1 ante win 100; 1 bet win 4000",
        "1 ante win 100; 1 bet win 1400", "1 ante win 100; 1 bet win 1000", "1 ante win 100; 1 bet win 600",
        "1 ante win 100; 1 bet win 400", "1 ante win 100; 1 bet win 200", "1 ante win 100; 1 bet win 200",
        "1 ante win 100; 1 bet push 0",  # ace-king does not open; the dealer's own exchange still does not
        "1 ante win 100; 1 bet win 1400; 1 switch lose -200",  # his exchange opens: two pair, beaten by a full house
        "1 ante lose -100; 1 bet lose -200; 2 ante lose -100",  # his exchange opens and beats the box
        "1 ante push 0; 1 bet push 0",  # equal hands
        "1 ante win 100; 1 bet push 0",  # his exchange gives a pair of fives: still not open
    ], rejected=[[]] * 11 + [[18, 21], [], []])
    exchanged = [r["outcome"]["dealer"].get("exchanged") for r in doc["rounds"]]
    assert exchanged[10] == {"cards": ["7d", "7c", "8c", "8d", "3d"], "hand": "Two pair, eights and sevens",
                             "qualifies": True}
    assert exchanged[12] is None  # the dealer opened with his first five: no exchange
    assert "exchanges his two highest cards himself" in doc["rounds"][11]["rejected"][0]["reason"]


def test_the_joker_table():
    check_file("oasis-stud", "fi-joker", [
        "1 ante win 100; 1 bet win 10000",  # royal flush with the joker: 50 to 1
        "1 ante win 100; 1 bet win 10000",  # a natural royal, paid the same
        "1 ante win 100; 1 bet win 6000",  # five of a kind: 30 to 1
        "1 ante win 100; 1 bet win 2000", "1 ante win 100; 1 bet win 600", "1 ante win 100; 1 bet win 600",
        "1 ante win 100; 1 bet win 400", "1 ante win 100; 1 bet win 400", "1 ante win 100; 1 bet win 200",
        "1 ante win 100; 1 bet win 200", "1 ante win 100; 1 bet win 200",
        "1 ante win 100; 1 bet win 200",  # no bonus here: the bet on it is refused
        "1 ante win 100; 1 bet win 400",  # the dealer's exchange draws the joker: three sevens, beaten by a flush
    ], rejected=[[]] * 11 + [[1], []])


def test_the_table_from_a_pair_of_tens():
    check_file("oasis-stud", "fi-tens", [
        "1 ante win 100; 1 bet win 40000", "1 ante win 100; 1 bet win 40000", "1 ante win 100; 1 bet win 10000",
        "1 ante win 100; 1 bet win 2200", "1 ante win 100; 1 bet win 1600", "1 ante win 100; 1 bet win 1000",
        "1 ante win 100; 1 bet win 600", "1 ante win 100; 1 bet win 400", "1 ante win 100; 1 bet win 200",
        "1 ante win 100; 1 bet push 0",  # nines do not open, nor do they after the dealer's exchange
    ])


def test_the_bonus_cap():
    doc = check_file("oasis-stud", "bonus-cap", ["1 ante win 100; 1 bet win 1000; 1 bonus win 1500"])
    assert "capped" in doc["rounds"][0]["settlements"][2]["note"]


@pytest.mark.parametrize("variant, dealer, opens", [
    ("fi", "Ad Kc 9h 6s 3d", True), ("fi", "Ad Qc 9h 6s 3d", False), ("fi-b", "Ad Kc 9h 6s 3d", False),
    ("fi-b", "7d 7c 9h 6s 3d", False), ("fi-b", "8d 8c 9h 6s 3d", True), ("fi-tens", "9d 9c Ah 6s 3d", False),
    ("fi-tens", "Td Tc 9h 6s 3d", True),
])
def test_the_dealer_opens(variant, dealer, opens):
    _, config = configure("oasis-stud", variant)
    assert qualifies(config.paytable[variant], rank_hand(config, parse_cards(dealer))) is opens


def test_the_dealer_replaces_his_highest_cards_outside_a_pair():
    assert replaced(parse_cards("Qd 9c 7h 5d 3s"), 1) == [0]
    assert replaced(parse_cards("7d 7c Kc 9h 3d"), 2) == [2, 3]


def test_the_bonus_below_two_pair_loses():
    _, config = configure("oasis-stud", "fi")
    bonus = config.paytable["bonus"]
    for text, result in [("Th Td 6c 4s 2h", "lose"), ("Jh Jd 4c 4s 8d", "push"), ("5h 5d 5c Kh 2s", "push"),
                         ("8s 9d Tc Jh Qs", "win")]:
        hand = rank_hand(config, parse_cards(text))
        assert bonus_result(bonus, hand)[0] == result, (text, hand_key(hand))


def test_the_progressive_version():
    doc = check_file("oasis-stud", "progressive", [
        "1 ante win 100; 1 bet win 20000; 1 bonus win ?; 2 ante win 100; 2 bet win 1000; 2 bonus win 5000; "
        "3 ante lose -100; 3 bonus lose -50",  # the royal wins the meter; the flush 100 to 1 on the chip
        "1 ante win 100; 1 bet push 0; 1 bonus lose -50; 1 switch lose -100; 2 ante win 100; 2 bet push 0; "
        "2 bonus push 0",  # a switch loses the chip; two pair push
    ], rejected=[[], [1]])
    first, second = (r["meters"] for r in doc["rounds"])
    assert [(m["kind"], m.get("amount"), m.get("paid"), m["meter_after"]) for m in first] == [
        ("contribution", 35, None, 250_035), ("contribution", 35, None, 250_070), ("contribution", 35, None, 250_105),
        ("hit", None, 250_105, 0)]
    assert [m["meter_after"] for m in second] == [35, 70]
    assert "one chip of exactly 50" in doc["rounds"][1]["rejected"][0]["reason"]


@pytest.mark.parametrize("variant, options, words", [
    ("fi-joker", {"progressive": True}, "the joker table has no bonus, so no progressive"),
    ("fi", {"progressive": True, "progressive_contribution": 60}, "is more than the progressive chip 50"),
    ("fi", {"progressive": True, "limits": {"bonus": [100, 500]}}, "no bonus limits at a progressive table"),
])
def test_a_progressive_that_cannot_be_offered_is_refused(variant, options, words):
    with pytest.raises(ValueError, match=words):
        configure("oasis-stud", variant, options)
