"""The shared round of the poker games: the deal order, void, jokers, incomplete rounds."""

from __future__ import annotations

from controller.cards import JOKER, parse_card
from controller.events import Action, Bet, CardOut, CloseBets, Void
from controller.games import configure
from controller.games.banked_poker import BOARD, BURN, DEALER
from controller.games.contract import Accepted, Rejected


def _round(game: str, variant: str, carried=()):
    spec, config = configure(game, variant)
    return spec.new_round(config, carried)


def test_holdem_plan_burns_and_boxes_from_the_left():
    round_ = _round("restaurant-holdem", "se")
    for seat in (3, 1):
        assert isinstance(round_.apply(Bet(seat, "ante", 1000)), Accepted)
    round_.apply(CloseBets())
    assert round_.plan == [1, 3, 1, 3, BURN, BOARD, BOARD, BOARD]


def test_three_card_plan_deals_the_dealer_last_in_each_turn():
    round_ = _round("three-card-poker", "fi")
    round_.apply(Bet(2, "ante", 1000))
    round_.apply(Bet(5, "ante", 1000))
    round_.apply(CloseBets())
    assert round_.plan == [2, 5, DEALER] * 3


def test_a_joker_is_refused_and_changes_nothing():
    round_ = _round("fast-poker", "se")
    round_.apply(Bet(1, "bet", 1000))
    answer = round_.apply(CardOut(JOKER))
    assert isinstance(answer, Rejected) and "joker" in answer.reason
    assert round_.betting_open and round_.cards == []


def test_void_returns_every_stake_carried_ones_too():
    carried = (Bet(1, "ante", 1000), Bet(1, "bet", 2000))
    round_ = _round("caribbean-stud", "dk", carried)
    round_.apply(Bet(2, "ante", 500))
    round_.apply(CardOut(parse_card("Ah")))
    answer = round_.apply(Void("shoe jammed"))
    assert isinstance(answer, Accepted) and round_.complete
    assert [(s.seat, s.spot, s.result, s.net) for s in round_.settlements()] == [
        (1, "ante", "push", 0), (1, "bet", "push", 0), (2, "ante", "push", 0)]
    assert round_.outcome() == {"void": "shoe jammed"}
    assert round_.carried() == ()


def test_an_incomplete_round_says_what_it_waits_for():
    round_ = _round("three-card-poker", "fi")
    round_.apply(Bet(1, "ante", 1000))
    round_.apply(Bet(2, "ante", 1000))
    for card in "Ah Kd 2c 3h 4s 5c 9d Td Jc".split():
        round_.apply(CardOut(parse_card(card)))
    round_.apply(Action(2, "fold"))
    assert not round_.complete
    assert round_.waiting_for() == "decision (fold or play) at box 1"
    assert isinstance(round_.apply(Action(1, "play", multiple=2)), Rejected)
