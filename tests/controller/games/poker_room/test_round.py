"""A poker-room hand under the Round contract: seats, the button, turns, refusals, the time charge, a misdeal."""

from __future__ import annotations

import pytest

from controller import games
from controller.cards import parse_card
from controller.events import Action, Bet, CardOut, CloseBets, Void
from controller.games.contract import Accepted, MeterChange, Prompt, Rejected, Settlement


def table(game="texas-holdem", variant="no-limit", **options):
    spec, config = games.configure(game, variant, {"seats": 6, **options})
    return spec, config


def ok(round_, *events):
    out = []
    for event in events:
        answer = round_.apply(event)
        assert isinstance(answer, Accepted), (event, answer)
        out.extend(answer.effects)
    return out


def cards(text):
    return [CardOut(parse_card(c)) for c in text.split()]


def refused(round_, event, words):
    before = (round_.waiting_for(), round_.legal(), dict(round_.stacks))
    answer = round_.apply(event)
    assert isinstance(answer, Rejected), answer
    assert words in answer.reason, answer.reason
    assert (round_.waiting_for(), round_.legal(), dict(round_.stacks)) == before


def test_the_button_moves_clockwise_to_the_next_seated_player_between_hands():
    spec, config = table()
    r = spec.new_round(config, ())
    ok(r, Bet(2, "buy_in", 5000), Bet(4, "buy_in", 5000), Bet(5, "buy_in", 5000), CloseBets())
    assert r.button == 2 and r.order == [4, 5, 2]  # the lowest seat takes the first button
    ok(r, *cards("2c 3c 4c 5c 6c 7c"), Action(2, "fold"), Action(4, "fold"))
    assert r.complete and ("button", 2) in [(b.spot, b.seat) for b in r.carried()]
    nxt = spec.new_round(config, r.carried())
    ok(nxt, CloseBets())
    assert nxt.button == 4 and nxt.order == [5, 2, 4]
    assert nxt.stacks == {2: 5000, 4: 4950, 5: 5050}  # box 4 lost the small blind to box 5's big blind


def test_heads_up_the_button_posts_the_small_blind_and_acts_first():
    spec, config = table()
    r = spec.new_round(config, ())
    ok(r, Bet(1, "buy_in", 5000), Bet(3, "buy_in", 5000), Action(3, "button"), CloseBets(), *cards("Ah Kh Qh Jh"))
    legal = r.legal()
    assert legal["box"] == 3 and legal["call"] == 50  # the button (small blind) acts first before the flop


def test_refusals_say_why_and_change_nothing():
    spec, config = table()
    r = spec.new_round(config, ())
    refused(r, Bet(1, "buy_in", 500), "at least 2000")
    refused(r, Bet(9, "buy_in", 5000), "no box 9")
    refused(r, CloseBets(), "at least two players")
    ok(r, Bet(1, "buy_in", 5000), Bet(2, "buy_in", 5000), Bet(3, "buy_in", 5000), CloseBets(), *cards("Ah Kh"))
    refused(r, CardOut(parse_card("Ah")), "already out")
    ok(r, *cards("Qh Jh Th 9h"))
    assert r.legal()["box"] == 1
    refused(r, Action(2, "call"), "not box 2's turn")
    refused(r, Action(1, "check"), "100 to call")
    refused(r, Action(1, "raise", amount=150), "below the minimum")
    refused(r, Action(1, "raise"), "needs the amount")
    refused(r, Bet(1, "buy_in", 1000), "no buy-in during a hand")
    refused(r, CardOut(parse_card("2c")), "box 1 to act")
    ok(r, Action(1, "call"), Action(2, "call"), Action(3, "check"))
    assert r.legal() == {"waiting": "card", "card": "burn"}


