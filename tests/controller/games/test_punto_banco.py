"""Punto Banco: the tableau against an independently written chart, every variant's payouts, every rejection."""

from __future__ import annotations

import pytest

from controller import games
from controller.cards import Card, parse_card
from controller.events import Action, Bet, CardOut, CloseBets, Puck, Wheel
from controller.games.contract import Accepted, Alert, Outcome, Rejected, Settlement

# Banco's row: what Banco does for Punto's third card 0..9 (D draws, S stands), written from the
# standard chart in seed 002's "Speltabell" and seed 001, independently of the game module.
CHART = {
    3: "DDDDDDDDSD",
    4: "SSDDDDDDSS",
    5: "SSSSDDDDSS",
    6: "SSSSSSDDSS",
    7: "SSSSSSSSSS",
}
# A card for each point value (0 is a king).
CARD_FOR = {0: "Kc", 1: "Ac", 2: "2c", 3: "3c", 4: "4c", 5: "5c", 6: "6c", 7: "7c", 8: "8c", 9: "9c"}


def new_round(variant: str = "fi", **options):
    spec, config = games.configure("punto-banco", variant, options)
    return spec.new_round(config, ())


def two_cards_for(total: int) -> tuple[str, str]:
    """Two cards making ``total`` where the first is never a natural on its own."""
    return (CARD_FOR[0], CARD_FOR[total]) if total else (CARD_FOR[5], CARD_FOR[5])


def expected_cards(p: int, b: int, p3: int | None) -> int:
    """How many cards the tableau takes, from the chart above."""
    if p >= 8 or b >= 8:
        return 4
    if p <= 5:
        assert p3 is not None
        if b <= 2:
            return 6
        return 6 if CHART.get(b, "S" * 10)[p3] == "D" else 5
    return 5 if b <= 5 else 4


@pytest.mark.parametrize("p", range(10))
@pytest.mark.parametrize("b", range(10))
def test_the_whole_tableau(p, b):
    third_cards = range(10) if p <= 5 and b < 8 else [None]
    for p3 in third_cards:
        pc, bc = two_cards_for(p), two_cards_for(b)
        deal = [pc[0], bc[0], pc[1], bc[1]]
        if p3 is not None:
            deal.append(CARD_FOR[p3])
        deal += ["4d", "4h"]  # more than the coup can take
        round_ = new_round()
        round_.apply(CloseBets())
        used = 0
        for text in deal:
            if round_.complete:
                break
            assert isinstance(round_.apply(CardOut(parse_card(text))), Accepted)
            used += 1
        assert round_.complete
        assert used == expected_cards(p, b, p3), (p, b, p3)
        # the next card is refused, and the refusal names the decided coup
        refused = round_.apply(CardOut(parse_card("9s")))
        assert isinstance(refused, Rejected) and "decided" in refused.reason


def play(round_, cards: str):
    effects = []
    for text in cards.split():
        answer = round_.apply(CardOut(parse_card(text)))
        assert isinstance(answer, Accepted), answer
        effects.extend(answer.effects)
    return effects


def settled(round_) -> dict[str, tuple]:
    return {s.spot: (s.result, s.net, s.rounded) for s in round_.settlements()}


def test_outcome_names_cards_points_naturals_and_draws():
    round_ = new_round()
    round_.apply(CloseBets())
    effects = play(round_, "9h 5s 3c Kd 2d")  # Punto 9+3=2 draws 2 -> 4; Banco 5 with Punto's third 2 stands
    outcome = [e for e in effects if isinstance(e, Outcome)][0].data
    assert outcome == {"winner": "banco", "punto": 4, "banco": 5, "punto_cards": ["9h", "3c", "2d"],
                       "banco_cards": ["5s", "Kd"], "naturals": [], "drew": ["punto"]}


