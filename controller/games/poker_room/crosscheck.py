"""Random hands through the poker room's rounds and through PokerKit alone, for the cross-check and the benchmark.

``random_hand`` plays one hand through a ``PokerRoomRound`` as a table would
send it (buy-ins, the button, the shoe's cards, each player's action and
amount), choosing at random among what the round says is allowed, and
returns the events with the stacks after the hand. ``direct_stacks`` plays
the same events through PokerKit's own game class for those rules (no
adapter: its own player order from the button, its own dealing statuses),
so the two can be compared seat by seat. The randomness is the caller's
``random.Random``; nothing here is used by a table.
"""

from __future__ import annotations

import random
import warnings
from dataclasses import dataclass
from typing import Any

from controller.cards import Card, card_from_index
from controller.events import Action, Bet, CardOut, CloseBets, Event
from controller.games.contract import Accepted, GameSpec, RoundConfig
from controller.games.poker_room.history import pokerkit_game
from controller.games.poker_room.reference import settle_pots, settle_two_boards
from controller.games.poker_room.round import PokerRoomRound


@dataclass(frozen=True)
class Case:
    """One game of the cross-check and what it is checked against."""

    game: str
    variant: str
    options: dict[str, Any]
    reference: str  # "pokerkit": PokerKit's own class alone; "reference": reference.limit_board_stacks
    default_hands: int  # hands in the default test run

    @property
    def id(self) -> str:
        return f"{self.game}-{self.variant}" + "".join(f"-{k}={v}" for k, v in self.options.items())


# Every game PokerKit 0.7.7 has a standard class for, and the fixed-limit board games it has none for
# (reference.py). PokerKit's Omaha showdown is slow, so fewer of it in the default run.
CASES: tuple[Case, ...] = (
    Case("texas-holdem", "no-limit", {}, "pokerkit", 40),
    Case("texas-holdem", "limit", {}, "pokerkit", 40),
    Case("texas-holdem", "no-limit", {"big_blind_ante": 100}, "pokerkit", 15),
    Case("double-board-holdem", "no-limit", {}, "pokerkit", 20),
    Case("omaha", "pot-limit", {}, "pokerkit", 8),
    Case("seven-card-stud", "limit", {}, "pokerkit", 30),
    Case("seven-card-stud", "limit", {"scale": "high-low"}, "pokerkit", 30),
    Case("razz", "limit", {}, "pokerkit", 30),
    Case("lowball", "no-limit", {"draws": 1}, "pokerkit", 30),
    Case("lowball", "limit", {"draws": 3}, "pokerkit", 30),
    Case("omaha", "limit", {"scale": "high-low"}, "reference", 30),
    Case("omaha", "limit", {}, "reference", 15),
    Case("omaha-5", "limit", {"scale": "high-low"}, "reference", 15),
    Case("texas-holdem", "limit", {"scale": "high-low"}, "reference", 20),
    Case("texas-holdem", "limit", {"low_qualifier": "none", "scale": "high-low"}, "reference", 15),
)


@dataclass
class PlayedHand:
    events: list[Event]
    seats: dict[int, int]  # seat -> stack before the hand
    button: int | None
    after: dict[int, int]  # seat -> stack after the hand
    round: PokerRoomRound


def _send(round_: PokerRoomRound, event: Event, events: list[Event]) -> None:
    answer = round_.apply(event)
    if not isinstance(answer, Accepted):
        raise AssertionError(f"the round refused its own legal move {event}: {answer}")
    events.append(event)


def random_hand(spec: GameSpec, config: RoundConfig, rng: random.Random, players: int | None = None,
                unit: int | None = None) -> PlayedHand:
    """One random hand, every move chosen among the round's legal ones."""
    round_ = spec.new_round(config, ())
    assert isinstance(round_, PokerRoomRound)
    seats_n = int(config["seats"])
    n = players or rng.randint(2, seats_n)
    big = unit or int(config.get("big_blind") or config.get("small_bet") or 100)
    seats = sorted(rng.sample(range(1, seats_n + 1), n))
    stacks = {s: max(int(config["buy_in"]), big * rng.randint(1, 100) + rng.randint(0, big - 1)) for s in seats}
    events: list[Event] = []
    for seat in seats:
        _send(round_, Bet(seat, "buy_in", stacks[seat]), events)
    button = None
    if round_.rule.family != "stud":
        button = rng.choice(seats)
        _send(round_, Action(button, "button"), events)
    _send(round_, CloseBets(), events)
    deck = [card_from_index(i) for i in range(52)]
    rng.shuffle(deck)
    while not round_.complete:
        legal = round_.legal()
        waiting = legal["waiting"]
        hand = round_.hand
        assert hand is not None
        if waiting == "card":
            if not deck:  # a draw game ran through the deck: the muck is shuffled back, as a dealer does
                deck = _reshuffled(round_, rng)
            _send(round_, CardOut(deck.pop()), events)
        elif waiting == "discard":
            for seat in legal["boxes"]:
                cards = hand.hole_now(round_.order.index(seat))
                _send(round_, Action(seat, "discard", cards=tuple(rng.sample(cards, legal["cards"]))), events)
        else:
            _send(round_, _choose(round_, legal, rng), events)
    after = {s: round_.stacks.get(s, 0) for s in seats}
    return PlayedHand(events, stacks, button, after, round_)


def _reshuffled(round_: PokerRoomRound, rng: random.Random) -> list[Card]:
    hand = round_.hand
    assert hand is not None
    in_play = {c for i in range(len(round_.order)) for c in hand.hole_now(i)} | set(hand.board)
    dealt_once = set(hand.burned) | {c for cards in hand.dealt for c in cards}
    stub = [card_from_index(i) for i in range(52) if card_from_index(i) not in dealt_once]
    reserve = [c for c in dealt_once if c not in in_play]
    rng.shuffle(reserve)
    return reserve + stub


