"""Ultimate Texas Hold'em (seed 002) through `tablectl settle`, against results worked out by hand from the paytable."""

from __future__ import annotations

import pytest

from controller.games import configure
from controller.games.ultimate_texas_holdem import main_results, trips_result
from tests.controller.games.scenario_lines import check_file

G = "ultimate-texas-holdem"


def ladder_a(blind_flush: int, trips: dict[str, int]) -> str:
    """Board Ah Kh Qh 7c 2d, dealer 3s 4c (no pair: the ante pushes), ante 100, play 400, trips 100 at every box."""
    hands = [("royal_flush", 50000), ("flush", blind_flush), ("straight", 100), ("three_of_a_kind", 0),
             ("two_pair", 0), ("high_card", 0)]
    out = []
    for seat, (hand, blind) in enumerate(hands, 1):
        t = trips.get(hand)
        out += [f"{seat} ante push 0", f"{seat} blind {'win' if blind else 'push'} {blind}", f"{seat} play win 400",
                f"{seat} trips win {t}" if t else f"{seat} trips lose -100"]
    return "; ".join(out)


def ladder_b(trips: dict[str, int]) -> str:
    """Board 9s 9c 8s 7s 2h, dealer Ac 3d (pair of nines: qualifies)."""
    out = []
    for seat, hand, blind in ((1, "straight_flush", 5000), (2, "four_of_a_kind", 1000), (3, "full_house", 300),
                              (4, "two_pair", 0)):
        t = trips.get(hand)
        out += [f"{seat} ante win 100", f"{seat} blind {'win' if blind else 'push'} {blind}", f"{seat} play win 400",
                f"{seat} trips win {t}" if t else f"{seat} trips lose -100"]
    out += ["5 ante lose -100", "5 blind lose -100", "5 play lose -400", "5 trips lose -100"]
    out += ["6 ante push 0", "6 blind push 0", "6 play push 0", "6 trips lose -100"]
    return "; ".join(out)


# The trips tables of 002 at 100 staked: what each line wins.
TRIPS = {
    "i": {"royal_flush": 5000, "straight_flush": 4000, "four_of_a_kind": 3000, "full_house": 900, "flush": 700,
          "straight": 400, "three_of_a_kind": 300},
    "ii": {"royal_flush": 5000, "straight_flush": 4000, "four_of_a_kind": 3000, "full_house": 800, "flush": 600,
           "straight": 500, "three_of_a_kind": 300},
    "iii": {"royal_flush": 5000, "straight_flush": 4000, "four_of_a_kind": 3000, "full_house": 800, "flush": 700,
            "straight": 400, "three_of_a_kind": 300},
    "iv": {"royal_flush": 5000, "straight_flush": 4000, "four_of_a_kind": 2000, "full_house": 700, "flush": 600,
           "straight": 500, "three_of_a_kind": 300},
}


@pytest.mark.parametrize("variant", ["i", "ii", "iii", "iv"])
def test_blind_and_trips_tables(variant):
    check_file(G, f"{variant}-paytable", [ladder_a(300, TRIPS[variant]), ladder_b(TRIPS[variant])])


def test_common_blind_table_pays_a_flush_3_to_2():
    check_file(G, "common-blind", [ladder_a(150, TRIPS["i"])])


def test_every_decision_and_the_dealer_below_a_pair():
    doc = check_file(G, "i-decisions", [
        "1 ante win 100; 1 blind push 0; 1 play win 300; 2 ante lose -100; 2 blind lose -100; 2 play lose -200; "
        "3 ante win 100; 3 blind push 0; 3 play win 100; 4 ante lose -100; 4 blind lose -100; 4 trips lose -100",
        "1 ante push 0; 1 blind push 0; 1 play win 400; 2 ante push 0; 2 blind lose -100; 2 play lose -100; "
        "3 ante push 0; 3 blind push 0; 3 play win 400; 3 trips win 300; 4 ante lose -100; 4 blind lose -100; "
        "4 trips win 300",
        "1 ante push 0; 1 blind push 0; 1 play push 0; 1 trips win 400",
    ])
    first = doc["rounds"][0]["outcome"]
    assert first["dealer"]["qualifies"] is True and doc["rounds"][1]["outcome"]["dealer"]["qualifies"] is False
    assert [b["decisions"] for b in first["boxes"]] == [
        ["preflop:play"], ["preflop:check", "flop:play"], ["preflop:check", "flop:check", "river:play"],
        ["preflop:check", "flop:check", "river:fold"]]
    assert [b.get("play_multiple") for b in first["boxes"]] == [3, 2, 1, None]


def test_burn_cards_are_not_the_board():
    doc = check_file(G, "burn-cards", ["1 ante push 0; 1 blind push 0; 1 play push 0; 1 trips win 400"])
    assert doc["rounds"][0]["outcome"]["board"] == ["As", "Ks", "Qd", "Jc", "Tc"]


def test_refusals_change_nothing():
    doc = check_file(G, "refusals", [
        "1 ante push 0; 1 blind push 0; 1 play win 400; 2 ante push 0; 2 blind win 100; 2 play win 100",
    ], rejected=[[0, 2, 4, 5, 7, 10, 17, 18, 19, 21, 26, 30]])
    reasons = [r["reason"] for r in doc["rounds"][0]["rejected"]]
    assert "must equal the ante" in reasons[1] and "no blind" in reasons[4]
    assert "4 or 3 times the ante, not 2" in reasons[8] and "on the flop the play is 2 times" in reasons[10]


