"""Hands from PHH hand histories replayed through a poker-room round, for the cross-check.

A PHH file (the poker hand history format PokerKit reads and writes) names
the game, the antes, blinds or bets, the starting stacks and every action:
``d dh p1 AcKd`` (hole cards), ``d db 7h8s9c`` (board), ``p2 cbr 600``
(complete, bet or raise to), ``p2 cc`` (check or call), ``p3 f`` (fold),
``p1 pb`` (bring-in), ``p1 sd 7s`` (draw), ``p1 sm AcKd`` (show). The replay
seats player ``pN`` in the box the file's ``seats`` names, or else in box N;
the last player's box is the button (PHH's first player is the one left of
it). It buys each in for the starting stack, and sends the
round the cards and actions a dealer terminal would, each card when the
round asks for it. PHH records no burn cards, so the table plays without
them (``burn_cards`` off). A card PHH does not know (``??``: a hand folded
unseen) is dealt as a card of the deck that appears nowhere in the hand;
one shown later (``sm``) is the card shown. A draw hand that ran through
the deck and dealt from the muck shuffled back names a card twice; without
the burn cards the point where the deck ran out is unknown, so such a hand
is not replayed. In stud such a card may be an up
card, which decides who brings in, so it is taken from the top of the deck
(Razz: the bottom).

``replay`` returns the stacks after the hand from the round, from PokerKit
reading the same PHH, and from the PHH's own ``finishing_stacks`` where it
has them, or the reason the hand cannot be played at a poker-room table as
configured (a big blind ante, a straddle, a hand mucked unseen at the
showdown, which this table shows).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Any

from pokerkit import Card as PkCard
from pokerkit import HandHistory

from controller import games
from controller.cards import Card, card_from_index, parse_card
from controller.events import Action, Bet, CardOut, CloseBets, Event
from controller.games.contract import Accepted
from controller.games.poker_room.round import PokerRoomRound

# PHH variant code -> (game id, betting, options)
GAMES: dict[str, tuple[str, str, dict[str, Any]]] = {
    "NT": ("texas-holdem", "no-limit", {}),
    "FT": ("texas-holdem", "limit", {}),
    "PO": ("omaha", "pot-limit", {}),
    "FO/8": ("omaha", "limit", {"scale": "high-low", "low_qualifier": "eight"}),
    "F7S": ("seven-card-stud", "limit", {}),
    "F7S/8": ("seven-card-stud", "limit", {"scale": "high-low", "low_qualifier": "eight"}),
    "FR": ("razz", "limit", {}),
    "N2L1D": ("lowball", "no-limit", {"draws": 1, "lowball": "deuce-to-seven"}),
    "F2L3D": ("lowball", "limit", {"draws": 3, "lowball": "deuce-to-seven"}),
}
STUD = ("F7S", "F7S/8", "FR")


class Unplayable(ValueError):
    """The hand cannot be played at a poker-room table as configured; the message says why."""


@dataclass
class Replay:
    code: str
    events: list[Event] = field(default_factory=list)
    adapter: dict[int, int] = field(default_factory=dict)  # box -> stack after the hand
    pokerkit: dict[int, int] = field(default_factory=dict)
    recorded: dict[int, int] | None = None  # the PHH's finishing_stacks, where it has them
    unknown_cards: int = 0  # cards PHH did not know, dealt from the rest of the deck


def _pk_text(card: PkCard) -> str:
    return f"{card.rank.value}{card.suit.value}"


def _cards(text: str) -> list[str]:
    """The cards of a PHH action, '??' for an unknown one."""
    return [("??" if c.rank.value == "?" else _pk_text(c)) for c in PkCard.parse(text)]


def options_for(history: HandHistory) -> tuple[str, str, dict[str, Any]]:
    """The poker-room game, betting and options that play this PHH hand; ``Unplayable`` where none does."""
    code = history.variant
    if code not in GAMES:
        raise Unplayable(f"PHH game {code!r} is not played in the poker room")
    game, variant, extra = GAMES[code]
    n = len(history.starting_stacks)
    antes = list(history.antes) if isinstance(history.antes, (list, tuple)) else [history.antes] * n
    antes = (antes + [0] * n)[:n]
    boxes = _boxes(history)
    seats = max([2, n, *boxes] + ([history.seat_count] if history.seat_count else []))
    options: dict[str, Any] = {"buy_in": 1, "seats": seats, "burn_cards": False, **extra}
    if len(set(antes)) == 1:
        options["ante"] = antes[0]
    elif code not in STUD and not any(a for i, a in enumerate(antes) if i != 1):
        options["big_blind_ante"] = antes[1]
    else:
        raise Unplayable(f"antes {antes}: the table's antes are the same for every player, or a big blind ante")
    if code in STUD:
        options.update(bring_in=history.bring_in, small_bet=history.small_bet, big_bet=history.big_bet)
    else:
        blinds = list(history.blinds_or_straddles or [])
        blinds = (blinds + [0] * n)[:n]
        if any(blinds[2:]) or len(blinds) < 2:
            raise Unplayable(f"blinds or straddles {blinds}: the table posts a small and a big blind only")
        options.update(small_blind=blinds[0], big_blind=blinds[1])
        if variant == "limit" and (history.small_bet, history.big_bet) != (blinds[1], 2 * blinds[1]):
            raise Unplayable(f"bets {history.small_bet}/{history.big_bet}: the table's limit bets are the big "
                             "blind and twice it")
        if variant != "limit" and history.min_bet != blinds[1]:
            raise Unplayable(f"min_bet {history.min_bet} is not the big blind")
    return game, variant, options


def _boxes(history: HandHistory) -> list[int]:
    """The box of each PHH player: the file's ``seats`` where it has one for each (PHH's first player left of
    the button, the last on it), else 1, 2, ..."""
    n = len(history.starting_stacks)
    seats = list(history.seats or [])
    if len(seats) == n and len(set(seats)) == n and all(isinstance(s, int) and s > 0 for s in seats):
        return seats
    return list(range(1, n + 1))


def replay(text_or_history: str | HandHistory) -> Replay:
    history = HandHistory.loads(text_or_history) if isinstance(text_or_history, str) else text_or_history
    game, variant, options = options_for(history)
    n = len(history.starting_stacks)
    try:
        spec, config = games.configure(game, variant, options)
    except ValueError as exc:
        raise Unplayable(str(exc)) from None
    holes: list[list[str]] = [[] for _ in range(n)]
    board: list[str] = []
    shown: list[list[str]] = [[] for _ in range(n)]
    mucked_unseen = False
    for action in history.actions:
        words = action.split("#")[0].split()
        if words[:2] == ["d", "dh"]:
            holes[int(words[2][1:]) - 1] += _cards(words[3])
        elif words[:2] == ["d", "db"]:
            board += _cards(words[2])
        elif len(words) >= 2 and words[1] == "sm":
            player = int(words[0][1:]) - 1
            if len(words) > 2:
                shown[player] = _cards(words[2])
            elif "??" in holes[player]:
                mucked_unseen = True
    if mucked_unseen:
        raise Unplayable("a hand mucked unseen at the showdown: this table shows every hand still in")
    named = [c for cs in holes for c in cs if c != "??"] + board
    if len(named) != len(set(named)):
        raise Unplayable("a card is dealt twice (the muck shuffled back in a draw): PHH records no burn cards, "
                         "so the point where the deck ran out cannot be replayed")
    for player, cards in enumerate(shown):  # a card shown at the end was the unknown one dealt
        reveal = [c for c in cards if c not in holes[player]]
        for c in reveal:
            if "??" in holes[player]:
                holes[player][holes[player].index("??")] = c
    known = {c for cs in holes for c in cs} | set(board)
    # an unknown stud card may be an up card, which decides the bring-in: the lowest up card brings in (Razz:
    # the highest, aces low), so a hand folded unseen gets the cards least likely to bring in
    rest = [card_from_index(i) for i in range(52) if str(card_from_index(i)) not in known]
    if history.variant == "FR":
        rest.sort(key=lambda c: 1 if c.rank == 14 else c.rank)
    else:
        rest.sort(key=lambda c: -c.rank)
    spare = iter(str(c) for c in rest)
    out = Replay(history.variant)
    for cs in holes:
        for k, c in enumerate(cs):
            if c == "??":
                cs[k] = next(spare)
                out.unknown_cards += 1
    round_ = spec.new_round(config, ())
    assert isinstance(round_, PokerRoomRound)
    events = out.events

    def send(event: Event) -> None:
        answer = round_.apply(event)
        if not isinstance(answer, Accepted):
            raise Unplayable(f"the round refused {event}: {getattr(answer, 'reason', answer)}")
        events.append(event)

    boxes = _boxes(history)
    if history.variant in STUD and boxes != sorted(boxes):
        raise Unplayable(f"seats {boxes}: stud deals from the lowest box, PHH's players are in another order")
    for k, chips in enumerate(history.starting_stacks):
        send(Bet(boxes[k], "buy_in", chips))
    if history.variant not in STUD:
        send(Action(boxes[-1], "button"))
    send(CloseBets())
    queues = [list(map(parse_card, cs)) for cs in holes]
    board_queue = [parse_card(c) for c in board]

    def deal_due() -> None:
        while not round_.complete and round_.legal()["waiting"] == "card":
            hand = round_.hand
            assert hand is not None
            if hand.card_step() == "hole":
                dealee = hand.hole_dealee()
                assert dealee is not None
                if not queues[dealee]:
                    raise Unplayable(f"PHH gives p{dealee + 1} no more cards, the game deals one")
                card: Card = queues[dealee].pop(0)
            else:
                if not board_queue:
                    raise Unplayable("PHH gives no more board cards, the game deals one")
                card = board_queue.pop(0)
            send(CardOut(card))

    for action in history.actions:
        words = action.split("#")[0].split()
        if words[0] == "d" or words[1] == "sm":
            continue
        deal_due()
        seat = boxes[int(words[0][1:]) - 1]
        legal = round_.legal()
        acts = legal.get("actions", [])
        what = words[1]
        if what == "f":
            send(Action(seat, "fold"))
        elif what == "cc":
            send(Action(seat, "check" if "check" in acts else "call"))
        elif what == "cbr":
            name = next((a for a in ("complete", "raise", "bet") if a in acts), "bet")
            send(Action(seat, name, amount=int(words[2])))
        elif what == "pb":
            send(Action(seat, "bring_in"))
        elif what == "sd":
            thrown = tuple(parse_card(c) for c in _cards(words[2])) if len(words) > 2 else ()
            send(Action(seat, "draw", cards=thrown) if thrown else Action(seat, "stand_pat"))
        else:
            raise Unplayable(f"no table action for PHH {action!r}")
    deal_due()
    if not round_.complete:
        raise Unplayable(f"the hand is not over after the PHH's actions (waiting for {round_.legal()['waiting']})")
    out.adapter = {boxes[k]: round_.stacks.get(boxes[k], 0) for k in range(n)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PokerKit burns from its own deck on a PHH replay
        *_, last = iter(history)
    out.pokerkit = {boxes[k]: last.stacks[k] for k in range(n)}
    if history.finishing_stacks:
        out.recorded = {boxes[k]: s for k, s in enumerate(history.finishing_stacks)}
    return out
