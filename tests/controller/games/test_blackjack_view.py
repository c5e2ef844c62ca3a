"""The blackjack round's public, read-only view (``BlackjackRound.view()``), what the house-edge tools play from."""

from __future__ import annotations

import dataclasses

import pytest

from controller import games
from controller.cards import parse_card
from controller.events import Action, Bet, CardOut, CloseBets


def test_the_view_shows_the_round_as_it_stands_and_cannot_change_it():
    spec, config = games.configure("blackjack", "se", {})
    round_ = spec.new_round(config, ())
    round_.apply(Bet(1, "main", 1000))
    round_.apply(Bet(2, "main", 1000))
    round_.apply(CloseBets())
    for card in "As 9d 7c 6h".split():  # box 1, box 2, the dealer, ...
        round_.apply(CardOut(parse_card(card)))
    view = round_.view()
    assert view.phase == "deal" and not view.insurance_open
    assert [c.rank for c in view.dealer] == [7] and view.prompt is not None
    assert [(h.hard, h.free_aces, h.from_split, h.done) for h in view.hands[1]] == [(7, 1, False, False)]  # A + 6: the ace counted one in the hard total
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.phase = "done"  # type: ignore[misc]
    assert isinstance(view.hands[1], tuple) and isinstance(view.hands[1][0].cards, tuple)
    round_.apply(CardOut(parse_card("Kd")))  # box 2's second card
    assert [c.rank for c in view.hands[2][0].cards] == [9]  # the old view is a copy: it did not move
    assert [c.rank for c in round_.view().hands[2][0].cards] == [9, 13]


def test_a_settled_round_waits_for_nothing():
    spec, config = games.configure("blackjack", "se", {})
    round_ = spec.new_round(config, ())
    round_.apply(Bet(1, "main", 1000))
    round_.apply(CloseBets())
    for card in "Ts 7c 9h".split():
        round_.apply(CardOut(parse_card(card)))
    round_.apply(Action(1, "stand"))
    for card in "Kd".split():
        round_.apply(CardOut(parse_card(card)))
    assert round_.complete
    view = round_.view()
    assert view.phase == "done" and view.prompt is None
