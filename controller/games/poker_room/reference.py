"""An independent reference for fixed-limit board games (hold'em, Omaha), high and high-low.

PokerKit 0.7.7 has no fixed-limit Omaha high-low to compare against: its
``FixedLimitOmahaHoldemHighLowSplitEightOrBetter`` is declared with
``PotLimitPokerMixin`` and bets pot limit. This module is the reference the
cross-check uses instead, written from the rules and sharing no code with
PokerKit or with the adapter: it reads the events a table sent (buy-ins,
the button, every card, every action) and

- checks each bet and raise against fixed limit (the small bet on the first
  two rounds, the big bet after; a bet and three raises a round, the big
  blind counting as the first round's bet; less only as an all-in) and each
  check and call against what is owed;
- keeps what every player put in, from the blinds and the actions alone;
- splits the main pot and the side pots (one for each all-in stake, a
  folded player's chips going into the pots they reached) by brute force with the project's
  own hand rankings (``controller.hands``: every two-of-four with three of
  the board for Omaha, every five of seven for hold'em; the low is
  ace-to-five, eight or better): each pot on its own, the high hand half
  and the low hand half, the whole pot to the high hand where none of that
  pot's players has a qualifying low; a tie shares its part, the odd chips
  to the first winner from the button's left, and of a high-low split the
  odd chip to the high half. Played low (``scale`` ``low``), each pot goes
  to its best ace-to-five low, with no qualifier (deuce-to-seven where the
  ``lowball`` option says so); Sökö ranks with its own order.

It returns the stacks after the hand; the cross-check compares them with the
adapter's. ``settle_two_boards`` splits double-board hold'em's pots the same
way, each pot halved between the two boards. Nothing here is used by a table.
"""

from __future__ import annotations

from typing import Any

from controller.cards import Card
from controller.events import Action, Bet, CardOut, CloseBets, Event
from controller.games.contract import RoundConfig
from controller.hands.high import best_high, best_omaha
from controller.hands.low import best_ace_to_five, best_deuce_to_seven, best_omaha_low, eight_or_better
from controller.hands.soko import best_soko

CAP = 4  # a bet and three raises a round


class LimitRuleError(AssertionError):
    """The events break the reference's rules: the adapter allowed what fixed limit does not."""


def _order(seats: list[int], button: int) -> list[int]:
    at = seats.index(button)
    return seats[at + 1:] + seats[:at + 1]