def test_the_prompt_names_the_box_and_its_legal_actions_with_amounts():
    spec, config = table()
    r = spec.new_round(config, ())
    effects = ok(r, Bet(1, "buy_in", 5000), Bet(2, "buy_in", 3000), Bet(3, "buy_in", 5000), CloseBets(),
                 *cards("Ah Kh Qh Jh Th 9h"))
    prompt = [e for e in effects if isinstance(e, Prompt)][-1]
    assert prompt.seat == 1 and prompt.expects == ("fold", "call", "raise", "all_in")
    assert r.legal() == {"waiting": "action", "box": 1, "actions": ["fold", "call", "raise"], "call": 100,
                         "min_to": 200, "max_to": 5000}
    assert prompt.text == "box 1 to act: fold, call 100, raise to 200..5000"


def test_the_time_charge_is_taken_between_hands_and_counted_with_the_rake():
    spec, config = table(time_charge=500, rake_meter="rake")
    r = spec.new_round(config, ())
    ok(r, Bet(1, "buy_in", 5000), Bet(2, "buy_in", 5000))
    effects = ok(r, Action(1, "time_charge"))
    assert Settlement(1, "time_charge", "lose", stake=500, net=-500, note="time charge") in effects
    assert MeterChange("rake", "contribution", seat=1, amount=500) in effects
    refused(r, Action(1, "time_charge"), "paid the time charge already")
    assert r.stacks[1] == 4500
    spec2, config2 = table()
    r2 = spec2.new_round(config2, ())
    ok(r2, Bet(1, "buy_in", 5000))
    refused(r2, Action(1, "time_charge"), "no time charge")


def test_a_player_who_leaves_is_not_dealt_in_and_not_carried():
    spec, config = table()
    r = spec.new_round(config, ())
    ok(r, Bet(1, "buy_in", 5000), Bet(2, "buy_in", 5000), Bet(3, "buy_in", 5000), Action(2, "leave"), CloseBets())
    assert r.order == [3, 1]
    ok(r, *cards("2c 3c 4c 5c"), Action(1, "fold"))
    assert {b.seat for b in r.carried() if b.spot == "stack"} == {1, 3}


def test_a_misdeal_voids_the_hand_with_every_stack_as_it_was_and_the_button_unmoved():
    spec, config = table()
    first = spec.new_round(config, ())
    ok(first, Bet(1, "buy_in", 5000), Bet(2, "buy_in", 5000), Bet(3, "buy_in", 5000), CloseBets(),
       *cards("2c 3c 4c 5c 6c 7c"), Action(1, "fold"), Action(2, "fold"))
    r = spec.new_round(config, first.carried())
    ok(r, CloseBets(), *cards("Ah Kh Qh"), Void("two cards flashed"))
    assert r.complete and r.settlements() == ()
    again = spec.new_round(config, r.carried())
    ok(again, CloseBets())
    assert again.button == 2  # the same button as the voided hand
    assert again.stacks == first.stacks


def test_courchevel_deals_the_first_board_card_with_the_hole_cards():
    spec, config = table("courchevel", "pot-limit")
    r = spec.new_round(config, ())
    ok(r, Bet(1, "buy_in", 5000), Bet(2, "buy_in", 5000), CloseBets())
    ok(r, *cards("2c 3c 4c 5c 6c 7c 8c 9c Tc Jc"))
    assert r.legal() == {"waiting": "card", "card": "board"}
    ok(r, *cards("Ah"))
    assert r.legal()["waiting"] == "action" and r.hand.board == [parse_card("Ah")]


def test_crazy_pineapple_throws_a_card_away_after_the_flop_betting():
    spec, config = table("crazy-pineapple", "no-limit")
    r = spec.new_round(config, ())
    ok(r, Bet(1, "buy_in", 5000), Bet(2, "buy_in", 5000), CloseBets(), *cards("2c 3c 4c 5c 6c 7c"),
       Action(1, "call"), Action(2, "check"), *cards("8h 9h Th Jh"))
    assert r.legal()["waiting"] == "action"  # no discard before the flop in Crazy Pineapple
    ok(r, Action(2, "check"), Action(1, "check"))
    assert r.legal() == {"waiting": "discard", "boxes": [2, 1], "cards": 1}
    # heads up: box 2 was dealt first (2c 4c 6c), box 1, the button, second (3c 5c 7c)
    refused(r, Action(1, "discard", cards=(parse_card("2c"),)), "not in this player's hand")
    refused(r, CardOut(parse_card("Qs")), "must throw a card away")
    ok(r, Action(1, "discard", cards=(parse_card("3c"),)), Action(2, "discard", cards=(parse_card("6c"),)))
    refused(r, CardOut(parse_card("3c")), "already out")  # a card thrown away cannot come back
    assert r.legal() == {"waiting": "card", "card": "burn"}
    assert len(r.hand.hole_now(0)) == len(r.hand.hole_now(1)) == 2


