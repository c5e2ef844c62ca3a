"""Russian Poker (seed 002): every version, line and worked example through the scenarios, against results
worked out by hand (ante 100, raise 200, bonus 10; fees of the ante)."""

from __future__ import annotations

import random

import pytest

from controller.cards import deck, parse_cards
from controller.games import configure
from controller.games.russian_poker import (
    box_results, buys_dealer, dealer_replaces, insurance_most, insurance_result, qualifies, raise_line, strategy,
)
from controller.hands.high import best_high
from controller.hands.russian import russian_combinations
from controller.money import Odds
from tests.controller.games.scenario_lines import check_file

RULES = [  # the raise's line x 200 with the ante kept; the bonus's line x 10 (below a straight it loses)
    "1 ante push 0; 1 raise win 20000; 1 bonus win 50000",  # royal flush: 100 and 5000
    "1 ante push 0; 1 raise win 10000; 1 bonus win 10000",  # straight flush: 50 and 1000
    "1 ante push 0; 1 raise win 4000; 1 bonus win 2500",  # four of a kind: 20 and 250
    "1 ante push 0; 1 raise win 1400; 1 bonus win 1500",  # full house: 7 and 150
    "1 ante push 0; 1 raise win 1000; 1 bonus win 1000",  # flush: 5 and 100
    "1 ante push 0; 1 raise win 800; 1 bonus win 500",  # straight: 4 and 50
    "1 ante push 0; 1 raise win 600; 1 bonus lose -10",  # three of a kind: 3
    "1 ante push 0; 1 raise win 400; 1 bonus lose -10",  # two pair: 2
    "1 ante push 0; 1 raise win 200; 1 bonus lose -10",  # a pair: 1
    "1 ante push 0; 1 raise win 200; 1 bonus lose -10",  # ace-king: 1
    "1 ante lose -100; 1 raise lose -200",  # the dealer's queens
    "1 ante push 0; 1 raise push 0",  # equal hands
    "1 ante win 100; 1 raise push 0",  # the dealer has no game
    "1 ante lose -100; 1 bonus lose -10",  # a fold
    "1 ante push 0; 1 raise win 200; 1 bonus lose -10; 1 buy lose -100",  # a bought eight pairs
    "1 ante lose -100; 1 bonus lose -10; 1 buy lose -100",
    "1 ante push 0; 1 raise win 800; 1 bonus lose -10; 1 exchange lose -100",  # five exchanged: a straight
    "1 ante lose -100; 1 exchange lose -100",
    "1 ante win 100; 1 raise push 0; 1 insurance win 100",  # no game: insurance 1 to 1
    "1 ante push 0; 1 raise win 600; 1 insurance lose -300",  # his weaker game: insurance lost
    "1 ante lose -100; 1 raise lose -200; 1 insurance push 0",  # his stronger hand: insurance returned
    "1 ante push 0; 1 raise win 600; 1 insurance lose -100; 2 ante push 0; 2 raise win 200; 3 ante push 0; "
    "3 raise win 200",
    "1 ante push 0; 1 raise win 800; 1 buy_dealer lose -100; 2 ante win 100; 2 raise push 0",  # a bought game
    "1 ante lose -100; 1 raise lose -200; 1 buy_dealer lose -100",  # the bought game beats the box
    "1 ante push 0; 1 raise push 0; 1 buy_dealer lose -100",  # still no game
    "1 ante push 0; 1 raise win 200; 1 buy lose -100",  # after the refusals
    "1 ante push 0; 1 bonus push 0",  # void
]


def test_version_a_every_line_and_rule():
    doc = check_file("russian-poker", "fi-a-rules", RULES, rejected=[[]] * 19 + [[13, 14], [], [24, 28], [], [], [],
                                                                            [0, 1, 2, 3, 16, 17, 18, 19, 22, 23, 24],
                                                                            []])
    rounds = doc["rounds"]
    assert rounds[22]["outcome"]["dealer"]["bought"] == {"by": [1], "cards": ["9c", "5c", "9h", "6s", "3d"],
                                                         "hand": "Pair of nines", "qualifies": True}
    assert rounds[14]["settlements"][2]["note"] == "bought or exchanged a card: the bonus is lost (002)"
    assert rounds[16]["outcome"]["boxes"][0]["exchanged"] == ["Qh", "9d", "6c", "4s", "2h"]