def _choose(round_: PokerRoomRound, legal: dict[str, Any], rng: random.Random) -> Action:
    seat = legal["box"]
    acts = legal["actions"]
    if acts == ["draw", "stand_pat"]:
        hand = round_.hand
        assert hand is not None
        cards = hand.hole_now(round_.order.index(seat))
        thrown = tuple(rng.sample(cards, rng.randint(0, len(cards))))
        return Action(seat, "draw", cards=thrown) if thrown else Action(seat, "stand_pat")
    act = rng.choice(acts + (["all_in"] if any(a in acts for a in ("bet", "raise")) else []))
    if act in ("bet", "raise", "complete"):
        low, high = legal["min_to"], legal["max_to"]
        amount = high if rng.random() < 0.1 else rng.randint(low, min(high, 4 * low))
        return Action(seat, act, amount=amount)
    return Action(seat, act)


def known_difference(played: PlayedHand, expected: dict[int, int]) -> str | None:
    """Why PokerKit alone settles this hand otherwise, where it is one of its two known faults; else None.

    ``"low half"``: a side pot's low half that none of its players can win,
    which PokerKit 0.7.7 shares among them and the adapter gives to that
    pot's high hand. ``"pots kept apart"``: a main pot and a side pot that
    have the same players once the hands that win nothing are killed, which
    PokerKit splits as one pot and the adapter splits each on its own; only
    odd chips can move, so no seat may differ by as many chips as there are
    pots (times the boards: double-board hold'em splits every pot on each
    board) and no chip may be made or lost.
    """
    hand = played.round.hand
    if hand is None or expected == played.after:
        return None
    state = hand.state.__dict__
    if state.get("halves_moved"):
        return "low half"
    parts = len(state.get("_pots") or ()) * max(1, played.round.rule.boards)  # each pot split on each board
    if state.get("pots_kept_apart") and sum(expected.values()) == sum(played.after.values()) \
            and all(abs(expected[s] - played.after[s]) < parts for s in expected):
        return "pots kept apart"
    return None


def split_by_reference(config: RoundConfig, played: PlayedHand) -> dict[int, int] | None:
    """The stacks after a hold'em, double-board hold'em or Omaha hand with every pot split on its own by the reference.

    What each player put in, who folded and the cards are the round's; the
    pots and their split are ``reference.py``'s (each stake level a pot,
    folds merging levels, the best hand by brute force with
    ``controller.hands``, odd chips to the first winner from the button's
    left; with two boards each pot halved between them first). None for a
    game it does not split (antes, the rake, or not a board game).
    """
    round_ = played.round
    hand = round_.hand
    outcome = round_.outcome()
    if hand is None or outcome is None or round_.rule.family != "board" or round_.rule.boards not in (1, 2) \
            or config.get("ante") or config.get("big_blind_ante") or config["rake_bp"]:
        return None
    by_seat = {entry["seat"]: entry for entry in outcome["seats"]}
    order = list(round_.order)
    folded = hand.folded()
    if round_.rule.boards == 2:
        return settle_two_boards(config, order, [by_seat[s]["stack_before"] for s in order],
                                 [by_seat[s]["put_in"] for s in order], [i in folded for i in range(len(order))],
                                 [hand.final_hole(i) for i in range(len(order))], (hand.board_now(0), hand.board_now(1)))
    return settle_pots(config, order, [by_seat[s]["stack_before"] for s in order],
                       [by_seat[s]["put_in"] for s in order], [i in folded for i in range(len(order))],
                       [hand.final_hole(i) for i in range(len(order))], list(hand.board),
                       omaha=round_.rule.id.startswith("omaha"))


def direct_stacks(config: RoundConfig, played: PlayedHand) -> dict[int, int]:
    """The same hand through PokerKit's own game class alone: the stacks after it, by seat."""
    state, order = direct_state(config, played)
    if state.status:
        raise AssertionError("PokerKit's hand is not over after the same events")
    return {seat: state.stacks[i] for i, seat in enumerate(order)}


def direct_state(config: RoundConfig, played: PlayedHand) -> tuple[Any, list[int]]:
    """PokerKit's own game state after ``played.events``, and its player order (seats)."""
    known = pokerkit_game(config)
    if known is None:
        raise ValueError(f"PokerKit has no standard game for {config.game} {config.variant} {config.get('scale')}")
    seats = sorted(played.seats)
    if played.button is None:
        order = seats
    else:
        at = seats.index(played.button)
        order = seats[at + 1:] + seats[:at + 1]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", message="Returning reserved")
        state = known.game(tuple(played.seats[s] for s in order), len(order))
        for event in played.events:
            if isinstance(event, CardOut):
                text = str(event.card)
                if state.can_burn_card(text):
                    state.burn_card(text)
                elif state.can_deal_hole(text):
                    state.deal_hole(text)
                else:
                    state.deal_board(text)
            elif isinstance(event, Action) and event.action not in ("button",):
                name = event.action
                if name == "fold":
                    state.fold()
                elif name in ("check", "call"):
                    state.check_or_call()
                elif name == "bring_in":
                    state.post_bring_in()
                elif name in ("bet", "raise", "complete"):
                    state.complete_bet_or_raise_to(event.amount)
                elif name == "all_in":
                    if state.can_complete_bet_or_raise_to():
                        state.complete_bet_or_raise_to(state.max_completion_betting_or_raising_to_amount)
                    else:
                        state.check_or_call()
                elif name in ("draw", "stand_pat"):
                    state.stand_pat_or_discard("".join(str(c) for c in (event.cards or ())))
                else:
                    raise ValueError(f"no PokerKit move for {name!r}")
    return state, order