def test_five_card_draw_with_openers_needs_jacks_or_better_to_bet_first():
    spec, config = table("five-card-draw", "limit", openers="jacks", ante=25)
    r = spec.new_round(config, ())
    ok(r, Bet(1, "buy_in", 5000), Bet(2, "buy_in", 5000), Bet(3, "buy_in", 5000), CloseBets())
    deal = "Jh 2c 3d Jd 4c 5d 8s 6h 7s 9h 8c Td Kh Qc 9d"  # one at a time: jacks, then nothing, then nothing
    ok(r, *cards(deal))  # the button is box 1: box 2 has the jacks, box 3 and box 1 nothing
    assert r.legal()["box"] == 2 and "bet" in r.legal()["actions"]
    ok(r, Action(2, "check"))
    refused(r, Action(3, "bet", amount=100), "pair of jacks or better")
    refused(r, Action(3, "all_in"), "pair of jacks or better")
    ok(r, Action(3, "check"), Action(1, "check"))
    assert r.complete and r.settlements() == () and "passed_out" in r.outcome()
    assert {b.seat: b.amount for b in r.carried() if b.spot == "stack"} == {1: 5000, 2: 5000, 3: 5000}
    again = spec.new_round(config, r.carried())
    ok(again, CloseBets(), *cards(deal))  # the button moved to box 2: box 3 is dealt first and has the jacks
    assert again.button == 2 and again.legal()["box"] == 3
    ok(again, Action(3, "bet", amount=100))
    assert again.opened and again.legal()["box"] == 1


def offered_is_taken(round_, prompt, apply=None):
    """What the round offers the box to act (``legal()``, and the prompt with its ``all_in``) is exactly what it
    takes from it: every betting action tried on a copy of the round, a bet or raise at the least PokerKit allows
    (the engine's amount, before the round's own rule of openers). ``apply``: the round's own, where a test wraps it."""
    from controller.games.decisions import copy_of
    from controller.games.poker_room.round import BETTING_ACTIONS

    legal = round_.legal()
    if legal.get("waiting") != "action" or legal["actions"] == ["draw", "stand_pat"]:
        return legal
    least = round_.hand.options().get("min_to")
    taken = {name for name in BETTING_ACTIONS
             if isinstance((apply or type(round_).apply)(copy_of(round_), Action(legal["box"], name, amount=least)),
                           Accepted)}
    wagers = {"bet", "raise", "complete"}  # one action to the engine: each name is taken where one of them is
    assert set(legal["actions"]) - wagers == taken - wagers - {"all_in"}, (legal, taken)
    assert set(legal["actions"]) & wagers <= taken and bool(set(legal["actions"]) & wagers) == bool(taken & wagers)
    assert set(prompt.expects) == set(legal["actions"]) | (taken & {"all_in"}), (prompt, taken)
    assert prompt.seat == legal["box"]
    assert prompt.text == round_.waiting_for()
    assert ("min_to" in legal) == any(a in taken for a in ("bet", "raise", "complete"))
    return legal


def play_checked(round_, *events):
    """Each event in turn (accepted, or refused with the round unchanged); after every one, what the round offers
    is what it takes."""
    prompt = None
    for event in events:
        before = (round_.legal(), round_.waiting_for(), round_.opened, round_.hand and round_.hand.operations_count())
        answer = round_.apply(event)
        if isinstance(answer, Accepted):
            prompt = next((e for e in reversed(answer.effects) if isinstance(e, Prompt)), prompt)
        else:
            assert (round_.legal(), round_.waiting_for(), round_.opened,
                    round_.hand and round_.hand.operations_count()) == before, event
        if prompt is not None and not round_.complete:
            offered_is_taken(round_, prompt)
        yield event, answer


