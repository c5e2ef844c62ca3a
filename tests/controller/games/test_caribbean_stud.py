"""Caribbean Stud (seed 003 as written: dk; classic) and its progressive through `tablectl settle`."""

from __future__ import annotations

import pytest

from controller.games import configure
from controller.games.contract import MeterChange, apply_meter
from tests.controller.games.poker_scenarios import check_round, settle

G = "caribbean-stud"


def test_classic_branches():
    rounds = settle(G, "classic-branches")["rounds"]
    check_round(rounds[0], [(1, "ante", "lose", -1000)])
    check_round(rounds[1], [(1, "ante", "win", 1000, (1, 1)), (1, "bet", "push", 0)])
    assert rounds[1]["outcome"]["dealer"]["qualifies"] is False
    check_round(rounds[2], [(1, "ante", "win", 1000, (1, 1)), (1, "bet", "win", 2000, (1, 1))])
    check_round(rounds[3], [(1, "ante", "lose", -1000), (1, "bet", "lose", -2000)])
    # settled from the dealer's right: box 2 before box 1
    check_round(rounds[4], [(2, "ante", "lose", None), (1, "ante", "push", 0), (1, "bet", "push", 0)])
    assert rounds[4]["outcome"]["dealer"]["up_card"] == "2c"


def test_classic_paytable():
    rounds = settle(G, "classic-paytable")["rounds"]
    odds = {5: 5, 4: 4, 3: 3, 2: 2, 1: 1}
    check_round(rounds[0], [line for seat in (5, 4, 3, 2, 1) for line in
                            ((seat, "ante", "win", 1000, (1, 1)), (seat, "bet", "win", 2000 * odds[seat], (odds[seat], 1)))])
    odds = {4: 100, 3: 50, 2: 20, 1: 7}
    check_round(rounds[1], [line for seat in (4, 3, 2, 1) for line in
                            ((seat, "ante", "win", 1000, (1, 1)), (seat, "bet", "win", 2000 * odds[seat], (odds[seat], 1)))])


def test_dk_carries():
    doc = settle(G, "dk-carry")
    rounds = doc["rounds"]
    check_round(rounds[0], [(1, "ante", "win", 1000, (1, 1)), (1, "bet", "carry", 0)])
    assert rounds[0]["settlements"][1]["carry"] == 2000
    check_round(rounds[1], [(1, "ante", "win", 1000), (1, "bet", "win", 2000, (1, 1))], rejected=(0,))
    assert "must be 1000" in rounds[1]["rejected"][0]["reason"]
    check_round(rounds[2], [(1, "ante", "win", 1000), (1, "bet", "win", 6000, (3, 1))])
    check_round(rounds[3], [(1, "ante", "carry", 0), (1, "bet", "carry", 0)])
    check_round(rounds[4], [(1, "ante", "lose", -1000), (1, "bet", "push", 0)], rejected=(0,))
    assert "carried from the last round" in rounds[4]["rejected"][0]["reason"]
    check_round(rounds[5], [(2, "ante", "win", 1000), (2, "bet", "win", 400000, (200, 1)),
                            (1, "ante", "win", 1000), (1, "bet", "win", 12000, (6, 1))])
    check_round(rounds[6], [(1, "ante", "win", 1000), (1, "bet", "carry", 0)])
    check_round(rounds[7], [(1, "bet", "push", 0), (2, "ante", "lose", -1000)])
    assert "no ante" in rounds[7]["settlements"][0]["note"]


def test_progressive_hits_from_the_dealers_right():
    doc = settle(G, "progressive")
    rounds = doc["rounds"]
    first = rounds[0]
    check_round(first, [(3, "ante", "lose", -1000), (3, "progressive", "lose", -50),
                        (2, "ante", "lose", -1000), (2, "progressive", "win", None, (4, 1)),
                        (1, "ante", "win", 1000), (1, "bet", "win", 100000, (50, 1)),
                        (1, "progressive", "win", None, (2500, 1))])
    hits = [m for m in first["meters"] if m["kind"] == "hit"]
    assert [(m["seat"], m["fixed"], m["paid"], m["meter_after"]) for m in hits] == [
        (2, 200, 200, 1_000_105 - 200), (1, 125000, 125000, 1_000_105 - 200 - 125000)]
    assert [m["meter_after"] for m in first["meters"] if m["kind"] == "contribution"] == [1_000_035, 1_000_070, 1_000_105]

    two = rounds[1]
    hits = [m for m in two["meters"] if m["kind"] == "hit"]
    before = 874_905 + 2 * 35
    assert [(m["seat"], m["hand"]) for m in hits] == [(4, "four_of_a_kind"), (2, "royal_flush")]
    assert hits[0]["paid"] == 25000 and hits[1]["share"] == [1, 1]
    assert hits[1]["paid"] == before - 25000 and hits[1]["meter_after"] == 0
    royal = [s for s in two["settlements"] if s["spot"] == "progressive" and s["seat"] == 2][0]
    assert royal["result"] == "win" and "net" not in royal and "100 % of the meter" in royal["note"]

    small = rounds[2]
    hit = [m for m in small["meters"] if m["kind"] == "hit"][0]
    assert hit["fixed"] == 125000 and hit["paid"] == 35 and hit["meter_after"] == 0

    check_round(rounds[3], [(1, "ante", "lose", -1000), (1, "progressive", "lose", -50)], rejected=(0, 2))
    assert doc["meters"] == {"caribbean-stud": 35}


@pytest.mark.parametrize("value, change, expected", [
    (100, MeterChange("m", "contribution", amount=35), (0, 135)),
    (1000, MeterChange("m", "hit", share=(1, 10)), (100, 900)),
    (1005, MeterChange("m", "hit", share=(1, 10)), (100, 905)),
    (1000, MeterChange("m", "hit", fixed=250), (250, 750)),
    (100, MeterChange("m", "hit", fixed=250), (100, 0)),
])
def test_apply_meter(value, change, expected):
    assert apply_meter(value, change) == expected


def test_progressive_option_off_refuses_the_chip():
    spec, config = configure(G, "classic", {"progressive": False})
    from controller.events import Bet
    round_ = spec.new_round(config, ())
    round_.apply(Bet(1, "ante", 1000))
    answer = round_.apply(Bet(1, "progressive", 50))
    assert getattr(answer, "reason", "") == "the progressive is not offered at this table"


def test_contribution_above_the_stake_is_a_configuration_error():
    with pytest.raises(ValueError, match="progressive_contribution"):
        configure(G, "dk", {"progressive_contribution": 60})


def test_dk_paytable_both_columns():
    rounds = settle(G, "dk-paytable")["rounds"]

    def expected(bets):
        return [line for seat, net, odds in bets for line in
                ((seat, "ante", "win", 1000, (1, 1)), (seat, "bet", "win", net, odds) if odds else (seat, "bet", "carry", 0))]

    check_round(rounds[0], expected([(4, 8000, (4, 1)), (3, 6000, (3, 1)), (2, 4000, (2, 1)), (1, 2000, (1, 1))]))
    check_round(rounds[1], expected([(3, 100000, (50, 1)), (2, 40000, (20, 1)), (1, 20000, (10, 1))]))
    check_round(rounds[2], expected([(4, 0, None), (3, 200000, (100, 1)), (2, 50000, (25, 1)), (1, 10000, (5, 1))]))
    assert rounds[2]["outcome"]["dealer"]["qualifies"] is False
