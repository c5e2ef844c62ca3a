"""The blackjack Round event by event: prompts in croupier words, the moment of each settlement,
the hidden burned card, rejections that change nothing, and the rule functions themselves."""

from __future__ import annotations

import json

import pytest

from controller import games
from controller.cards import parse_card
from controller.events import Action, Bet, CardOut, CloseBets, Puck, event_to_json
from controller.games.blackjack import rules as R
from controller.games.contract import Accepted, Alert, Outcome, Prompt, Rejected, Settlement


def new(variant: str = "se", **options):
    spec, config = games.configure("blackjack", variant, options)
    return spec.new_round(config, ())


def feed(round_, *events):
    answers = []
    for e in events:
        if isinstance(e, str):
            e = CardOut(parse_card(e))
        answers.append(round_.apply(e))
    return answers


def prompt_of(answer) -> str:
    assert isinstance(answer, Accepted), answer
    prompts = [e for e in answer.effects if isinstance(e, Prompt)]
    return prompts[-1].text


# --------------------------------------------------------------------------- rule functions


@pytest.mark.parametrize("variant, hits_soft_17", [("se", False), ("fi", True)])
def test_dealer_draws_to_17_and_soft_17_is_an_option(variant, hits_soft_17):
    _spec, config = games.configure("blackjack", variant, {"dealer_hits_soft_17": hits_soft_17})
    rules = R.rules_of(config)
    assert R.dealer_must_draw(rules, 16, 0)
    assert not R.dealer_must_draw(rules, 17, 0)
    assert R.dealer_must_draw(rules, 7, 1) is hits_soft_17
    assert not R.dealer_must_draw(rules, 8, 1)  # soft 18
    assert R.dealer_must_draw(rules, 6, 1)  # soft 16


def test_se_tie_table_of_rule_8():
    rules = R.rules_of(games.configure("blackjack", "se")[1])
    for total in (17, 18, 19):
        assert R.hand_result(rules, total, False, total, False) == ("lose", None)
    for total in (20, 21):
        assert R.hand_result(rules, total, False, total, False) == ("push", None)
    assert R.hand_result(rules, 21, True, 21, True) == ("push", None)
    assert R.hand_result(rules, 21, True, 21, False)[0] == "win"
    assert R.hand_result(rules, 21, False, 21, True) == ("lose", None)


def test_se_doubling_totals_with_the_ace_as_one():
    rules = R.rules_of(games.configure("blackjack", "se")[1])
    assert R.double_refusal(rules, 7, 1, 2, False, False) is None  # A-6 as 7
    assert R.double_locks_aces(rules, 7, 1)
    assert R.double_refusal(rules, 10, 1, 2, False, False) is None  # A-9 as 10
    assert R.double_refusal(rules, 6, 1, 2, False, False)  # 6 or 16
    assert R.double_refusal(rules, 12, 0, 2, False, False)
    assert not R.double_locks_aces(rules, 11, 0)
    fi = R.rules_of(games.configure("blackjack", "fi")[1])
    assert R.double_refusal(fi, 8, 1, 2, False, False) is None and not R.double_locks_aces(fi, 8, 1)


def test_split_equal_rank_in_se_equal_value_in_fi():
    se = R.rules_of(games.configure("blackjack", "se")[1])
    fi = R.rules_of(games.configure("blackjack", "fi")[1])
    assert R.split_refusal(se, 13, 12, 10, 10, 2, 1, False)
    assert R.split_refusal(fi, 13, 12, 10, 10, 2, 1, False) is None
    assert R.split_refusal(fi, 8, 8, 8, 8, 2, 4, False)  # max 4 hands by default
    assert R.split_refusal(se, 8, 8, 8, 8, 2, 9, False) is None  # "Delning kan ske flera gånger"


def test_over_under_table():
    table = games.paytable_of(games.load_game("blackjack"))["se"]
    assert R.over_under_result("over13", 10, 4, table)[0] == "win"
    assert R.over_under_result("over13", 10, 3, table) == ("lose", None)
    assert R.over_under_result("under13", 10, 3, table) == ("lose", None)
    assert R.over_under_result("under13", 1, 1, table)[1].as_list() == [3, 2]
    assert R.over_under_result("under13", 1, 10, table)[1].as_list() == [1, 1]  # A-K is 11: aces one


# --------------------------------------------------------------------------- prompts


