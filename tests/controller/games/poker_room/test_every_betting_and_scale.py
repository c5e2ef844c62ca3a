"""Every poker-room game in every betting the seed allows (limit, pot limit, no limit) and on every scale it
allows (high, low, high-low), with a few seeded random hands each.

At every decision the most a bet or raise may make the player's stake is checked against the betting's own
rule, worked out here from the chips on the table: no limit, every chip the player has; pot limit, the pot
after the call on top of the call; limit, the one fixed bet (the small bet, or the big bet on the later
streets), less only as an all-in. After each hand no chip is made or lost, each box's settlement is the
change of its stack, and the stacks are those of an independent reference: for every single-board game
(hold'em, Omaha, the Pineapples, Courchevel, stud, Razz, Sökö, draw and lowball) ``reference.settle_pots``
(every pot split on its own by brute force with ``controller.hands``, none of PokerKit's pot or showdown
code); for double-board hold'em, ``reference.settle_two_boards`` (each pot halved between the boards, the same brute force).
The scenario files (tests/scenarios/poker-room/) hold audited hands; this is the breadth.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from controller import games
from controller.cards import card_from_index
from controller.events import Action, Bet, CardOut, CloseBets, Event
from controller.games.contract import Accepted
from controller.games.poker_room.crosscheck import PlayedHand
from controller.games.poker_room.reference import settle_pots, settle_two_boards
from controller.games.poker_room.round import PokerRoomRound
from controller.games.poker_room.variants import RULES

HANDS = 8
COMBOS = [pytest.param(rule.id, betting, scale, {}, id=f"{rule.id}-{betting}-{scale}")
          for rule in RULES for betting in rule.structures for scale in rule.scales]
COMBOS += [pytest.param("lowball", betting, "low", {"lowball": "ace-to-five", "draws": 3},
                        id=f"lowball-{betting}-ace-to-five-triple-draw") for betting in ("limit", "no-limit")]
COMBOS += [pytest.param("five-card-draw", betting, "high", {"openers": "jacks", "ante": 25, "draws": 3},
                        id=f"five-card-draw-{betting}-jacks-three-draws") for betting in ("limit", "pot-limit")]


def test_the_matrix_is_every_game_in_every_betting_and_scale() -> None:
    assert len({rule.id for rule in RULES}) == 13  # the fifteen games less the two Chinese ones (points only)
    assert all(set(rule.structures) == {"limit", "pot-limit", "no-limit"} for rule in RULES)
    scaled = {rule.id: set(rule.scales) for rule in RULES}
    assert all(scaled[g] == {"high", "low", "high-low"} for g in scaled if g not in ("razz", "lowball", "soko"))
    assert len(COMBOS) == 10 * 3 * 3 + 3 * 3 + 4


def _fixed_bet(rule: Any, config: Any, round_: PokerRoomRound) -> tuple[int, int]:
    if rule.family == "stud":
        return int(config["small_bet"]), int(config["big_bet"])
    return int(config["big_blind"]), 2 * int(config["big_blind"])


def check_the_most(rule: Any, config: Any, round_: PokerRoomRound, legal: dict[str, Any]) -> None:
    """The most and the least a bet or raise may make the player's stake in the street, by the betting's rule."""
    if "min_to" not in legal:
        return
    hand = round_.hand
    assert hand is not None
    state = hand.state
    i = round_.order.index(legal["box"])
    every_chip = state.stacks[i] + state.bets[i]
    level, mine = max(state.bets), state.bets[i]
    low, high = legal["min_to"], legal["max_to"]
    assert level < low <= high <= every_chip, legal
    if config.variant == "no-limit":
        assert high == every_chip, legal
    elif config.variant == "pot-limit":
        pot_after_the_call = state.total_pot_amount + (level - mine)  # every chip in the middle, the call too
        assert high == min(every_chip, max(low, level + pot_after_the_call)), legal  # at least the least bet
    else:
        small, big = _fixed_bet(rule, config, round_)
        if high < every_chip:  # not all in: exactly one fixed bet more, or a bring-in completed to the bet
            assert low == high and (high - level in (small, big) or high in (small, big)), (legal, small, big)


def play(spec: Any, config: Any, rng: random.Random) -> PlayedHand:
    """One hand with every move chosen at random among what the round allows (as the cross-check plays)."""
    rule = None
    round_ = spec.new_round(config, ())
    assert isinstance(round_, PokerRoomRound)
    rule = round_.rule
    events: list[Event] = []

    def send(event: Event) -> None:
        answer = round_.apply(event)
        assert isinstance(answer, Accepted), (event, answer)
        events.append(event)

    seats = sorted(rng.sample(range(1, int(config["seats"]) + 1), rng.randint(2, int(config["seats"]))))
    unit = int(config.get("big_blind") or config.get("small_bet") or 100)
    stacks = {s: unit * rng.randint(1, 60) + rng.randint(0, unit - 1) for s in seats}
    for seat in seats:
        send(Bet(seat, "buy_in", stacks[seat]))
    button = None
    if rule.family != "stud":
        button = rng.choice(seats)
        send(Action(button, "button"))
    send(CloseBets())
    deck = [card_from_index(k) for k in range(52)]
    rng.shuffle(deck)
    while not round_.complete:
        legal = round_.legal()
        hand = round_.hand
        assert hand is not None
        if legal["waiting"] == "card":
            if not deck:  # a triple draw ran through the deck: the muck shuffled back, as a dealer does
                live = {c for k in range(len(round_.order)) for c in hand.hole_now(k)} | set(hand.board)
                once = set(hand.burned) | {c for cards in hand.dealt for c in cards}
                deck = [c for c in once if c not in live]
                deck += [card_from_index(k) for k in range(52) if card_from_index(k) not in once]
                rng.shuffle(deck)
            send(CardOut(deck.pop()))
        elif legal["waiting"] == "discard":
            for seat in legal["boxes"]:
                held = hand.hole_now(round_.order.index(seat))
                send(Action(seat, "discard", cards=tuple(rng.sample(held, legal["cards"]))))
        elif legal["actions"] == ["draw", "stand_pat"]:
            seat = legal["box"]
            held = hand.hole_now(round_.order.index(seat))
            thrown = tuple(rng.sample(held, rng.randint(0, len(held))))
            send(Action(seat, "draw", cards=thrown) if thrown else Action(seat, "stand_pat"))
        else:
            check_the_most(rule, config, round_, legal)
            acts = legal["actions"]
            act = rng.choice(acts + (["all_in"] if any(a in acts for a in ("bet", "raise")) else []))
            if act in ("bet", "raise", "complete"):
                low, high = legal["min_to"], legal["max_to"]
                amount = high if rng.random() < 0.15 else rng.randint(low, min(high, 3 * low))
                chosen = Action(legal["box"], act, amount=amount)
            else:
                chosen = Action(legal["box"], act)
            send(chosen)
    after = {s: round_.stacks.get(s, 0) for s in seats}
    return PlayedHand(events, stacks, button, after, round_)


def by_reference(config: Any, played: PlayedHand) -> dict[int, int] | None:
    round_ = played.round
    hand, outcome = round_.hand, round_.outcome()
    if hand is None or outcome is None or round_.rule.boards != 1:
        return None  # the reference has no second board
    seats = {entry["seat"]: entry for entry in outcome["seats"]}
    order = list(round_.order)
    folded = hand.folded()
    return settle_pots(config, order, [seats[s]["stack_before"] for s in order], [seats[s]["put_in"] for s in order],
                       [k in folded for k in range(len(order))], [hand.final_hole(k) for k in range(len(order))],
                       list(hand.board), omaha=round_.rule.omaha, board_size=5 if round_.rule.family == "board" else 0)


def two_boards(config: Any, played: PlayedHand) -> dict[int, int] | None:
    """Double-board hold'em by ``reference.settle_two_boards`` (every pot halved between the boards, each half
    split by brute force with ``controller.hands``; written from the rules, not from the adapter)."""
    round_ = played.round
    hand, outcome = round_.hand, round_.outcome()
    if hand is None or outcome is None or round_.rule.boards != 2:
        return None
    seats = {entry["seat"]: entry for entry in outcome["seats"]}
    order = list(round_.order)
    folded = hand.folded()
    return settle_two_boards(config, order, [seats[s]["stack_before"] for s in order],
                             [seats[s]["put_in"] for s in order], [k in folded for k in range(len(order))],
                             [hand.final_hole(k) for k in range(len(order))], (hand.board_now(0), hand.board_now(1)))


@pytest.mark.parametrize("game, betting, scale, options", COMBOS)
def test_random_hands_bet_by_the_betting_and_settle_as_the_reference_does(game: str, betting: str, scale: str,
                                                                          options: dict[str, Any]) -> None:
    spec, config = games.configure(game, betting, {"buy_in": 1, "scale": scale, **options})
    assert (config.variant, config["scale"]) == (betting, scale)
    rng = random.Random(f"matrix:{game}:{betting}:{scale}:{sorted(options.items())}")
    showdowns = checked = played_out = 0
    for number in range(HANDS):
        played = play(spec, config, rng)
        outcome = played.round.outcome()
        assert outcome is not None
        if "passed_out" in outcome:  # jacks or better, nobody opened: the antes went back
            assert played.after == played.seats
            continue
        assert outcome["scale"] == scale and outcome["betting"] == betting
        played_out += 1
        assert sum(played.after.values()) == sum(played.seats.values()), f"hand {number}: chips made or lost"
        nets = {s.seat: s.net for s in played.round.settlements() if s.spot == "pot"}
        assert nets == {s: played.after[s] - played.seats[s] for s in nets}, f"hand {number}"
        showdowns += len(played.round.hand.at_showdown()) > 1 if played.round.hand else 0
        expected = by_reference(config, played) or two_boards(config, played)
        assert expected is not None
        assert expected == played.after, f"hand {number}"
        checked += 1
    print(f"{game} {betting} {scale}: {HANDS} hands, {showdowns} to a showdown, {checked} against a reference")
    assert checked == played_out, (checked, played_out)  # every hand played out had the reference's stacks