def test_fi_payouts_commission_and_rounding():
    round_ = new_round("fi")
    for bet in (Bet(1, "banco", 5000), Bet(2, "punto", 5000), Bet(3, "tie", 1000), Bet(4, "banco", 1005),
                Bet(5, "banco")):
        assert isinstance(round_.apply(bet), Accepted)
    round_.apply(CloseBets())
    play(round_, "2h 8s 3c Kd")  # Punto 5, Banco natural 8
    got = {(s.seat, s.spot): s for s in round_.settlements()}
    assert got[(1, "banco")].net == 4750 and got[(1, "banco")].odds.as_list() == [19, 20]
    assert got[(2, "punto")].net == -5000 and got[(3, "tie")].net == -1000
    assert got[(4, "banco")].net == 954 and got[(4, "banco")].rounded
    unknown = got[(5, "banco")]
    assert unknown.result == "win" and unknown.stake is None and unknown.net is None
    assert "net" not in unknown.to_json() and unknown.to_json()["odds"] == [19, 20]


def test_fi_minimum_commission():
    round_ = new_round("fi", min_commission=100)
    round_.apply(Bet(1, "banco", 1000))
    round_.apply(Bet(2, "banco", 10000))
    round_.apply(CloseBets())
    play(round_, "2h 8s 3c Kd")
    nets = {s.seat: (s.net, s.note) for s in round_.settlements()}
    assert nets[1] == (900, "minimum commission")  # 5 % would be 50
    assert nets[2] == (9500, None)  # 5 % is 500, above the minimum


@pytest.mark.parametrize("variant, tie_spot", [("de", True), ("fi", True), ("fi-no-commission", True)])
def test_ties_push_punto_and_banco_and_pay_eight_to_one(variant, tie_spot):
    round_ = new_round(variant)
    for bet in (Bet(1, "punto", 1000), Bet(2, "banco", 1000), Bet(3, "tie", 1000)):
        round_.apply(bet)
    round_.apply(CloseBets())
    play(round_, "9h 9s Kc Kd")  # both natural 9
    assert settled(round_) == {"punto": ("push", 0, False), "banco": ("push", 0, False), "tie": ("win", 8000, False)}


@pytest.mark.parametrize("half_on, cards, banco_points", [(6, "4h 3s Kc 3d", 6), (5, "4h 3s Kc 2d", 5)])
def test_no_commission_banco_pays_one_to_two_on_its_point(half_on, cards, banco_points):
    round_ = new_round("fi-no-commission", banco_half_on=half_on)
    round_.apply(Bet(1, "banco", 1000))
    round_.apply(CloseBets())
    play(round_, cards)  # Punto 4 draws; the third card decides below
    while not round_.complete:
        play(round_, "Ks")
    assert round_.outcome()["banco"] == banco_points and round_.outcome()["winner"] == "banco"
    (s,) = round_.settlements()
    assert s.net == 500 and s.odds.as_list() == [1, 2]


def test_no_commission_other_banco_wins_pay_even():
    round_ = new_round("fi-no-commission")
    round_.apply(Bet(1, "banco", 1000))
    round_.apply(CloseBets())
    play(round_, "2h 8s 3c Kd")  # Banco natural 8
    assert settled(round_)["banco"] == ("win", 1000, False)


def test_se_tie_on_six_to_eight_loses_everything():
    round_ = new_round("se")
    round_.apply(Bet(1, "punto", 1000))
    round_.apply(Bet(2, "banco", 2000))
    round_.apply(CloseBets())
    play(round_, "7h 7s Kc Kd")  # both 7, no draws
    assert settled(round_) == {"punto": ("lose", -1000, False), "banco": ("lose", -2000, False)}


def test_se_stand_off_carries_the_stake_into_the_next_coup():
    spec, config = games.configure("punto-banco", "se")
    round_ = spec.new_round(config, ())
    round_.apply(Bet(1, "punto", 1000, "anna"))
    round_.apply(CloseBets())
    play(round_, "9h 9s Kc Kd")  # tie on 9: stand-off
    (s,) = round_.settlements()
    assert (s.result, s.net, s.carry) == ("carry", 0, 1000)
    assert s.to_json()["carry"] == 1000 and s.to_json()["player"] == "anna"
    following = spec.new_round(config, round_.carried())
    assert isinstance(following.apply(Bet(1, "punto", 2000, "anna")), Accepted)  # adds to the carried stake
    following.apply(CloseBets())
    play(following, "9h 2s Kc Kd")
    (s,) = following.settlements()
    assert (s.result, s.stake, s.net) == ("win", 3000, 3000)


