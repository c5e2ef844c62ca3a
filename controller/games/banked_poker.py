"""What the poker games against the house share: boxes, a dealing plan, decisions.

Not a game itself (no ``SPEC``). ``BankedPokerRound`` takes bets on the
boxes, closes them, assigns the cards in shoe order following the game's
dealing plan (boxes from the dealer's left, that is box 1 first, one card at
a time; burn cards; the dealer's hand; community cards), collects one
decision per box, deals what follows the decisions and hands over to the
game's ``_settle``. Hand ranking is never done here: the games call
``controller.hands``.
"""

from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from controller.cards import Card
from controller.events import Action, Bet, CardOut, CloseBets, Event, Void
from controller.money import Odds
from controller.games.contract import (
    Effect, Outcome, Prompt, Reject, Round, RoundConfig, Settlement, check_stake, settle_fixed, settle_void,
)

DEALER = 0  # the target "box" of the dealer's cards in a dealing plan
BURN = -1
BOARD = -2


@dataclass(frozen=True)
class StakeRule:
    """How a spot's stake is limited: the configured limits, then a legal bound (``None``: none)."""

    legal_min: int | None = None
    legal_max: int | None = None
    rule: str = ""


def target_name(target: int) -> str:
    if target == DEALER:
        return "the dealer"
    if target == BURN:
        return "the burn"
    if target == BOARD:
        return "the board"
    return f"box {target}"