def test_jacks_or_better_a_player_without_openers_is_offered_a_check_only():
    spec, config = table("five-card-draw", "limit", openers="jacks", ante=25)
    r = spec.new_round(config, ())
    # the button is box 1: box 2 is dealt Jh Jd 8s 9h Kh, box 3 2c 4c 6h 8c Qc, box 1 3d 5d 7s Td 9d
    deal = cards("Jh 2c 3d Jd 4c 5d 8s 6h 7s 9h 8c Td Kh Qc 9d")
    list(play_checked(r, Bet(1, "buy_in", 5000), Bet(2, "buy_in", 5000), Bet(3, "buy_in", 5000), CloseBets(), *deal))
    assert r.legal()["box"] == 2 and "bet" in r.legal()["actions"]
    played = dict(play_checked(r, Action(2, "check")))
    assert all(isinstance(a, Accepted) for a in played.values())
    assert r.legal() == {"waiting": "action", "box": 3, "actions": ["check"], "call": 0}
    assert r.waiting_for() == "box 3 to act: check"
    assert r.amounts(3, "bet") is None
    answers = [a for _, a in play_checked(r, Action(3, "bet", amount=100), Action(3, "all_in"),
                                          Action(3, "raise", amount=100), Action(3, "check"),
                                          Action(1, "bet", amount=100), Action(1, "check"))]
    assert [type(a) for a in answers] == [Rejected, Rejected, Rejected, Accepted, Rejected, Accepted]
    assert all(a.reason.endswith("cannot open: it takes a pair of jacks or better to open; check")
               for a in answers if isinstance(a, Rejected))
    assert r.complete and "passed_out" in r.outcome()


def test_jacks_or_better_a_player_with_openers_opens_and_then_anyone_may_bet():
    spec, config = table("five-card-draw", "limit", openers="jacks", ante=25)
    r = spec.new_round(config, ())
    # the button is box 1: box 2 is dealt Jh Jd 8s 9h Kh (jacks), box 3 2c 4c 6h 8c Qc, box 1 3d 5d 7s Td 9d
    events = [Bet(1, "buy_in", 5000), Bet(2, "buy_in", 5000), Bet(3, "buy_in", 5000), CloseBets(),
              *cards("Jh 2c 3d Jd 4c 5d 8s 6h 7s 9h 8c Td Kh Qc 9d")]
    list(play_checked(r, *events))
    assert r.legal() == {"waiting": "action", "box": 2, "actions": ["check", "bet"], "call": 0, "min_to": 100,
                         "max_to": 100}
    assert r.waiting_for() == "box 2 to act: check, bet to 100..100"
    list(play_checked(r, Action(2, "bet", amount=100)))
    assert r.opened and r.legal()["actions"] == ["fold", "call", "raise"]  # box 3 may call or raise without openers
    answers = [a for _, a in play_checked(
        r, Action(3, "raise", amount=200), Action(1, "fold"), Action(2, "call"),
        Action(2, "draw", cards=tuple(parse_card(c) for c in ("8s", "9h", "Kh"))), Action(3, "stand_pat"),
        *cards("As Ks Qs Js"))]
    assert all(isinstance(a, Accepted) for a in answers)
    # after the draw box 2, with his jacks, and box 3, with queen high, may both bet: the hand is open
    legal = r.legal()
    assert legal["box"] == 2 and "bet" in legal["actions"]
    list(play_checked(r, Action(2, "check")))
    assert r.legal()["box"] == 3 and "bet" in r.legal()["actions"]
    list(play_checked(r, Action(3, "bet", amount=200), Action(2, "fold")))
    assert r.complete and r.stacks == {1: 4975, 2: 4775, 3: 5250}