def test_prompts_follow_the_deal_and_the_turn():
    r = new()
    a = feed(r, Bet(3, "main", 1000), Bet(5, "main", 1000), CloseBets(), "Td", "9c", "6h", "4s", "8d")
    assert [prompt_of(x) for x in a] == [
        "Bets, then no more bets", "Bets, then no more bets", "First card to box 3", "First card to box 5",
        "Dealer's first card", "Second card to box 3", "Second card to box 5",
        "Box 3: 14 against 6 — stand or hit?"]
    a = feed(r, Action(3, "stand"), Action(5, "double"), Action(5, "stand"))
    assert prompt_of(a[0]) == "Box 5: 17 against 6 — stand or hit?"
    assert isinstance(a[1], Rejected) and a[1].reason == "box 5: double only on 7 to 11, not on 17"
    assert prompt_of(a[2]) == "Dealer's second card (dealer has 6)"


def test_prompt_words_for_double_split_soft_and_the_dealer():
    r = new()
    a = feed(r, Bet(1, "main", 1000), Bet(2, "main", 1000), CloseBets(), "5d", "8c", "6h", "6s", "8s")
    assert prompt_of(a[-1]) == "Box 1: 11 against 6 — stand, hit or double?"
    a = feed(r, Action(1, "double"))
    assert prompt_of(a[0]) == "Box 1: doubled — one card"
    a = feed(r, "Th", Action(2, "split"))
    assert prompt_of(a[0]) == "Box 2: 16 against 6 — stand, hit or split?"
    assert prompt_of(a[1]) == "Box 2 hand 1: second card to the split eight"
    a = feed(r, "Ad")
    assert prompt_of(a[0]) == "Box 2 hand 1: soft 19 against 6 — stand or hit?"
    a = feed(r, Action(2, "stand"), "Kc", Action(2, "stand"), "Tc")
    assert prompt_of(a[0]) == "Box 2 hand 2: second card to the split eight"
    assert prompt_of(a[2]) == "Dealer's second card (dealer has 6)"
    assert prompt_of(a[3]) == "Dealer must draw: 16"
    assert r.waiting_for() == "Dealer must draw: 16"


def test_two_decks_prompt_hides_the_dark_total_and_offers_tuck():
    r = new("se-two-decks")
    a = feed(r, Bet(1, "main", 1000), CloseBets(), "5d", "7c", "4h")
    assert prompt_of(a[-1]) == "Box 1: against 7 — tuck, card or double?"


def test_fi_prompt_offers_surrender_and_insurance_words():
    r = new("fi")
    a = feed(r, Bet(1, "main", 1000), CloseBets(), "Td", "Ac", "6h")
    assert prompt_of(a[-1]) == "Dealer shows an ace: insurance? Box 1: 16 against an ace — stand, hit or double?"
    r = new("fi")
    a = feed(r, Bet(1, "main", 1000), CloseBets(), "Td", "Tc", "6h")
    assert prompt_of(a[-1]) == "Box 1: 16 against 10 — stand, hit, double or surrender?"


# --------------------------------------------------------------------------- moments and hiding


def test_rule_10_settles_at_the_card_that_makes_the_black_jack():
    r = new()
    a = feed(r, Bet(1, "main", 1000), Bet(2, "main", 1000), CloseBets(), "Ah", "Tc", "9d", "Ks")
    settled = [e for e in a[-1].effects if isinstance(e, Settlement)]
    assert [s.to_json() for s in settled] == [{"seat": 1, "spot": "main", "result": "win", "odds": [3, 2],
                                               "stake": 1000, "net": 1500,
                                               "note": "Black Jack paid at once (000 rule 10)"}]
    assert not r.complete


def test_the_burned_card_is_in_no_output_until_the_round_is_settled():
    r = new("se-burn")
    feed(r, Bet(1, "main", 1000), Puck(1), CloseBets(), "Th", "7d", "9s", Action(1, "stand"))
    assert r.waiting_for() == "Box 1 (burn puck): burn the dealer's second card?"
    before = feed(r, Action(1, "burn"), "Qh", "5c")
    assert r.waiting_for() == "Dealer must draw: 12"
    seen = json.dumps([repr(x) for x in before]) + r.waiting_for() + json.dumps(r.outcome())
    seen += json.dumps([s.to_json() for s in r.settlements()])
    assert "Qh" not in seen and "queen" not in seen.lower()
    last = r.apply(CardOut(parse_card("Tc")))  # 7 + 5 + 10 = 22: settled, and only now the card is shown
    assert r.complete
    outcome = [e for e in last.effects if isinstance(e, Outcome)][0].data
    assert outcome["burned"] == "Qh" and outcome["dealer"]["cards"] == ["7d", "5c", "Tc"]