class BankedPokerRound(Round):
    """Bets, the deal in shoe order, one decision per box, what follows, the settlement.

    Subclasses set the class attributes and implement ``_first_plan``,
    ``_second_plan`` (cards after the decisions) and ``_settle`` (which sets ``outcome_data``).
    """

    main_spot: str = "ante"
    side_spots: tuple[str, ...] = ()
    action_spots: tuple[str, ...] = ()  # spots that only a decision can stake
    decisions: tuple[str, ...] = ("fold", "play")
    game_name: str = "poker"
    players_named: bool = False  # bets may name their player (one player per box, never two)
    dealer_up: tuple[int, ...] = ()  # the dealer's cards (0 first; -1 last) dealt face up before the decisions

    def __init__(self, config: RoundConfig, carried: tuple[Bet, ...] = ()) -> None:
        super().__init__(config)
        self.bets: list[Bet] = list(carried)
        self.carried_in: tuple[Bet, ...] = tuple(carried)
        self.betting_open = True
        self.cards: list[tuple[int, Card]] = []  # (target, card) in shoe order
        self.plan: list[int] = []
        self.decided: dict[int, str] = {}
        self.phase = "bets"  # bets -> deal -> decide -> deal2 -> done
        self.done = False
        self.void_reason: str | None = None
        self.outcome_data: dict[str, Any] | None = None  # set by the game's ``_settle``
        self._settlements: list[Settlement] = []
        self._carry: list[Bet] = []

    # ------------------------------------------------------------------ for the games

    @abstractmethod
    def _first_plan(self, boxes: Sequence[int]) -> list[int]:
        """The targets of the cards dealt before the decisions, in shoe order."""

    def _second_plan(self, playing: Sequence[int]) -> list[int]:
        """The targets of the cards dealt after every box has decided (default: none)."""
        return []

    @abstractmethod
    def _settle(self) -> list[Effect]:
        """Settle every bet once the last card is out; return the effects (outcome first)."""

    def _stake_rule(self, spot: str) -> StakeRule:
        """A legal bound on a spot beyond the configured limits (SE fixed limits)."""
        return StakeRule()

    def _check_bet(self, bet: Bet) -> None:
        """Game-specific checks on a bet (side bets need the main bet, ...): raise ``Reject``."""

    def _decision_stakes(self, seat: int, action: str) -> list[Bet]:
        """The bets a decision adds (the play, call or raise stake)."""
        return []

    # ------------------------------------------------------------------ helpers

    def boxes_in_play(self) -> list[int]:
        """The boxes with a main bet, from the dealer's left (box 1 first)."""
        return sorted({b.seat for b in self.bets if b.spot == self.main_spot})

    def bet_of(self, seat: int, spot: str) -> Bet | None:
        for bet in self.bets:
            if bet.seat == seat and bet.spot == spot:
                return bet
        return None

    def hand_of(self, target: int) -> tuple[Card, ...]:
        return tuple(c for t, c in self.cards if t == target)

    def playing(self) -> list[int]:
        """Boxes that decided to play (in box order)."""
        return [s for s in self.boxes_in_play() if self.decided.get(s) not in (None, "fold")]

    def stake_limits(self, spot: str) -> tuple[int, int | None]:
        return self.limit_of(spot)

    def limit_of(self, spot: str) -> tuple[int, int | None]:
        """The configured [minimum, maximum] of a spot tightened by its legal bound."""
        configured = self.config["limits"].get(spot)
        low, high = configured if configured else (0, None)
        rule = self._stake_rule(spot)
        if rule.legal_min is not None:
            low = max(low, rule.legal_min)
        if rule.legal_max is not None:
            high = rule.legal_max if high is None else min(high, rule.legal_max)
        return low, high

    def check_amount(self, spot: str, amount: int | None) -> None:
        """Refuse a stake outside the legal bound (naming the rule) or the configured limits."""
        rule = self._stake_rule(spot)
        if amount is not None and amount > 0:
            if rule.legal_max is not None and amount > rule.legal_max:
                raise Reject(f"{spot}: {amount} is above the legal maximum of {rule.legal_max} ({rule.rule})")
            if rule.legal_min is not None and amount < rule.legal_min:
                raise Reject(f"{spot}: {amount} is below the legal minimum of {rule.legal_min} ({rule.rule})")
        low, high = self.limit_of(spot)
        check_stake(spot, amount, low, high)

    def settle(self, bet: Bet, result: str, odds: Odds | None = None, note: str | None = None) -> Settlement:
        settlement = settle_fixed(bet, result, odds, carry=result == "carry", note=note)
        if result == "carry":
            self._carry.append(bet)
        return settlement

    # ------------------------------------------------------------------ events

    def _place(self, bet: Bet) -> Iterable[Effect]:
        if not self.betting_open:
            raise Reject("no more bets: the cards are being dealt")
        spots = (self.main_spot,) + self.side_spots
        if bet.spot in self.action_spots:
            raise Reject(f"the {bet.spot} stake is placed by the box's decision, not as a bet")
        if bet.spot not in spots:
            raise Reject(f"there is no {bet.spot!r} bet at this table (bets: {', '.join(spots)})")
        if not 1 <= bet.seat <= self.config["boxes"]:
            raise Reject(f"there is no box {bet.seat} at this table (boxes 1 to {self.config['boxes']})")
        if bet.player is not None and not self.players_named:
            raise Reject("back betting is not allowed at this game: one player per box")
        for other in self.bets:
            if other.seat == bet.seat and other.player != bet.player:
                raise Reject(f"box {bet.seat} is played by {other.player or 'another player'}: one player per box, "
                             "no back betting")
        existing = self.bet_of(bet.seat, bet.spot)
        if existing is not None:
            carried = " carried from the last round" if existing in self.carried_in else ""
            raise Reject(f"box {bet.seat} already has a bet on {bet.spot}{carried}")
        self.check_amount(bet.spot, bet.amount)
        self._check_bet(bet)
        self.bets.append(bet)
        return ()

    def _on_close(self) -> list[Effect]:
        """Effects of closing the bets (progressive contributions, returned carries)."""
        return []

    def _close(self) -> list[Effect]:
        if not self.boxes_in_play():
            raise Reject(f"no box has a bet on {self.main_spot}: nothing to deal")
        for bet in self.bets:
            if bet.spot != self.main_spot and bet.spot not in self.action_spots \
                    and self.bet_of(bet.seat, self.main_spot) is None:
                raise Reject(f"box {bet.seat} has a {bet.spot} bet but no {self.main_spot}")
        self.betting_open = False
        self.phase = "deal"
        effects = self._on_close()
        self.plan = self._first_plan(self.boxes_in_play())
        return effects + [Prompt(f"No more bets. Card 1 to {target_name(self.plan[0])}", expects=("card",))]

    def _card(self, card: Card) -> list[Effect]:
        effects: list[Effect] = []
        if card.is_joker:
            raise Reject(f"a joker is not part of the {self.game_name} deck")
        if self.phase == "bets":
            effects.extend(self._close())
        if self.phase not in ("deal", "deal2"):
            raise Reject(f"no card expected now: waiting for {self.waiting_for()}")
        if any(c == card for _, c in self.cards):
            raise Reject(f"{card} was already dealt this round: one deck, check the shoe")
        dealt = len(self.cards)
        target = self.plan[dealt]
        self.cards.append((target, card))
        if dealt + 1 < len(self.plan):
            effects.append(Prompt(f"Card to {target_name(self.plan[dealt + 1])}", expects=("card",)))
            return effects
        if self.phase == "deal":
            self.phase = "decide"
            effects.append(Prompt(self.waiting_for(), expects=("action",)))
            return effects
        effects.extend(self._finish())
        return effects

    def _decide(self, action: Action) -> list[Effect]:
        if self.phase != "decide":
            raise Reject(f"no decisions now: waiting for {self.waiting_for()}")
        if action.seat not in self.boxes_in_play():
            raise Reject(f"box {action.seat} has no hand in this round")
        if action.seat in self.decided:
            raise Reject(f"box {action.seat} has already decided: {self.decided[action.seat]}")
        if action.action not in self.decisions:
            raise Reject(f"'{action.action}' is not a decision here (box {action.seat}: {' or '.join(self.decisions)})")
        if action.player is not None or action.hand is not None or action.multiple is not None:
            raise Reject(f"'{action.action}' takes only the box here: the stake follows from the rules")
        self.bets.extend(self._decision_stakes(action.seat, action.action))
        self.decided[action.seat] = action.action
        effects: list[Effect] = []
        if len(self.decided) < len(self.boxes_in_play()):
            effects.append(Prompt(self.waiting_for(), expects=("action",)))
            return effects
        self.plan = self.plan + self._second_plan(self.playing())
        if len(self.cards) < len(self.plan):
            self.phase = "deal2"
            effects.append(Prompt(f"Card to {target_name(self.plan[len(self.cards)])}", expects=("card",)))
            return effects
        effects.extend(self._finish())
        return effects

    def _finish(self) -> list[Effect]:
        self.phase = "done"
        self.done = True
        effects = self._settle()
        self._settlements.extend(e for e in effects if isinstance(e, Settlement))
        return effects

    def _void(self, event: Void) -> list[Effect]:
        self.phase = "done"
        self.done = True
        self.void_reason = event.reason
        effects: list[Effect] = [Outcome({"void": event.reason})]
        settlements = settle_void(self.bets, event.reason)
        self._settlements.extend(settlements)
        effects.extend(settlements)
        return effects

    def _apply(self, event: Event) -> Iterable[Effect]:
        if isinstance(event, Bet):
            return self._place(event)
        if isinstance(event, CloseBets):
            if not self.betting_open:
                raise Reject("the bets are already closed")
            return self._close()
        if isinstance(event, CardOut):
            return self._card(event.card)
        if isinstance(event, Action):
            return self._decide(event)
        if isinstance(event, Void):
            return self._void(event)
        raise Reject(f"a {type(event).__name__.lower()} event has no place in {self.game_name}")

    # ------------------------------------------------------------------ the contract

    @property
    def complete(self) -> bool:
        return self.done

    def waiting_for(self) -> str:
        if self.done:
            return "nothing: the round is settled"
        if self.phase == "bets":
            return "bets, then no more bets"
        if self.phase in ("deal", "deal2"):
            return f"card to {target_name(self.plan[len(self.cards)])}"
        waiting = [s for s in self.boxes_in_play() if s not in self.decided]
        return "decision (" + " or ".join(self.decisions) + ") at box " + ", ".join(map(str, waiting))

    def outcome(self) -> Mapping[str, Any] | None:
        if self.void_reason is not None:
            return {"void": self.void_reason}
        return self.outcome_data

    def settlements(self) -> tuple[Settlement, ...]:
        return tuple(self._settlements)

    def carried(self) -> tuple[Bet, ...]:
        return tuple(self._carry)

    def layout(self) -> Mapping[str, Any] | None:
        """The dealer's cards (face down until the boxes have decided) and each box's cards and decision."""
        shown = self.phase in ("deal2", "done")
        cards = self.hand_of(DEALER)
        up = {i % len(cards) for i in self.dealer_up if cards and (i >= 0 or len(cards) == len(
            [t for t in self.plan if t == DEALER]))}
        dealer = [str(c) if shown or i in up else "down" for i, c in enumerate(cards)]
        boxes = []
        for seat in self.boxes_in_play():
            entry: dict[str, Any] = {"cards": [str(c) for c in self.hand_of(seat)]}
            if seat in self.decided:
                entry["note"] = self.decided[seat]
            elif self.phase == "decide":
                entry["turn"] = True
            boxes.append({"seat": seat, "hands": [entry]})
        return {"dealer": {"cards": dealer}, "boxes": boxes}

    def box_outcome(self, seat: int, hand: Any) -> dict[str, Any]:
        return {"box": seat, "cards": [str(c) for c in self.hand_of(seat)],
                "hand": getattr(hand, "name", None) if hand is not None else None,
                "decision": self.decided.get(seat)}


def one_at_a_time(boxes: Sequence[int], cards_each: int, dealer: bool) -> list[int]:
    """Round after round, one card to each box from the dealer's left, then to the dealer."""
    plan: list[int] = []
    for _ in range(cards_each):
        plan.extend(boxes)
        if dealer:
            plan.append(DEALER)
    return plan


def odds_of(table: Mapping[str, Any], key: str) -> Odds:
    """``[paid, per]`` from a paytable as ``Odds``."""
    paid, per = table[key]
    return Odds(int(paid), int(per))