EXAMPLES = [  # 002's examples, each a winning raise of 200 against ace-king
    "1 ante push 0; 1 raise win 400",  # A A K 8 9: pair + AK, 2 to 1
    "1 ante push 0; 1 raise win 600",  # 4 4 K K A: two pair + AK, 3 to 1
    "1 ante push 0; 1 raise win 800",  # 3 3 3 A K: three of a kind + AK, 4 to 1
    "1 ante push 0; 1 raise win 800; 1 buy lose -100",  # 4 4 8 8 Q Q: 3 par, 4 to 1
    "1 ante push 0; 1 raise win 1600; 1 buy lose -100",  # 2 3 4 5 6 6: 2 stegar, 8 to 1
    "1 ante push 0; 1 raise win 5400; 1 buy lose -100",  # 9 9 9 9 J J: kåk + fyra lika, 27 to 1
    "1 ante push 0; 1 raise win 10800; 1 buy lose -100",  # 5-9 hearts + 9 spades: the lost line, 54 to 1
]


def test_the_seeds_worked_examples():
    doc = check_file("russian-poker", "examples", EXAMPLES)
    lines = [r["outcome"]["boxes"][0]["line"] for r in doc["rounds"]]
    assert lines == ["ace_king+pair", "ace_king+two_pair", "ace_king+three_of_a_kind", "three_pairs",
                     "straight+straight", "full_house+four_of_a_kind", "straight+straight_flush"]


TWO = [  # each line x 200; the six-card hands paid the fee of their bought card
    ("ace_king+pair", 400, False), ("ace_king+two_pair", 600, False), ("ace_king+three_of_a_kind", 800, False),
    ("ace_king+straight", 1000, True), ("ace_king+flush", 1200, True), ("ace_king+full_house", 1600, True),
    ("ace_king+four_of_a_kind", 4200, True), ("ace_king+straight_flush", 10200, True), ("three_pairs", 800, True),
    ("pair+flush", 1200, True),
    ("straight+straight_flush", 10800, True),  # holds pair + straight flush (51), the lost line pays 54
    ("straight+royal_flush", 20800, True),  # holds pair + royal flush (101), straight + royal pays 104
    ("straight+straight", 1600, True), ("straight+flush", 1800, True), ("flush+flush", 2000, True),
    ("full_house+full_house", 2800, True), ("full_house+four_of_a_kind", 5400, True),
    ("flush+straight_flush", 11000, True), ("straight_flush+straight_flush", 20000, True),
    ("straight+royal_flush", 20800, True), ("flush+royal_flush", 21000, True),
    ("straight_flush+royal_flush", 30000, True), ("straight+straight_flush", 10800, True), ("pair", 200, False),
]


def test_every_line_of_the_table_of_two_combinations():
    doc = check_file("russian-poker", "two-combinations",
                     [f"1 ante push 0; 1 raise win {net}" + ("; 1 buy lose -100" if bought else "")
                      for _, net, bought in TWO])
    boxes = [r["outcome"]["boxes"][0] for r in doc["rounds"]]
    assert [b["line"] for b in boxes] == [key for key, _, _ in TWO]
    assert boxes[10]["two_combinations"]["pair+straight_flush"] == [51, 1]
    assert boxes[11]["two_combinations"]["pair+royal_flush"] == [101, 1]
    _, config = configure("russian-poker", "fi-a")
    held = {k for b in boxes for k in b.get("two_combinations", {})}
    assert held == set(config.paytable["two_combinations"]) | set(config.paytable["lost_lines"])


