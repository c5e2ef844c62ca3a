"""Roulette: geometry, every bet winning and losing, the seed's payouts, zero, voids, limits and chips."""

from __future__ import annotations

from collections import Counter

import pytest

from controller import games
from controller.games.roulette import RouletteRules
from tests.controller.games.wheel_helpers import bet, by_spot, new_round, play, reasons

SPIN_17 = {"type": "wheel", "number": 17}


def rules(variant: str, **options: object) -> RouletteRules:
    spec, config = games.configure("roulette", variant, options)
    return RouletteRules(config)


def test_the_layout_has_the_standard_number_of_each_bet() -> None:
    se = Counter(s.kind for s in rules("se").table)
    assert se == {"straight": 36, "split": 57, "street": 12, "corner": 22, "line": 11, "dozen": 3, "column": 3,
                  "red": 1, "black": 1, "even": 1, "odd": 1, "low": 1, "high": 1}
    eu = Counter(s.kind for s in rules("european").table)
    assert eu["straight"] == 37 and eu["split"] == 60 and eu["trio"] == 2 and eu["first_four"] == 1


def test_the_red_numbers_are_half_of_the_wheel_and_alternate_within_each_dozen_pattern() -> None:
    r = rules("se")
    assert len(r.covers["red"]) == 18 and len(r.covers["black"]) == 18
    assert r.covers["red"] | r.covers["black"] == set(range(1, 37))
    assert {1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36} == r.covers["red"]


# (spot, a winning number, a losing number, SE odds (seed 000 Roulett payout list), European odds)
BETS = [
    ("straight:17", 17, 18, 30, 35),
    ("split:17,20", 20, 16, 15, 17),
    ("split:17,18", 18, 19, 15, 17),
    ("street:16,17,18", 16, 19, 10, 11),
    ("corner:16,17,19,20", 19, 18, 7, 8),
    ("line:16,17,18,19,20,21", 21, 22, 4, 5),
    ("dozen:1", 12, 13, 2, 2),
    ("dozen:2", 13, 25, 2, 2),
    ("dozen:3", 36, 24, 2, 2),
    ("column:1", 34, 35, 2, 2),
    ("column:2", 2, 3, 2, 2),
    ("column:3", 36, 1, 2, 2),
    ("red", 1, 2, 1, 1),
    ("black", 2, 1, 1, 1),
    ("even", 2, 1, 1, 1),
    ("odd", 35, 36, 1, 1),
    ("low", 18, 19, 1, 1),
    ("high", 19, 18, 1, 1),
]


@pytest.mark.parametrize("variant", ["se", "european"])
@pytest.mark.parametrize("spot, winner, loser, se_odds, eu_odds", BETS)
def test_every_bet_wins_at_its_odds_and_loses(variant: str, spot: str, winner: int, loser: int,
                                              se_odds: int, eu_odds: int) -> None:
    odds = se_odds if variant == "se" else eu_odds
    won = play("roulette", variant, [bet(spot, 500), {"type": "wheel", "number": winner}])
    assert by_spot(won)[spot] == {"seat": 1, "spot": spot, "player": "blue", "result": "win", "odds": [odds, 1],
                                  "stake": 500, "net": 500 * odds}
    lost = play("roulette", variant, [bet(spot, 500), {"type": "wheel", "number": loser}])
    assert by_spot(lost)[spot]["result"] == "lose" and by_spot(lost)[spot]["net"] == -500


@pytest.mark.parametrize("spot", [s for s, *_ in BETS])
def test_every_se_bet_loses_on_zero(spot: str) -> None:
    done = play("roulette", "se", [bet(spot, 100), {"type": "wheel", "number": 0}])
    assert by_spot(done)[spot]["result"] == "lose", "rule 9 and RULES-NOTES: zero takes every bet in se"


@pytest.mark.parametrize("spot, odds", [("straight:0", 35), ("split:0,2", 17), ("trio:0,1,2", 11),
                                        ("trio:0,2,3", 11), ("first_four:0,1,2,3", 8)])
def test_european_zero_bets_win_on_zero_and_lose_elsewhere(spot: str, odds: int) -> None:
    won = play("roulette", "european", [bet(spot, 100, player=None), {"type": "wheel", "number": 0}])
    assert by_spot(won)[spot]["net"] == 100 * odds
    lost = play("roulette", "european", [bet(spot, 100, player=None), {"type": "wheel", "number": 36}])
    assert by_spot(lost)[spot]["net"] == -100


