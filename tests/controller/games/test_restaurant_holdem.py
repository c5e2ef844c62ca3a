"""Hold em (SE, seed 000 rules 1-12, Vinsttabell, Bonusspel 1-7) through `tablectl settle`."""

from __future__ import annotations

import json

import pytest

from controller.cards import parse_cards
from controller.games import configure
from controller.games.restaurant_holdem import bonus_line, legal_maximum
from tests.controller.games.poker_scenarios import check_round, settle
from tests.tablectl import run_tablectl

G = "restaurant-holdem"


def test_branches():
    rounds = settle(G, "branches")["rounds"]
    check_round(rounds[0], [(1, "ante", "lose", -1000), (1, "bonus", "lose", -1000)])
    assert len(rounds[0]["outcome"]["board"]) == 3  # everyone folded: no turn, no river
    check_round(rounds[1], [(1, "ante", "win", 1000, (1, 1)), (1, "call", "win", 1000, (1, 1)),
                            (1, "bonus", "win", 1000, (1, 1))])
    check_round(rounds[2], [(1, "ante", "lose", -1000), (1, "call", "lose", -1000), (1, "bonus", "lose", -1000)])
    check_round(rounds[3], [(1, "ante", "win", 1500, (3, 2)), (1, "call", "win", 1500, (3, 2)),
                            (1, "bonus", "lose", -1000)])
    check_round(rounds[4], [(1, "ante", "win", 1000, (1, 1)), (1, "call", "win", 1000, (1, 1))])
    check_round(rounds[5], [(1, "ante", "lose", -1000), (1, "call", "lose", -1000)])
    assert rounds[5]["outcome"]["board"] == ["Ts", "Js", "Qs", "Ks", "As"]


def test_paytable_lines():
    rounds = settle(G, "paytable")["rounds"]
    main = [(1, (1, 1)), (2, (1, 1)), (3, (1, 1)), (4, (3, 2)), (5, (3, 2)), (6, (1, 1))]
    expected = []
    for seat, odds in main:
        net = 1000 * odds[0] // odds[1]
        expected += [(seat, "ante", "win", net, odds), (seat, "call", "win", net, odds)]
    expected += [(7, "ante", "lose", -1000), (7, "call", "lose", -1000)]
    expected += [(1, "bonus", "win", 1500, (3, 2)), (2, "bonus", "lose", -1000), (3, "bonus", "win", 1500, (3, 2)),
                 (4, "bonus", "lose", -1000), (5, "bonus", "win", 1000, (1, 1)), (6, "bonus", "win", 1500, (3, 2)),
                 (7, "bonus", "lose", -1000)]
    check_round(rounds[0], expected)
    check_round(rounds[1], [(1, "ante", "win", 1500, (3, 2)), (1, "call", "win", 1500, (3, 2)),
                            (2, "ante", "win", 1500, (3, 2)), (2, "call", "win", 1500, (3, 2))])
    assert [b["hand"].split(",")[0] for b in rounds[1]["outcome"]["boxes"]] == ["Full house", "Four of a kind"]
    check_round(rounds[2], [(1, "ante", "win", 1500, (3, 2)), (1, "call", "win", 1500, (3, 2)),
                            (2, "ante", "lose", -2000)])


def test_se_limits():
    rounds = settle(G, "limits")["rounds"]
    check_round(rounds[0], [(1, "ante", "win", 4933), (1, "call", "win", 4933), (1, "bonus", "win", 14799, (3, 2))],
                rejected=(0, 1, 3, 5))
    reasons = [r["reason"] for r in rounds[0]["rejected"]]
    assert "1/1200" in reasons[1] and "1/600" in reasons[2]


def test_legal_maximum_follows_the_price_base_amount():
    _, config = configure(G, "se", {"price_base_amount": 6_000_000})
    assert legal_maximum(config, "ante") == 5000 and legal_maximum(config, "bonus") == 10000


@pytest.mark.parametrize("limits", [{"ante": [100, 5000]}, {"bonus": [100, 10000]}, {"ante": [100, None]}])
def test_configured_limits_above_the_law_are_refused(limits, tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"game": G, "variant": "se", "options": {"limits": limits}, "rounds": []}))
    done = run_tablectl("settle", str(path))
    assert done.returncode == 2 and "price base amount" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("hole, line", [
    ("Ah Ad", "ace_king_or_pair"), ("Ah Kd", "ace_king_or_pair"), ("2c 2d", "ace_king_or_pair"),
    ("Ah 2d", "ace_or_king"), ("Kh Qd", "ace_or_king"), ("Qh Jd", None),
])
def test_bonus_lines(hole, line):
    assert bonus_line(parse_cards(hole)) == line


def test_rule_5_one_player_on_adjacent_boxes_only():
    from controller.events import Action, Bet, CardOut
    from controller.cards import parse_card
    from controller.games.contract import Accepted, Rejected

    spec, config = configure(G, "se")
    round_ = spec.new_round(config, ())
    assert isinstance(round_.apply(Bet(2, "ante", 1000, "anna")), Accepted)
    assert isinstance(round_.apply(Bet(3, "ante", 1000, "anna")), Accepted)
    far = round_.apply(Bet(5, "ante", 1000, "anna"))
    assert isinstance(far, Rejected) and "rule 5" in far.reason
    back = round_.apply(Bet(3, "bonus", 500, "bert"))
    assert isinstance(back, Rejected) and "one player per box" in back.reason
    assert isinstance(round_.apply(Bet(3, "bonus", 500, "anna")), Accepted)
    for card in "Ah Kd Ad Kh 2c 7s 8s 9d".split():
        round_.apply(CardOut(parse_card(card)))
    round_.apply(Action(2, "fold"))
    round_.apply(Action(3, "call"))
    for card in "3c 4h 5c 6h".split():
        round_.apply(CardOut(parse_card(card)))
    assert round_.complete
    assert {(s.seat, s.spot, s.player) for s in round_.settlements()} == {
        (2, "ante", "anna"), (3, "ante", "anna"), (3, "call", "anna"), (3, "bonus", "anna")}