def limit_board_stacks(config: RoundConfig, events: list[Event], omaha: bool) -> dict[int, int]:
    """The stacks after a fixed-limit hold'em or Omaha hand (high or high-low), by seat."""
    if config.variant != "limit" or config["rake_bp"] or config.get("ante", 0) or not config["burn_cards"]:
        raise ValueError("the reference plays fixed limit with burn cards, without rake or antes")
    stacks: dict[int, int] = {}
    button = None
    it = iter(events)
    for event in it:
        if isinstance(event, Bet) and event.spot == "buy_in":
            stacks[event.seat] = stacks.get(event.seat, 0) + (event.amount or 0)
        elif isinstance(event, Action) and event.action == "button":
            button = event.seat
        elif isinstance(event, CloseBets):
            break
    if button is None:
        raise ValueError("no button")
    order = _order(sorted(stacks), button)
    n = len(order)
    start = [stacks[s] for s in order]
    put = [0] * n
    folded = [False] * n
    small, big = int(config["small_blind"]), int(config["big_blind"])
    increments = (big, big, 2 * big, 2 * big)
    hole_count = 4 if omaha else 2
    if omaha and config.game == "omaha-5":
        hole_count = 5
    holes: list[list[Card]] = [[] for _ in range(n)]
    board: list[Card] = []
    street = 0
    stake = [0] * n  # what each put in on this street
    raises = 0  # bets and full raises on this street

    def pay(i: int, to: int) -> None:
        more = to - stake[i]
        if more < 0 or more > start[i] - put[i]:
            raise LimitRuleError(f"player {i} cannot put {more} in")
        stake[i] += more
        put[i] += more

    # the blinds: heads up the button posts the small blind and the other player the big
    sb_i, bb_i = (1, 0) if n == 2 else (0, 1)
    pay(sb_i, min(small, start[sb_i]))
    pay(bb_i, min(big, start[bb_i]))
    raises = 1
    dealt = 0
    for event in it:
        if isinstance(event, CardOut):
            if dealt < n * hole_count:
                holes[dealt % n].append(event.card)  # one card at a time from the button's left
            elif dealt - n * hole_count in (0, 4, 6):  # the burn before the flop, the turn and the river
                street += 1
                stake = [0] * n
                raises = 0
            else:
                board.append(event.card)
            dealt += 1
            continue
        if not isinstance(event, Action):
            raise LimitRuleError(f"unexpected event in the hand: {event}")
        i = order.index(event.seat)
        if folded[i]:
            raise LimitRuleError(f"box {event.seat} acts after folding")
        left = start[i] - put[i]
        if left == 0:
            raise LimitRuleError(f"box {event.seat} acts while all in")
        level = max(stake)
        owed = level - stake[i]
        inc = increments[min(street, 3)]
        name = event.action
        if name == "all_in":
            if owed >= left or raises >= CAP:
                name = "call" if owed else "check"
            else:
                name, event = "raise", Action(event.seat, "raise", amount=min(level + inc, stake[i] + left))
        if name == "fold":
            folded[i] = True
        elif name == "check":
            if owed:
                raise LimitRuleError(f"box {event.seat} checks facing {owed}")
        elif name == "call":
            if not owed:
                raise LimitRuleError(f"box {event.seat} calls nothing")
            pay(i, stake[i] + min(owed, left))
        elif name in ("bet", "raise"):
            to = event.amount
            if to is None:
                raise LimitRuleError("a bet without an amount")
            full = to == level + inc
            short_all_in = level < to < level + inc and to - stake[i] == left
            if not (full or short_all_in):
                raise LimitRuleError(f"box {event.seat} {name}s to {to}; fixed limit allows {level + inc} "
                                     f"(or all in for less) on street {street}")
            if full and raises >= CAP:
                raise LimitRuleError(f"box {event.seat} raises past the cap of {CAP} bets")
            pay(i, to)
            if full:
                raises += 1
        else:
            raise LimitRuleError(f"no {name!r} in a fixed-limit board game")
    return settle_pots(config, order, start, put, folded, holes, board, omaha)


def settle_pots(config: RoundConfig, order: list[int], start: list[int], put: list[int], folded: list[bool],
                holes: list[list[Card]], board: list[Card], omaha: bool, board_size: int = 5) -> dict[int, int]:
    """The stacks after the showdown, every pot split on its own (players in PokerKit's order, from the button's
    left): what each put in, who folded, the hole cards and the board (``board_size`` 0: stud and draw games,
    each player's own cards only)."""
    n = len(order)
    won = [0] * n
    alive = [i for i in range(n) if not folded[i]]
    if len(alive) == 1:
        won[alive[0]] = sum(put)
    else:
        if len(board) != board_size:
            raise LimitRuleError(f"a showdown with {len(board)} board cards")
        high_low = config["scale"] == "high-low"
        low_only = config["scale"] == "low"  # ace-to-five, no qualifier: the best low takes the whole pot
        qualifier = 8 if config.get("low_qualifier", "eight") == "eight" else None
        high: dict[int, int] = {}
        low: dict[int, int] = {}
        for i in alive:
            if low_only and config.get("lowball") == "deuce-to-seven":
                high[i] = best_deuce_to_seven(holes[i] + board).value
            elif low_only:
                best_low = best_omaha_low(holes[i], board, None) if omaha else best_ace_to_five(holes[i] + board)
                assert best_low is not None  # without a qualifier every hand has a low
                high[i] = best_low.value
            elif omaha:
                high[i] = best_omaha(holes[i], board).value
                if high_low:
                    found = best_omaha_low(holes[i], board, qualifier)
                    if found is not None:
                        low[i] = found.value
            else:
                high[i] = (best_soko if config.game == "soko" else best_high)(holes[i] + board).value
                if high_low:
                    cards = holes[i] + board
                    found_low: Any = eight_or_better(cards) if qualifier else best_ace_to_five(cards)
                    if found_low is not None:
                        low[i] = found_low.value
        for amount, players in _pots(put, alive):
            lows = [i for i in players if i in low]
            if lows:
                low_part = amount // 2
                _share(won, amount - low_part, players, high)
                _share(won, low_part, lows, low)
            else:
                _share(won, amount, players, high)
    return {seat: start[i] - put[i] + won[i] for i, seat in enumerate(order)}