def test_se_zero_bets_are_an_option_and_then_pay_the_seed_odds() -> None:
    done = play("roulette", "se", [bet("straight:0", 100), bet("split:0,1", 100)], {"zero_bets": True})
    assert not done["rejected"]
    done = play("roulette", "se", [bet("straight:0", 100), {"type": "wheel", "number": 0}], {"zero_bets": True})
    assert by_spot(done)["straight:0"]["odds"] == [30, 1]


def test_la_partage_returns_half_an_even_chance_on_zero_only() -> None:
    events = [bet("red", 101, player=None), bet("dozen:1", 100, player=None), {"type": "wheel", "number": 0}]
    done = by_spot(play("roulette", "european", events, {"la_partage": True}))
    assert done["red"]["result"] == "surrender" and done["red"]["net"] == -51 and done["red"]["rounded"] is True
    assert done["dozen:1"]["result"] == "lose"
    plain = by_spot(play("roulette", "european", events))
    assert plain["red"]["result"] == "lose" and plain["red"]["net"] == -101
    assert by_spot(play("roulette", "european", [bet("red", 100), {"type": "wheel", "number": 2}],
                        {"la_partage": True}))["red"]["net"] == -100


@pytest.mark.parametrize("variant, spot, why", [
    ("se", "split:17,21", "not neighbours"),
    ("se", "split:3,4", "not neighbours"),
    ("se", "split:17,17", "not neighbours"),
    ("se", "split:20,17", "ascending: split:17,20"),
    ("se", "split:17", "covers 2 numbers"),
    ("se", "street:2,3,4", "one row"),
    ("se", "street:34,35,36,37", "37 is not on the layout"),
    ("se", "corner:1,2,3,4", "2x2 block"),
    ("se", "corner:3,4,6,7", "2x2 block"),
    ("se", "line:4,5,6,7,8", "covers 6 numbers"),
    ("se", "line:1,2,3,7,8,9", "two adjacent rows"),
    ("se", "straight:37", "not on the layout"),
    ("se", "straight:0", "option zero_bets"),
    ("se", "split:0,1", "option zero_bets"),
    ("se", "trio:0,1,2", "option zero_bets"),
    ("se", "first_four:0,1,2,3", "option zero_bets"),
    ("se", "dozen:4", "dozen:1, dozen:2, dozen:3"),
    ("se", "column:0", "column:1, column:2, column:3"),
    ("se", "red:1", "red"),
    ("se", "purple", "no 'purple' bet"),
    ("se", "split:a,b", "whole numbers"),
    ("se", "straight:¹", "whole numbers"),
    ("european", "split:0,4", "zero's neighbours are 1, 2, 3"),
    ("european", "trio:0,1,3", "a trio is trio:0,1,2 or trio:0,2,3"),
    ("european", "street:0,1,2", "cannot include zero"),
    ("european", "corner:0,1,2,3", "first four"),
    ("european", "line:0,1,2,3,4,5", "cannot include zero"),
])
def test_every_illegal_geometry_is_refused_with_a_reason(variant: str, spot: str, why: str) -> None:
    done = play("roulette", variant, [bet(spot, 100)])
    assert len(done["rejected"]) == 1
    assert why in done["rejected"][0]["reason"], done["rejected"][0]["reason"]


def test_trio_and_first_four_follow_their_options() -> None:
    assert "option trio" in reasons(play("roulette", "european", [bet("trio:0,1,2")], {"trio": False}))[0]
    assert "option first_four" in reasons(play("roulette", "european", [bet("first_four:0,1,2,3")],
                                               {"first_four": False}))[0]
    with pytest.raises(ValueError, match="zero_bets"):
        games.configure("roulette", "se", {"trio": True})


def test_outcome_carries_colour_dozen_column_parity_and_half() -> None:
    assert play("roulette", "se", [SPIN_17])["outcome"] == {
        "number": 17, "color": "black", "dozen": 2, "column": 2, "parity": "odd", "half": "low", "voids": []}
    assert play("roulette", "se", [{"type": "wheel", "number": 36}])["outcome"]["color"] == "red"
    zero = play("roulette", "se", [{"type": "wheel", "number": 0}])["outcome"]
    assert zero == {"number": 0, "color": "green", "dozen": None, "column": None, "parity": None, "half": None,
                    "voids": []}


