"""Random decision streams through every blackjack variant (hypothesis).

- ``apply`` never raises, and every stream can be finished by standing and dealing;
- no (seat, spot, player, hand) is settled twice;
- money: every stake put on the table (bets, doubles, splits, insurance, counted here from the
  accepted events) comes back to exactly one settlement (or is handed back), each settlement's net
  follows from its result and odds, and the players' total net is what the dealer paid minus
  what the dealer took.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings, strategies as st

import pytest

from controller import games
from controller.cards import card_from_index
from controller.events import Action, Bet, CardOut, CloseBets, Puck
from controller.games.contract import Accepted

VARIANTS = [v.id for v in games.load_game("blackjack").variants]
DECISIONS = ("stand", "stand", "double", "split", "insurance", "even_money", "surrender", "burn")


def streams():
    bet = st.builds(Bet, st.integers(1, 4), st.sampled_from(["main", "main", "main", "over13", "under13"]),
                    st.sampled_from([100, 200, 500, 1000, 1001]), st.sampled_from([None, None, "anna", "bo"]))
    card = st.integers(0, 51).map(lambda i: CardOut(card_from_index(i)))
    action = st.builds(Action, st.integers(1, 4), st.sampled_from(DECISIONS), st.none(),
                       st.sampled_from([None, None, None, "anna", "bo"]))
    play = st.one_of(card, card, card, action, action, st.just(CloseBets()))
    first = st.builds(Bet, st.integers(1, 4), st.just("main"), st.sampled_from([100, 1000]))
    return st.tuples(st.tuples(first).map(list), st.lists(bet, max_size=6), st.integers(1, 4),
                     st.lists(play, max_size=40))


def _stake_of(round_, event: Action) -> int:
    box = round_.boxes[event.seat]
    player = event.player if event.player is not None else box.holder
    return box.main[player].amount or 0


def _check_money(round_, staked: int) -> None:
    settled = 0
    paid = took = 0
    for s in round_.settlements():
        assert s.stake is not None and s.net is not None
        settled += s.stake
        if s.result == "win":
            assert s.net == s.stake * s.odds.paid // s.odds.per
            paid += s.net
        elif s.result == "lose":
            assert s.net == -s.stake
            took += s.stake
        elif s.result == "surrender":
            assert s.net == -(s.stake - s.stake // 2)
            took += -s.net
        else:
            assert s.result == "push" and s.net == 0
    handed_back = sum(amount for *_, amount in round_.returned)
    assert settled + handed_back == staked
    assert sum(s.net for s in round_.settlements()) == paid - took


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_decisions_never_raise_never_pay_twice_and_balance(variant):
    spec, config = games.configure("blackjack", variant, {"original_bets_only": True}
                                   if variant in ("se", "fi") else {})

    @settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(streams(), st.integers(0, 51))
    def check(stream, shoe_start):
        first, bets, puck_seat, plays = stream
        r = spec.new_round(config, ())
        staked = 0
        events = first + list(bets) + [Puck(puck_seat), Action(puck_seat, "puck_override"), CloseBets()] + list(plays)
        for event in events:
            insured = {seat: dict(box.insurance) for seat, box in r.boxes.items()}
            answer = r.apply(event)
            assert answer is not None
            if not isinstance(answer, Accepted):
                continue
            if isinstance(event, Bet):
                staked += event.amount
            elif isinstance(event, Action) and event.action in ("double", "split"):
                staked += _stake_of(r, event)
            elif isinstance(event, Action) and event.action == "insurance":
                box = r.boxes[event.seat]
                new = {p: a for p, a in box.insurance.items() if p not in insured.get(event.seat, {})}
                staked += sum(a or 0 for a in new.values())
        # finish: the croupier stands every box and deals until the round is settled
        n = shoe_start
        if r.phase == "bets" or (r.phase == "deal" and r.deal_pos == 0 and r._puck_blocked()):
            r.apply(Puck(r._expected_puck() or 1))  # a Burn table whose random puck never matched: move it, deal
            r.apply(CloseBets())
        for _ in range(200):
            if r.complete:
                break
            prompt = r.waiting_for()
            seat = r._prompt().seat
            if seat is not None and "stand" in r._prompt().expects and "burn" not in r._prompt().expects:
                if isinstance(r.apply(Action(seat, "stand")), Accepted):
                    continue
            r.apply(CardOut(card_from_index(n % 52)))
            n += 7
            assert prompt
        assert r.complete, r.waiting_for()
        keys = [(s.seat, s.spot, s.player, s.hand) for s in r.settlements()]
        assert len(keys) == len(set(keys)), "a bet was settled twice"
        _check_money(r, staked)
        assert r.outcome() is not None

    check()