def test_the_puck_box_carries_into_the_next_round_without_money():
    spec, config = games.configure("blackjack", "se-burn")
    first = spec.new_round(config, ())
    feed(first, Bet(2, "main", 100), Bet(4, "main", 100), Puck(2), CloseBets(), "Th", "Tc", "7d", "9s", "9c",
         Action(2, "stand"), Action(4, "stand"), "Td")
    assert first.complete
    (marker,) = first.carried()
    assert (marker.seat, marker.spot, marker.amount) == (2, "puck", None)
    second = spec.new_round(config, first.carried())
    a = feed(second, Bet(2, "main", 100), Bet(4, "main", 100), Puck(2))
    assert isinstance(a[-1].effects[0], Alert) and "belongs at box 4" in a[-1].effects[0].text
    assert isinstance(second.apply(CloseBets()), Accepted)  # no more bets; the puck may still move (Burn rule 4)
    assert second.waiting_for() == "Burn puck to box 4, then the first card"
    assert isinstance(second.apply(Puck(4)), Accepted)
    assert second.waiting_for() == "First card to box 2"


def test_previous_puck_box_option_starts_a_session_mid_table():
    r = new("se-burn", previous_puck_box=4)
    feed(r, Bet(2, "main", 100), Bet(4, "main", 100), Bet(6, "main", 100))
    assert r.waiting_for() == "Bets; burn puck to box 6; then no more bets"


def test_without_a_puck_sensor_the_expected_box_is_taken():
    r = new("se-burn", puck_sensor=False)
    a = feed(r, Bet(3, "main", 100), CloseBets())
    assert isinstance(a[-1], Accepted) and r.puck_box == 3


def test_a_rejection_leaves_the_round_as_it_was():
    r = new()
    feed(r, Bet(1, "main", 1000), CloseBets(), "Td", "6c", "6s")
    before = (r.waiting_for(), json.dumps([s.to_json() for s in r.settlements()]))
    for bad in (Action(1, "split"), Action(2, "stand"), Action(1, "double"), Action(1, "dance"),
                Action(1, "stand", hand=2), Bet(1, "main", 100), Action(1, "surrender"), Action(1, "burn"),
                CardOut(parse_card("JK"))):
        answer = r.apply(bad)
        assert isinstance(answer, Rejected), bad
        assert answer.reason and (r.waiting_for(), json.dumps([s.to_json() for s in r.settlements()])) == before
    assert isinstance(r.apply(Action(1, "stand")), Accepted)


def test_an_event_json_round_trip_of_a_back_bet_action():
    event = Action(3, "double", player="anna")
    assert event_to_json(event) == {"type": "action", "seat": 3, "action": "double", "player": "anna"}


def test_insurance_stays_within_the_configured_maximum():
    r = new("se", limits={"insurance": [0, 400]})
    feed(r, Bet(1, "main", 1000), CloseBets(), "Td", "Ac", "8s")
    answer = r.apply(Action(1, "insurance"))
    assert isinstance(answer, Rejected) and "above the maximum of 400" in answer.reason


def test_burn_and_fi_refuse_over_under_and_two_decks_takes_it():
    """Seed 000 offers Ö/U 13 with Black Jack and its variant Two Decks; Black Jack Burn is a game of its own."""
    r = new("se-two-decks")
    r.apply(Bet(1, "main", 1000))
    assert isinstance(r.apply(Bet(1, "over13", 1000)), Accepted)
    for variant in ("se-burn", "fi"):
        r = new(variant)
        r.apply(Bet(1, "main", 1000))
        answer = r.apply(Bet(1, "over13", 100))
        assert isinstance(answer, Rejected) and "no 'over13' bet" in answer.reason


def test_the_puck_need_not_be_sensed_again_where_it_already_lies():
    """The sensor reports only moves (docs/devices/puck.md): a one-box table deals round after round."""
    spec, config = games.configure("blackjack", "se-burn")
    carried: tuple = ()
    for _ in range(2):
        r = spec.new_round(config, carried)
        events = [Bet(4, "main", 100)] + ([Puck(4)] if not carried else []) + [CloseBets()]
        answers = feed(r, *events)
        assert all(isinstance(a, Accepted) for a in answers), answers
        feed(r, "Th", "7d", "9s", Action(4, "stand"), "Td")
        assert r.complete
        carried = r.carried()


def test_a_puck_sensed_before_any_bet_counts():
    r = new("se-burn")
    answers = feed(r, Puck(3), Bet(3, "main", 100), CloseBets())
    assert all(isinstance(a, Accepted) for a in answers)
    assert r.puck_box == 3


def test_fi_a_asks_for_insurance_before_the_peek():
    r = new("fi-a")
    a = feed(r, Bet(1, "main", 1000), CloseBets(), "Td", "Ac", "6h", "9d")
    assert prompt_of(a[-1]) == "Dealer shows an ace: insurance? Then no more insurance: the dealer peeks"
    a = feed(r, CloseBets())
    assert prompt_of(a[0]) == "Box 1: 16 against an ace — stand, hit or double?"