def settle_two_boards(config: RoundConfig, order: list[int], start: list[int], put: list[int],
                      folded: list[bool], holes: list[list[Card]], boards: tuple[list[Card], list[Card]]
                      ) -> dict[int, int]:
    """Double-board hold'em's stacks after the showdown, every pot on its own (players in PokerKit's order).

    Each pot is halved between the boards, the odd chip to the first board;
    each board's half is split between the scale's hands that anybody still
    in makes on that board (the odd chip to the high), a low part none of the
    pot's players can win going to that board's high; each part goes to the
    best of the pot's players by brute force (ties share it, the odd chips to
    the first winner from the button's left).
    """
    n = len(order)
    alive = [i for i in range(n) if not folded[i]]
    won = [0] * n
    if len(alive) == 1:
        won[alive[0]] = sum(put)
        return {seat: start[i] - put[i] + won[i] for i, seat in enumerate(order)}
    if any(len(board) != 5 for board in boards):
        raise LimitRuleError(f"a showdown with boards of {[len(b) for b in boards]} cards")
    scale, eight = config["scale"], config.get("low_qualifier", "eight") == "eight"

    def value(i: int, b: int, kind: str) -> int | None:
        cards = holes[i] + boards[b]
        if kind == "high":
            return best_high(cards).value
        if scale == "low" or not eight:
            return best_ace_to_five(cards).value
        found = eight_or_better(cards)
        return found.value if found is not None else None

    kinds = {"high": ["high"], "low": ["low"], "high-low": ["high", "low"]}[scale]
    for amount, players in _pots(put, alive):
        half, odd = divmod(amount, 2)
        for b in (0, 1):
            part = half + (odd if b == 0 else 0)
            made = [k for k in kinds if any(value(i, b, k) is not None for i in alive)]
            each, rest = divmod(part, len(made))
            shares = {k: each + (rest if k == made[0] else 0) for k in made}
            if "low" in shares and len(made) == 2 and all(value(i, b, "low") is None for i in players):
                shares["high"] += shares.pop("low")
            for kind, share in shares.items():
                values = {i: v for i in players if (v := value(i, b, kind)) is not None}
                _share(won, share, list(values), values)
    return {seat: start[i] - put[i] + won[i] for i, seat in enumerate(order)}


def _pots(put: list[int], alive: list[int]) -> list[tuple[int, list[int]]]:
    """The main pot and the side pots, (amount, players still in), one for each stake level: a folded
    player's stake is not a side pot, so a level whose players are the level before's joins that pot."""
    pots: list[tuple[int, list[int]]] = []
    below = 0
    for level in sorted({p for p in put if p}):
        amount = sum(min(p, level) - min(p, below) for p in put)
        players = [i for i in alive if put[i] >= level]
        below = level
        if not players:
            raise LimitRuleError("a pot nobody still in can win")
        if pots and pots[-1][1] == players:
            pots[-1] = (pots[-1][0] + amount, players)
        else:
            pots.append((amount, players))
    return pots


def _share(won: list[int], amount: int, players: list[int], value: dict[int, int]) -> None:
    best = max(value[i] for i in players)
    winners = sorted(i for i in players if value[i] == best)
    each, odd = divmod(amount, len(winners))
    for i in winners:
        won[i] += each
    won[winners[0]] += odd