def test_progressive_on_own_cards_and_flop():
    doc = check_file(G, "progressive", [
        "1 ante win 100; 1 blind win 1000; 1 play win 400; 1 progressive win ?@50:1; "
        "2 ante lose -100; 2 blind lose -100; 2 progressive win ?@9:1",
        "1 ante win 100; 1 blind win 300; 1 play win 400; 1 progressive win ?@40:1; "
        "2 ante win 100; 2 blind win 100; 2 play win 400; 2 progressive win ?@15:1",
        "1 ante win 100; 1 blind push 0; 1 play win 400; 1 progressive win ?@9:1; "
        "2 ante win 100; 2 blind win 5000; 2 play win 400; 2 progressive win ?; "
        "3 ante win 100; 3 blind win 50000; 3 play win 400; 3 progressive win ?; "
        "4 ante lose -100; 4 blind lose -100; 4 play lose -400; 4 progressive lose -100",
    ])
    first, second, third = (r["meters"] for r in doc["rounds"])
    assert [m["meter_after"] for m in first] == [1_000_070, 1_000_140, 995_140, 994_240]
    assert [m["meter_after"] for m in second] == [994_310, 994_380, 990_380, 988_880]
    hits = [(m["seat"], m["hand"], m["paid"], m["meter_after"]) for m in third if m["kind"] == "hit"]
    assert hits == [(1, "three_of_a_kind", 900, 988_260), (2, "straight_flush", 98_826, 889_434),
                    (3, "royal_flush", 889_434, 0)]
    assert doc["meters"] == {"texas-holdem-progressive": 0}


def test_progressive_on_all_seven_cards():
    doc = check_file(G, "progressive-seven", [
        "1 ante win 100; 1 blind win 1000; 1 play win 400; 1 progressive win ?@300:1; "
        "2 ante lose -100; 2 blind lose -100; 2 progressive win ?@50:1"])
    assert doc["meters"] == {"texas-holdem-progressive": 965_140}


def test_rules_as_functions():
    _, config = configure(G, "i")
    assert main_results(config, "flush", None, True) == {"ante": ("lose", None), "blind": ("lose", None)}
    assert trips_result(config, "two_pair") == ("lose", None)
    with pytest.raises(ValueError, match="no spot 'blind'"):
        configure(G, "i", {"limits": {"blind": [100, 200]}})
    with pytest.raises(ValueError, match="more than the progressive stake"):
        configure(G, "i", {"progressive_contribution": 101})


def test_special_prizes_drawn_by_the_table():
    doc = check_file(G, "special-prizes", [
        "1 ante win 100; 1 blind win 1000; 1 play win 400; 1 progressive win ?@50:1; "
        "2 ante lose -100; 2 blind lose -100; 2 progressive win ?@109:1",
        "1 ante lose -100; 1 blind lose -100; 1 progressive win ?@100:1",
        "1 ante push 0; 1 blind push 0; 1 play win 400; 1 progressive lose -100; "
        "2 ante push 0; 2 blind push 0; 2 play win 400",
        "1 ante push 0; 1 blind push 0; 1 play win 400",
        "1 ante lose -100; 1 blind lose -100; 1 progressive win ?@100:1; "
        "2 ante lose -100; 2 blind lose -100; 2 progressive win ?@100:1",
    ], rejected=[[22, 23, 24, 25, 26], [], [], [13], []])
    first = doc["rounds"][0]
    assert first["draw_requests"] == [{"index": 21, "count": 2, "faces": 500, "purpose": "special prize: one number "
                                       "from 1 to 500 per progressive chip, box 1, 2"}]
    assert [(m["seat"], m["hand"], m["paid"]) for m in first["meters"] if m["kind"] == "hit"] == [
        (1, "full_house", 5000), (2, "three_of_a_kind", 900), (2, "special_prize", 10_000)]
    assert first["outcome"]["special_draw"] == {"numbers": [300, 1], "boxes": {"1": 300, "2": 1}, "winners": [2]}
    assert doc["rounds"][2]["draw_requests"][0]["count"] == 1  # box 2 staked no chip
    assert "draw_requests" not in doc["rounds"][3]  # no chip, no draw
    assert doc["meters"] == {"texas-holdem-progressive": 954_520}


def test_special_prizes_need_the_progressive_and_a_whole_table():
    with pytest.raises(ValueError, match="turn the progressive on too"):
        configure(G, "i", {"special_prizes": True})
    from controller.games.contract import RoundConfig
    from controller.games.holdem_streets import check_special_table

    for special, words in [({}, "no \\[special\\]"), ({"special": {"wins": 0, "faces": 500, "prize": {"fixed": 1}}},
                                                       "1 <= wins < faces"),
                           ({"special": {"wins": 1, "faces": 500, "prize": {"fixed": 1, "share": [1, 2]}}},
                            "one of")]:
        with pytest.raises(ValueError, match=words):
            check_special_table(RoundConfig(G, "i", {}, special))