def test_a_void_keeps_the_bets_and_the_next_number_settles_them() -> None:
    events = [bet("straight:17", 500), {"type": "close_bets"},
              {"type": "void", "reason": "a lighter fell into the wheel", "by": "croupier Anna"},
              {"type": "void", "reason": "ball spun the wrong way"},
              SPIN_17]
    done = play("roulette", "se", events)
    assert done["complete"] and not done["rejected"]
    assert by_spot(done)["straight:17"]["net"] == 15000
    assert done["outcome"]["voids"] == [{"by": "croupier Anna", "reason": "a lighter fell into the wheel"},
                                        {"by": "croupier", "reason": "ball spun the wrong way"}]
    assert [a["kind"] for a in done["alerts"]] == ["void", "void"]
    assert "bets stay" in done["alerts"][0]["text"]


def test_a_void_while_bets_are_open_leaves_them_open_and_after_close_leaves_them_closed() -> None:
    round_ = new_round("roulette", "se")
    from controller.events import event_from_json as ev
    assert round_.apply(ev({"type": "void", "reason": "no spin"})).__class__.__name__ == "Accepted"
    assert round_.apply(ev(bet("red", 100))).__class__.__name__ == "Accepted"
    round_.apply(ev({"type": "close_bets"}))
    round_.apply(ev({"type": "void", "reason": "no spin"}))
    assert "no more bets" in round_.apply(ev(bet("black", 100))).reason
    assert "2 voids" in round_.waiting_for()
    assert not round_.complete and round_.outcome() is None


def test_result_events_are_checked() -> None:
    done = play("roulette", "se", [bet("red", 100), {"type": "wheel", "number": 37},
                                   {"type": "wheel", "number": -1}, {"type": "dice", "values": [3, 4]},
                                   {"type": "card", "card": "Ah"}, SPIN_17, {"type": "wheel", "number": 3}])
    why = reasons(done)
    assert "37 is not a number of the wheel" in why[0] and "-1 is not" in why[1]
    assert "settled by the wheel" in why[2] and "settled by the wheel" in why[3]
    assert "the round is settled (number 17)" in why[4]
    assert "a card event has no place" in why[3]
    assert done["complete"]


def test_the_number_closes_open_bets_and_no_bet_follows_close() -> None:
    done = play("roulette", "se", [bet("red", 100), {"type": "close_bets"}, {"type": "close_bets"},
                                   bet("black", 100, player="pink", seat=2), SPIN_17])
    assert reasons(done) == ["the bets are already closed", "no more bets: the bets are closed for this round"]


def test_a_bet_without_amount_gets_result_and_odds_only() -> None:
    done = play("roulette", "european", [bet("straight:17", None, player=None), SPIN_17])
    assert done["settlements"] == [{"seat": 1, "spot": "straight:17", "result": "win", "odds": [35, 1]}]
    twice = play("roulette", "european", [bet("red", None, player=None), bet("red", None, player=None)])
    assert "already has a bet on red" in reasons(twice)[0]


# -------------------------------------------------------------- SE players, limits and chips (rules 5-7)


def test_se_bets_name_the_chip_colour_and_one_colour_is_one_seat() -> None:
    done = play("roulette", "se", [bet("red", 100, player=None), bet("red", 100, seat=1, player="blue"),
                                   bet("black", 100, seat=2, player="blue"), bet("black", 100, seat=2, player="pink")])
    why = reasons(done)
    assert len(why) == 2 and "chip colour" in why[0] and "rule 7" in why[0]
    assert "colour blue already plays at seat 1" in why[1]


def test_se_maximum_is_one_6000th_of_the_price_base_amount_per_player_and_spot() -> None:
    legal = 5_920_000 // 6000  # 986 öre for 2026
    done = play("roulette", "se", [bet("red", legal, player="blue"), bet("red", 1, player="blue"),
                                   bet("red", legal, seat=2, player="pink"), bet("black", legal + 1, seat=2,
                                                                                 player="pink")])
    why = reasons(done)
    assert len(why) == 2
    assert f"{legal + 1} in all for seat 1 (blue) is above the maximum of {legal}" in why[0] and "rule 6" in why[0]
    assert f"{legal + 1} for seat 2 (pink)" in why[1]
    # the european table has no such legal limit
    assert not play("roulette", "european", [bet("red", 10_000_000)])["rejected"]


