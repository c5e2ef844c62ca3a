"""The legal decisions of a round (controller/games/decisions.py): exactly what the round accepts.

- every decision offered is accepted by the round, and every action the prompt expects that is not
  offered at a box is refused there (random streams through blackjack and the banked poker games);
- the live round is never changed by working the decisions out;
- the words of the prompt and the spec decide the candidates: a card prompt offers no decision.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from controller import games
from controller.cards import card_from_index, parse_card
from controller.events import Action, Bet, CardOut, CloseBets, event_to_json
from controller.games.contract import Accepted, Prompt
from controller.games.decisions import copy_of, legal, seats_with_bets


def _play(game: str, variant: str, events, **options):
    spec, config = games.configure(game, variant, options)
    round_ = spec.new_round(config, ())
    prompt = None
    accepted = []
    for event in events:
        if isinstance(event, str):
            event = CardOut(parse_card(event))
        answer = round_.apply(event)
        if isinstance(answer, Accepted):
            accepted.append(event)
            prompts = [e for e in answer.effects if isinstance(e, Prompt)]
            if prompts:
                prompt = prompts[-1]
    return spec, round_, prompt, accepted


def _check_exact(spec, round_, prompt, accepted, boxes=range(1, 5)):
    before = [event_to_json(e) for e in accepted]
    state = repr(round_._snapshot())
    answer = legal(spec, round_, prompt, seats_with_bets(accepted))
    assert repr(round_._snapshot()) == state, "working out the decisions changed the round"
    offered = {(d.seat, d.action) for d in answer.decisions}
    for decision in answer.decisions:
        probe = copy_of(round_)
        event = decision.event(decision.multiples[0] if not decision.plain else None)
        assert isinstance(probe.apply(event), Accepted), (decision, before)
    expected = spec.actions if prompt and "action" in prompt.expects else \
        [a for a in spec.actions if prompt and a.name in prompt.expects]
    for action in expected:
        for seat in boxes:
            if (seat, action.name) in offered:
                continue
            probe = copy_of(round_)
            assert not isinstance(probe.apply(Action(seat, action.name)), Accepted), (seat, action.name, before)
    return answer


def test_blackjack_pair_against_six_offers_the_box_in_turn_its_four_decisions():
    spec, round_, prompt, accepted = _play("blackjack", "fi", [
        Bet(1, "main", 1000), Bet(2, "main", 1000), CloseBets(), "8h", "Kd", "6c", "8s", "9d"])
    answer = _check_exact(spec, round_, prompt, accepted)
    assert [(d.seat, d.action) for d in answer.decisions] == [(1, "stand"), (1, "double"), (1, "split"),
                                                              (1, "surrender")]
    assert "card" in answer.expects and not answer.close_bets


def test_blackjack_insurance_is_offered_to_every_box_with_an_amount():
    spec, round_, prompt, accepted = _play("blackjack", "fi", [
        Bet(1, "main", 1000), Bet(3, "main", 2000), CloseBets(), "Th", "9d", "Ac", "7s", "5d"])
    answer = _check_exact(spec, round_, prompt, accepted)
    insurance = [d for d in answer.decisions if d.action == "insurance"]
    assert [d.seat for d in insurance] == [1, 3] and all(d.amount for d in insurance)
    probe = copy_of(round_)
    assert isinstance(probe.apply(insurance[1].event(amount=500)), Accepted)


def test_a_card_prompt_offers_no_decision_and_betting_offers_no_more_bets():
    spec, round_, prompt, accepted = _play("blackjack", "se", [Bet(1, "main", 1000), CloseBets(), "9h"])
    answer = legal(spec, round_, prompt, seats_with_bets(accepted))
    assert answer.decisions == () and answer.expects == ("card",)
    spec, round_, prompt, accepted = _play("blackjack", "se", [Bet(1, "main", 1000)])
    assert legal(spec, round_, prompt, (1,), betting_open=True).close_bets


def test_caribbean_stud_offers_fold_or_raise_at_each_box_still_to_decide():
    deal = ["2h", "5d", "9c", "Tc", "Qh", "3s", "4d", "8c", "Jh", "Kd", "6h", "7d", "2s", "9h", "Ah"]
    spec, round_, prompt, accepted = _play("caribbean-stud", "classic",
                                           [Bet(1, "ante", 1000), Bet(2, "ante", 1000), CloseBets()] + deal)
    answer = _check_exact(spec, round_, prompt, accepted)
    assert {(d.seat, d.action) for d in answer.decisions} == {(1, "fold"), (1, "raise"), (2, "fold"), (2, "raise")}
    round_.apply(Action(1, "raise"))
    answer = legal(spec, round_, Prompt("", expects=("action",)), (1, 2))
    assert {(d.seat, d.action) for d in answer.decisions} == {(2, "fold"), (2, "raise")}
    assert not any(d.amount or d.multiples for d in answer.decisions)


def test_a_multiple_is_offered_only_where_the_round_takes_it():
    from dataclasses import replace

    spec, round_, prompt, accepted = _play("three-card-poker", "fi", [
        Bet(1, "ante", 1000), CloseBets(), "2h", "5d", "9c", "Tc", "Qh", "3s"])
    declared = replace(spec, actions=tuple(replace(a, multiples=(1, 2)) if a.name == "play" else a
                                          for a in spec.actions))
    answer = legal(declared, round_, prompt, (1,))
    play = next(d for d in answer.decisions if d.action == "play")
    assert play.plain and play.multiples == ()  # the game takes no multiple: none is offered


def streams(boxes: int):
    bet = st.builds(Bet, st.integers(1, boxes), st.just("main"), st.sampled_from([200, 1000]))
    card = st.integers(0, 51).map(lambda i: CardOut(card_from_index(i)))
    action = st.builds(Action, st.integers(1, boxes),
                       st.sampled_from(["stand", "double", "split", "insurance", "surrender", "even_money"]))
    return st.tuples(st.lists(bet, min_size=1, max_size=3),
                     st.lists(st.one_of(card, card, action, st.just(CloseBets())), max_size=14))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["se", "fi", "fi-a"]), streams(3))
def test_blackjack_random_streams_offer_exactly_what_the_round_accepts(variant, stream):
    bets, play = stream
    spec, round_, prompt, accepted = _play("blackjack", variant, bets + [CloseBets()] + play)
    if not round_.complete:
        _check_exact(spec, round_, prompt, accepted, range(1, 4))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([("caribbean-stud", "classic", "ante"), ("three-card-poker", "fi", "ante"),
                        ("fast-poker", "se", "bet")]),
       st.lists(st.integers(1, 3), min_size=1, max_size=3, unique=True),
       st.permutations(range(52)), st.lists(st.tuples(st.integers(1, 3), st.sampled_from(["fold", "play", "raise"])),
                                            max_size=3))
def test_banked_poker_offers_exactly_what_the_round_accepts(game, seats, deck, decisions):
    name, variant, spot = game
    spec, config = games.configure(name, variant, {})
    events = [Bet(s, spot, 1000) for s in seats] + [CloseBets()]
    events += [CardOut(card_from_index(i)) for i in deck[:len(seats) * 5 + 5]]
    events += [Action(s, a) for s, a in decisions]
    spec, round_, prompt, accepted = _play(name, variant, events)
    if not round_.complete:
        _check_exact(spec, round_, prompt, accepted, range(1, 4))


def _poker_room(variant: str):
    spec, config = games.configure("texas-holdem", variant, {})
    round_ = spec.new_round(config, ())
    prompt = None
    accepted = []
    for event in [Bet(1, "buy_in", 20000), Bet(2, "buy_in", 20000), Bet(3, "buy_in", 20000), CloseBets()] + \
            [CardOut(parse_card(c)) for c in "Ah Kd 7c 2s 9h Qd".split()]:
        answer = round_.apply(event)
        assert isinstance(answer, Accepted), (event, answer)
        accepted.append(event)
        prompt = next((e for e in answer.effects if isinstance(e, Prompt)), prompt)
    return spec, round_, prompt, accepted


def test_a_no_limit_raise_is_offered_with_the_amounts_the_round_takes():
    spec, round_, prompt, accepted = _poker_room("no-limit")
    answer = legal(spec, round_, prompt, seats_with_bets(accepted))
    assert [(d.seat, d.action) for d in answer.decisions] == [(1, "fold"), (1, "call"), (1, "raise"), (1, "all_in")]
    raise_ = answer.find(1, "raise")
    assert raise_ is not None and not raise_.plain and raise_.amount and raise_.fixed is None
    assert (raise_.least, raise_.most) == (200, 20000)  # the big blind's double, to every chip of the box
    for amount in (200, 750, 20000):
        assert isinstance(copy_of(round_).apply(raise_.event(amount=amount)), Accepted), amount
    assert not isinstance(copy_of(round_).apply(raise_.event(amount=150)), Accepted)  # below the least
    try:
        raise_.event()
    except ValueError as exc:
        assert "name the amount (200 to 20000" in str(exc)
    else:
        raise AssertionError("a raise of no amount was made an event")


def test_a_limit_raise_is_the_fixed_bet_in_one_tap():
    spec, round_, prompt, accepted = _poker_room("limit")
    raise_ = legal(spec, round_, prompt, seats_with_bets(accepted)).find(1, "raise")
    assert raise_ is not None and raise_.fixed == 200 and raise_.least == raise_.most == 200
    event = raise_.event()
    assert event == Action(1, "raise", amount=200)
    assert isinstance(copy_of(round_).apply(event), Accepted)


@pytest.mark.parametrize("game,variant", [("five-card-draw", "limit"), ("pineapple", "no-limit"),
                                          ("chinese-poker", "points"), ("open-face-chinese", "points")])
def test_the_card_decisions_are_offered_with_the_boxes_cards_and_play_a_hand_through(game, variant):
    """A draw, a discard, the setting and the placing of hands: offered with the box's own cards only (never as a
    plain tap, which would draw nothing or set a fouled hand), and a whole hand goes through what is offered."""
    spec, config = games.configure(game, variant, {})
    round_ = spec.new_round(config, ())
    spot, amount = ("points", None) if spec.id in ("chinese-poker", "open-face-chinese") else ("buy_in", 20000)
    prompt = None
    events = [Bet(1, spot, amount), Bet(2, spot, amount), CloseBets()]
    deck = iter(card_from_index(i) for i in random.Random(3).sample(range(52), 52))
    named = 0
    while not round_.complete:
        if events:
            event = events.pop(0)
        elif prompt is not None and "card" in prompt.expects:
            event = CardOut(next(deck))
        else:
            answer = legal(spec, round_, prompt, (1, 2))
            assert answer.decisions, prompt
            for d in answer.decisions:
                assert (d.cards is not None) == next(a.cards for a in spec.actions if a.name == d.action)
                if d.cards is not None:
                    assert not d.plain and set(d.cards.cards) <= set(_holding(round_, d.seat))
                    with pytest.raises(ValueError):
                        d.event(cards=d.cards.cards[:d.cards.least - 1] if d.cards.least > 1 else
                                d.cards.cards[:d.cards.most + 1] if d.cards.most < len(d.cards.cards) else
                                (next(c for c in _unseen() if c not in d.cards.cards),))
            card = next((d for d in answer.decisions if d.cards is not None), None)
            if card is not None:
                event = card.event(cards=card.cards.cards[:card.cards.least])
                named += 1
            else:
                event = next(d for d in answer.decisions if d.action in ("check", "call", "stand_pat")).event()
        answer = round_.apply(event)
        assert isinstance(answer, Accepted), (event, answer)
        prompt = next((e for e in answer.effects if isinstance(e, Prompt)), prompt)
    assert named >= 2 and round_.settlements()


def _holding(round_, seat):
    """The box's cards as the round holds them (each game keeps them its own way)."""
    if hasattr(round_, "hands") and isinstance(round_.hands, dict):
        return round_.hands[seat]
    if hasattr(round_, "unplaced"):
        return round_.unplaced(seat)
    return round_.hand.hole_now(round_.order.index(seat))


def _unseen():
    return [card_from_index(i) for i in range(52)]