def test_without_the_lost_line():
    check_file("russian-poker", "without-lost-line", ["1 ante push 0; 1 raise win 10200; 1 buy lose -100",
                                                      "1 ante push 0; 1 raise win 10000; 1 buy lose -100"])


def test_versions_b_and_c_exchange_fewer():
    check_file("russian-poker", "fi-b", ["1 ante push 0; 1 raise win 200; 1 exchange lose -100",
                                         "1 ante push 0; 1 raise win 200; 1 buy lose -100"], rejected=[[12], []])
    check_file("russian-poker", "fi-c", ["1 ante push 0; 1 raise win 200; 1 exchange lose -100",
                                         "1 ante push 0; 1 raise win 200; 1 buy lose -100"], rejected=[[12], []])


def test_pair_beside_a_royal_or_straight_flush_always_holds_a_better_line():
    """The lines pair + royal flush (101) and pair + straight flush (51) are never the best: the paired card
    makes a straight with the other four (104, and the lost line's 54)."""
    rng = random.Random(25)
    cards = deck()
    royal = parse_cards("Th Jh Qh Kh Ah")
    for extra in [c for c in cards if c.rank in (10, 11, 12, 13, 14) and c not in royal]:
        assert "straight+royal_flush" in russian_combinations(royal + (extra,))
    for _ in range(200):
        top = rng.randint(6, 13)
        suit = rng.choice("shdc")
        sf = tuple(c for c in cards if c.suit == suit and top - 4 <= c.rank <= top)
        extra = rng.choice([c for c in cards if c.suit != suit and top - 4 <= c.rank <= top])
        assert {"pair+straight_flush", "straight+straight_flush"} <= russian_combinations(sf + (extra,))


@pytest.mark.parametrize("dealer, has_game", [("Ad Kc 9h 6s 3d", True), ("Ad Qc 9h 6s 3d", False),
                                              ("2d 2c 9h 6s 3d", True), ("Kd Qc Jh 9s 8d", False)])
def test_the_dealer_has_a_game_with_ace_king(dealer, has_game):
    assert qualifies(best_high(parse_cards(dealer))) is has_game


def test_the_dealer_replaces_his_highest_card():
    assert dealer_replaces(parse_cards("Qd 5c 9h 6s 3d")) == 0
    assert dealer_replaces(parse_cards("5c 9h Ad 6s 3d")) == 2


def test_insurance_from_the_ante_to_half_the_raises_win():
    _, config = configure("russian-poker", "fi-a")
    assert insurance_most(raise_line(config.paytable, parse_cards("5h 5d 5c Jh 2s")), 200) == 300
    assert insurance_most(raise_line(config.paytable, parse_cards("9c 9d 9h 9s Jc Jd")), 200) == 2700
    assert insurance_most(raise_line(config.paytable, parse_cards("5h 5d 5c Jh 2s")), 55) == 82  # 165 // 2
    trips, dealer = best_high(parse_cards("5h 5d 5c Jh 2s")), best_high(parse_cards("5s 5c 5d Qh 3s"))
    assert insurance_result(trips, best_high(parse_cards("Qd Jc 9h 6s 3d"))) == ("win", Odds(1, 1))
    assert insurance_result(trips, best_high(parse_cards("Ad Kc 9h 6s 3d"))) == ("lose", None)
    assert insurance_result(trips, dealer) == ("push", None)


def test_a_buyer_is_settled_against_the_new_hand():
    pair, straight = best_high(parse_cards("Th Td 6c 4s 2h")), best_high(parse_cards("8s 9d Tc Jh 7s"))
    none, nines = best_high(parse_cards("Qd 5c 9h 6s 3d")), best_high(parse_cards("9c 5c 9h 6s 3d"))
    line = (("straight", Odds(4, 1)))
    assert box_results(line, straight, none, nines) == {"ante": ("push", None), "raise": ("win", Odds(4, 1))}
    assert box_results(line, straight, none, None) == {"ante": ("win", Odds(1, 1)), "raise": ("push", None)}
    assert box_results(("pair", Odds(1, 1)), pair, none, none) == {"ante": ("push", None), "raise": ("push", None)}