def test_limits_by_kind_and_by_spot_apply_to_one_players_total_on_one_spot() -> None:
    options = {"limits": {"straight": [100, 500], "straight:17": [100, 300], "red": [200, None]}}
    done = play("roulette", "european", [
        bet("straight:5", 500), bet("straight:5", 100),      # 600 > 500 on straight
        bet("straight:17", 300), bet("straight:17", 100),    # 400 > 300 on straight:17
        bet("straight:18", 50),                              # below the minimum
        bet("red", 150), bet("red", 10_000),                 # below the minimum, then fine
        bet("straight:5", 500, seat=2, player="pink"),       # another player's own 500
    ], options)
    why = reasons(done)
    assert len(why) == 4, why
    assert "600 in all" in why[0] and "maximum of 500" in why[0]
    assert "400 in all" in why[1] and "maximum of 300" in why[1]
    assert "below the table minimum of 100" in why[2]
    assert "below the table minimum of 200" in why[3]
    merged = {(s["spot"], s["seat"]): s["stake"] for s in play("roulette", "european", [
        bet("straight:5", 200), bet("straight:5", 300), bet("straight:5", 500, seat=2, player="pink"), SPIN_17],
        options)["settlements"]}
    assert merged == {("straight:5", 1): 500, ("straight:5", 2): 500}


def test_chip_values_above_the_legal_fraction_are_a_configuration_error() -> None:
    with pytest.raises(ValueError, match=r"chip_values: a chip of 1000 is above 1/6000 .*986.*Roulett rule 5"):
        games.configure("roulette", "se", {"chip_values": [100, 1000]})
    games.configure("roulette", "se", {"chip_values": [100, 500]})
    games.configure("roulette", "european", {"chip_values": [100, 100_000]})
    with pytest.raises(ValueError, match="rule 6"):
        games.configure("roulette", "se", {"limits": {"straight": [100, 1000]}})
    with pytest.raises(ValueError, match="neither a bet nor a kind"):
        games.configure("roulette", "se", {"limits": {"split:1,5": [100, 200]}})
    with pytest.raises(ValueError, match="list of amounts"):
        games.configure("roulette", "se", {"chip_values": [100, -5]})
    bigger_year = games.configure("roulette", "se", {"price_base_amount": 6_000_000, "chip_values": [1000]})[1]
    assert bigger_year["chip_values"] == (1000,)


def test_a_stake_must_be_made_of_the_tables_chips() -> None:
    done = play("roulette", "se", [bet("red", 700), bet("black", 300, seat=2, player="pink"),
                                   bet("even", 50, seat=3, player="green")], {"chip_values": [200, 500]})
    why = reasons(done)
    assert len(why) == 2 and "300 cannot be made of this table's chips (200, 500)" in why[0]
    assert "50 cannot be made" in why[1]


def test_seats_are_checked() -> None:
    assert "no seat 11" in reasons(play("roulette", "european", [bet("red", 100, seat=11)]))[0]


def test_a_round_that_ends_on_a_void_is_incomplete_and_says_what_it_waits_for() -> None:
    done = play("roulette", "se", [bet("red", 100), {"type": "close_bets"}, {"type": "void", "reason": "no spin"}])
    assert done["complete"] is False and done["outcome"] is None and done["settlements"] == []
    assert done["waiting_for"] == "the winning number (1 void so far)"


def test_the_catalog_lists_the_three_games_with_their_spots_and_paytables() -> None:
    import json

    from tests.tablectl import run_tablectl
    done = run_tablectl("games", "--json")
    assert done.returncode == 0, done.stderr
    catalog = {g["id"]: g for g in json.loads(done.stdout)["games"]}
    assert [v["id"] for v in catalog["roulette"]["variants"]] == ["se", "european"]
    assert [v["id"] for v in catalog["tarning"]["variants"]] == ["se", "se-high-jack"]
    assert catalog["sic-bo"]["paytables"]["fi"]["triple"] == [180, 1]
    assert "straight:N" in [s["name"] for s in catalog["roulette"]["spots"]]
    assert catalog["roulette"]["variants"][0]["options"]["zero_bets"] is False


def test_a_bet_of_nothing_is_refused_even_as_a_top_up() -> None:
    done = play("roulette", "european", [bet("red", 100), bet("red", 0), bet("black", 0)])
    assert reasons(done) == ["a bet on red must be more than 0", "a bet on black must be more than 0"]