def test_a_card_during_betting_closes_the_bets():
    round_ = new_round()
    round_.apply(Bet(1, "punto", 100))
    play(round_, "9h")
    refused = round_.apply(Bet(2, "banco", 100))
    assert isinstance(refused, Rejected) and "no more bets" in refused.reason


@pytest.mark.parametrize("variant, event, words", [
    ("se", Bet(1, "tie", 1000), "no 'tie' bet"),
    ("fi", Bet(1, "dragon", 1000), "no 'dragon' bet"),
    ("se", Bet(1, "banco", 1500), "smallest chip (1000)"),  # whole 10-kronor chips (rule 5)
    ("se", Bet(1, "banco", 10000), "maximum of 9866"),  # 1/600 of 59 200 SEK (rule 2)
    ("fi", Bet(99, "banco", 100), "no box 99"),
    ("fi", Bet(1, "banco", 0), "more than 0"),
    ("fi", Action(1, "stand"), "no player decisions"),
    ("fi", Wheel(17), "no place in Punto Banco"),
    ("fi", Puck(1), "no place in Punto Banco"),
    ("fi", CardOut(Card(0, "")), "joker"),
])
def test_rejections_say_why_and_change_nothing(variant, event, words):
    round_ = new_round(variant)
    round_.apply(Bet(2, "punto", 1000))
    before = round_._snapshot()
    answer = round_.apply(event)
    assert isinstance(answer, Rejected) and words in answer.reason, answer
    assert round_._snapshot() == before


def test_rejections_after_close_and_for_limits_and_players():
    round_ = new_round("fi", limits={"tie": [100, 1000]})
    assert "below the table minimum" in round_.apply(Bet(1, "tie", 50)).reason
    assert isinstance(round_.apply(Bet(1, "tie", 600)), Accepted)
    assert "above the table maximum" in round_.apply(Bet(1, "tie", 600)).reason  # 1200 in all on the spot
    round_.apply(CloseBets())
    assert "no more bets" in round_.apply(Bet(1, "punto", 100)).reason
    assert "already closed" in round_.apply(CloseBets()).reason
    se = new_round("se")
    se.apply(Bet(1, "punto", 1000, "anna"))
    assert "rule 6" in se.apply(Bet(2, "punto", 1000, "anna")).reason
    assert "rule 7" in se.apply(Bet(1, "banco", 1000, "anna")).reason


@pytest.mark.parametrize("variant, options, words", [
    ("se", {"limits": {"banco": [1000, 10000]}}, "above the legal 1/600"),
    ("se", {"decks": 7}, "one of 6, 8"),
    ("se", {"min_commission": 100}, "unknown option 'min_commission'"),
    ("fi", {"limits": {"dragon": [1, 2]}}, "no spot 'dragon'"),
    ("fi", {"limits": {"tie": [200, 100]}}, "below its minimum"),
    ("fi", {"boxes": "7"}, "whole number"),
    ("xx", {}, "unknown variant"),
])
def test_bad_table_configuration_is_refused(variant, options, words):
    with pytest.raises(ValueError, match=words):
        games.configure("punto-banco", variant, options)


def test_waiting_for_tells_the_croupier_what_comes_next():
    round_ = new_round()
    assert "bets" in round_.waiting_for()
    round_.apply(CloseBets())
    assert round_.waiting_for() == "Card 1 to Punto"
    play(round_, "2h 2s 3c 3d")  # Punto 5 draws
    assert round_.waiting_for() == "Punto draws on 5: third card to Punto"
    effects = play(round_, "Kh")  # Punto's third card 0: Banco on 5 stands
    assert round_.complete and any(isinstance(e, Settlement) or isinstance(e, Outcome) for e in effects)
    assert not any(isinstance(e, Alert) for e in effects)