@pytest.mark.parametrize("hand, drawn, decision, cards", [
    ("Th Td 6c 4s 2h", False, "raise", None), ("2h 2d 6c 4s 9h", False, "raise", None),
    ("Ah Kh 9h 4h 2c", False, "buy", None), ("9h Td Jc Qs 3c", False, "buy", None),
    ("Ah 2d 3c 4s 9c", False, "buy", None), ("Ah Kd 9c 5s 2h", False, "exchange", "2h 5s 9c"),
    ("Ah Kd Qc 5s 2h", False, "exchange", "2h 5s"), ("Ah Kd 9c 5s 2h 7h", True, "fold", None),
    ("Ah Kd 9c 5s 2h 2c", True, "raise", None),
])
def test_the_stated_strategy(hand, drawn, decision, cards):
    _, config = configure("russian-poker", "fi-a")
    chosen = strategy(config.paytable["fi-a"], parse_cards(hand), drawn)
    assert chosen == (decision, parse_cards(cards) if cards else None)


def test_the_strategy_exchanges_no_more_than_the_version_allows():
    _, config = configure("russian-poker", "fi-b")
    assert strategy(config.paytable["fi-b"], parse_cards("Jh 9d 7c 5s 2h"), False) == (
        "exchange", parse_cards("2h 5s 7c"))
    _, config = configure("russian-poker", "fi-c")  # two cards at most: no exchange, a fold
    assert strategy(config.paytable["fi-c"], parse_cards("Jh 9d 7c 5s 2h"), False) == ("fold", None)
    assert strategy(config.paytable["fi-c"], parse_cards("Jh 9d 8c 5s 2h"), False) == ("fold", None)
    assert strategy(config.paytable["fi-c"], parse_cards("Jh Td 8c 9s 2h"), False) == ("buy", None)
    _, config = configure("russian-poker", "fi-a")
    assert strategy(config.paytable["fi-a"], parse_cards("Jh 9d 7c 5s 2h"), False) == (
        "exchange", parse_cards("2h 5s 7c 9d Jh"))


def test_buying_the_dealer_a_game_from_four_to_one():
    assert not buys_dealer(("three_of_a_kind", Odds(3, 1)))
    assert buys_dealer(("straight", Odds(4, 1))) and buys_dealer(("three_pairs", Odds(4, 1)))
    assert not buys_dealer(None)


def _play(config_variant: str, events: list) -> tuple:
    from controller.events import Bet, CardOut, CloseBets

    spec, config = configure("russian-poker", config_variant)
    round_ = spec.new_round(config, ())
    prompt = None
    for event in [Bet(1, "ante", 100), CloseBets()] + [CardOut(c) for c in parse_cards(
            "5h Ad 5d Kc 5c 9h Jh 6s 2s 3d")] + events:
        answer = round_.apply(event)
        assert type(answer).__name__ == "Accepted", (event, answer)
        prompt = next((e for e in answer.effects if type(e).__name__ == "Prompt"), prompt)
    return spec, round_, prompt


def test_the_terminal_offers_the_decisions_the_round_takes():
    from controller.events import Action
    from controller.games.decisions import legal

    spec, round_, prompt = _play("fi-b", [])
    offered = legal(spec, round_, prompt, [1])
    assert [d.action for d in offered.for_seat(1)] == ["fold", "raise", "buy", "exchange"]
    choice = offered.find(1, "exchange").cards
    assert (choice.least, choice.most, len(choice.cards)) == (1, 3, 5)
    spec, round_, prompt = _play("fi-b", [Action(1, "raise")])
    insurance = legal(spec, round_, prompt, [1]).find(1, "insurance")
    assert (insurance.least, insurance.most) == (100, 300) and legal(spec, round_, prompt, [1]).close_bets