@pytest.mark.parametrize("variant", ["limit", "pot-limit", "no-limit"])
def test_jacks_or_better_what_the_round_offers_is_what_it_takes_in_random_hands(monkeypatch, variant):
    """Random hands (the cross-check's players choose only among what the round offers and fail on a refusal),
    with every offer checked against what the round takes after every event."""
    import random

    from controller.games.poker_room.crosscheck import random_hand
    from controller.games.poker_room.round import PokerRoomRound

    apply = PokerRoomRound.apply
    checked = []

    def checking(self: PokerRoomRound, event: object) -> object:
        answer = apply(self, event)
        prompt = next((e for e in reversed(answer.effects) if isinstance(e, Prompt)), None) \
            if isinstance(answer, Accepted) else None
        if prompt is not None and not self.complete and self.hand is not None:
            legal = offered_is_taken(self, prompt, apply)
            checked.append((self.opened, legal.get("actions")))
        return answer

    spec, config = games.configure("five-card-draw", variant, {"buy_in": 1, "openers": "jacks", "ante": 25,
                                                                  "draws": 2})
    rng = random.Random(f"openers:{variant}")
    monkeypatch.setattr(PokerRoomRound, "apply", checking)
    for _ in range(12):
        random_hand(spec, config, rng)
    assert (False, ["check"]) in checked and any(not opened and "bet" in (acts or ()) for opened, acts in checked)


def test_the_three_betting_structures_bound_the_raise():
    for variant, high in (("pot-limit", 350), ("no-limit", 5000), ("limit", 200)):
        spec, config = table("texas-holdem", variant)
        r = spec.new_round(config, ())
        ok(r, Bet(1, "buy_in", 5000), Bet(2, "buy_in", 5000), Bet(3, "buy_in", 5000), CloseBets(),
           *cards("Ah Kh Qh Jh Th 9h"))
        legal = r.legal()
        # pot limit: the pot (150) and the call (100) on top of the call: a raise to 350
        assert (legal["min_to"], legal["max_to"]) == (200, high), variant
    refused(r, Action(1, "raise", amount=300), "")  # limit: the raise is the fixed 100 more, to 200
    ok(r, Action(1, "raise", amount=200), Action(2, "raise", amount=300), Action(3, "raise", amount=400))
    assert "raise" not in r.legal()["actions"]  # the big blind and three raises: the cap of limit betting
    ok(r, Action(1, "call"), Action(2, "call"))
    assert r.legal() == {"waiting": "card", "card": "burn"}


@pytest.mark.parametrize("game, variant, options", [
    ("texas-holdem", "no-limit", {}), ("crazy-pineapple", "limit", {}), ("seven-card-stud", "limit", {}),
    ("five-card-draw", "limit", {}), ("lowball", "limit", {"draws": 3})])
def test_what_the_round_allows_is_the_same_remembered_or_worked_out_afresh(monkeypatch, game, variant, options):
    """The round remembers what it allows after an event (its prompt worked it out); after every event, accepted
    or refused, that is what working it out again gives, and a caller changing its copy changes nothing."""
    import random

    from controller.games.poker_room.crosscheck import random_hand
    from controller.games.poker_room.round import PokerRoomRound

    apply = PokerRoomRound.apply
    checked = []

    def checking(self: PokerRoomRound, event: object) -> object:
        answer = apply(self, event)
        fresh = self._legal()
        mine = self.legal()
        assert mine == fresh, event
        mine.setdefault("actions", []).append("shout")
        assert self.legal() == fresh
        assert isinstance(apply(self, Action(12, "fold")), Rejected)  # refused: the round as it was
        assert self.legal() == fresh == self._legal()
        checked.append(event)
        return answer

    monkeypatch.setattr(PokerRoomRound, "apply", checking)
    spec, config = games.configure(game, variant, {"buy_in": 1, **options})
    rng = random.Random(f"legal:{game}")
    for _ in range(4):
        random_hand(spec, config, rng)
    assert len(checked) > 40
